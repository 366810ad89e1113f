// The memory model against an H100's hardware counters: every launch of tests/hw/patterns.cu
// captured by Nsight Compute (tests/hw/data/h100/ncu_patterns_*.csv) is rebuilt here as the warp
// accesses the kernel performs, run through the Coalescer and MemoryHierarchy, and the counters
// that are deterministic on the hardware are compared exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "access_builder.hpp"
#include "mem/hierarchy.hpp"

namespace warpscope::mem {
namespace {

// ---- A small CSV reader for ncu's raw page (quoted cells, "1,234" numbers) ----------------

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      cells.push_back(std::move(cell)), cell.clear();
    else
      cell += c;
  }
  cells.push_back(cell);
  return cells;
}

// ncu writes thousands with commas ("1,088"); non-numeric cells (names, "n/a") read as -1.
double number(const std::string& s) {
  std::string digits;
  for (char c : s)
    if (c != ',') digits += c;
  if (digits.empty()) return 0.0;
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  return *end == 0 ? v : -1.0;
}

struct Capture {
  std::vector<std::string> launches;                // "load_default u8 consecutive grid 1 block 32"
  std::vector<std::map<std::string, double>> rows;  // metric -> value, by launch ID
  std::vector<std::string> program;                 // the program's other output lines
};

Capture read_capture(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/" + name);
  EXPECT_TRUE(in) << name;
  Capture cap;
  std::vector<std::string> header;
  std::string line;
  bool units_skipped = false;
  while (std::getline(in, line)) {
    if (line.rfind("launch ", 0) == 0) {
      cap.launches.push_back(line.substr(line.find(": ") + 2));
    } else if (!line.empty() && line[0] != '"') {
      cap.program.push_back(line);
    } else if (!line.empty()) {
      auto cells = split_csv(line);
      if (header.empty()) {
        header = cells;
      } else if (!units_skipped) {
        units_skipped = true;
      } else {
        std::map<std::string, double> row;
        for (std::size_t i = 0; i < cells.size() && i < header.size(); ++i)
          if (header[i].find("__") != std::string::npos) row[header[i]] = number(cells[i]);
        cap.rows.push_back(std::move(row));
      }
    }
  }
  return cap;
}

// ---- The kernels of tests/hw/patterns.cu as warp accesses ------------------------------------

struct Pattern {
  std::int64_t wmul, mul, add, mod;
};
const std::map<std::string, Pattern> kPatterns = {
    {"consecutive", {1, 1, 0, 1 << 30}}, {"offset1", {1, 1, 1, 1 << 30}}, {"sameword", {1, 0, 0, 1 << 30}},
    {"stride32", {32, 32, 0, 1 << 30}},  {"permuted", {1, 7, 3, 32}},     {"stride2", {2, 2, 0, 1 << 30}},
};
const std::map<std::string, std::uint8_t> kWidths = {{"u8", 1},    {"u16", 2}, {"u32", 4}, {"u64", 8},
                                                     {"i128", 16}, {"i32", 4}, {"i64", 8}};

constexpr std::uint64_t kIn = 0x7f0000000000, kOut = 0x7f0010000000, kSel = 0x7f0020000000;

struct Model {
  explicit Model(const arch::Profile& p) : profile(p), coalescer(p), hierarchy(p, p.sm_count) {}
  void run(unsigned sm, const WarpAccess& a) {
    CoalesceResult r = coalescer.coalesce(a);
    hierarchy.access(sm, a, r);
  }
  const arch::Profile& profile;
  Coalescer coalescer;
  MemoryHierarchy hierarchy;
};

