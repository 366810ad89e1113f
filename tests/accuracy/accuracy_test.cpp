// warpscope against a real H100, launch by launch (docs/accuracy.md).
//
// Every program of the accuracy corpus (tests/hw/accuracy/*.cu, tests/hw/patterns.cu on a full
// grid) and the examples (examples/*.cu) runs under warpscope's libcudart.so.13; each launch's
// counters are compared with Nsight Compute's on an NVIDIA H100 (tests/hw/data/h100/accuracy,
// captured by tests/hw/capture_accuracy.sh, and tests/hw/data/h100/examples, captured by
// capture_examples.sh, same GPU, driver, nvcc and ncu):
//   exact          global and local load/store requests and sectors, global atomic+reduction
//                  requests and sectors, shared-memory store wavefronts
//   5 % of sectors L1 lookup-hit sectors of global and local loads
//   3 %            L2 read, write and atomic+reduction sectors (lts__t_sectors_srcunit_tex_op_*)
//   10 %           DRAM bytes read
//   2 %            shared-memory load wavefronts
// and each program's output must equal the H100's (timing lines aside). DRAM bytes written are
// tabulated but not checked (docs/accuracy.md says why).
//
// A comparison that misses its tolerance for a documented reason is listed in kExceptions below
// by program, launch and counter, with the reason; nothing else may miss. The test prints the
// accuracy table (per counter: launches compared, exact, within tolerance, median and worst
// relative error) and writes it to <build>/tests/accuracy/accuracy_table.md.
#include <gtest/gtest.h>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

// ---------------------------------------------------------------------------------------------
// Files and processes: tests/runtime/harness.hpp (its program folder is this test's).

using rt_test::slurp;
using rt_test::without_timings;

// ---------------------------------------------------------------------------------------------
// Nsight Compute's CSV (tests/hw/ncu_csv.hpp)

using ncu_csv::number;

using NcuRow = ncu_csv::Row;

std::vector<NcuRow> ncu_launches(const std::string& path) { return ncu_csv::launches(path); }

// ---------------------------------------------------------------------------------------------
// The corpus

struct Program {
  const char* name;
  const char* args;
  const char* data;      // folder under tests/hw/data/h100 with NAME_metrics.csv
  const char* expected;  // the H100's plain output, relative to the source tree
};

const Program kPrograms[] = {
    {"transpose", "512", "accuracy", "tests/hw/data/h100/accuracy/transpose_output.txt"},
    {"reduce", "262144", "accuracy", "tests/hw/data/h100/accuracy/reduce_output.txt"},
    {"histogram", "262144", "accuracy", "tests/hw/data/h100/accuracy/histogram_output.txt"},
    {"stencil", "262144 512 512", "accuracy", "tests/hw/data/h100/accuracy/stencil_output.txt"},
    {"matmul", "256", "accuracy", "tests/hw/data/h100/accuracy/matmul_output.txt"},
    {"spill", "65536", "accuracy", "tests/hw/data/h100/accuracy/spill_output.txt"},
    {"patterns", "256 256 u8,u16,u32,u64,i128", "accuracy", "tests/hw/data/h100/accuracy/patterns_output.txt"},
    {"nbody", "all 512 1", "examples", "examples/expected/NVIDIA_H100_80GB_HBM3/nbody.txt"},
    {"saxpy", "100003", "examples", "examples/expected/NVIDIA_H100_80GB_HBM3/saxpy.txt"},
    {"local_arrays", "8192", "examples", "examples/expected/NVIDIA_H100_80GB_HBM3/local_arrays.txt"},
    {"aos_soa", "65536", "examples", "examples/expected/NVIDIA_H100_80GB_HBM3/aos_soa.txt"},
    {"padding2d", "1000 300", "examples", "examples/expected/NVIDIA_H100_80GB_HBM3/padding2d.txt"},
    {"misaligned_copy", "65536", "examples", "examples/expected/NVIDIA_H100_80GB_HBM3/misaligned_copy.txt"},
};

// ---------------------------------------------------------------------------------------------
// The counters and their tolerances

enum class Tol {
  kExact,          // equal
  kOfSectors,      // |ours - hw| <= tol * (the H100's sectors of the same space and op)
  kRelative,       // |ours - hw| <= tol * hw
  kNotChecked,     // tabulated only
};

