// The warp access record: what the interpreter (src/exec) hands to the memory model (src/mem)
// for every executed memory instruction of a warp. It lives in common so that neither side
// includes the other (design.md: exec and mem never include each other).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/types.hpp"

namespace warpscope {

enum class Space : std::uint8_t { kGlobal, kLocal, kShared, kConst };
enum class Op : std::uint8_t { kLoad, kStore, kAtomic, kReduction };
/// The PTX cache operator of a load, reduced to what the memory model distinguishes:
/// kDefault follows the profile (cached in L1 or not), kCa caches in L1, kCg bypasses L1.
enum class CacheOp : std::uint8_t { kDefault, kCa, kCg };

std::string_view to_string(Space s);
std::string_view to_string(Op o);
std::string_view to_string(CacheOp c);

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
  LaneMask active;
  PerLane<std::uint64_t> addr{};
};

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
  };
  virtual std::unique_ptr<Shard> make_shard() = 0;
  virtual void merge(std::uint32_t cta, std::unique_ptr<CtaPart> part) = 0;
};

}  // namespace warpscope
