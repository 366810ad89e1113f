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

// Lane groupings (Module::set_lane_groupings): kernel4's loop `for (i = tid % 4; i < 6; ++i) sum +=
// a[i]` as ptxas compiles it for sm_90 (docs/accuracy.md, exception B): a 4-wide unrolled loop L,
// then a 2-wide block B2, then a 1-wide block B1. A lane with start s runs the PTX load 6 - s times:
// 6 = L + B2, 5 = L + B1, 4 = L, 3 = B2 + B1.
namespace {

LaneGrouping kernel4_grouping(std::uint32_t pc, std::size_t max_count) {
  LaneGrouping g;
  g.pc = pc;
  g.steps = {{4, 0x1f0}, {2, 0x300}, {1, 0x3b0}};
  g.paths.resize(max_count + 1);
  const std::vector<std::vector<std::uint32_t>> all = {{}, {2}, {1}, {1, 2}, {0}, {0, 2}, {0, 1}};
  for (std::size_t n = 0; n <= max_count && n < all.size(); ++n) g.paths[n] = all[n];
  g.text = "LDL x4 loop, x2, x1";
  return g;
}

std::vector<WarpAccess> all_records(Device& dev, Module& m) {
  RecordingSink sink;
  dev.set_access_sink(&sink);
  std::vector<float> host(64, 1.0f);
  const DevicePtr buf = upload(dev, host);
  const KernelArg args[] = {arg(buf)};
  dev.launch(m, "per_thread_start", {1}, {64}, args);
  dev.set_access_sink(nullptr);
  // The sums: a[i] = i + 1, from i = tid % 4 to 5.
  const auto out = download<float>(dev, buf, 64);
  for (int t = 0; t < 64; ++t) {
    float want = 0;
    for (int i = t % 4; i < 6; ++i) want += float(i + 1);
    EXPECT_EQ(out[t], want) << "thread " << t;
  }
  return sink.records;
}

std::vector<WarpAccess> local_loads(Device& dev, Module& m, std::uint32_t pc) {
  std::vector<WarpAccess> loads;
  for (const WarpAccess& r : all_records(dev, m))
    if (r.pc == pc) loads.push_back(r);
  return loads;
}

// Whether warp 0's first record of pc comes before its global store (buf[tid] = sum, after the loop).
bool before_the_store(const std::vector<WarpAccess>& recs, std::uint32_t pc) {
  for (const WarpAccess& r : recs) {
    if (r.warp != 0) continue;
    if (r.pc == pc) return true;
    if (r.space == Space::kGlobal && r.op == Op::kStore) return false;
  }
  return false;
}

std::uint32_t ld_local_pc(Module& m) {
  const auto info = m.instructions("per_thread_start");
  std::int64_t pc = -1;
  for (std::size_t i = 0; i < info.size(); ++i)
    if (info[i].text.rfind("ld.local.f32", 0) == 0) pc = static_cast<std::int64_t>(i);
  EXPECT_GE(pc, 0);
  return static_cast<std::uint32_t>(pc);
}

}  // namespace