struct Counter {
  const char* key;                  // short name, used in kExceptions and the table
  std::vector<const char*> metrics; // summed, on both sides
  Tol tol;
  double limit;
  const char* of_sectors = nullptr; // for kOfSectors: the sectors metric
};

const char* const kGlobalLdSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* const kLocalLdSectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum";

const std::vector<Counter>& counters() {
  static const std::vector<Counter> k = {
      {"global_ld_requests", {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"}, Tol::kExact, 0},
      {"global_ld_sectors", {kGlobalLdSectors}, Tol::kExact, 0},
      {"global_st_requests", {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"}, Tol::kExact, 0},
      {"global_st_sectors", {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}, Tol::kExact, 0},
      {"global_atom_red_requests",
       {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"},
       Tol::kExact, 0},
      {"global_atom_red_sectors",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"},
       Tol::kExact, 0},
      // Apart: a global atom whose result is never read is RED (ptxas's REDG), as ncu counts it.
      {"global_atom_requests", {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"}, Tol::kExact, 0},
      {"global_red_requests", {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"}, Tol::kExact, 0},
      {"local_ld_requests", {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"}, Tol::kExact, 0},
      {"local_ld_sectors", {kLocalLdSectors}, Tol::kExact, 0},
      {"local_st_requests", {"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"}, Tol::kExact, 0},
      {"local_st_sectors", {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"}, Tol::kExact, 0},
      {"shared_st_wavefronts", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}, Tol::kExact, 0},
      {"shared_ld_wavefronts", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}, Tol::kRelative, 0.02},
      {"l1_global_ld_hit_sectors", {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"}, Tol::kOfSectors, 0.05,
       kGlobalLdSectors},
      {"l1_local_ld_hit_sectors", {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum"}, Tol::kOfSectors, 0.05,
       kLocalLdSectors},
      {"l2_read_sectors", {"lts__t_sectors_srcunit_tex_op_read.sum"}, Tol::kRelative, 0.03},
      {"l2_write_sectors", {"lts__t_sectors_srcunit_tex_op_write.sum"}, Tol::kRelative, 0.03},
      {"l2_atom_red_sectors", {"lts__t_sectors_srcunit_tex_op_atom.sum", "lts__t_sectors_srcunit_tex_op_red.sum"},
       Tol::kRelative, 0.03},
      {"dram_bytes_read", {"dram__bytes_read.sum"}, Tol::kRelative, 0.10},
      {"dram_bytes_write", {"dram__bytes_write.sum"}, Tol::kNotChecked, 0},
      // The machine code's instructions (src/analysis/sass_counts.hpp): exact where warpscope
      // says so (launch key `sass.exact`); the others are listed as exceptions below.
      {"warp_instructions", {"smsp__inst_executed.sum"}, Tol::kExact, 0},
      {"thread_instructions", {"smsp__thread_inst_executed.sum"}, Tol::kExact, 0},
  };
  return k;
}

// ---------------------------------------------------------------------------------------------
// Known, documented exceptions (docs/accuracy.md, "Known exceptions"). Each names one program,
// its launches (launch index as in the report and ncu's ID) and one counter. The reasons:
enum Reason {
  // A. (resolved) ptxas's register spills: the PTX has no local accesses for them; they are now
  //    read from ptxas's machine code (src/analysis/sass.hpp) and counted, exactly.
  kSpill,
  // B. (resolved) ptxas restructures memory instructions: matmul_tiled's LDS.128 and
  //    local_arrays kernel4's loop unrolled into 4-, 2- and 1-wide blocks are now read from the
  //    machine code (merged loads and lane groupings, src/analysis/sass.hpp).
  kPtxasRestructures,
  // C. (resolved) Shared-memory atomics are counted under ..._mem_shared_op_atom, as ncu does.
  kSharedAtomics,
  // D. (resolved) Reductions (atomicAdd with an unused result: RED in SASS): the L1 serves a
  //    warp's updates in passes, one lane per word position, lines of one class competing
  //    (src/mem/coalescer.hpp, with the H100's measured line classes): exact.
  kRedSameAddress,
  // E. Partial-sector stores from nearby instructions or warps merge before the L2 (write
  //    combining in the L1/crossbar): the H100 counts fewer L2 write sectors than store sectors,
  //    by an amount that depends on timing (0 % of the mergeable sectors in transpose_naive, 3.9 %
  //    in saxpy3, 39-66 % in misaligned stores, 92 % in scale_aos). A buffer of each SM's last
  //    store instructions was tried: it brings patterns #77 within tolerance and takes saxpy3 out
  //    (docs/accuracy.md, "Proposed model changes" 3).
  kL2WriteMerge,
  // F. The L2 request coalescer (lrc, between the crossbar and the L2) merges L1 misses from
  //    different SMs to the same sector when they arrive close together:
  //    lts__t_sectors_srcunit_tex_op_read falls below the L1 misses
  //    (l1tex__m_xbar2l1tex_read_sectors) by a timing-dependent amount (and varies between runs:
  //    matmul_naive 145,732 and 151,562).
  kL2RequestCoalescer,
  // G. CTAs that share an SM run at the same time: a sector that the other CTA has requested
  //    but not yet received is a lookup miss on the H100; the model runs CTAs one after the other
  //    and counts a hit.
  kConcurrentCtas,
  // (H. DRAM reads in 64-byte sector pairs: now modelled (profile dram.fetch_bytes), no longer
  //    an exception.)
  // I. DRAM bytes of a small kernel: the profiler's own 4.3-4.9 KB of DRAM reads per launch
  //    dominate (store-only kernels read nothing themselves; others read 12-32 KB).
  kDramSmallKernel,
  // J. Partial-sector stores spread over more than 8 MB: the H100's L2 evicts partially
  //    written sectors during the kernel and reads DRAM to fill them; the model's 50 MB LRU L2
  //    keeps them and reads nothing.
  kPartialStoreEviction,
  // K. Instruction counts the machine code's control flow cannot give from PTX block counts:
  //    loops ptxas unrolled (matmul, local_arrays), blocks reached over a branch some warps took
  //    both ways (a lone BSYNC or EXIT: reduce_shuffle), marked in `sass.notes`. (hist_shared's
  //    BSYNC after its loop is exact since loop exits are counted, src/analysis/sass_counts.cpp.)
  kSassDerivation,
  kReasonCount
};

const char* const kReasonNames[] = {"A spill",         "B ptxas restructures",   "C shared atomics",
                                    "D RED same address", "E L2 write merge",    "F L2 request coalescer",
                                    "G concurrent CTAs", "I DRAM small kernel",
                                    "J partial-store eviction", "K machine-code counts estimated"};
static_assert(sizeof(kReasonNames) / sizeof(kReasonNames[0]) == kReasonCount);

struct Exception {
  const char* program;
  std::vector<int> launches;
  const char* counter;
  Reason reason;
};

const std::vector<Exception>& exceptions() {
  // Launches of tests/hw/patterns.cu (256 blocks of 256 threads): launch 18*t + 3*p + k is word
  // type t (u8, u16, u32, u64, i128), pattern p (consecutive, offset1, sameword, stride32,
  // permuted, stride2) and kernel k (load_default, load_cg, store_pattern).
  static const std::vector<Exception> k = {
      // Misaligned stores (offset1), 3 or 4 floats of one struct stored one field at a time.
      {"patterns", {5, 23, 41, 59, 77}, "l2_write_sectors", kL2WriteMerge},
      {"misaligned_copy", {1, 2, 3, 4, 6, 8, 10}, "l2_write_sectors", kL2WriteMerge},
      {"aos_soa", {0}, "l2_write_sectors", kL2WriteMerge},
      {"nbody", {0, 1, 2}, "l2_write_sectors", kL2WriteMerge},
      // Data read by many CTAs at once.
      {"matmul", {0, 1}, "l2_read_sectors", kL2RequestCoalescer},
      // pressure_spill: 300,184 L1-miss sectors leave the SMs, the LRC merges 38,416 of them
      // (l2/spill_l2.csv); the model's own misses (275,576) go to the L2 unmerged.
      {"spill", {0, 1}, "l2_read_sectors", kL2RequestCoalescer},
      {"nbody", {4}, "l2_read_sectors", kL2RequestCoalescer},
      // (Exception I, store-only and small kernels' DRAM reads, is gone: a launch's code, constants
      // and 2,432 bytes are read from DRAM as ncu's flushed caches make it, profile/launch_fetch.hpp.)
      // stride32 stores of 4-, 8- and 16-byte words (8, 16 and 32 MB of lines, partially written).
      {"patterns", {47, 65, 83}, "dram_bytes_read", kPartialStoreEviction},
      {"reduce", {3}, "warp_instructions", kSassDerivation},
      {"matmul", {0, 1}, "warp_instructions", kSassDerivation},
      {"local_arrays", {2, 3}, "warp_instructions", kSassDerivation},
      {"reduce", {3}, "thread_instructions", kSassDerivation},
      {"matmul", {0, 1}, "thread_instructions", kSassDerivation},
      {"local_arrays", {2, 3}, "thread_instructions", kSassDerivation},
  };
  return k;
}

// ---------------------------------------------------------------------------------------------
// Comparison and the table

struct Sample {
  std::string where;  // program launch N (kernel)
  double hw = 0, ours = 0, rel = 0;
  bool exact = false, ok = false, excepted = false;
};

double sum_of(const NcuRow& row, const std::vector<const char*>& metrics, bool& present) {
  double v = 0;
  present = true;
  for (const char* m : metrics) {
    auto it = row.find(m);
    if (it == row.end()) {
      present = false;
      return 0;
    }
    v += number(it->second);
  }
  return v;
}

double sum_of(const nlohmann::json& metrics, const std::vector<const char*>& names) {
  double v = 0;
  for (const char* m : names)
    if (metrics.contains(m)) v += metrics[m].get<double>();
  return v;
}

const Exception* find_exception(const std::string& program, int launch, const std::string& counter) {
  for (const Exception& e : exceptions())
    if (program == e.program && counter == e.counter &&
        std::find(e.launches.begin(), e.launches.end(), launch) != e.launches.end())
      return &e;
  return nullptr;
}

std::string fmt_pct(double x) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(x < 0.1 ? 2 : 1) << 100.0 * x << " %";
  return s.str();
}

std::string tol_text(const Counter& c) {
  switch (c.tol) {
    case Tol::kExact: return "exact";
    case Tol::kOfSectors: return "±" + fmt_pct(c.limit) + " of sectors";
    case Tol::kRelative: return "±" + fmt_pct(c.limit);
    case Tol::kNotChecked: return "not checked";
  }
  return "";
}

TEST(Accuracy, EveryLaunchAgainstTheH100) {
  std::map<std::string, std::vector<Sample>> samples;  // by counter key
  std::set<std::string> used_exceptions;
  int launches_total = 0;
  for (const Program& p : kPrograms) {
    SCOPED_TRACE(p.name);
    const std::string exe = rt_test::prog(p.name);
    const std::string report = exe + ".json";
    std::remove(report.c_str());
    const rt_test::Result r = rt_test::run_under_warpscope(exe + " " + p.args, report, "WARPSCOPE_QUIET=1");
    // The program's output equals the H100's (its own check passed there and here).
    const std::string want = without_timings(slurp(std::string(WARPSCOPE_SOURCE_DIR) + "/" + p.expected));
    ASSERT_FALSE(want.empty()) << p.expected;
    EXPECT_EQ(without_timings(r.out) + "exit " + std::to_string(r.exit_code) + "\n", want)
        << p.name << " " << p.args << ": output differs from " << p.expected << "\n" << r.err;
    const nlohmann::json j = nlohmann::json::parse(slurp(report));
    const auto& launches = j["launches"];
    const auto hw = ncu_launches(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/" + p.data + "/" + p.name +
                                 "_metrics.csv");
    ASSERT_EQ(launches.size(), hw.size()) << p.name << ": launches in the report and in " << p.name << "_metrics.csv";
    launches_total += static_cast<int>(hw.size());
    for (std::size_t i = 0; i < hw.size(); ++i) {
      const auto& ours = launches[i]["metrics"];
      std::string kernel = launches[i]["name"].get<std::string>();
      kernel = kernel.substr(0, kernel.find('('));
      if (kernel.rfind("void ", 0) == 0) kernel = kernel.substr(5);
      const std::string where = std::string(p.name) + " #" + std::to_string(i) + " " + kernel;
      for (const Counter& c : counters()) {
        bool present = false;
        const double h = sum_of(hw[i], c.metrics, present);
        ASSERT_TRUE(present) << c.key << " missing from " << p.name << "_metrics.csv";
        Sample s;
        s.where = where;
        s.hw = h;
        s.ours = sum_of(ours, c.metrics);
        const double diff = std::fabs(s.ours - s.hw);
        double scale = std::max(1.0, s.hw);
        if (c.tol == Tol::kOfSectors) {
          bool ok = false;
          scale = std::max(1.0, sum_of(hw[i], {c.of_sectors}, ok));
        }
        s.rel = diff / scale;
        s.exact = diff == 0;
        s.ok = c.tol == Tol::kExact ? s.exact : c.tol == Tol::kNotChecked ? true : s.rel <= c.limit;
        const Exception* e = find_exception(p.name, static_cast<int>(i), c.key);
        if (e != nullptr) {
          s.excepted = true;
          used_exceptions.insert(std::string(p.name) + "/" + std::to_string(i) + "/" + c.key);
          if (s.ok)
            std::cout << "note: known exception now within tolerance: " << where << " " << c.key << " ("
                      << kReasonNames[e->reason] << "): ours " << s.ours << ", H100 " << s.hw << "\n";
        } else if (c.tol != Tol::kNotChecked) {
          EXPECT_TRUE(s.ok) << where << ": " << c.key << ": warpscope " << std::setprecision(12) << s.ours << ", H100 "
                            << s.hw << " (" << fmt_pct(s.rel) << ", tolerance " << tol_text(c) << ")";
        }
        samples[c.key].push_back(s);
      }
    }
  }
  // Every exception names launches that exist.
  for (const Exception& e : exceptions())
    for (int l : e.launches)
      EXPECT_TRUE(used_exceptions.count(std::string(e.program) + "/" + std::to_string(l) + "/" + e.counter))
          << "exception names no compared launch: " << e.program << " launch " << l << " " << e.counter;

  // The table.
  std::ostringstream t;
  t << "| counter | tolerance | launches | exact | within tolerance | known exceptions | median error | worst error | "
       "NRMSE | NRMSE outside the exceptions | worst outside the exceptions (launch: warpscope vs H100) |\n"
       "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Counter& c : counters()) {
    const auto& v = samples[c.key];
    int exact = 0, ok = 0, exc = 0;
    std::vector<double> rels;
    const Sample* worst = nullptr;
    double worst_all = 0;
    for (const Sample& s : v) {
      exact += s.exact;
      ok += s.ok;
      exc += s.excepted;
      rels.push_back(s.rel);
      worst_all = std::max(worst_all, s.rel);
      if (!s.excepted && (worst == nullptr || s.rel > worst->rel)) worst = &s;
    }
    std::sort(rels.begin(), rels.end());
    const double median = rels.empty() ? 0 : rels[rels.size() / 2];
    // NRMSE as Accel-Sim reports it: the root mean square of (ours - H100) over the launches where
    // either side is not 0, divided by the mean of the H100's values there; once over all of them,
    // once without the known exceptions.
    auto nrmse_of = [&](bool with_exceptions) {
      double sq = 0, sum_hw = 0;
      int count = 0;
      for (const Sample& s : v) {
        if ((s.hw == 0 && s.ours == 0) || (s.excepted && !with_exceptions)) continue;
        sq += (s.ours - s.hw) * (s.ours - s.hw);
        sum_hw += s.hw;
        ++count;
      }
      return count == 0 || sum_hw == 0 ? 0.0 : std::sqrt(sq / count) / (sum_hw / count);
    };
    const double nrmse = nrmse_of(true), nrmse_rest = nrmse_of(false);
    t << "| `" << c.key << "` | " << tol_text(c) << " | " << v.size() << " | " << exact << " | ";
    if (c.tol == Tol::kNotChecked) {
      int hw_zero = 0;
      for (const Sample& s : v) hw_zero += s.hw == 0;
      t << "— | — | — | — | " << std::fixed << std::setprecision(2) << nrmse << std::defaultfloat
        << " | — | the H100 reports 0 for " << hw_zero << " of " << v.size() << " launches |\n";
      continue;
    }
    t << ok << " | " << exc << " | " << fmt_pct(median) << " | " << fmt_pct(worst_all) << " | " << std::fixed
      << std::setprecision(3) << nrmse << " | " << nrmse_rest << std::defaultfloat << " | ";
    if (worst == nullptr || worst->rel == 0) {
      t << "0 |\n";
    } else {
      t << fmt_pct(worst->rel) << " (" << worst->where << ": " << std::setprecision(10) << worst->ours << " vs "
        << worst->hw << ") |\n";
    }
  }
  std::cout << "\nAccuracy against the H100, " << launches_total << " launches of " << std::size(kPrograms)
            << " programs (error relative to the H100's value; L1 hits: relative to its sectors):\n\n"
            << t.str() << "\n";
  std::ofstream(std::string(WARPSCOPE_BINARY_DIR) + "/tests/accuracy/accuracy_table.md") << t.str();
}

}  // namespace
