#include "mem/access_check.hpp"

#include "common/error.hpp"

namespace warpscope::mem {
namespace {

[[noreturn]] void fail_misaligned(const WarpAccess& a, std::uint64_t low_bits_mask) {
  for (unsigned lane = 0; lane < kMaxWarpSize; ++lane) {
    if (a.active.test(lane) && (a.addr[lane] & low_bits_mask) != 0)
      fail(ErrorKind::kMisaligned, "lane {}: {} {} of {} bytes at address 0x{:x}, which is not a multiple of {}", lane,
           to_string(a.space), to_string(a.op), a.width, a.addr[lane], a.width);
  }
  fail(ErrorKind::kInternal, "misaligned access without a misaligned lane");
}

void check_width(const WarpAccess& a) {
  const std::uint32_t w = a.width;
  if (w == 0 || w > 16 || (w & (w - 1)) != 0)
    fail(ErrorKind::kUsage, "{} {} of width {} bytes: expected 1, 2, 4, 8 or 16", to_string(a.space), to_string(a.op),
         w);
}

}  // namespace

void check_access(const WarpAccess& a, const AddressSummary& s) {
  check_width(a);
  if ((s.ored & (a.width - 1u)) != 0) fail_misaligned(a, a.width - 1u);
}

void check_access(const WarpAccess& a) {
  if (a.summarized) {
    check_access(a, a.summary);  // the producer's pass already has the OR of the addresses
    return;
  }
  check_width(a);
  const std::uint64_t low = a.width - 1u;
  // Branch-free over all lanes (the common case is "all aligned"); the slow path finds the lane.
  std::uint64_t ored = 0;
  const std::uint32_t bits = a.active.bits();
  if (bits == 0xffffffffu) {
    for (unsigned lane = 0; lane < kMaxWarpSize; ++lane) ored |= a.addr[lane];  // vectorises
  } else {
    for (unsigned lane = 0; lane < kMaxWarpSize; ++lane) ored |= a.addr[lane] & (0ull - ((bits >> lane) & 1u));
  }
  if ((ored & low) != 0) fail_misaligned(a, low);
}

}  // namespace warpscope::mem
