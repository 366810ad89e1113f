// MD2 (RFC 1319) and HMAC (RFC 2104) over it: the keyed digest NVIDIA's static CUDA runtime asks
// the driver for in its integrity-check export table (drv_export.cpp, docs/runtime.md "The static
// CUDA runtime"). Header-only so that tests/runtime/md2_test.cpp checks it against the RFCs' vectors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace warpscope::cudart::md2 {

using Digest = std::array<std::uint8_t, 16>;

/// RFC 1319's substitution table S (built from the digits of pi).
inline constexpr std::uint8_t kS[256] = {
    41,  46,  67,  201, 162, 216, 124, 1,   61,  54,  84,  161, 236, 240, 6,   19,  98,  167, 5,   243, 192, 199,
    115, 140, 152, 147, 43,  217, 188, 76,  130, 202, 30,  155, 87,  60,  253, 212, 224, 22,  103, 66,  111, 24,
    138, 23,  229, 18,  190, 78,  196, 214, 218, 158, 222, 73,  160, 251, 245, 142, 187, 47,  238, 122, 169, 104,
    121, 145, 21,  178, 7,   63,  148, 194, 16,  137, 11,  34,  95,  33,  128, 127, 93,  154, 90,  144, 50,  39,
    53,  62,  204, 231, 191, 247, 151, 3,   255, 25,  48,  179, 72,  165, 181, 209, 215, 94,  146, 42,  172, 86,
    170, 198, 79,  184, 56,  210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4,   241, 69,  157, 112, 89,
    100, 113, 135, 32,  134, 91,  207, 101, 230, 45,  168, 2,   27,  96,  37,  173, 174, 176, 185, 246, 28,  70,
    97,  105, 52,  64,  126, 15,  85,  71,  163, 35,  221, 81,  175, 58,  195, 92,  249, 206, 186, 197, 234, 38,
    44,  83,  13,  110, 133, 40,  132, 9,   211, 223, 205, 244, 65,  129, 77,  82,  106, 220, 55,  200, 108, 193,
    171, 250, 36,  225, 123, 8,   12,  189, 177, 74,  120, 136, 149, 139, 227, 99,  232, 109, 233, 203, 213, 254,
    59,  0,   29,  57,  242, 239, 183, 14,  102, 88,  208, 228, 166, 119, 114, 248, 235, 117, 75,  10,  49,  68,
    80,  180, 143, 237, 31,  26,  219, 153, 141, 51,  159, 17,  131, 20,
};

/// An MD2 digest computed piecewise: update() any number of times, then finish() once.
class Md2 {
 public:
  void update(std::span<const std::uint8_t> bytes) {
    for (std::uint8_t b : bytes) {
      block_[fill_++] = b;
      if (fill_ == 16) {
        compress();
        fill_ = 0;
      }
    }
  }

  Digest finish() {
    // Padding: i bytes of value i (1..16) to a whole block, then the checksum as a last block.
    const auto pad = static_cast<std::uint8_t>(16 - fill_);
    std::array<std::uint8_t, 16> p{};
    p.fill(pad);
    update(std::span(p.data(), pad));
    const std::array<std::uint8_t, 16> sum = checksum_;
    update(sum);
    Digest d{};
    for (std::size_t i = 0; i < 16; ++i) d[i] = x_[i];
    return d;
  }

 private:
  void compress() {
    for (std::size_t j = 0; j < 16; ++j) {
      x_[16 + j] = block_[j];
      x_[32 + j] = static_cast<std::uint8_t>(block_[j] ^ x_[j]);
      checksum_[j] ^= kS[block_[j] ^ last_];
      last_ = checksum_[j];
    }
    unsigned t = 0;
    for (unsigned round = 0; round < 18; ++round) {
      for (std::uint8_t& v : x_) {
        v ^= kS[t];
        t = v;
      }
      t = (t + round) & 0xffu;
    }
  }

  std::array<std::uint8_t, 48> x_{};
  std::array<std::uint8_t, 16> block_{};
  std::array<std::uint8_t, 16> checksum_{};
  std::uint8_t last_ = 0;
  std::size_t fill_ = 0;
};

inline Digest digest(std::span<const std::uint8_t> bytes) {
  Md2 m;
  m.update(bytes);
  return m.finish();
}

/// HMAC-MD2 of the concatenation of `parts` under a 16-byte key (MD2's block: no key hashing).
inline Digest hmac(const Digest& key, std::span<const std::span<const std::uint8_t>> parts) {
  std::array<std::uint8_t, 16> pad{};
  Md2 inner;
  for (std::size_t i = 0; i < 16; ++i) pad[i] = static_cast<std::uint8_t>(key[i] ^ 0x36);
  inner.update(pad);
  for (const auto& p : parts) inner.update(p);
  const Digest in = inner.finish();
  Md2 outer;
  for (std::size_t i = 0; i < 16; ++i) pad[i] = static_cast<std::uint8_t>(key[i] ^ 0x5c);
  outer.update(pad);
  outer.update(in);
  return outer.finish();
}

}  // namespace warpscope::cudart::md2
