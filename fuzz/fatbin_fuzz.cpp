// libFuzzer target for the fatbinary and ELF readers (src/runtime/fatbin.hpp, src/common/elf_file.hpp):
// any input must give either entries or warpscope::Error, never a crash, a read out of bounds
// or an unbounded allocation.
//   cmake --preset fuzz && cmake --build build-fuzz --target fatbin_fuzz
//   build-fuzz/bin/fatbin_fuzz -max_total_time=300 -rss_limit_mb=2048 <work-dir> fuzz/corpus/fatbin
// The corpus also runs as an ordinary test (fatbin_fuzz_corpus, tests/runtime/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "common/elf_file.hpp"
#include "runtime/fatbin.hpp"
#include "warpscope/error.hpp"

namespace fb = warpscope::runtime::fatbin;

namespace {

void read_fatbins(std::span<const std::uint8_t> bytes) {
  fb::Limits limits;
  limits.max_uncompressed = 4 << 20;
  for (const fb::Fatbin& f : fb::parse_all(bytes, "fuzz")) {
    std::string why;
    (void)fb::choose_ptx(f, 9, 0, &why);
    (void)fb::describe(f);
    for (const fb::Entry& e : f.entries) {
      try {
        (void)fb::contents(e, "fuzz", limits);
      } catch (const warpscope::Error&) {
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  try {
    read_fatbins(bytes);
  } catch (const warpscope::Error&) {
  }
  // The same bytes as an executable holding a .nv_fatbin section.
  try {
    warpscope::ElfFile elf(bytes, "fuzz");
    (void)elf.has_symbol("__cudaRegisterFatBinary");
    if (auto s = elf.section(".nv_fatbin")) read_fatbins(elf.section_bytes(*s));
  } catch (const warpscope::Error&) {
  }
  // A fatbin header read in memory, as the runtime does from a wrapper.
  if (size >= fb::kHeaderBytes) {
    try {
      (void)fb::size_from_header(data);
    } catch (const warpscope::Error&) {
    }
  }
  return 0;
}