// Replays one launch: block b runs on SM b, its warps in order.
void replay(Model& m, const std::string& kernel, const std::string& type, const std::string& variant, unsigned blocks,
            unsigned threads) {
  const std::uint8_t w = kWidths.at(type);
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned warp = 0; warp < threads / 32; ++warp) {
      const std::int64_t wbase = std::int64_t(b) * threads + warp * 32;  // global id of lane 0
      auto g = [&](unsigned lane) { return wbase + lane; };
      auto stamp = [&](WarpAccess a) {
        a.cta = b;
        a.warp = warp;
        return a;
      };
      if (kernel == "local_array") {
        const bool per_thread = variant == "per_thread";
        // 16 stores a[k], then the index load, then a[i] and the result store.
        for (int k = 0; k < 16; ++k)
          m.run(b, stamp(test::make_access(Space::kLocal, Op::kStore, w, 0, [&](unsigned) { return k; })));
        m.run(b, stamp(test::make_access(Space::kGlobal, Op::kLoad, 4, kSel, [&](unsigned lane) {
                return per_thread ? g(lane) : std::int64_t(b) * threads;
              })));
        m.run(b, stamp(test::make_access(Space::kLocal, Op::kLoad, w, 0, [&](unsigned lane) {
                const std::int64_t gl = per_thread ? g(lane) : std::int64_t(b) * threads;
                return (gl * 5 + 3) % 16;
              })));
        m.run(b, stamp(test::make_access(Space::kGlobal, Op::kStore, w, kOut, g)));
        continue;
      }
      const Pattern& p = kPatterns.at(variant);
      auto index = [&](unsigned lane) { return wbase * p.wmul + (std::int64_t(lane) * p.mul + p.add) % p.mod; };
      if (kernel == "store_pattern") {
        m.run(b, stamp(test::make_access(Space::kGlobal, Op::kStore, w, kOut, index)));
      } else {
        const CacheOp cache = kernel == "load_cg" ? CacheOp::kCg : CacheOp::kDefault;
        m.run(b, stamp(test::make_access(Space::kGlobal, Op::kLoad, w, kIn, index, 0xffffffffu, cache)));
        m.run(b, stamp(test::make_access(Space::kGlobal, Op::kStore, w, kOut, g)));
      }
    }
  }
}

void compare_capture(const std::string& file) {
  Capture cap = read_capture(file);
  ASSERT_FALSE(cap.launches.empty());
  ASSERT_EQ(cap.launches.size(), cap.rows.size());
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  int compared = 0;
  for (std::size_t i = 0; i < cap.launches.size(); ++i) {
    std::istringstream desc(cap.launches[i]);
    std::string kernel, type, variant, word;
    unsigned blocks = 0, threads = 0;
    desc >> kernel >> type >> variant >> word >> blocks >> word >> threads;
    if (kernel == "shared_stride") continue;  // shared_banks_test.cpp
    Model m(hopper);
    replay(m, kernel, type, variant, blocks, threads);
    const HierarchyCounters& c = m.hierarchy.counters();
    const auto& row = cap.rows[i];
    const std::string what = file + ": launch " + std::to_string(i) + ": " + cap.launches[i];
    auto hw = [&](const std::string& metric) { return static_cast<std::uint64_t>(row.at(metric)); };
    const std::string g = "l1tex__t_", p = "pipe_lsu_mem_";
    for (Space space : {Space::kGlobal, Space::kLocal}) {
      const std::string s = space == Space::kGlobal ? "global" : "local";
      for (Op op : {Op::kLoad, Op::kStore}) {
        const std::string o = op == Op::kLoad ? "ld" : "st";
        EXPECT_EQ(c.at(space, op).requests, hw(g + "requests_" + p + s + "_op_" + o + ".sum"))
            << what << " " << s << " " << o;
        EXPECT_EQ(c.at(space, op).sectors, hw(g + "sectors_" + p + s + "_op_" + o + ".sum"))
            << what << " " << s << " " << o;
      }
      EXPECT_EQ(c.at(space, Op::kLoad).sector_hits, hw(g + "sectors_" + p + s + "_op_ld_lookup_hit.sum"))
          << what << " " << s;
    }
    EXPECT_EQ(c.l2_read_sectors, hw("lts__t_sectors_srcunit_tex_op_read.sum")) << what;
    // Known gap (docs/mem.md): when consecutive warps of a block store into the same sector (a
    // misaligned store pattern), the H100 merges the shared sector before L2 in 12 of 12 cases
    // (4 blocks x 3 warp pairs), and the write lookup-hit count varies by one between runs. The
    // model writes each warp's sectors; the difference is exactly the shared sectors.
    const bool merged_stores = kernel == "store_pattern" && variant == "offset1" && threads > 32;
    const std::uint64_t shared_sectors = merged_stores ? blocks * (threads / 32 - 1) : 0;
    EXPECT_EQ(c.l2_write_sectors - shared_sectors, hw("lts__t_sectors_srcunit_tex_op_write.sum")) << what;
    EXPECT_NEAR(double(c.l2_write_hits - shared_sectors), row.at("lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum"),
                merged_stores ? 1.0 : 0.0)
        << what;
    ++compared;
  }
  EXPECT_GT(compared, 20);
}

TEST(H100Patterns, OneWarpPerLaunch) { compare_capture("ncu_patterns_1x32.csv"); }
TEST(H100Patterns, FourBlocksOfFourWarps) { compare_capture("ncu_patterns_4x128.csv"); }

