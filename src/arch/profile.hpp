// GPU architecture profiles: everything the memory model and the occupancy rules need to know
// about one GPU, as data. Profiles are JSON files (src/arch/profiles/*.json), embedded in the
// binary at build time; users may load their own with load_profile_file(). Every field is
// required, so a profile states its whole machine; a missing or ill-typed field is an error that
// names the field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::arch {

/// How a warp's global/local addresses become memory transactions.
enum class Coalescing {
  kCc10,     // cc 1.0/1.1: per half-warp, thread k must touch word k of one aligned segment
  kCc12,     // cc 1.2/1.3: per half-warp, segments of 32/64/128 B found from the lowest thread
  kLines,    // cc 2.x/3.x: 128 B L1 lines when cached, 32 B segments when not
  kSectors,  // cc 5.x and later: the unit is the 32 B sector
};

/// What a global store does to the L1 line it touches.
enum class L1StorePolicy {
  kInvalidate,         // Fermi/Kepler: the line is evicted from L1, the store goes to L2
  kWriteThroughUpdate, // Maxwell and later: sectors present in L1 are updated, none allocated
};

/// How a cache picks the set of a line (line = byte address / line_bytes). NVIDIA does not
/// publish its caches' set functions: which one a profile uses is a modelling choice.
enum class SetIndex {
  kModulo,  // set = line mod sets
  kXor,     // set = (line ^ line / sets ^ line / sets^2) mod sets: higher address bits spread
            // lines whose addresses differ by a multiple of sets * line_bytes over the sets
};

struct CacheGeometry {
  std::uint64_t bytes = 0;          // capacity; 0 means no such cache
  std::uint32_t line_bytes = 128;
  std::uint32_t sector_bytes = 32;
  std::uint32_t associativity = 1;  // ways per set
  SetIndex set_index = SetIndex::kModulo;
};

struct Profile {
  std::string name;           // the --arch name, e.g. "hopper"
  std::string gpu;            // the GPU the numbers describe, e.g. "NVIDIA H100 SXM5 80GB"
  int cc_major = 0;
  int cc_minor = 0;
  std::string ptx_target;     // nvcc/ptxas target, e.g. "sm_90"

  // Memory transactions.
  std::uint32_t warp_size = 32;
  Coalescing coalescing = Coalescing::kSectors;
  std::uint32_t line_bytes = 128;
  std::uint32_t sector_bytes = 32;
  bool global_loads_cached_in_l1 = true;  // default for plain ld.global (no .ca/.cg)
  bool local_cached_in_l1 = true;

  // Caches (one L1 per SM, one L2 for the device).
  CacheGeometry l1;
  CacheGeometry l2;
  L1StorePolicy l1_store_policy = L1StorePolicy::kWriteThroughUpdate;

  // Shared memory.
  std::uint32_t shared_banks = 32;
  std::uint32_t shared_bank_bytes = 4;
  // A warp's shared access is served in passes of consecutive lanes whose accesses span at most
  // this many bytes of lane width (lanes per pass = pass_bytes / width, at most the warp). The
  // H100 measures 256 for loads (32 lanes of 8 B, 16 of 16 B) and 128 for stores.
  std::uint32_t shared_load_pass_bytes = 128;
  std::uint32_t shared_store_pass_bytes = 128;
  std::uint64_t shared_bytes_per_sm = 0;     // most shared memory one SM can give its blocks
  std::uint64_t shared_bytes_per_block = 0;  // most one block may use (opt-in maximum)
  std::uint32_t shared_allocation_unit = 128;
  std::uint32_t shared_reserved_per_block = 0;  // bytes the system reserves per block (cc 8.0+: 1 KB)

