// Draws one warp's memory access the way the seeds' slides do: the warp's lanes in a row on top
// ("Addresses from a warp"), the memory addresses below with every transaction (line, segment
// or sector) outlined, the bytes the lanes asked for filled, and a line from each lane to its
// word. Runs of address space that no transaction touches are cut out and marked, so a
// scattered access still fits one picture. A shared-memory access (unit "wavefront") is drawn
// on the 32 banks instead (bank_svg.hpp).
//
// The picture is built from plain numbers (report reads statistics only): callers convert
// whatever model produced them into an AccessPicture.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/types.hpp"

namespace warpscope::report {

struct PictureBlock {
  std::uint64_t addr = 0;   // first byte
  std::uint32_t bytes = 0;  // size (a line, segment or sector)
};

struct AccessPicture {
  std::string title;                    // e.g. "hopper: global load, 4-byte words, index lane+1"
  std::uint32_t width = 4;              // bytes each lane accesses
  LaneMask active;
  PerLane<std::uint64_t> addr{};        // per-lane byte address (physical)
  std::vector<PictureBlock> transactions;
  std::uint64_t bytes_requested = 0;
  std::uint64_t bytes_moved = 0;
  std::string unit_name = "sector";     // what one transaction is called; "wavefront": shared memory
  std::uint32_t wavefronts = 0;         // shared accesses: the model's count (0: not known)
};

/// A standalone SVG document: the lanes over the address axis, or for a shared-memory access
/// (unit_name "wavefront") render_shared_banks_svg (bank_svg.hpp).
std::string render_access_svg(const AccessPicture& picture);

}  // namespace warpscope::report
