// The warp access record: what the interpreter (src/exec) hands to the memory model (src/mem)
// for every executed memory instruction of a warp. It lives in common so that neither side
// includes the other (design.md: exec and mem never include each other).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/types.hpp"

namespace warpscope {

/// kTexture: texels read by tex/tld4 (one record per texel of each lane's filter footprint, see
/// WarpAccess::part); kSurface: suld/sust/sured on a surface object. Their addresses are the real
/// device addresses of the texels (CUDA arrays: the modelled block-linear layout, docs/mem.md).
/// kDsmem: distributed shared memory, an access to another CTA's shared memory in the same
/// thread-block cluster (ld/st/atom/red.shared::cluster, or a generic address that mapa made);
/// an access to the CTA's own shared memory through a shared::cluster address is kShared, as the
/// H100 counts it (tests/hw/data/h100/cluster).
enum class Space : std::uint8_t { kGlobal, kLocal, kShared, kConst, kTexture, kSurface, kDsmem };
inline constexpr unsigned kSpaceCount = 7;
/// kLdgsts: cp.async (SASS LDGSTS), a global load whose data goes to shared memory, not to
/// registers: one record of its global side (the source addresses) and one of its shared side
/// (the destinations, WarpAccess::part 1) follow each other (docs/mem.md, "Asynchronous copies").
/// kBulkCopy: the global reads of cp.async.bulk, which the Tensor Memory Accelerator makes from
/// L2 (no LSU request, no L1): records of up to 32 lanes x 16 bytes covering the copied bytes.
/// kBulkStore: the global writes of cp.async.bulk / cp.async.bulk.tensor stores (the TMA writes to
/// L2), in the same records.
/// kBulkRed: the global read-modify-writes of cp.reduce.async.bulk(.tensor) (SASS UBLKRED /
/// UTMAREDG: the TMA reduces into L2), in the same records.
/// kGmma: wgmma.mma_async's operand reads from shared memory through its descriptors (SASS
/// HGMMA/IGMMA/BGMMA): records of one 8x16-byte core matrix each (lanes 0-7, width 16), `part`
/// 0, 1, ... per warp; every warp of the warpgroup sends at least one (an empty one if it reads
/// nothing), as the H100 counts the instruction once per warp (docs/mem.md, "wgmma").
enum class Op : std::uint8_t { kLoad, kStore, kAtomic, kReduction, kLdgsts, kBulkCopy, kBulkStore, kGmma, kBulkRed };
inline constexpr unsigned kOpCount = 9;
/// The PTX cache operator of a load, reduced to what the memory model distinguishes:
/// kDefault follows the profile (cached in L1 or not), kCa caches in L1, kCg bypasses L1.
enum class CacheOp : std::uint8_t { kDefault, kCa, kCg };

std::string_view to_string(Space s);
std::string_view to_string(Op o);
/// The operation in words, for messages: "load", "asynchronous copy", "wgmma operand read" ...
std::string_view describe(Op o);
std::string_view to_string(CacheOp c);

/// What one pass over a record's active addresses tells (summarize_addresses): the memory
/// model's consumers (alignment check, shared banks, access shapes) read this instead of each
/// walking the 32 addresses again.
struct AddressSummary {
  unsigned active = 0;                      // number of active lanes
  std::uint64_t lo = ~std::uint64_t{0};     // lowest active address (lo > hi: no active lane)
  std::uint64_t hi = 0;                     // highest active address
  std::uint64_t ored = 0;                   // OR of the active addresses (for alignment)
  bool affine = false;                      // >= 2 active lanes, lane l at run_base + l * stride
  std::int64_t stride = 0;                  // (0: every active lane has one address)
  std::uint64_t run_base = 0;               // the address lane 0 would have had
};

/// One warp-wide memory operation.
///
/// For kLocal, `addr[lane]` is the lane's own byte offset inside its private local frame (the
/// PTX view); the memory model maps it to the interleaved physical layout. For the other spaces
/// it is the byte address in that space. Only lanes in `active` are meaningful.
struct WarpAccess {
  std::uint32_t pc = 0;         // instruction index across the kernel: its own instructions first,
                                // then each called .func (Module::instructions maps it to a line)
  std::uint32_t cta = 0;        // linear index of the CTA in the grid
  std::uint32_t warp = 0;       // index of the warp inside its CTA
  Space space = Space::kGlobal;
  Op op = Op::kLoad;
  CacheOp cache = CacheOp::kDefault;
  std::uint8_t width = 4;       // bytes per lane: 1, 2, 4, 8 or 16
  // Texture fetches touch up to 8 texels per lane (linear filtering, tld4): one record per texel
  // of the footprint, all of one warp instruction; `part` 0 is the first (it is the request),
  // 1, 2, ... the others, which follow it at once. Every other record has part 0.
  std::uint8_t part = 0;
  // kTexture: the fetch addresses texels by integer coordinates (tex1Dfetch, tex.*.s32: the
  // machine code's TLD); false: sampled by float coordinates (TEX, TLD4). The memory model groups
  // a warp's lanes into requests by this (mem::texture_request_lanes).
  bool texel_fetch = false;
  // ldmatrix/stmatrix (LDSM/STSM, and the wmma.load that ptxas makes one): one shared-memory
  // record per 8x8 matrix, `part` its index, the 8 lanes that give its rows' addresses active
  // (width 16). Their wavefronts count as shared loads/stores, the instruction as LDSM/STSM.
  bool matrix = false;
  // cp.async (kLdgsts), src-size/ignore-src: fill_lanes = lanes reading fewer than `width` bytes
  // (zeros fill the rest), no_read_lanes = those reading nothing (in `active` for the shared side's
  // grouping only; docs/mem.md). A tensor copy (cp.async.bulk.tensor, kBulkCopy/kBulkStore with
  // `tensor`): one box row per record (or per 512 bytes), counted under the TMA's names; there
  // fill_lanes = the shared address of the record's first byte before the swizzle, no_read_lanes =
  // the tensor map's swizzle span in bytes (0, 32, 64, 128), for the box picture and the advice.
  bool tensor = false;
  // atom.cas (Op::kAtomic): a compare-and-swap. A 32-bit shared one (ATOMS.CAS) costs the H200
  // twice the wavefronts of an add on the same addresses (tests/hw/data/h200/lds, docs/mem.md).
  bool compare_swap = false;
  // A bulk or tensor copy's global reads (kBulkCopy): how many CTAs of the cluster receive the
  // bytes (.multicast::cluster: the CTAs of its ctaMask; else 1). The L2 is read once; the
  // l1tex sector counters count once per destination (tests/hw/data/h100/tma_more, peer_probe).
  std::uint8_t destinations = 1;
  std::uint32_t fill_lanes = 0;
  std::uint32_t no_read_lanes = 0;
  LaneMask active;
  PerLane<std::uint64_t> addr{};
  // Optional: when `summarized`, `summary` is summarize_addresses(*this), made by the producer
  // that already had it (the interpreter's whole-warp paths), so consumers need not redo it.
  bool summarized = false;
  AddressSummary summary;
};

AddressSummary summarize_addresses(const WarpAccess& access);
/// The record's own summary when its producer made one, else summarize_addresses(access).
inline AddressSummary summary_of(const WarpAccess& access) {
  return access.summarized ? access.summary : summarize_addresses(access);
}

/// The lowest and highest of v[l] + off over 32 values (AVX-512F or AVX2 where the CPU has it).
void minmax32(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi);
/// The portable loop minmax32 uses without AVX2 (exposed for the tests).
void minmax32_portable(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi);
/// minmax32's AVX-512F and AVX2 versions (for the tests): false, with lo and hi unchanged, where
/// the CPU (or the build's target) lacks them.
bool minmax32_avx512(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi);
bool minmax32_avx2(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi);

/// summarize_addresses() for 32 active lanes whose addresses are v[l] + off: one vectorized
/// pass (OR, and the distance from the affine guess lane l at v[0] + off + l * (v[1] - v[0]));
/// the scalar min/max pass only when the addresses are not affine.
inline AddressSummary summarize32(const std::uint64_t* v, std::uint64_t off) {
  typedef std::uint64_t u64x2 __attribute__((vector_size(16)));
  const std::uint64_t a0 = v[0] + off;
  const std::uint64_t d = v[1] - v[0];
  u64x2 ored = {0, 0}, skew = {0, 0};
  u64x2 expect = {v[0], v[0] + d};
  const u64x2 inc = {2 * d, 2 * d};
  for (unsigned l = 0; l < 32; l += 2) {
    u64x2 x;
    __builtin_memcpy(&x, v + l, sizeof x);
    ored |= x + off;
    skew |= x ^ expect;
    expect += inc;
  }
  AddressSummary s;
  s.active = 32;
  s.ored = ored[0] | ored[1];
  const std::uint64_t an = v[31] + off;
  // Affine and not wrapping around 2^64 between lane 0 and lane 31: the ends are the extremes.
  const auto sd = static_cast<std::int64_t>(d);
  const bool no_wrap = sd >= 0 ? an >= a0 && (an - a0) / 31 == d : an <= a0 && (a0 - an) / 31 == 0 - d;
  if ((skew[0] | skew[1]) == 0 && no_wrap) {
    s.affine = true;
    s.stride = sd;
    s.run_base = a0;
    s.lo = sd >= 0 ? a0 : an;
    s.hi = sd >= 0 ? an : a0;
    return s;
  }
  minmax32(v, off, s.lo, s.hi);
  return s;
}

/// Receives warp access records. Implementations must not assume any thread affinity beyond
/// what their owner documents.
class AccessSink {
 public:
  virtual ~AccessSink() = default;
  virtual void on_access(const WarpAccess& access) = 0;
};

/// A sink whose work can be spread over the threads that run CTAs, its results still combined
/// in CTA order (so that they are the same for any number of threads):
///  - each worker thread gets a Shard of its own (make_shard) and feeds it the records of one
///    CTA, or of a run of consecutive CTAs, in order; then the shard's finish_cta() hands over
///    what it made of them as a CtaPart and starts afresh. A shard's CTAs increase from part to
///    part;
///  - merge() receives the parts in increasing CTA order (`cta`: the part's first CTA), one call
///    at a time (never two at once), possibly on another thread than the one that made the part.
/// The launcher (src/exec) uses this protocol, on one thread as on several, whenever its sink is
/// a ShardedSink; on_access() is then never called during the launch.
class ShardedSink : public AccessSink {
 public:
  struct CtaPart {
    virtual ~CtaPart() = default;
  };
  class Shard : public AccessSink {
   public:
    virtual std::unique_ptr<CtaPart> finish_cta() = 0;
    /// What the shard holds for merge() so far (bytes), and that much as a part before the CTA
    /// ends: a long CTA that is next in CTA order is merged as it runs, so that memory stays
    /// bounded (src/exec/launch.cpp). Merging the parts one after another gives the same result
    /// as merging the CTA's whole part.
    virtual std::size_t buffered_bytes() const { return 0; }
    virtual std::unique_ptr<CtaPart> take_partial() { return nullptr; }
  };
  virtual std::unique_ptr<Shard> make_shard() = 0;
  virtual void merge(std::uint32_t cta, std::unique_ptr<CtaPart> part) = 0;
};

}  // namespace warpscope
