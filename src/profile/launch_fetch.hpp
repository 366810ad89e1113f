// What a launch reads from DRAM besides its data when it starts with cold caches, as every launch
// does under Nsight Compute's default cache control (--cache-control all flushes the caches before
// each profiled launch): its machine code, the __constant__ lines it reads, and a fixed amount of
// launch state (the profile's dram.launch_fetch_bytes). Measured on the H200 with
// tests/hw/timing/code_fetch.cu (tests/hw/data/h200/launch_fetch; docs/mem.md "What a launch
// fetches"): kernels of 9 to 263 KB of code, 1 to 32 KB of __constant__ reads and no data reads
// read their code, their constants and 2,432 bytes more (896 more past 64 KB of code); with
// --cache-control none they read nothing from DRAM.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "analysis/sass.hpp"
#include "arch/profile.hpp"

namespace warpscope::profiling {

/// Adds the launch's fetch to metrics["dram__bytes_read.sum"] (when the profile states
/// dram.launch_fetch_bytes) and returns what was added: {code_bytes, code_from, constant_bytes,
/// other_bytes, bytes}, or null when the profile adds nothing. `sass`: the kernel's machine code
/// (its size is the code read), or nullptr: then the code is taken as 16 bytes per PTX
/// instruction (code_from says so). dram__bytes_read.sum is an estimated metric either way
/// (stats::estimated_json).
nlohmann::json add_launch_fetch(const arch::Profile& profile, const analysis::sass::Function* sass,
                                std::size_t ptx_instructions, std::uint64_t constant_lines, nlohmann::json& metrics);

}  // namespace warpscope::profiling
