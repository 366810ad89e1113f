// Just enough of a 64-bit little-endian ELF file to tell how a CUDA program was built: its
// sections (to find `.nv_fatbin`) and the shared libraries its dynamic section needs (to tell a
// program linked with libcudart.so.13 from one linked with the static runtime). Every offset is
// bounds-checked; a malformed file gives Error(kParse).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::runtime {

struct ElfSection {
  std::string name;
  std::uint64_t offset = 0;  // in the file
  std::uint64_t size = 0;
  std::uint32_t type = 0;
};

class ElfFile {
 public:
  /// Parses `bytes` (the whole file, which must outlive this object).
  ElfFile(std::span<const std::uint8_t> bytes, std::string origin);

  const std::vector<ElfSection>& sections() const { return sections_; }
  /// The section of that name, or nullopt.
  std::optional<ElfSection> section(std::string_view name) const;
  /// The bytes of a section (empty for SHT_NOBITS).
  std::span<const std::uint8_t> section_bytes(const ElfSection& s) const;
  /// DT_NEEDED entries, in order.
  const std::vector<std::string>& needed() const { return needed_; }
  /// Whether the (static or dynamic) symbol table defines or mentions `name`.
  bool has_symbol(std::string_view name) const;

 private:
  std::span<const std::uint8_t> bytes_;
  std::string origin_;
  std::vector<ElfSection> sections_;
  std::vector<std::string> needed_;
  std::vector<std::string> symbols_;
};

/// Reads a whole file; throws Error(kIo).
std::vector<std::uint8_t> read_file_bytes(const std::string& path);

}  // namespace warpscope::runtime
