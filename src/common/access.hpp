// The warp access record: what the interpreter (src/exec) hands to the memory model (src/mem)
// for every executed memory instruction of a warp. It lives in common so that neither side
// includes the other (design.md: exec and mem never include each other).
#pragma once

#include <cstdint>
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

}  // namespace warpscope