TEST(Records, LaneGroupingMakesTheMachineCodesRequests) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  const std::uint32_t pc = ld_local_pc(m);
  // As the PTX runs it: 6 records per warp, iteration i holding the lanes whose start is <= i.
  const std::vector<WarpAccess> plain = local_loads(dev, m, pc);
  ASSERT_EQ(plain.size(), 12u);
  const std::uint64_t a0 = plain[0].addr[0];  // lane 0 (start 0) reads a[0] first
  m.set_lane_groupings("per_thread_start", {kernel4_grouping(pc, 6)});
  const std::vector<WarpAccess> grouped = local_loads(dev, m, pc);
  // Per warp: L's 4 copies (lanes with start 0, 1, 2: a[s + c]), B2's 2 (starts 0 and 3: a[4 + c]
  // and a[3 + c]), B1's 1 (starts 1 and 3: a[5]).
  ASSERT_EQ(grouped.size(), 14u);
  struct Want {
    std::uint32_t mask;
    std::uint32_t copy;
    unsigned first_index[4];  // per start s: the element its first access of the step reads
  };
  const Want want[7] = {{0x77777777u, 0, {0, 1, 2, 0}}, {0x77777777u, 1, {0, 1, 2, 0}}, {0x77777777u, 2, {0, 1, 2, 0}},
                        {0x77777777u, 3, {0, 1, 2, 0}}, {0x99999999u, 0, {4, 0, 0, 3}}, {0x99999999u, 1, {4, 0, 0, 3}},
                        {0xaaaaaaaau, 0, {0, 5, 0, 5}}};
  for (std::size_t r = 0; r < grouped.size(); ++r) {
    const WarpAccess& rec = grouped[r];
    const Want& w = want[r % 7];
    EXPECT_EQ(rec.warp, r / 7);
    EXPECT_EQ(rec.space, Space::kLocal);
    EXPECT_EQ(rec.op, Op::kLoad);
    EXPECT_EQ(rec.width, 4);
    EXPECT_EQ(rec.active.bits(), w.mask) << "record " << r;
    for (unsigned l = 0; l < 32; ++l)
      if (rec.active.test(l)) {
        EXPECT_EQ(rec.addr[l], a0 + 4 * (w.first_index[l % 4] + w.copy)) << "record " << r << " lane " << l;
      }
  }
  // A count with no path (here 6: paths end at 5) keeps the PTX's records for the whole warp.
  m.set_lane_groupings("per_thread_start", {kernel4_grouping(pc, 5)});
  const std::vector<WarpAccess> fallback = local_loads(dev, m, pc);
  ASSERT_EQ(fallback.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_TRUE(same(fallback[i], plain[i])) << i;
  // Held records reach the sink when the warp exits, after its store; a list longer than 32 times
  // the longest count with a path (here none: 0) is sent on at once, in the PTX's order.
  EXPECT_FALSE(before_the_store(all_records(dev, m), pc));
  m.set_lane_groupings("per_thread_start", {kernel4_grouping(pc, 0)});
  const std::vector<WarpAccess> passing = all_records(dev, m);
  EXPECT_TRUE(before_the_store(passing, pc));
  std::vector<WarpAccess> passed;
  for (const WarpAccess& r : passing)
    if (r.pc == pc) passed.push_back(r);
  ASSERT_EQ(passed.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_TRUE(same(passed[i], plain[i])) << i;
  m.set_lane_groupings("per_thread_start", {});
  EXPECT_TRUE(before_the_store(all_records(dev, m), pc));
}

TEST(Records, LaneGroupingsAreChecked) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  const std::uint32_t pc = ld_local_pc(m);
  auto kind_of = [&](LaneGrouping g) {
    try {
      m.set_lane_groupings("per_thread_start", {std::move(g)});
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::kInternal;
  };
  EXPECT_EQ(kind_of(kernel4_grouping(0, 6)), ErrorKind::kUsage);  // pc 0 is not ld.local
  LaneGrouping wrong = kernel4_grouping(pc, 6);
  wrong.paths[5] = {0};  // makes 4 accesses, not 5
  EXPECT_EQ(kind_of(wrong), ErrorKind::kUsage);
  LaneGrouping twice = kernel4_grouping(pc, 6);
  twice.paths[2] = {2, 2};
  EXPECT_EQ(kind_of(twice), ErrorKind::kUsage);
  LaneGrouping missing = kernel4_grouping(pc, 6);
  missing.paths[1] = {7};
  EXPECT_EQ(kind_of(missing), ErrorKind::kUsage);
}

// A global atom whose result is never read is recorded as a reduction (ptxas makes it RED, and
// Nsight Compute counts it under op_red); a global atom whose result is read (the ticket), CAS,
// exch and shared atomics stay atomics. tests/exec/kernels/atomics.cu, one warp: 11 unused global
// atomics for every lane (add, max, min, and, or, xor, inc, dec, f32 add, f64 add, u64 add) and one
// for lanes 0-7 (ic[8 + t] += hist[t]).
TEST(Records, GlobalAtomicsWithUnusedResultsAreReductions) {
  WS_LOAD_PTX(ptx, "atomics");
  Device dev;
  Module m = dev.load_ptx(ptx, "atomics.ptx");
  RecordingSink sink;
  dev.set_access_sink(&sink);
  const DevicePtr ic = upload(dev, std::vector<int>(17, 0)), uc = upload(dev, std::vector<unsigned>{0, 0});
  const DevicePtr fc = upload(dev, std::vector<float>{0}), dc = upload(dev, std::vector<double>{0});
  const DevicePtr lc = upload(dev, std::vector<unsigned long long>{0}), order = dev.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(ic), arg(uc), arg(fc), arg(dc), arg(lc), arg(order)};
  dev.launch(m, "atomics", {1}, {32}, args);
  const auto info = m.instructions("atomics");
  int reductions = 0, atomics = 0, cas = 0, shared = 0;
  for (const WarpAccess& r : sink.records) {
    if (r.op != Op::kAtomic && r.op != Op::kReduction) continue;
    // atom.cas's records say so (the shared-memory model counts a 32-bit one twice).
    EXPECT_EQ(r.compare_swap, info[r.pc].text.find(".cas.") != std::string::npos) << info[r.pc].text;
    if (r.space == Space::kShared) {
      ++shared;
      EXPECT_EQ(r.op, Op::kAtomic);
      continue;
    }
    if (info[r.pc].text.find(".cas.") != std::string::npos) {
      ++cas;
      EXPECT_EQ(r.op, Op::kAtomic);
      continue;
    }
    (r.op == Op::kReduction ? reductions : atomics) += 1;
    if (r.op == Op::kAtomic) {
      EXPECT_TRUE(info[r.pc].text.find(".exch.") != std::string::npos || r.active.bits() == 0xffffffffu) << info[r.pc].text;
    }
  }
  EXPECT_EQ(reductions, 12);
  EXPECT_EQ(atomics, 2);  // the ticket (its result is stored) and exch
  EXPECT_GE(cas, 1);
  EXPECT_EQ(shared, 1);
  // What they computed is unchanged.
  const auto o = download<int>(dev, ic, 17);
  EXPECT_EQ(o[0], 32 * 31 / 2);
  EXPECT_EQ(o[7], 32);
}

}  // namespace
}  // namespace warpscope::exec::test
