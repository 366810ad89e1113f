// The machine code of an .ncu-rep (docs/report.md "Source counters"): the cubins ptxas made for a
// report's sm_90 launches, as Nsight Compute's source page reads them, and each launch's source
// counters keyed by machine-instruction address as Nsight Compute keys its own.
//
// Contract:
//  - A launch's `sass` (the JSON report) names its cubin by `cubin_key` and its function; the first
//    profiled launch of each cubin carries its bytes (`cubin_base64`). MachineCode gathers them;
//    a launch whose cubin is not in the report, or whose function the cubin does not define, has
//    no address (its counters stay keyed by PTX pc) and a note says so.
//  - Each cubin gets a base address; each of its functions is shown at base + the file offset of
//    its `.text.<function>` section (distinct, 128-byte aligned as the sections are). The base
//    is made up: Nsight Compute shows the addresses a GPU loaded the code at, which a CPU run has
//    not got.
//  - sass_counters(): per executed machine instruction inst_executed, thread_inst_executed,
//    thread_inst_executed_true and the section's averages; per memory instruction that carries
//    exactly one PTX memory instruction (`sass.memory`) that instruction's memory counters under
//    the SourceCounters section's names, and its address space, operation and size codes where the
//    H200's reports show them (global 4, shared 16, cp.async 20; load 2, store 4, global atomic 8,
//    cp.async 6, a reduction none; size in bits); cp.async carries both its global and its shared
//    counters. Shared loads and stores no lane runs (`sass.memory_never`, `@!PT`): address space 0,
//    the operation and size codes, zero wavefronts, as the H200 shows them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpscope::ncurep::detail {

/// A metric's (address, value) pairs.
using AddressValues = std::vector<std::pair<std::uint64_t, double>>;

class MachineCode {
 public:
  explicit MachineCode(const std::vector<const nlohmann::json*>& launches);

  /// The address a launch's function is shown at; nullopt without its cubin.
  std::optional<std::uint64_t> address(const nlohmann::json& launch) const;
  /// The SourceData reference of the launch's cubin (0 without one).
  std::uint64_t reference(const nlohmann::json& launch) const;
  /// The SourceData messages, serialised: one per cubin, with the bytes, the functions and the
  /// CUDA files the launches of that cubin name (with their text when readable).
  std::vector<std::string> sources(const std::vector<const nlohmann::json*>& launches) const;
  /// Why a launch with machine-code counts has no address (one line each).
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  struct Cubin {
    std::vector<std::uint8_t> bytes;
    std::uint64_t reference = 0;
    std::map<std::string, std::pair<std::uint64_t, std::uint32_t>> functions;  // address, symbol index
  };
  std::map<std::string, Cubin> cubins_;  // by cubin_key
  std::vector<std::string> notes_;
};

/// The launch's source counters keyed by address (`function_address` + offset).
std::map<std::string, AddressValues> sass_counters(const nlohmann::json& launch, std::uint64_t function_address);

/// A CUDA file's text for the report (SourceFile.Content, what ncu's --import-source keeps): a
/// regular file of at most 1 MiB that can be read whole; nullopt otherwise.
std::optional<std::string> readable_source(const std::string& path);

/// Decodes RFC 4648 base64 (padding optional); nullopt for anything else.
std::optional<std::vector<std::uint8_t>> decode_base64(const std::string& text);

}  // namespace warpscope::ncurep::detail
