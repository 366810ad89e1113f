#include "runtime/fatbin.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include "common/error.hpp"

namespace warpscope::runtime::fatbin {
namespace {

// Reads a little-endian integer at `off`, after checking that it lies inside `bytes`.
template <class T>
T read(std::span<const std::uint8_t> bytes, std::size_t off, std::string_view origin, const char* what) {
  if (off > bytes.size() || bytes.size() - off < sizeof(T)) {
    fail(ErrorKind::kParse, "{}: truncated: {} at offset {} needs {} bytes, only {} remain", origin,
         what, off, sizeof(T), off > bytes.size() ? 0 : bytes.size() - off);
  }
  T v{};
  std::memcpy(&v, bytes.data() + off, sizeof(T));
  return v;
}

std::string arch_list(const std::set<std::uint32_t>& archs, const char* prefix) {
  std::string out;
  for (std::uint32_t a : archs) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{}_{}", prefix, a);
  }
  return out;
}

}  // namespace

std::string_view to_string(Compression c) {
  switch (c) {
    case Compression::kNone: return "none";
    case Compression::kLz4: return "lz4";
    case Compression::kZstd: return "zstd";
  }
  return "?";
}

Fatbin parse(std::span<const std::uint8_t> bytes, std::string_view origin) {
  Fatbin fb;
  const auto magic = read<std::uint32_t>(bytes, 0, origin, "fatbin magic");
  if (magic != kFatbinMagic) {
    fail(ErrorKind::kParse, "{}: not a fatbinary: magic 0x{:08x}, expected 0x{:08x}", origin, magic,
         kFatbinMagic);
  }
  fb.version = read<std::uint16_t>(bytes, 4, origin, "fatbin version");
  const auto header_size = read<std::uint16_t>(bytes, 6, origin, "fatbin header size");
  const auto body_size = read<std::uint64_t>(bytes, 8, origin, "fatbin size");
  if (header_size < kHeaderBytes) {
    fail(ErrorKind::kParse, "{}: fatbin header size {} is below {}", origin, header_size, kHeaderBytes);
  }
  if (header_size > bytes.size() || body_size > bytes.size() - header_size) {
    fail(ErrorKind::kParse, "{}: truncated: the fatbin claims {} + {} bytes, only {} given", origin,
         header_size, body_size, bytes.size());
  }
  fb.total_bytes = header_size + static_cast<std::size_t>(body_size);
  const auto body = bytes.subspan(0, fb.total_bytes);
  std::size_t off = header_size;
  while (off < fb.total_bytes) {
    Entry e;
    e.offset = off;
    e.kind = read<std::uint16_t>(body, off, origin, "entry kind");
    const auto ehs = read<std::uint32_t>(body, off + 4, origin, "entry header size");
    const auto payload_size = read<std::uint64_t>(body, off + 8, origin, "entry payload size");
    if (ehs < kMinEntryHeaderBytes) {
      fail(ErrorKind::kParse, "{}: entry at offset {}: header size {} is below {}", origin, off, ehs,
           kMinEntryHeaderBytes);
    }
    if (ehs > fb.total_bytes - off) {
      fail(ErrorKind::kParse, "{}: truncated: entry at offset {} has a {}-byte header, {} bytes remain",
           origin, off, ehs, fb.total_bytes - off);
    }
    const auto compressed_size = read<std::uint32_t>(body, off + 16, origin, "entry compressed size");
    e.minor = read<std::uint16_t>(body, off + 24, origin, "entry minor version");
    e.major = read<std::uint16_t>(body, off + 26, origin, "entry major version");
    e.arch = read<std::uint32_t>(body, off + 28, origin, "entry arch");
    e.flags = read<std::uint64_t>(body, off + 40, origin, "entry flags");
    e.uncompressed_size = read<std::uint64_t>(body, off + 56, origin, "entry uncompressed size");
    const std::size_t payload_off = off + ehs;
    if (payload_size > fb.total_bytes - payload_off) {
      fail(ErrorKind::kParse,
           "{}: truncated: entry at offset {} claims a {}-byte payload, {} bytes remain", origin, off,
           payload_size, fb.total_bytes - payload_off);
    }
    if ((e.flags & kFlagLz4) && (e.flags & kFlagZstd)) {
      fail(ErrorKind::kParse, "{}: entry at offset {}: flags 0x{:x} name both LZ4 and zstd", origin,
           off, e.flags);
    }
    e.compression = (e.flags & kFlagZstd) ? Compression::kZstd
                    : (e.flags & kFlagLz4) ? Compression::kLz4
                                           : Compression::kNone;
    std::size_t stored = static_cast<std::size_t>(payload_size);
    if (e.compression != Compression::kNone) {
      if (compressed_size > payload_size) {
        fail(ErrorKind::kParse, "{}: entry at offset {}: compressed size {} exceeds its payload of {}",
             origin, off, compressed_size, payload_size);
      }
      stored = compressed_size;
    }
    e.payload = body.subspan(payload_off, stored);
    fb.entries.push_back(e);
    off = payload_off + static_cast<std::size_t>(payload_size);
  }
  return fb;
}

