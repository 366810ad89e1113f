// The access records the interpreter emits: one per executed memory instruction per warp, with
// its space, operation, width, lane addresses, pc (mapped to source lines), CTA and warp.
#include <map>
#include <set>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

bool same(const WarpAccess& a, const WarpAccess& b) {
  return a.pc == b.pc && a.cta == b.cta && a.warp == b.warp && a.space == b.space && a.op == b.op &&
         a.cache == b.cache && a.width == b.width && a.active == b.active && a.addr == b.addr;
}

TEST(Records, Saxpy) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  RecordingSink sink;
  dev.set_access_sink(&sink);
  const int n = 1000;
  const DevicePtr x = dev.malloc(n * 4), y = dev.malloc(n * 4);
  dev.memset(x, 0, n * 4);
  dev.memset(y, 0, n * 4);
  const float a = 2.0f;
  const KernelArg args[] = {arg(n), arg(a), arg(x), arg(y)};
  dev.launch(m, "saxpy", {4}, {256}, args);
  // 32 warps have at least one thread below n; each loads x, loads y and stores y.
  ASSERT_EQ(sink.records.size(), 96u);
  const auto info = m.instructions("saxpy");
  for (std::size_t r = 0; r < sink.records.size(); ++r) {
    const WarpAccess& rec = sink.records[r];
    const std::uint32_t gw = static_cast<std::uint32_t>(r / 3);  // records come in CTA, warp order
    EXPECT_EQ(rec.cta, gw / 8);
    EXPECT_EQ(rec.warp, gw % 8);
    EXPECT_EQ(rec.space, Space::kGlobal);
    EXPECT_EQ(rec.width, 4);
    EXPECT_EQ(rec.op, r % 3 == 2 ? Op::kStore : Op::kLoad);
    const DevicePtr base = r % 3 == 0 ? x : y;
    const std::uint32_t first = gw * 32;
    EXPECT_EQ(rec.active.bits(), first + 32 <= n ? 0xffffffffu : (1u << (n - first)) - 1);
    for (unsigned l = 0; l < 32; ++l) {
      if (rec.active.test(l)) { EXPECT_EQ(rec.addr[l], base + 4 * (first + l)) << "record " << r << " lane " << l; }
    }
    ASSERT_LT(rec.pc, info.size());
    EXPECT_EQ(info[rec.pc].line, 4u);
    EXPECT_NE(info[rec.pc].file.find("basic.cu"), std::string::npos);
    EXPECT_EQ(info[rec.pc].function, "saxpy");
    EXPECT_NE(info[rec.pc].text.find(r % 3 == 2 ? "st.global.f32" : "ld.global.f32"), std::string::npos);
  }
  EXPECT_EQ(sink.records[0].pc + 0, sink.records[3].pc);  // same instruction in every warp
  EXPECT_NE(sink.records[0].pc, sink.records[1].pc);
}

TEST(Records, VectorAccessIsOneRecordOfTheFullWidth) {
  WS_LOAD_PTX(ptx, "generic");
  Device dev;
  Module m = dev.load_ptx(ptx, "generic.ptx");
  RecordingSink sink;
  dev.set_access_sink(&sink);
  const DevicePtr f = dev.malloc(64 * 16), fo = dev.malloc(64 * 16), d = dev.malloc(64 * 16), dout = dev.malloc(64 * 16);
  const KernelArg args[] = {arg(f), arg(fo), arg(d), arg(dout)};
  dev.launch(m, "vectors", {1}, {64}, args);
  ASSERT_EQ(sink.records.size(), 8u);  // 2 warps x (ld.v4.f32, st.v4.f32, ld.v2.f64, st.v2.f64)
  for (const WarpAccess& r : sink.records) {
    EXPECT_EQ(r.width, 16);
    for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(r.addr[l] % 16, 0u);
    EXPECT_EQ(r.addr[1] - r.addr[0], 16u);
  }
  EXPECT_EQ(sink.records[0].addr[0], f);
  EXPECT_EQ(sink.records[4].addr[0], f + 32 * 16);
}

