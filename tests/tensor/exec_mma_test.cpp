// The matrix instructions in the interpreter, with hand-written PTX: ldmatrix/stmatrix/movmatrix
// data movement and records, and the errors of warps that do not execute them together, of bad
// addresses; .e4m3/.e5m2 products.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/access.hpp"
#include "warpscope/error.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using namespace warpscope;

class Recorder : public AccessSink {
 public:
  void on_access(const WarpAccess& a) override { records.push_back(a); }
  std::vector<WarpAccess> records;
};

const char* kHead = ".version 9.0\n.target sm_90\n.address_size 64\n";

// ldmatrix.x2 (.trans when asked) from a 16x8 matrix of element indices in shared memory, rows
// 16 bytes apart: lane l gives the row address of row l (lanes 16..31 repeat lanes 0..15).
std::string ldmatrix_kernel(bool trans) {
  return std::string(kHead) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 16 .b16 m[128];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 1;
  mov.u32 %r3, m;
  add.u32 %r4, %r3, %r2;
  st.shared.u16 [%r4], %r1;
  add.u32 %r5, %r1, 32;
  shl.b32 %r6, %r5, 1;
  add.u32 %r7, %r3, %r6;
  st.shared.u16 [%r7], %r5;
  add.u32 %r8, %r5, 32;
  shl.b32 %r6, %r8, 1;
  add.u32 %r7, %r3, %r6;
  st.shared.u16 [%r7], %r8;
  add.u32 %r8, %r8, 32;
  shl.b32 %r6, %r8, 1;
  add.u32 %r7, %r3, %r6;
  st.shared.u16 [%r7], %r8;
  bar.sync 0;
  and.b32 %r9, %r1, 15;
  shl.b32 %r9, %r9, 4;
  add.u32 %r10, %r3, %r9;
  ldmatrix.sync.aligned.m8n8.x2)" + (trans ? ".trans" : "") + R"(.shared.b16 {%r0, %r11}, [%r10];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 8;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r0, %r11};
  ret;
}
)";
}

std::vector<std::uint32_t> run_ldmatrix(bool trans, Recorder* rec = nullptr) {
  Device dev;
  if (rec) dev.set_access_sink(rec);
  const Module m = dev.load_ptx(ldmatrix_kernel(trans), "ldsm.ptx");
  const DevicePtr out = dev.malloc(32 * 8);
  dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, std::vector<KernelArg>{arg(out)});
  std::vector<std::uint32_t> v(64);
  dev.copy_to_host(v.data(), out, 256);
  return v;
}

TEST(ExecLdmatrix, LaneLHoldsRowLOver4AndItsTranspose) {
  // Matrix 0 = rows 0..7 (elements 8r + c), matrix 1 = rows 8..15.
  const auto v = run_ldmatrix(false);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 2; ++i) {
      const unsigned r = 8 * i + l / 4, c = 2 * (l % 4);
      EXPECT_EQ(v[2 * l + i], (8 * r + c) | ((8 * r + c + 1) << 16)) << "lane " << l << " reg " << i;
    }
  const auto t = run_ldmatrix(true);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 2; ++i) {
      // .trans: element (row 2(l%4) + e, column l/4) of matrix i.
      const unsigned c = l / 4, r0 = 8 * i + 2 * (l % 4);
      EXPECT_EQ(t[2 * l + i], (8 * r0 + c) | ((8 * (r0 + 1) + c) << 16)) << "lane " << l << " reg " << i;
    }
}

TEST(ExecLdmatrix, OneMatrixRecordPerMatrix) {
  Recorder rec;
  run_ldmatrix(false, &rec);
  std::vector<WarpAccess> matrix;
  for (const auto& r : rec.records)
    if (r.matrix) matrix.push_back(r);
  ASSERT_EQ(matrix.size(), 2u);
  for (unsigned i = 0; i < 2; ++i) {
    EXPECT_EQ(matrix[i].space, Space::kShared);
    EXPECT_EQ(matrix[i].op, Op::kLoad);
    EXPECT_EQ(matrix[i].width, 16);
    EXPECT_EQ(matrix[i].part, i);
    EXPECT_EQ(matrix[i].active.bits(), 0xffu << (8 * i));
    for (unsigned r = 0; r < 8; ++r) EXPECT_EQ(matrix[i].addr[8 * i + r], 16u * (8 * i + r));
  }
}

std::string mma_kernel(const std::string& guard_setup, const std::string& inst) {
  return std::string(kHead) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .f32 %f<8>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.b32 %r2, 0x3c003c00;
  mov.f32 %f1, 0f00000000;
)" + guard_setup + "\n  " + inst + R"(
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f4;
  ret;
}
)";
}

