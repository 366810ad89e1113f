// createpolicy, applypriority and discard (issue 29). The policies createpolicy makes are compared
// bit for bit with the H200's: tests/hw/data/h200/ptxops/ptxops.txt, written by
// tests/hw/ptx/ptxops.cu (tests/hw/capture_ptxops.sh); each of its "policy" lines becomes a
// handwritten PTX kernel with the same form and operands.
#include <gmock/gmock.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kHead = ".version 8.0\n.target sm_90\n.address_size 64\n";

struct Case {
  std::uint64_t a = 0;       // fraction bits (register forms) or the range's address
  std::uint32_t p = 0, t = 0;  // primary and total size (range)
  std::uint64_t expect = 0;
};

struct Captured {
  std::vector<std::pair<std::string, std::uint64_t>> imm;  // "fractional.L2::evict_last 0.5", policy
  std::map<std::string, std::vector<Case>> reg, range;      // form -> cases
};

Captured read_capture() {
  Captured c;
  std::ifstream f(std::string(WARPSCOPE_H200_DATA) + "/ptxops/ptxops.txt");
  const std::regex imm(R"(policy imm (\S+)( \S+)? = 0x([0-9a-f]+))");
  const std::regex reg(R"(policy (fractional\S+) reg \S+ \(0x([0-9a-f]+)\) = 0x([0-9a-f]+))");
  const std::regex range(
      R"(policy (range\S+) a=0x([0-9a-f]+)(?: \(allocation\))? primary=(\d+) total=(\d+) = 0x([0-9a-f]+))");
  std::string line;
  std::smatch m;
  while (std::getline(f, line)) {
    if (std::regex_match(line, m, imm)) {
      c.imm.emplace_back(m[1].str() + m[2].str(), std::stoull(m[3].str(), nullptr, 16));
    } else if (std::regex_match(line, m, reg)) {
      c.reg[m[1].str()].push_back({std::stoull(m[2].str(), nullptr, 16), 0, 0, std::stoull(m[3].str(), nullptr, 16)});
    } else if (std::regex_match(line, m, range)) {
      c.range[m[1].str()].push_back({std::stoull(m[2].str(), nullptr, 16),
                                     static_cast<std::uint32_t>(std::stoul(m[3].str())),
                                     static_cast<std::uint32_t>(std::stoul(m[4].str())),
                                     std::stoull(m[5].str(), nullptr, 16)});
    }
  }
  return c;
}

// One kernel per form: thread i reads its operands from `in` (8-byte records) and writes its policy.
std::string form_kernel(const std::string& name, const std::string& form, bool range) {
  std::string k = ".visible .entry " + name + "(.param .u64 in, .param .u64 out)\n{\n"
                  "  .reg .b32 %r<6>;\n  .reg .f32 %f<2>;\n  .reg .b64 %rd<10>;\n"
                  "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  mov.u32 %r1, %tid.x;\n"
                  "  mul.wide.u32 %rd3, %r1, 16;\n  add.u64 %rd4, %rd1, %rd3;\n"
                  "  mul.wide.u32 %rd5, %r1, 8;\n  add.u64 %rd6, %rd2, %rd5;\n";
  if (range) {
    k += "  ld.global.u64 %rd7, [%rd4];\n  ld.global.v2.u32 {%r2, %r3}, [%rd4+8];\n"
         "  createpolicy." + form + ".b64 %rd8, [%rd7], %r2, %r3;\n";
  } else {
    k += "  ld.global.f32 %f1, [%rd4];\n  createpolicy." + form + ".b64 %rd8, %f1;\n";
  }
  return k + "  st.global.u64 [%rd6], %rd8;\n  ret;\n}\n";
}

std::vector<std::uint64_t> run_form(const std::string& form, bool range, const std::vector<Case>& cases) {
  Device dev;
  Module m = dev.load_ptx(std::string(kHead) + form_kernel("k", form, range), "createpolicy.ptx");
  std::vector<std::uint64_t> in;
  for (const Case& c : cases) in.insert(in.end(), {c.a, c.p | std::uint64_t{c.t} << 32});
  const DevicePtr din = upload(dev, in), dout = dev.malloc(cases.size() * 8);
  const KernelArg args[] = {arg(din), arg(dout)};
  dev.launch(m, "k", {1}, {static_cast<unsigned>(cases.size())}, args);
  return download<std::uint64_t>(dev, dout, cases.size());
}

TEST(PtxForms, CreatepolicyImmediateFormsAreTheH200s) {
  const Captured c = read_capture();
  ASSERT_EQ(c.imm.size(), 14u) << "tests/hw/data/h200/ptxops/ptxops.txt";
  std::string k = ".visible .entry imm(.param .u64 out)\n{\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n";
  for (std::size_t i = 0; i < c.imm.size(); ++i) {
    const std::string& f = c.imm[i].first;
    const std::size_t sp = f.find(' ');
    k += "  createpolicy." + f.substr(0, sp) + ".b64 %rd2" + (sp == std::string::npos ? "" : ", " + f.substr(sp + 1)) +
         ";\n  st.global.u64 [%rd1+" + std::to_string(8 * i) + "], %rd2;\n";
  }
  k += "  ret;\n}\n";
  Device dev;
  Module m = dev.load_ptx(kHead + k, "createpolicy_imm.ptx");
  const DevicePtr dout = dev.malloc(8 * c.imm.size());
  const KernelArg args[] = {arg(dout)};
  dev.launch(m, "imm", {1}, {1}, args);
  const auto out = download<std::uint64_t>(dev, dout, c.imm.size());
  for (std::size_t i = 0; i < c.imm.size(); ++i)
    EXPECT_EQ(out[i], c.imm[i].second) << "createpolicy." << c.imm[i].first << std::hex << ": 0x" << out[i];
}

