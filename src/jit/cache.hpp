// The JIT's on-disk code cache (internal to src/jit): one file per compiled kernel, holding the
// object code LLVM made for its segments, named by a SHA-256 of everything that code depends on
// (engine.cpp's key). docs/exec.md, "The code cache".
//
// A file is a header and the object: magic, format, the key's digest, the number of native
// instructions, the object's size and its SHA-256. An entry that does not match (truncated,
// altered, another key) is ignored with one line on stderr and recompiled (and then rewritten);
// writes go to a temporary file renamed into place, so a reader sees a whole entry or none. A
// directory that cannot be made or written turns writing off with one line; nothing fails.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::jit {

using Digest = std::array<std::uint8_t, 32>;

/// SHA-256 of `bytes` (LLVM's implementation).
Digest sha256(std::string_view bytes);
/// Lower-case hexadecimal, two digits a byte.
std::string hex(const Digest& d);

class CodeCache {
 public:
  /// `notes`: print the lines about ignored entries and an unwritable directory.
  CodeCache(std::string dir, bool notes) : dir_(std::move(dir)), notes_(notes) {}

  struct Entry {
    std::string object;        // the object file's bytes
    std::uint64_t native = 0;  // instructions compiled to native code (jit::Stats::native)
  };
  /// The entry stored under `key`: nullopt when there is none, or when it is unusable
  /// (`rejected` is then set and a line printed).
  std::optional<Entry> load(const Digest& key, bool& rejected);
  /// Stores an entry (atomically: temporary file, then rename); false when it was not written.
  bool store(const Digest& key, std::string_view object, std::uint64_t native);
  /// Where the entry for `key` lives.
  std::string path(const Digest& key) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  bool notes_ = true;
  bool made_ = false;     // the directory exists (created on the first store)
  bool writable_ = true;  // false after a failed write: no more attempts
  std::uint64_t temp_ = 0;
};

}  // namespace warpscope::jit
