// Every shared-memory access of tests/hw/lds/lds_micro.cu (one warp, one access per launch; lane
// maps in tests/hw/lds/lds_patterns.hpp) replayed through the shared-bank model, and compared with
// the H200's wavefronts (tests/hw/data/h200/lds/lds_micro_ncu.csv, Nsight Compute 2025.3.1, one
// row per launch in the order of lds_micro_output.txt's "case N op width name" lines).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/lds/lds_patterns.hpp"
#include "../hw/ncu_csv.hpp"
#include "access_builder.hpp"
#include "arch/profile.hpp"
#include "mem/shared_banks.hpp"

namespace warpscope::mem {
namespace {

const std::string kData = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h200/lds/";

struct Case {
  std::string op, pattern;
  unsigned width = 0;
};

std::vector<Case> cases() {
  std::ifstream in(kData + "lds_micro_output.txt");
  std::vector<Case> out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string word;
    unsigned n = 0;
    Case c;
    if (f >> word >> n >> c.op >> c.width >> c.pattern && word == "case") out.push_back(c);
  }
  return out;
}

const lds_micro::Pattern* pattern(const std::string& name) {
  for (const lds_micro::Pattern& p : lds_micro::kPatterns)
    if (name == p.name) return &p;
  return nullptr;
}

/// The access of one case (the program's shared array at 0: it is the CTA's only one).
WarpAccess access_of(const lds_micro::Pattern& p, Op op, unsigned width) {
  std::uint32_t active = 0;
  for (int l = 0; l < 32; ++l)
    if (p.off(l, static_cast<int>(width)) >= 0) active |= 1u << l;
  return test::access(Space::kShared, op, width, [&](unsigned l) { return std::max(0, p.off(static_cast<int>(l), static_cast<int>(width))); }, active);
}

double metric(const ncu_csv::Row& row, const std::string& name) { return ncu_csv::number(row.at(name)); }

// LDS/STS of 1, 2, 4, 8 and 16 bytes and ATOMS.ADD / EXCH / CAS of 32 bits: every launch's
// wavefronts are the H200's. The 8- and 16-byte loads are where the rule of lanes that pair
// (shared_banks.hpp) decides: e.g. 8*(l/2) is 1 wavefront, 8*(l%16) 2, 16*(l%8) 4.
TEST(SharedBanks, EveryLdsMicroCaseAsTheH200) {
  const std::vector<Case> all = cases();
  const std::vector<ncu_csv::Row> rows = ncu_csv::launches(kData + "lds_micro_ncu.csv");
  ASSERT_EQ(all.size(), 306u);
  ASSERT_EQ(rows.size(), all.size());  // the two compiler-made kernels (quad, pair) have case lines too
  const arch::Profile& h200 = arch::builtin_profile("h200");
  unsigned compared = 0, loads_8_16 = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Case& c = all[i];
    if (c.pattern == "compiler") continue;  // quad/pair: the machine code's own loads (below)
    const lds_micro::Pattern* p = pattern(c.pattern);
    ASSERT_NE(p, nullptr) << c.pattern;
    Op op = Op::kLoad;
    std::string counter = "ld";
    if (c.op == "st") {
      op = Op::kStore;
      counter = "st";
    } else if (c.op == "atom" || c.op == "exch" || c.op == "cas") {
      op = Op::kAtomic;
      counter = "atom";
    }
    // Not modelled (docs/accuracy.md, "Address-level counters on public programs"): a 64-bit
    // atom.shared.add is a loop of LDS.64 and ATOMS.CAST.SPIN.64 in the machine code.
    if (c.op == "atom" && c.width == 8) continue;
    WarpAccess access = access_of(*p, op, c.width);
    access.compare_swap = c.op == "cas";  // atom.shared.cas.b32: twice an add's wavefronts
    const SharedBankResult r = shared_access(h200, access);
    const double want = metric(rows[i], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + counter + ".sum");
    EXPECT_EQ(r.wavefronts, want) << "case " << i << ": " << c.op << " " << c.width << " " << c.pattern;
    if (counter != "atom") {
      const double conflicts = metric(rows[i], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + counter + ".sum");
      EXPECT_EQ(r.bank_conflicts, conflicts) << "case " << i << ": " << c.op << " " << c.width << " " << c.pattern;
    }
    ++compared;
    if (op == Op::kLoad && c.width >= 8) ++loads_8_16;
  }
  EXPECT_EQ(compared, 296u);
  EXPECT_EQ(loads_8_16, 80u);
}

// The same loads on the H100's profile: its column-major .f64 wmma fragment (lane l at
// 64*(l%4) + 8*(l/4), docs/mem.md) took 4 wavefronts on the H100, as the rule says.
TEST(SharedBanks, ColumnMajorF64FragmentAsTheH100) {
  const WarpAccess a = test::access(Space::kShared, Op::kLoad, 8, [](unsigned l) { return 64 * (l % 4) + 8 * (l / 4); });
  EXPECT_EQ(shared_access(arch::builtin_profile("hopper"), a).wavefronts, 4u);
  EXPECT_FALSE(shared_load_pairs_lanes(a));
  const WarpAccess pairs = test::access(Space::kShared, Op::kLoad, 8, [](unsigned l) { return 8 * (l / 2); });
  EXPECT_TRUE(shared_load_pairs_lanes(pairs));
  EXPECT_EQ(shared_access(arch::builtin_profile("hopper"), pairs).wavefronts, 1u);
}

}  // namespace
}  // namespace warpscope::mem