// ---- One warp-wide REDG per launch: tests/hw/red_passes.cu, data/h100/red ---------------------
// Each launch is one warp's `atomicAdd(&hist[idx[lane]], 1u)` (idx < 0: lane inactive), and ncu's
// row gives its L1 sectors. The program's lines ("N name w0 .. w31") precede ncu's rows.

struct RedLaunch {
  std::string name;
  std::vector<std::int64_t> words;
  std::uint64_t sectors = 0;
};

std::vector<RedLaunch> read_red(const std::string& file) {
  const Capture cap = read_capture("red/" + file);
  std::vector<RedLaunch> launches;
  for (const std::string& line : cap.program) {
    if (!std::isdigit(static_cast<unsigned char>(line[0]))) continue;  // ncu's ==PROF== lines, OK
    std::istringstream ls(line);
    RedLaunch l;
    std::size_t id = 0;
    ls >> id >> l.name;
    for (std::int64_t w; ls >> w;) l.words.push_back(w);
    EXPECT_EQ(id, launches.size()) << file;
    EXPECT_EQ(l.words.size(), 32u) << file << ": " << l.name;
    if (id < cap.rows.size())
      l.sectors = static_cast<std::uint64_t>(cap.rows[id].at("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"));
    launches.push_back(std::move(l));
  }
  EXPECT_EQ(cap.rows.size(), launches.size()) << file;
  return launches;
}

// The model's passes (src/mem/coalescer.hpp: in each pass a lane is served when it is the lowest
// lane on its word position and its line is its class's leader or shares no position with another
// line of its class) against every captured warp: all exact. red_passes.cu's 256-word array lies
// 0x200 bytes into a 2 MiB page (red_classes.cu prints where it lands:
// tests/hw/data/h100/red/README.md), so its words are placed at 0x...200 here; red_classes.cu's
// region patterns are words of a 1 GiB-aligned region, red_classes_alias.cu's of a range at
// 0x20000000000 (virtual addresses: the classes follow them). red_classes_next.csv was captured
// after the rule was fitted to the others (3 and 4 lines of a class in one warp among them).
TEST(H100Reductions, OneWarpRedSectors) {
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  ASSERT_EQ(hopper.reduction_line_classes.size(), 2u);
  Coalescer coalescer(hopper);
  auto class_of = [&](std::uint64_t addr) {
    unsigned c = 0;
    for (std::size_t m = 0; m < hopper.reduction_line_classes.size(); ++m)
      c |= unsigned(std::popcount(addr & hopper.reduction_line_classes[m]) & 1) << m;
    return c;
  };
  int apart = 0, competing = 0, fitted_after = 0;
  for (const std::string file : {"red_passes.csv", "red_passes_lines.csv", "red_passes_pairs.csv", "red_classes.csv",
                                 "red_classes_pairs.csv", "red_classes_offsets.csv", "red_classes_alias.csv",
                                 "red_classes_next.csv"}) {
    const auto launches = read_red(file);
    ASSERT_FALSE(launches.empty()) << file;
    for (const RedLaunch& l : launches) {
      const bool region = file.rfind("red_classes", 0) == 0 && l.name.rfind("kib_", 0) != 0;
      const std::uint64_t base = file == "red_classes_alias.csv" ? 0x20000000000ull
                                 : region                        ? 0x7ff200000000ull
                                                                 : 0x7ff296800200ull;
      std::uint32_t active = 0;
      std::map<std::uint64_t, unsigned> line_class;
      for (unsigned lane = 0; lane < 32; ++lane) {
        if (l.words[lane] < 0) continue;
        active |= 1u << lane;
        const std::uint64_t addr = base + 4 * std::uint64_t(l.words[lane]);
        line_class[addr >> 7] = class_of(addr);
      }
      std::set<unsigned> classes;
      for (const auto& [line, c] : line_class) classes.insert(c);
      const WarpAccess a = test::make_access(
          Space::kGlobal, Op::kReduction, 4, base, [&](unsigned lane) { return std::max<std::int64_t>(l.words[lane], 0); },
          active);
      EXPECT_EQ(coalescer.coalesce(a).transaction_count, l.sectors) << file << ": " << l.name;
      (classes.size() == line_class.size() ? apart : competing) += 1;
      fitted_after += file == "red_classes_next.csv";
    }
  }
  EXPECT_EQ(apart + competing, 2346 + 3137 + 1005 + 124);
  EXPECT_EQ(fitted_after, 124);
  std::printf("one-warp REDG launches: %d with lines of different classes, %d with lines of a class meeting; all exact\n",
              apart, competing);
}

}  // namespace
}  // namespace warpscope::mem