void expect_error(const std::string& ptx, ErrorKind kind, const std::vector<std::string>& parts, unsigned threads = 32) {
  Device dev;
  const Module m = dev.load_ptx(ptx, "t.ptx");
  const DevicePtr out = dev.malloc(4 * 64);
  try {
    dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{threads, 1, 1}, std::vector<KernelArg>{arg(out)});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

const char* kMma =
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f4, %f5, %f6, %f7}, {%r2, %r2, %r2, %r2}, {%r2, %r2}, "
    "{%f1, %f1, %f1, %f1};";

TEST(ExecMma, OnesTimesOnesIsK) {
  Device dev;
  const Module m = dev.load_ptx(mma_kernel("", kMma), "t.ptx");
  const DevicePtr out = dev.malloc(4 * 32);
  dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, std::vector<KernelArg>{arg(out)});
  std::vector<float> v(32);
  dev.copy_to_host(v.data(), out, 128);
  for (float x : v) EXPECT_EQ(x, 16.0f);
}

TEST(ExecMma, DivergentWarpIsUndefined) {
  expect_error(mma_kernel("  setp.lt.u32 %p1, %r1, 16;", std::string("@%p1 ") + kMma), ErrorKind::kUndefined,
               {"lanes 0-15", ".sync.aligned needs every thread of the warp", "t.ptx"});
}

TEST(ExecMma, PartialWarpIsUndefined) {
  expect_error(mma_kernel("", kMma), ErrorKind::kUndefined, {"do not exist in this partial warp"}, 48);
}

float run_mma(const std::string& setup, const std::string& inst) {
  Device dev;
  const Module m = dev.load_ptx(mma_kernel(setup, inst), "t.ptx");
  const DevicePtr out = dev.malloc(4 * 32);
  dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, std::vector<KernelArg>{arg(out)});
  std::vector<float> v(32);
  dev.copy_to_host(v.data(), out, 128);
  for (float x : v) EXPECT_EQ(x, v[0]);
  return v[0];
}

TEST(ExecMma, Fp8ProductsAsTheH100) {
  // %r2 = 0x3c003c00: e4m3 elements 0, 1.5, 0, 1.5 (k % 4 = 0..3); 8 of the 16 products are 2.25.
  EXPECT_EQ(run_mma("", "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%f4, %f5, %f6, %f7}, {%r2, %r2}, "
                        "{%r2}, {%f1, %f1, %f1, %f1};"),
            18.0f);
  // Elements 16 (0x58) at k % 4 = 0 only: four products of 256, and C = 0.75 ulp of 1024. The
  // HMMA steps (truncating, toward zero) never see C: FADD adds it, to nearest: 1024 + 2^-13.
  const float d = run_mma("  mov.b32 %r3, 0x00000058;\n  mov.f32 %f1, 0f38c00000;",
                          "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%f4, %f5, %f6, %f7}, {%r3, %r3}, "
                          "{%r3}, {%f1, %f1, %f1, %f1};");
  std::uint32_t bits;
  std::memcpy(&bits, &d, 4);
  EXPECT_EQ(bits, 0x44800001u);
}

TEST(ExecLdmatrix, MisalignedRowAddressFaults) {
  std::string ptx = ldmatrix_kernel(false);
  ptx.replace(ptx.find("shl.b32 %r9, %r9, 4;"), 20, "shl.b32 %r9, %r9, 3;");  // rows 8 bytes apart
  expect_error(ptx, ErrorKind::kMisaligned, {"ldmatrix", "thread (1,0,0)", "not a multiple of the access width 16"});
}

TEST(ExecMovmatrix, TransposesTheFragment) {
  const std::string ptx = std::string(kHead) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 2;
  and.b32 %r3, %r1, 3;
  shl.b32 %r3, %r3, 1;
  mad.lo.u32 %r4, %r2, 8, %r3;
  add.u32 %r5, %r4, 1;
  shl.b32 %r5, %r5, 16;
  or.b32 %r6, %r4, %r5;
  movmatrix.sync.aligned.m8n8.trans.b16 %r7, %r6;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";
  Device dev;
  const Module m = dev.load_ptx(ptx, "mov.ptx");
  const DevicePtr out = dev.malloc(128);
  dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, std::vector<KernelArg>{arg(out)});
  std::vector<std::uint32_t> v(32);
  dev.copy_to_host(v.data(), out, 128);
  for (unsigned l = 0; l < 32; ++l) {
    // The source holds element 8r + c at (r, c); lane l gets (row 2(l%4)+e, column l/4) of it.
    const unsigned c = l / 4, r = 2 * (l % 4);
    EXPECT_EQ(v[l], (8 * r + c) | ((8 * (r + 1) + c) << 16)) << "lane " << l;
  }
}

}  // namespace