TEST(Records, GenericAccessesAreAttributedToTheirSpace) {
  WS_LOAD_PTX(ptx, "generic");
  Device dev;
  Module m = dev.load_ptx(ptx, "generic.ptx");
  RecordingSink sink;
  dev.set_access_sink(&sink);
  const DevicePtr g = dev.malloc(64 * 4), out = dev.malloc(64 * 4);
  const int k = 3;
  const KernelArg args[] = {arg(g), arg(out), arg(k)};
  dev.launch(m, "generic_spaces", {1}, {32}, args);
  const auto info = m.instructions("generic_spaces");
  std::vector<WarpAccess> in_callee;
  for (const WarpAccess& r : sink.records) {
    if (info[r.pc].function == "_Z6add_toPii") in_callee.push_back(r);
  }
  ASSERT_EQ(in_callee.size(), 6u);  // ld + st for each of the three calls
  const Space want[6] = {Space::kShared, Space::kShared, Space::kLocal, Space::kLocal, Space::kGlobal, Space::kGlobal};
  for (int i = 0; i < 6; ++i) {
    const WarpAccess& r = in_callee[i];
    EXPECT_EQ(r.space, want[i]) << i;
    EXPECT_EQ(r.op, i % 2 ? Op::kStore : Op::kLoad);
    EXPECT_EQ(r.width, 4);
    for (unsigned l = 0; l < 32; ++l) {
      if (want[i] == Space::kShared) { EXPECT_EQ(r.addr[l] - r.addr[0], 4u * l); }
      if (want[i] == Space::kLocal) { EXPECT_EQ(r.addr[l], 4u * ((l + k) & 7)) << "lane offset in its frame"; }
      if (want[i] == Space::kGlobal) { EXPECT_EQ(r.addr[l], g + 4 * l); }
    }
  }
  // The kernel's own local array stores (st.local.v4) are local records of width 16.
  bool saw_local_v4 = false;
  for (const WarpAccess& r : sink.records) {
    if (r.space == Space::kLocal && r.width == 16) {
      saw_local_v4 = true;
      EXPECT_TRUE(r.addr[0] == 0 || r.addr[0] == 16);
    }
  }
  EXPECT_TRUE(saw_local_v4);
}

TEST(Records, ConstantLoadsAreConstRecords) {
  WS_LOAD_PTX(ptx, "generic");
  Device dev;
  Module m = dev.load_ptx(ptx, "generic.ptx");
  RecordingSink sink;
  dev.set_access_sink(&sink);
  const DevicePtr out = dev.malloc(64 * 4);
  const KernelArg args[] = {arg(out)};
  dev.launch(m, "use_symbols", {1}, {32}, args);
  std::map<Space, int> count;
  for (const WarpAccess& r : sink.records) ++count[r.space];
  EXPECT_GE(count[Space::kConst], 1);
  EXPECT_GE(count[Space::kGlobal], 3);
  for (const WarpAccess& r : sink.records) {
    if (r.space == Space::kConst) { EXPECT_EQ(r.addr[0], dev.symbol_address(m, "coeffs")); }
    if (r.op == Op::kAtomic) { EXPECT_EQ(r.addr[5], dev.symbol_address(m, "counter")); }
  }
}

TEST(Records, NoSinkNoRecordsAndSameRecordsWithSeveralThreads) {
  WS_LOAD_PTX(ptx, "basic");
  std::vector<WarpAccess> seen[2];
  for (unsigned threads : {1u, 3u}) {
    DeviceOptions opt;
    opt.host_threads = threads;
    Device dev(opt);
    Module m = dev.load_ptx(ptx, "basic.ptx");
    RecordingSink sink;
    const int n = 5000;
    const DevicePtr x = dev.malloc(n * 4), y = dev.malloc(n * 4);
    dev.memset(x, 0, n * 4);
    dev.memset(y, 0, n * 4);
    const float a = 1.0f;
    const KernelArg args[] = {arg(n), arg(a), arg(x), arg(y)};
    dev.set_access_sink(&sink);
    dev.launch(m, "saxpy", {40}, {128}, args);
    dev.set_access_sink(nullptr);
    const std::size_t count = sink.records.size();
    dev.launch(m, "saxpy", {40}, {128}, args);
    EXPECT_EQ(sink.records.size(), count);
    seen[threads == 1 ? 0 : 1] = sink.records;
  }
  ASSERT_EQ(seen[0].size(), seen[1].size());
  for (std::size_t i = 0; i < seen[0].size(); ++i) ASSERT_TRUE(same(seen[0][i], seen[1][i])) << i;
}

}  // namespace
}  // namespace warpscope::exec::test
