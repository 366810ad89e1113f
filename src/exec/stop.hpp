// Launches that end before their end (stop.cpp, docs/exec.md "Stopping a launch"): turning a
// CtaStop and the places of the warps into LaunchStopped.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exec/machine.hpp"
#include "exec/program.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::exec {

/// The innermost loop around `pc`: the shortest backward branch b -> t with t <= pc <= b, as
/// {t, b}; {-1, -1} when there is none.
std::pair<std::int64_t, std::int64_t> loop_around(const KernelImage& k, std::uint32_t pc);
/// "f.cu:11-13": the source lines of a place's loop (in the file of its pc); "" without a loop.
std::string loop_text(const KernelImage& k, const WarpPlace& place);
/// "4 warps of block 3 running at f.cu:12 (`add.s32 ...`) in the loop at f.cu:11-13; ...".
std::string places_text(const KernelImage& k, const std::vector<WarpPlace>& places);
/// By first CTA, then pc.
void sort_places(std::vector<WarpPlace>& places);
/// Whether two warps are at one place: the same state at the same pc, or, running, on the same
/// source line (a running warp stops anywhere in its loop).
bool same_place(const KernelImage& k, const WarpPlace& a, const WarpPlace& b);
/// Adds the places of other CTAs to `into`.
void merge_places(const KernelImage& k, std::vector<WarpPlace>& into, const std::vector<WarpPlace>& from);

/// Throws LaunchStopped for a launch that a CtaStop (not kAbort) ended: kInterrupted for a
/// requested stop, kDeadlock for a hang of CTA `cta`.
[[noreturn]] void throw_stopped(const KernelImage& k, const CtaStop& stop, Dim3 grid, std::uint32_t cta,
                                std::uint64_t ctas_done, std::uint64_t ctas_total, std::vector<WarpPlace> places,
                                LaunchStats partial);

}  // namespace warpscope::exec
