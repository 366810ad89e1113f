// Draws one warp's shared-memory access on the 32 banks: a column per bank (4-byte words), the
// lanes stacked in their banks, one row per wavefront. Each distinct word a bank must deliver
// is a cell holding the lanes that asked for it (lanes asking for the same word share it: a
// broadcast); a bank with several distinct words in one phase needs one wavefront per word, so
// its column is as tall as its conflict is wide. The words are shared memory's: banks,
// wavefronts, bank conflicts (no bytes moved, no bus utilization: shared memory has no
// transactions).
//
// The bank rule (src/mem/shared_banks.hpp, docs/mem.md): the warp is served in phases of P
// consecutive lanes; a phase takes as many wavefronts as the most distinct 4-byte words in one
// bank; its ideal is max(1, ceil(distinct bytes / 128)); bank conflicts = wavefronts - ideal.
// P is 128 / max(width, 4) lanes (at most 32), or 256 / max(width, 4) where the picture's
// wavefronts (the model's count) say the profile serves loads in 256-byte passes (the H100).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/access_svg.hpp"

namespace warpscope::report {

/// One cell: a distinct 4-byte word of one bank in one wavefront of a phase.
struct BankWord {
  std::uint32_t bank = 0;
  std::uint32_t row = 0;        // the wavefront of the whole access, 0-based
  std::uint64_t word = 0;       // byte address / 4
  std::vector<unsigned> lanes;  // the lanes that touch it, ascending
  bool conflict = false;        // its bank holds more than one distinct word in this phase
};

struct BankPhase {
  unsigned first_lane = 0, last_lane = 0;  // the phase's lanes (P consecutive)
  std::uint32_t first_row = 0;             // its first wavefront, 0-based
  std::uint32_t wavefronts = 0, ideal_wavefronts = 0;
};

struct BankView {
  std::uint32_t lanes_per_phase = 32;
  std::vector<BankPhase> phases;  // those with an active lane
  std::vector<BankWord> words;    // phase by phase, then by bank, then by row
  std::uint32_t wavefronts = 0, ideal_wavefronts = 0;
  std::uint32_t ways = 0;              // the most distinct words in one bank of one phase
  std::vector<std::uint32_t> busiest;  // the banks that hold `ways` words (in some phase)
  std::uint32_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
};

/// The access's cells by the bank rule with P lanes per phase (32 banks of 4 bytes).
BankView bank_view(const AccessPicture& picture, std::uint32_t lanes_per_phase);

/// The view drawn: P = 128 / max(width, 4) (at most 32) unless the picture's `wavefronts` (when
/// not 0) match 256-byte passes instead.
BankView chosen_bank_view(const AccessPicture& picture);

/// A standalone SVG document (class "shared-banks").
std::string render_shared_banks_svg(const AccessPicture& picture);

}  // namespace warpscope::report
