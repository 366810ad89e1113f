// The CUDA fatbinary as nvcc 13 embeds it in a host program (design.md, "Getting kernels out of
// an unmodified program"), read with a bounds check on every field: hostile or truncated input
// gives a warpscope::Error (kParse), never a read outside the bytes given.
//
// Layout (little endian):
//   wrapper  {u32 magic 0x466243B1; u32 version (1, or 2 for -rdc); const void* fatbin; void* extra}
//   fatbin   {u32 magic 0xBA55ED50; u16 version; u16 header_size (16); u64 size of the entries}
//   entry    u16 kind (1 PTX, 2 ELF) at +0, u32 header_size at +4, u64 payload_size at +8,
//            u32 compressed_size at +16, u16 minor and u16 major at +24, u32 arch at +28,
//            u64 flags at +40 (0x2000 LZ4 block, 0x8000 zstd), u64 uncompressed_size at +56;
//            the payload follows the entry header. A compressed payload is its first
//            compressed_size bytes; PTX text is NUL-padded.
// A `.nv_fatbin` section holds several fatbins back to back (8-byte aligned); parse_all reads them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::runtime::fatbin {

inline constexpr std::uint32_t kWrapperMagic = 0x466243B1u;
inline constexpr std::uint32_t kFatbinMagic = 0xBA55ED50u;
inline constexpr std::uint64_t kFlagLz4 = 0x2000;
inline constexpr std::uint64_t kFlagZstd = 0x8000;
inline constexpr std::size_t kHeaderBytes = 16;
inline constexpr std::size_t kMinEntryHeaderBytes = 64;

enum class Kind : std::uint16_t { kPtx = 1, kElf = 2 };
enum class Compression : std::uint8_t { kNone, kLz4, kZstd };

std::string_view to_string(Compression c);

struct Entry {
  std::uint16_t kind = 0;          // 1 PTX, 2 ELF, other values are kept and ignored
  std::uint32_t arch = 0;          // e.g. 90 for compute_90 / sm_90
  std::uint16_t major = 0, minor = 0;  // PTX ISA version of a PTX entry
  std::uint64_t flags = 0;
  Compression compression = Compression::kNone;
  std::span<const std::uint8_t> payload;  // the stored bytes (compressed ones when compressed)
  std::uint64_t uncompressed_size = 0;    // as the header claims (0 when not compressed)
  std::size_t offset = 0;                 // of the entry header in the bytes parsed

  bool is_ptx() const { return kind == static_cast<std::uint16_t>(Kind::kPtx); }
  bool is_elf() const { return kind == static_cast<std::uint16_t>(Kind::kElf); }
};

struct Fatbin {
  std::uint16_t version = 0;
  std::size_t total_bytes = 0;  // header plus entries
  std::vector<Entry> entries;
};

struct Limits {
  std::uint64_t max_uncompressed = 512ull << 20;  // refuse to inflate beyond this
};

/// Parses one fatbin starting at bytes[0]. Throws Error(kParse) naming `origin` and the offset.
Fatbin parse(std::span<const std::uint8_t> bytes, std::string_view origin = "fatbin");
/// Parses consecutive fatbins (as in a `.nv_fatbin` section); padding between them is skipped.
std::vector<Fatbin> parse_all(std::span<const std::uint8_t> bytes, std::string_view origin = "fatbin");

/// The entry's payload, decompressed; for PTX the text up to the first NUL.
std::string contents(const Entry& e, std::string_view origin = "fatbin", Limits limits = {});

/// The size in bytes of the fatbin whose header is at `header` (16 + the header's size field),
/// after checking its magic; throws otherwise. For reading a fatbin in memory, whose extent only
/// its header tells.
std::size_t size_from_header(const void* header, std::string_view origin = "fatbin");

/// What a wrapper (the object __cudaRegisterFatBinary receives) holds.
struct Wrapper {
  std::uint32_t version = 0;
  const void* fatbin = nullptr;
  const void* extra = nullptr;
};
/// Reads a wrapper in memory; throws when the magic or version is wrong.
Wrapper read_wrapper(const void* wrapper);

/// The fatbins of the translation units a version-2 wrapper was device-linked from
/// (nvcc -rdc=true): nvcc's link stub (crt/link.stub) registers the linked image, whose fatbin
/// holds machine code only, with `extra` pointing at a null-terminated array of the translation
/// units' own fatbins (each with its PTX). Empty when `extra` is null. Each pointer's magic is
/// checked (size_from_header); at most `max` are read.
std::vector<const void*> prelinked_fatbins(const Wrapper& w, std::size_t max = 65536);

/// The PTX entry a GPU of compute capability major.minor runs: the highest compute_XX PTX not
/// above it. Returns nullptr and sets `why` to an explanation (what the fatbin has and the nvcc
/// flags that would make it usable) when there is none.
const Entry* choose_ptx(const Fatbin& fb, int cc_major, int cc_minor, std::string* why);
/// The same over several fatbins; `which` receives the index of the fatbin chosen.
const Entry* choose_ptx(const std::vector<Fatbin>& fbs, int cc_major, int cc_minor, std::string* why,
                        std::size_t* which = nullptr);

/// One line per entry: kind, arch, compression and sizes (for messages and `--verbose`).
std::string describe(const Fatbin& fb);

}  // namespace warpscope::runtime::fatbin
