#include "common/elf_file.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include "common/error.hpp"

namespace warpscope {
namespace {

constexpr std::uint32_t kShtSymtab = 2;
constexpr std::uint32_t kShtDynamic = 6;
constexpr std::uint32_t kShtNobits = 8;
constexpr std::uint32_t kShtDynsym = 11;
constexpr std::uint32_t kShtRela = 4;
constexpr std::int64_t kDtNeeded = 1;

template <class T>
T rd(std::span<const std::uint8_t> b, std::uint64_t off, const std::string& origin) {
  if (off > b.size() || b.size() - off < sizeof(T)) {
    fail(ErrorKind::kParse, "{}: malformed ELF: read of {} bytes at offset {} past the end ({} bytes)",
         origin, sizeof(T), off, b.size());
  }
  T v{};
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

std::string c_string(std::span<const std::uint8_t> table, std::uint64_t off) {
  if (off >= table.size()) return {};
  const auto* start = reinterpret_cast<const char*>(table.data() + off);
  const std::size_t max = table.size() - static_cast<std::size_t>(off);
  return std::string(start, strnlen(start, max));
}

}  // namespace

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::kIo, "cannot read {}", path);
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

ElfFile::ElfFile(std::span<const std::uint8_t> bytes, std::string origin)
    : bytes_(bytes), origin_(std::move(origin)) {
  if (bytes.size() < 64 || std::memcmp(bytes.data(), "\x7f" "ELF", 4) != 0) {
    fail(ErrorKind::kParse, "{}: not an ELF file", origin_);
  }
  if (bytes[4] != 2 || bytes[5] != 1) {
    fail(ErrorKind::kParse, "{}: not a 64-bit little-endian ELF file", origin_);
  }
  const auto shoff = rd<std::uint64_t>(bytes, 0x28, origin_);
  const auto shentsize = rd<std::uint16_t>(bytes, 0x3a, origin_);
  const auto shnum = rd<std::uint16_t>(bytes, 0x3c, origin_);
  const auto shstrndx = rd<std::uint16_t>(bytes, 0x3e, origin_);
  if (shnum == 0) return;  // no section headers (stripped of them): nothing to tell
  if (shentsize < 64) fail(ErrorKind::kParse, "{}: malformed ELF: section header size {}", origin_, shentsize);
  struct Raw {
    std::uint32_t name, type;
    std::uint64_t offset, size, link, info;
  };
  std::vector<Raw> raw;
  for (std::uint32_t i = 0; i < shnum; ++i) {
    const std::uint64_t h = shoff + static_cast<std::uint64_t>(i) * shentsize;
    if (h < shoff) fail(ErrorKind::kParse, "{}: malformed ELF: section header offset overflows", origin_);
    Raw r{};
    r.name = rd<std::uint32_t>(bytes, h, origin_);
    r.type = rd<std::uint32_t>(bytes, h + 4, origin_);
    r.offset = rd<std::uint64_t>(bytes, h + 0x18, origin_);
    r.size = rd<std::uint64_t>(bytes, h + 0x20, origin_);
    r.link = rd<std::uint32_t>(bytes, h + 0x28, origin_);
    r.info = rd<std::uint32_t>(bytes, h + 0x2c, origin_);
    raw.push_back(r);
  }
  auto span_of = [&](const Raw& r) -> std::span<const std::uint8_t> {
    if (r.type == kShtNobits) return {};
    if (r.offset > bytes.size() || r.size > bytes.size() - r.offset) {
      fail(ErrorKind::kParse, "{}: malformed ELF: a section [{}, +{}) lies outside the file", origin_,
           r.offset, r.size);
    }
    return bytes.subspan(static_cast<std::size_t>(r.offset), static_cast<std::size_t>(r.size));
  };
  const auto shstr = shstrndx < raw.size() ? span_of(raw[shstrndx]) : std::span<const std::uint8_t>{};
  for (const Raw& r : raw) sections_.push_back(ElfSection{c_string(shstr, r.name), r.offset, r.size, r.type,
                                                      static_cast<std::uint32_t>(r.link),
                                                      static_cast<std::uint32_t>(r.info)});
  for (const Raw& r : raw) {
    if (r.type == kShtDynamic) {
      if (r.link >= raw.size()) continue;
      const auto strtab = span_of(raw[static_cast<std::size_t>(r.link)]);
      const auto dyn = span_of(r);
      for (std::size_t off = 0; off + 16 <= dyn.size(); off += 16) {
        const auto tag = rd<std::int64_t>(dyn, off, origin_);
        const auto val = rd<std::uint64_t>(dyn, off + 8, origin_);
        if (tag == 0) break;
        if (tag == kDtNeeded) needed_.push_back(c_string(strtab, val));
      }
    } else if (r.type == kShtSymtab || r.type == kShtDynsym) {
      if (r.link >= raw.size()) continue;
      const auto strtab = span_of(raw[static_cast<std::size_t>(r.link)]);
      const auto syms = span_of(r);
      for (std::size_t off = 0; off + 24 <= syms.size(); off += 24) {
        const auto name = rd<std::uint32_t>(syms, off, origin_);
        if (name != 0) symbols_.push_back(c_string(strtab, name));
        if (r.type == kShtSymtab) {
          symtab_.push_back(ElfSymbol{c_string(strtab, name), rd<std::uint16_t>(syms, off + 6, origin_),
                                      rd<std::uint64_t>(syms, off + 8, origin_),
                                      rd<std::uint64_t>(syms, off + 16, origin_), rd<std::uint8_t>(syms, off + 4, origin_)});
        }
      }
    }
  }
}

std::optional<ElfSection> ElfFile::section(std::string_view name) const {
  for (const auto& s : sections_)
    if (s.name == name) return s;
  return std::nullopt;
}

std::span<const std::uint8_t> ElfFile::section_bytes(const ElfSection& s) const {
  if (s.type == kShtNobits) return {};
  if (s.offset > bytes_.size() || s.size > bytes_.size() - s.offset) {
    fail(ErrorKind::kParse, "{}: malformed ELF: section {} lies outside the file", origin_, s.name);
  }
  return bytes_.subspan(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size));
}

std::vector<ElfRela> ElfFile::relocations(const ElfSection& rela) const {
  if (rela.type != kShtRela) fail(ErrorKind::kParse, "{}: section {} is not a RELA section", origin_, rela.name);
  const auto b = section_bytes(rela);
  std::vector<ElfRela> out;
  for (std::size_t off = 0; off + 24 <= b.size(); off += 24) {
    const auto info = rd<std::uint64_t>(b, off + 8, origin_);
    out.push_back(ElfRela{rd<std::uint64_t>(b, off, origin_), static_cast<std::uint32_t>(info >> 32),
                          static_cast<std::uint32_t>(info), rd<std::int64_t>(b, off + 16, origin_)});
  }
  return out;
}

bool ElfFile::has_symbol(std::string_view name) const {
  for (const auto& s : symbols_) {
    if (s == name) return true;
    // Versioned dynamic names are stored plain; a static one may carry @VERSION.
    if (s.size() > name.size() && s.compare(0, name.size(), name) == 0 && s[name.size()] == '@') return true;
  }
  return false;
}

}  // namespace warpscope
