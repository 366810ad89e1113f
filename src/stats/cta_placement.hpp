// Where the block scheduler runs each CTA of a launch, and which CTAs are resident together
// (docs/report.md, "How CTAs meet the caches").
//
// Rules (the H100's block scheduler, tests/hw/data/h100/accuracy/l2/cta_placement.txt, and the
// occupancy calculator's blocks per SM):
//  - SMs are numbered by the order in which the scheduler's first round reaches them: CTA c of
//    the first round (c < sm_count) runs on SM c, one CTA per SM.
//  - While the SMs have room (blocks_per_sm CTAs each), later rounds hand one more CTA to each SM
//    in the same order, except the profile's later_rounds_last positions, which they reach last.
//    On the H100, CTA 132 + i of a 256-CTA launch shares an SM with CTA i for i < 47, with CTA
//    i + 1 up to i = 61, and so on (partners 126 to 132 CTAs apart; 8 SMs hold one CTA).
//  - A wave holds sm_count x blocks_per_sm CTAs, resident at once. CTA c of a later wave runs on
//    the SM of CTA c - wave_ctas (the slot that CTA leaves, when CTAs take equal times).
// Without blocks_per_sm (0 or 1) or later_rounds_last, CTA c runs on SM c mod sm_count.
#pragma once

#include <cstdint>
#include <vector>

#include "arch/profile.hpp"

namespace warpscope::stats {

class CtaPlacement {
 public:
  CtaPlacement() = default;
  CtaPlacement(const arch::Profile& profile, std::uint32_t blocks_per_sm)
      : sm_count_(profile.sm_count == 0 ? 1 : profile.sm_count), blocks_per_sm_(blocks_per_sm == 0 ? 1 : blocks_per_sm) {
    if (profile.later_rounds_last.empty() || blocks_per_sm_ == 1) return;
    std::vector<bool> last(sm_count_, false);
    for (std::uint32_t p : profile.later_rounds_last)
      if (p < sm_count_) last[p] = true;
    for (std::uint32_t p = 0; p < sm_count_; ++p)
      if (!last[p]) later_order_.push_back(p);
    for (std::uint32_t p : profile.later_rounds_last)
      if (p < sm_count_) later_order_.push_back(p);
  }

  std::uint32_t sm_count() const { return sm_count_; }
  std::uint32_t blocks_per_sm() const { return blocks_per_sm_; }
  /// CTAs resident at once: a wave.
  std::uint64_t wave_ctas() const { return std::uint64_t{sm_count_} * blocks_per_sm_; }
  std::uint64_t wave(std::uint64_t cta) const { return cta / wave_ctas(); }

  /// The SM that runs CTA `cta`.
  std::uint32_t sm(std::uint64_t cta) const {
    const std::uint64_t c = cta % wave_ctas();
    const auto position = static_cast<std::uint32_t>(c % sm_count_);
    if (c < sm_count_ || later_order_.empty()) return position;
    return later_order_[position];
  }

 private:
  std::uint32_t sm_count_ = 1, blocks_per_sm_ = 1;
  std::vector<std::uint32_t> later_order_;  // the SM of each position in rounds after the first
};

}  // namespace warpscope::stats
