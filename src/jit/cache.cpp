// The JIT's on-disk code cache (cache.hpp).
#include "jit/cache.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/SHA256.h>

namespace warpscope::jit {

namespace {

constexpr char kMagic[8] = {'W', 'S', 'J', 'I', 'T', 'O', 'B', 'J'};
constexpr std::uint32_t kFormat = 1;
// magic, format, header bytes, key digest, native count, object bytes, object digest
constexpr std::size_t kHeader = 8 + 4 + 4 + 32 + 8 + 8 + 32;

void put_le(std::string& out, std::uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
std::uint64_t get_le(const std::string& in, std::size_t at, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}
bool same(const std::string& in, std::size_t at, const Digest& d) {
  return std::memcmp(in.data() + at, d.data(), d.size()) == 0;
}

void note_ignored(bool notes, const std::string& path, const std::string& why) {
  if (!notes) return;
  std::fprintf(stderr, "warpscope: JIT cache: ignoring %s (%s); compiling the kernel again\n", path.c_str(), why.c_str());
}

}  // namespace

Digest sha256(std::string_view bytes) {
  return llvm::SHA256::hash(llvm::ArrayRef<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

std::string hex(const Digest& d) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : d) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

std::string CodeCache::path(const Digest& key) const { return dir_ + "/" + hex(key) + ".o"; }

std::optional<CodeCache::Entry> CodeCache::load(const Digest& key, bool& rejected) {
  rejected = false;
  const std::string p = path(key);
  std::FILE* f = std::fopen(p.c_str(), "rb");
  if (f == nullptr) {
    if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;  // not cached (or no directory)
    rejected = true;
    note_ignored(notes_, p, std::strerror(errno));
    return std::nullopt;
  }
  std::string data;
  char buf[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
  const bool read_error = std::ferror(f) != 0;
  std::fclose(f);
  auto reject = [&](const std::string& why) {
    rejected = true;
    note_ignored(notes_, p, why);
    return std::nullopt;
  };
  if (read_error) return reject("read error");
  if (data.size() < kHeader || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) {
    return reject("not a warpscope JIT cache entry");
  }
  if (get_le(data, 8, 4) != kFormat || get_le(data, 12, 4) != kHeader) return reject("another format");
  if (!same(data, 16, key)) return reject("another key");
  const std::uint64_t size = get_le(data, 56, 8);
  if (size != data.size() - kHeader) {
    return reject("object of " + std::to_string(data.size() - kHeader) + " bytes, the header says " + std::to_string(size));
  }
  Entry e;
  e.native = get_le(data, 48, 8);
  e.object = data.substr(kHeader);
  if (!same(data, 64, sha256(e.object))) return reject("the object's SHA-256 does not match its header");
  return e;
}

bool CodeCache::store(const Digest& key, std::string_view object, std::uint64_t native) {
  if (!writable_) return false;
  auto give_up = [&](const std::string& why) {
    writable_ = false;
    if (notes_) {
      std::fprintf(stderr, "warpscope: JIT cache: cannot write %s (%s); compiled code is not cached\n", dir_.c_str(),
                   why.c_str());
    }
    return false;
  };
  if (!made_) {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return give_up(ec.message());
    made_ = true;
  }
  std::string data(kMagic, sizeof kMagic);
  put_le(data, kFormat, 4);
  put_le(data, kHeader, 4);
  data.append(reinterpret_cast<const char*>(key.data()), key.size());
  put_le(data, native, 8);
  put_le(data, object.size(), 8);
  const Digest od = sha256(object);
  data.append(reinterpret_cast<const char*>(od.data()), od.size());
  data.append(object);
  // A name no other writer uses (process id, counter); rename() replaces an entry atomically.
  const std::string final_path = path(key);
  const std::string tmp = final_path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_++);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return give_up(std::strerror(errno));
  const bool wrote = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  const int saved = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    std::remove(tmp.c_str());
    return give_up(std::strerror(wrote ? errno : saved));
  }
  if (std::rename(tmp.c_str(), final_path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    return give_up(std::strerror(e));
  }
  return true;
}

}  // namespace warpscope::jit
