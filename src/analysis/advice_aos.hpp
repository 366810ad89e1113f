// aos advice (seed 003; issue 35): a global access whose lanes are a constant stride of at most
// 128 bytes apart, a multiple of its word: one field of an array of structures per instruction.
// The fix depends on the structure and on how much of it the kernel reads:
//  - `align_vector`: a structure of 8 to 16 bytes whose fields the kernel reads (or writes) with
//    several instructions, together moving more sectors than one aligned vector access of the
//    whole structure would: declare it __align__(8) (8 bytes) or __align__(16) (9 to 16 bytes, padding
//    a 12-byte one to 16) and access it whole, one 8- or 16-byte vector per lane;
//  - `soa`: larger structures, or a single field read: a structure of arrays.
// The structure's fields are the kernel's instructions of the same operation and stride whose
// sample (worst warp access, the same warp) addresses lie within one stride of each other for the
// same lane: the fields of the same structures, on any line.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "stats/collector.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

/// Whether a global access reads as one field of an array of structures (its constant stride).
bool is_aos(const stats::InstructionStats& s);

/// The aos item of instruction `pc` (is_aos): `what` describes the access, `evidence` holds its
/// counters; the item's evidence gains struct_bytes, fields, field_bytes, field_pcs,
/// sectors_per_warp (the fields' instructions together), the fix's sectors_per_warp_fixed and
/// `fix` ("align_vector" or "soa").
nlohmann::json aos_item(const stats::ModelResult& model, std::uint32_t pc, const InstructionInfo* info,
                        const std::string& what, nlohmann::json evidence);

}  // namespace warpscope::analysis