TEST(PtxForms, CreatepolicyRegisterFractionsAreTheH200s) {
  const Captured c = read_capture();
  ASSERT_EQ(c.reg.size(), 4u);
  for (const auto& [form, cases] : c.reg) {
    ASSERT_EQ(cases.size(), 24u) << form;
    const auto out = run_form(form, false, cases);
    for (std::size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(out[i], cases[i].expect) << "createpolicy." << form << std::hex << " fraction bits 0x" << cases[i].a
                                         << ": 0x" << out[i];
  }
}

TEST(PtxForms, CreatepolicyRangesAreTheH200s) {
  const Captured c = read_capture();
  ASSERT_EQ(c.range.size(), 4u);
  for (const auto& [form, cases] : c.range) {
    ASSERT_EQ(cases.size(), 80u) << form;
    const auto out = run_form(form, true, cases);
    for (std::size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(out[i], cases[i].expect) << "createpolicy." << form << std::hex << " [0x" << cases[i].a << "], "
                                         << std::dec << cases[i].p << ", " << cases[i].t << std::hex << ": 0x"
                                         << out[i];
  }
}

TEST(PtxForms, CreatepolicyFractionOutsideTheIsasRangeFaults) {
  for (const std::uint32_t bits : {0x3f800001u /* just above 1 */, 0xbf000000u /* -0.5 */, 0x7fc00000u /* NaN */}) {
    Case one{bits, 0, 0, 0};
    try {
      run_form("fractional.L2::evict_last", false, {one});
      ADD_FAILURE() << std::hex << "fraction 0x" << bits << " did not fault";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUndefined);
      EXPECT_THAT(e.what(), AllOf(HasSubstr("createpolicy.fractional with the fraction"), HasSubstr("(0, 1]")));
    }
  }
}

TEST(PtxForms, CreatepolicyCvtIsRefusedNamingIt) {
  Device dev;
  const std::string k = ".visible .entry cvt(.param .u64 out)\n{\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n"
                        "  createpolicy.cvt.L2.b64 %rd2, %rd1;\n  ret;\n}\n";
  try {
    dev.load_ptx(kHead + k, "cvt.ptx");
    ADD_FAILURE() << "createpolicy.cvt loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupported);
    EXPECT_THAT(e.what(), AllOf(HasSubstr("createpolicy.cvt"), HasSubstr("access property")));
  }
}

// A policy is an operand of .L2::cache_hint loads and stores: the data goes through unchanged (the
// H200: "policy used by ld/st .L2::cache_hint: values as without a policy").
TEST(PtxForms, CacheHintPolicyLeavesLoadsAndStoresAlone) {
  const std::string k = R"(.visible .entry use(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd1, %rd3;
  add.u64 %rd5, %rd2, %rd3;
  createpolicy.fractional.L2::evict_last.b64 %rd6, 1.0;
  ld.global.L2::cache_hint.u32 %r2, [%rd4], %rd6;
  add.u32 %r3, %r2, 1;
  st.global.L2::cache_hint.u32 [%rd5], %r3, %rd6;
  ret;
}
)";
  Device dev;
  Module m = dev.load_ptx(kHead + k, "use.ptx");
  std::vector<unsigned> in(64);
  for (unsigned i = 0; i < 64; ++i) in[i] = 1000 + i;
  const DevicePtr din = upload(dev, in), dout = dev.malloc(64 * 4);
  const KernelArg args[] = {arg(din), arg(dout)};
  dev.launch(m, "use", {1}, {64}, args);
  const auto out = download<unsigned>(dev, dout, 64);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(out[i], 1001 + i);
}

// cp.async and cp.async.bulk with .L2::cache_hint: the policy operand is accepted and the bytes
// arrive as without it.
TEST(PtxForms, CacheHintPolicyLeavesAsyncCopiesAlone) {
  const std::string k = R"(.visible .entry copies(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  .shared .align 16 .b8 buf[256];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  createpolicy.fractional.L2::evict_first.b64 %rd6, 1.0;
  mov.u32 %r2, buf;
  mov.u32 %r3, bar;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra WAIT;
  mbarrier.init.shared.b64 [%r3], 1;
  mbarrier.arrive.expect_tx.shared.b64 %rd7, [%r3], 128;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r2], [%rd1], 128, [%r3], %rd6;
  add.u32 %r4, %r2, 128;
  add.u64 %rd8, %rd1, 128;
  cp.async.cg.shared.global.L2::cache_hint [%r4], [%rd8], 16, %rd6;
  cp.async.wait_all;
WAIT:
  bar.sync 0;
  @%p1 bra DONE;
LOOP:
  mbarrier.try_wait.parity.shared.b64 %p1, [%r3], 0;
  @!%p1 bra LOOP;
  mov.u32 %r5, 0;
COPY:
  add.u32 %r6, %r2, %r5;
  ld.shared.u32 %r7, [%r6];
  cvt.u64.u32 %rd9, %r5;
  add.u64 %rd9, %rd2, %rd9;
  st.global.u32 [%rd9], %r7;
  add.u32 %r5, %r5, 4;
  setp.lt.u32 %p1, %r5, 144;
  @%p1 bra COPY;
DONE:
  ret;
}
)";
  Device dev;
  Module m = dev.load_ptx(kHead + k, "copies.ptx");
  std::vector<unsigned> in(36);
  for (unsigned i = 0; i < 36; ++i) in[i] = 0x1000 + i;
  const DevicePtr din = upload(dev, in), dout = dev.malloc(36 * 4);
  const KernelArg args[] = {arg(din), arg(dout)};
  dev.launch(m, "copies", {1}, {32}, args);
  EXPECT_EQ(download<unsigned>(dev, dout, 36), in);
}

}  // namespace
}  // namespace warpscope::exec::test
