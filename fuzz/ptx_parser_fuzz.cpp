// libFuzzer entry point for the PTX front end: any input must either load or throw
// warpscope::Error; anything else (a crash, a sanitizer report, another exception, a hang) is a
// bug. Also built without libFuzzer into tests' `ptx_fuzz_corpus` driver (corpus_driver.cpp),
// which replays fuzz/corpus/ptx as a regression test.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ptx/ptx.hpp"
#include "warpscope/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    warpscope::ptx::Module m = warpscope::ptx::load_module(text, "fuzz.ptx");
    // Exercise the helpers a report uses on every instruction of a loaded module.
    std::size_t sink = 0;
    for (const auto& fn : m.functions) {
      for (const auto& in : fn.instructions) {
        sink += warpscope::ptx::format_instruction(m, fn, in).size();
        sink += m.describe(m.outermost(in.loc)).size();
      }
    }
    (void)sink;
  } catch (const warpscope::Error&) {
    // Rejected input: fine.
  }
  return 0;
}
