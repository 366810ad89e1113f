// Coalescer throughput: warp accesses per second of Coalescer::coalesce on one core.
//
// The mix (design brief): 4-byte coalesced, 4-byte `lane+1`, stride 32 words, 16-byte coalesced,
// random scatter, in rotation over 4096 prepared accesses with their own base addresses; each
// random scatter has fresh addresses, so the branch predictor cannot learn them. A baseline in the
// same process does a trivial pass over the same records (sum of the 32 addresses' sector
// numbers), so the figure can be given as a ratio. docs/benchmarks.md has the command and the
// figures.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "arch/profile.hpp"
#include "mem/coalescer.hpp"

namespace {

using namespace warpscope;

static std::size_t kCount = 64;  // records in rotation (about 18 KB: hot in L1, as records handed
                                 // over by the interpreter are); COUNT=n in the environment changes it
enum Pattern { kCoalesced4, kLanePlusOne, kStride32, kCoalesced16, kRandom, kPatterns };

std::vector<WarpAccess> make_accesses(int only = -1, std::size_t count = kCount) {
  std::mt19937_64 rng(42);
  std::vector<WarpAccess> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    WarpAccess& a = v[i];
    const int p = only >= 0 ? only : static_cast<int>(i % kPatterns);
    const std::uint64_t base = 0x7f0000000000ull + (rng() % (1ull << 30)) / 256 * 256;
    a.active = LaneMask::all();
    a.width = p == kCoalesced16 ? 16 : 4;
    for (std::uint64_t l = 0; l < 32; ++l) {
      switch (p) {
        case kCoalesced4:
          a.addr[l] = base + 4 * l;
          break;
        case kLanePlusOne:
          a.addr[l] = base + 4 * (l + 1);
          break;
        case kStride32:
          a.addr[l] = base + 128 * l;
          break;
        case kCoalesced16:
          a.addr[l] = base + 16 * l;
          break;
        default:
          a.addr[l] = 0x7f0000000000ull + (rng() % (1ull << 30)) / 4 * 4;
          break;
      }
    }
  }
  return v;
}

void run(benchmark::State& state, const arch::Profile& profile, bool simd, const std::vector<WarpAccess>& accesses) {
  const mem::Coalescer c(profile, simd);
  mem::CoalesceResult r;
  std::uint64_t sink = 0;
  for (auto _ : state) {
    for (const WarpAccess& a : accesses) {
      c.coalesce(a, r);
      sink += r.transaction_count;
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * accesses.size()));
}

void BM_coalesce_mix(benchmark::State& state, const char* arch) {
  run(state, arch::builtin_profile(arch), true, make_accesses());
}
void BM_coalesce_mix_portable(benchmark::State& state, const char* arch) {
  run(state, arch::builtin_profile(arch), false, make_accesses());
}
void BM_coalesce_hopper_pattern(benchmark::State& state) {
  run(state, arch::builtin_profile("hopper"), true, make_accesses(static_cast<int>(state.range(0))));
}

/// The baseline: one pass over each record's 32 addresses, nothing else.
void BM_baseline(benchmark::State& state) {
  const std::vector<WarpAccess> accesses = make_accesses();
  std::uint64_t sink = 0;
  for (auto _ : state) {
    for (const WarpAccess& a : accesses) {
      std::uint64_t s = 0;
      for (unsigned l = 0; l < 32; ++l) s += a.addr[l] >> 5;
      benchmark::DoNotOptimize(s);
      sink += s;
    }
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * accesses.size()));
}

/// Reductions (atomicAdd with an unused result) on a 256-word histogram: random bins (the
/// histogram's uniform input), every lane on one bin, and distinct consecutive bins; each is also
/// run as a store of the same addresses (the baseline: no passes). `hopper` has the measured line
/// classes, `ampere` none (every line its own class).
enum RedPattern { kRedRandom, kRedOneWord, kRedDistinct };
std::vector<WarpAccess> make_reductions(int pattern, Op op) {
  std::mt19937_64 rng(7);
  std::vector<WarpAccess> v(kCount);
  for (WarpAccess& a : v) {
    a.space = Space::kGlobal;
    a.op = op;
    a.width = 4;
    a.active = LaneMask::all();
    const std::uint64_t base = 0x7f0000000200ull;
    const std::uint64_t one = rng() % 256;
    for (std::uint64_t l = 0; l < 32; ++l)
      a.addr[l] = base + 4 * (pattern == kRedRandom ? rng() % 256 : pattern == kRedOneWord ? one : l);
  }
  return v;
}
void BM_reduction(benchmark::State& state, const char* arch, Op op) {
  run(state, arch::builtin_profile(arch), true, make_reductions(static_cast<int>(state.range(0)), op));
}

BENCHMARK(BM_baseline);
BENCHMARK_CAPTURE(BM_reduction, hopper_red, "hopper", Op::kReduction)->DenseRange(0, 2);
BENCHMARK_CAPTURE(BM_reduction, ampere_red, "ampere", Op::kReduction)->DenseRange(0, 2);
BENCHMARK_CAPTURE(BM_reduction, hopper_store, "hopper", Op::kStore)->DenseRange(0, 2);
BENCHMARK_CAPTURE(BM_coalesce_mix, hopper, "hopper");
BENCHMARK_CAPTURE(BM_coalesce_mix, fermi, "fermi");
BENCHMARK_CAPTURE(BM_coalesce_mix_portable, hopper, "hopper");
// 0 coalesced 4 B, 1 lane+1, 2 stride 32 words, 3 coalesced 16 B, 4 random scatter
BENCHMARK(BM_coalesce_hopper_pattern)->DenseRange(0, kPatterns - 1);

}  // namespace

int main(int argc, char** argv) {
  if (const char* n = std::getenv("COUNT")) kCount = std::strtoul(n, nullptr, 10);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
