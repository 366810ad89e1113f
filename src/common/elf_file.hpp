// Just enough of a 64-bit little-endian ELF file for two readers: how a CUDA program was built
// (src/runtime: its sections, to find `.nv_fatbin`, and the shared libraries its dynamic section
// needs, to tell a program linked with libcudart.so.13 from one linked with the static runtime),
// and what ptxas put in a cubin (src/analysis/sass: the `.text.<kernel>` sections, the symbol
// table, and the relocations of its line tables). Every offset is bounds-checked; a malformed
// file gives Error(kParse).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

struct ElfSection {
  std::string name;
  std::uint64_t offset = 0;  // in the file
  std::uint64_t size = 0;
  std::uint32_t type = 0;
  std::uint32_t link = 0;  // sh_link (a relocation section: its symbol table)
  std::uint32_t info = 0;  // sh_info (a relocation section: the section it patches)
};

/// An entry of the static symbol table (SHT_SYMTAB), in table order (entry 0 is the null one).
struct ElfSymbol {
  std::string name;
  std::uint16_t section = 0;  // st_shndx
  std::uint64_t value = 0;
  std::uint64_t size = 0;   // st_size
  std::uint8_t info = 0;    // st_info (type in the low 4 bits: 2 is STT_FUNC)
};

/// An entry of a SHT_RELA section.
struct ElfRela {
  std::uint64_t offset = 0;  // in the section it patches
  std::uint32_t symbol = 0;  // index into symtab()
  std::uint32_t type = 0;
  std::int64_t addend = 0;
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
  /// The static symbol table, every entry in order (empty when there is none).
  const std::vector<ElfSymbol>& symtab() const { return symtab_; }
  /// The entries of a SHT_RELA section (Error(kParse) for another type).
  std::vector<ElfRela> relocations(const ElfSection& rela) const;

 private:
  std::span<const std::uint8_t> bytes_;
  std::string origin_;
  std::vector<ElfSection> sections_;
  std::vector<std::string> needed_;
  std::vector<std::string> symbols_;
  std::vector<ElfSymbol> symtab_;
};

/// Reads a whole file; throws Error(kIo).
std::vector<std::uint8_t> read_file_bytes(const std::string& path);

}  // namespace warpscope