std::vector<Fatbin> parse_all(std::span<const std::uint8_t> bytes, std::string_view origin) {
  std::vector<Fatbin> out;
  std::size_t off = 0;
  while (off < bytes.size()) {
    // Skip the zero padding between fatbins (a fatbin starts with its magic's 0x50 byte).
    if (bytes[off] == 0) {
      off += 1;
      continue;
    }
    Fatbin fb = parse(bytes.subspan(off), fmt::format("{} (+{})", origin, off));
    for (auto& e : fb.entries) e.offset += off;
    off += fb.total_bytes;
    out.push_back(std::move(fb));
  }
  return out;
}

std::string contents(const Entry& e, std::string_view origin, Limits limits) {
  std::string out;
  switch (e.compression) {
    case Compression::kNone:
      out.assign(reinterpret_cast<const char*>(e.payload.data()), e.payload.size());
      break;
    case Compression::kLz4:
    case Compression::kZstd: {
      if (e.uncompressed_size > limits.max_uncompressed) {
        fail(ErrorKind::kParse,
             "{}: entry at offset {} claims {} uncompressed bytes, more than the limit of {}", origin,
             e.offset, e.uncompressed_size, limits.max_uncompressed);
      }
      out.resize(static_cast<std::size_t>(e.uncompressed_size));
      if (e.compression == Compression::kZstd) {
        const std::size_t n = ZSTD_decompress(out.data(), out.size(), e.payload.data(), e.payload.size());
        if (ZSTD_isError(n)) {
          fail(ErrorKind::kParse, "{}: entry at offset {}: zstd: {}", origin, e.offset,
               ZSTD_getErrorName(n));
        }
        if (n != out.size()) {
          fail(ErrorKind::kParse, "{}: entry at offset {}: zstd gave {} bytes, the header says {}",
               origin, e.offset, n, out.size());
        }
      } else {
        if (e.payload.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE) ||
            out.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE) * 255) {
          fail(ErrorKind::kParse, "{}: entry at offset {}: too large for LZ4", origin, e.offset);
        }
        const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(e.payload.data()), out.data(),
                                          static_cast<int>(e.payload.size()),
                                          static_cast<int>(std::min<std::size_t>(out.size(), 0x7fffffff)));
        if (n < 0 || static_cast<std::size_t>(n) != out.size()) {
          fail(ErrorKind::kParse, "{}: entry at offset {}: LZ4 data is corrupt ({} of {} bytes)",
               origin, e.offset, n, out.size());
        }
      }
      break;
    }
  }
  if (e.is_ptx()) {
    const auto nul = out.find('\0');
    if (nul != std::string::npos) out.resize(nul);
  }
  return out;
}

std::size_t size_from_header(const void* header, std::string_view origin) {
  if (header == nullptr) fail(ErrorKind::kParse, "{}: null fatbinary pointer", origin);
  std::uint8_t h[kHeaderBytes];
  std::memcpy(h, header, sizeof h);
  const std::span<const std::uint8_t> s(h, sizeof h);
  const auto magic = read<std::uint32_t>(s, 0, origin, "fatbin magic");
  if (magic != kFatbinMagic) {
    fail(ErrorKind::kParse, "{}: not a fatbinary: magic 0x{:08x}, expected 0x{:08x}", origin, magic,
         kFatbinMagic);
  }
  const auto hs = read<std::uint16_t>(s, 6, origin, "fatbin header size");
  const auto size = read<std::uint64_t>(s, 8, origin, "fatbin size");
  if (hs < kHeaderBytes || size > (1ull << 40)) {
    fail(ErrorKind::kParse, "{}: implausible fatbin header (header {} bytes, body {} bytes)", origin,
         hs, size);
  }
  return hs + static_cast<std::size_t>(size);
}

