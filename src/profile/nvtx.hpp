// NVTX ranges for ncu's --nvtx, --nvtx-include and --nvtx-exclude (docs/runtime.md "NVTX").
// `warpscope run --nvtx` points NVTX_INJECTION64_PATH at this library; the program's NVTX calls
// (header-only NVTX 3) then load it and call InitializeInjectionNvtx2, which takes over the push/pop
// functions of the default domain and of created domains. Each host thread keeps its stacks; a
// launch records the calling thread's stacks and is profiled only when the include expressions
// (WARPSCOPE_NVTX_INCLUDE, one per line) match them and no exclude expression does
// (WARPSCOPE_NVTX_EXCLUDE).
//
// Expressions, as ncu's push/pop syntax: "A/B/" (ranges A then B nested in it, from the bottom of
// the stack: a prefix of the stack), "Domain@A/" for a created domain, and "regex:EXPR" searched in
// the stack written the same way ("A/B/"). An H200's ncu 2025.3 selected the same launches
// (tests/hw/data/h200/ncu_cli/nvtx_*.txt).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpscope::profiling {

/// The calling thread's push/pop stacks: "" for the default domain, then created domains by
/// name, each stack bottom first. Empty when NVTX was not injected.
struct NvtxStacks {
  long thread = 0;  // the OS thread id
  std::vector<std::pair<std::string, std::vector<std::string>>> domains;
};
NvtxStacks nvtx_stacks();

/// Whether the injection was loaded (the program called NVTX with --nvtx).
bool nvtx_injected();

/// Decides a launch by the calling thread's stacks: empty when it passes, else the reason it is
/// left out. Without include or exclude expressions every launch passes.
std::string nvtx_filter_reason(const NvtxStacks& stacks);

/// The stacks as the report stores them: {"thread": N, "domains": [{"domain": "", "ranges": [...]}]}.
nlohmann::json nvtx_json(const NvtxStacks& stacks);

}  // namespace warpscope::profiling