  // Execution resources and occupancy limits.
  std::uint32_t sm_count = 0;
  // The hardware units Nsight Compute's rollups (.avg/.min/.max) run over (0: unknown, or no
  // Nsight Compute for this GPU): SMSPs per SM (smsp__), L2 slices (lts__), DRAM units (dram__).
  // sm__ and l1tex__ are per SM (sm_count); gpu__ is one unit.
  std::uint32_t ncu_smsp_per_sm = 0;
  std::uint32_t ncu_lts_units = 0;
  std::uint32_t ncu_dram_units = 0;
  std::uint32_t registers_per_sm = 0;         // 32-bit registers
  std::uint32_t registers_per_block = 0;
  std::uint32_t max_registers_per_thread = 0;
  std::uint32_t register_allocation_unit = 0; // registers, allocated per warp
  std::uint32_t warp_allocation_granularity = 1;
  std::uint32_t max_threads_per_sm = 0;
  std::uint32_t max_threads_per_block = 0;
  std::uint32_t max_warps_per_sm = 0;
  std::uint32_t max_blocks_per_sm = 0;
  // The block scheduler (src/stats/cta_placement.hpp): SMs are numbered in the order its first
  // round of CTAs reaches them (one CTA each). Later rounds (the second CTA resident on an SM, the
  // third, ...) visit the SMs in the same order, except these positions, which they reach last.
  // The H100's eight were measured (tests/hw/data/h100/accuracy/l2/cta_placement.txt); empty:
  // every round in the first round's order (optional field `occupancy.later_rounds_last`).
  std::vector<std::uint32_t> later_rounds_last;

  // Thread-block clusters (cc 9.0 and later; an empty cluster_gpc_sms: no clusters). A cluster's
  // CTAs run at once on distinct SMs of one scheduling unit (a GPC), each SM holding at most
  // cluster_max_blocks_per_sm CTAs of a cluster launch. cluster_gpc_sms lists the units' SM counts
  // (their sum is sm_count). The H100 SXM5's were measured (tests/hw/data/h100/cluster_sched):
  // GPCs of 8, 16 x 5 and 18 x 2 SMs, and 4 pairs of SMs that only ever held clusters of 2.
  std::vector<std::uint32_t> cluster_gpc_sms;
  std::uint32_t cluster_max_blocks_per_sm = 0;
  std::uint32_t cluster_max_portable_size = 0;  // CTAs per cluster without the non-portable opt-in
  std::uint32_t cluster_max_size = 0;           // with cudaFuncAttributeNonPortableClusterSizeAllowed

  // Atomics and reductions on the sector family: the L1 handles a warp's updates in passes, and
  // two lines of one class compete for a word position (src/mem/coalescer.hpp). A line's class
  // is the parities of its address on each of these masks (bit b: address bit b); none: every
  // line is a class of its own. The H100's two masks were measured (tests/hw/data/h100/red).
  std::vector<std::uint64_t> reduction_line_classes;

  // DRAM. An L2 miss reads the aligned run of dram_fetch_bytes (a multiple of the L2's sector,
  // at most its line) that holds the missing sector: its other sectors are filled too (and count
  // as DRAM bytes read, not as L2 lookups). The H100 reads 64 bytes (tests/hw/data/h100).
  std::uint32_t dram_fetch_bytes = 32;
  // What a launch reads from DRAM besides its data when it starts with cold caches (as under
  // Nsight Compute's default --cache-control all): its machine code, its __constant__ lines, and
  // this many bytes more (launch state; 0: not measured, nothing is added). Measured on the H200:
  // tests/hw/data/h200/launch_fetch (docs/mem.md, "What a launch fetches").
  std::uint32_t dram_launch_fetch_bytes = 0;
  // Clocks and DRAM capacity and bandwidth, for reports.
  std::uint64_t dram_bytes = 0;
  double dram_bandwidth_gbps = 0;  // GB/s
  std::uint32_t dram_clock_khz = 0;       // cudaDevAttrMemoryClockRate (0: not stated)
  std::uint32_t dram_bus_width_bits = 0;  // cudaDevAttrGlobalMemoryBusWidth (0: not stated)
  double sm_clock_mhz = 0;
  std::string sources;  // where the numbers come from

  std::uint32_t sectors_per_line() const { return line_bytes / sector_bytes; }
};

/// Parses a profile from JSON text. `origin` names the source in error messages.
Profile parse_profile(std::string_view json_text, std::string_view origin);
/// Loads a user's profile file.
Profile load_profile_file(const std::string& path);
/// The built-in profile of that name (e.g. "hopper"); throws an error listing the names otherwise.
const Profile& builtin_profile(std::string_view name);
/// Names of the built-in profiles, oldest GPU first.
std::vector<std::string> builtin_profile_names();
/// The profile used when none is asked for.
inline constexpr std::string_view kDefaultProfile = "hopper";

std::string_view to_string(Coalescing c);
std::string_view to_string(SetIndex s);

}  // namespace warpscope::arch