Wrapper read_wrapper(const void* wrapper) {
  if (wrapper == nullptr) fail(ErrorKind::kParse, "fatbin wrapper: null pointer");
  struct Raw {
    std::uint32_t magic;
    std::uint32_t version;
    const void* fatbin;
    const void* extra;
  } raw{};
  std::memcpy(&raw, wrapper, sizeof raw);
  if (raw.magic != kWrapperMagic) {
    fail(ErrorKind::kParse, "fatbin wrapper: magic 0x{:08x}, expected 0x{:08x}", raw.magic,
         kWrapperMagic);
  }
  if (raw.version != 1 && raw.version != 2) {
    fail(ErrorKind::kParse, "fatbin wrapper: version {} (warpscope reads versions 1 and 2)",
         raw.version);
  }
  return Wrapper{raw.version, raw.fatbin, raw.extra};
}

std::vector<const void*> prelinked_fatbins(const Wrapper& w, std::size_t max) {
  std::vector<const void*> out;
  if (w.version != 2 || w.extra == nullptr) return out;
  const auto* list = static_cast<const void* const*>(w.extra);
  for (std::size_t i = 0; list[i] != nullptr; ++i) {
    if (i == max) fail(ErrorKind::kParse, "fatbin wrapper: more than {} prelinked fatbins (no terminating null?)", max);
    size_from_header(list[i], fmt::format("prelinked fatbin {}", i));
    out.push_back(list[i]);
  }
  return out;
}

const Entry* choose_ptx(const std::vector<Fatbin>& fbs, int cc_major, int cc_minor, std::string* why,
                        std::size_t* which) {
  const std::uint32_t want = static_cast<std::uint32_t>(cc_major * 10 + cc_minor);
  const Entry* best = nullptr;
  std::set<std::uint32_t> ptx, elf;
  for (std::size_t i = 0; i < fbs.size(); ++i) {
    for (const Entry& e : fbs[i].entries) {
      if (e.is_ptx()) {
        ptx.insert(e.arch);
        if (e.arch <= want && (best == nullptr || e.arch > best->arch)) {
          best = &e;
          if (which != nullptr) *which = i;
        }
      } else if (e.is_elf()) {
        elf.insert(e.arch);
      }
    }
  }
  if (best != nullptr) return best;
  if (why != nullptr) {
    const std::string flag = fmt::format("-arch=sm_{}", want);
    if (ptx.empty()) {
      *why = fmt::format(
          "the fatbinary holds no PTX{}; warpscope interprets PTX, so rebuild with {} (it embeds "
          "compute_{} PTX) or add -gencode arch=compute_{},code=compute_{}",
          elf.empty() ? std::string() : fmt::format(" (only machine code for {})", arch_list(elf, "sm")),
          flag, want, want, want);
    } else {
      *why = fmt::format(
          "the fatbinary's PTX is for {}, all above the profile's compute capability {}.{}; rebuild "
          "with {} or choose a newer --arch profile",
          arch_list(ptx, "compute"), cc_major, cc_minor, flag);
    }
  }
  return nullptr;
}

const Entry* choose_ptx(const Fatbin& fb, int cc_major, int cc_minor, std::string* why) {
  // A copy of the entry list would dangle; wrap by reference instead.
  const std::uint32_t want = static_cast<std::uint32_t>(cc_major * 10 + cc_minor);
  const Entry* best = nullptr;
  for (const Entry& e : fb.entries) {
    if (e.is_ptx() && e.arch <= want && (best == nullptr || e.arch > best->arch)) best = &e;
  }
  if (best == nullptr && why != nullptr) {
    std::vector<Fatbin> one;  // only for the message; entries point into the caller's bytes
    one.push_back(fb);
    choose_ptx(one, cc_major, cc_minor, why);
  }
  return best;
}

std::string describe(const Fatbin& fb) {
  std::string out;
  for (const Entry& e : fb.entries) {
    const char* kind = e.is_ptx() ? "PTX" : e.is_elf() ? "ELF" : "other";
    out += fmt::format("  {} {}_{} ({}), {} stored bytes{}\n", kind, e.is_ptx() ? "compute" : "sm",
                       e.arch, to_string(e.compression), e.payload.size(),
                       e.compression == Compression::kNone
                           ? std::string()
                           : fmt::format(", {} uncompressed", e.uncompressed_size));
  }
  return out;
}

}  // namespace warpscope::runtime::fatbin
