// MD2 (src/runtime/cudart/md2.hpp) against RFC 1319's test suite (appendix A.5), and HMAC-MD2 by
// RFC 2104's definition. The static runtime's integrity check (drv_export.cpp) uses both.
#include "runtime/cudart/md2.hpp"

#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace md2 = warpscope::cudart::md2;

namespace {

std::span<const std::uint8_t> bytes(const std::string& s) {
  return std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

std::string hex(const md2::Digest& d) {
  std::string out;
  for (std::uint8_t b : d) out += fmt::format("{:02x}", b);
  return out;
}

}  // namespace

TEST(Md2, Rfc1319TestSuite) {
  EXPECT_EQ(hex(md2::digest(bytes(""))), "8350e5a3e24c153df2275c9f80692773");
  EXPECT_EQ(hex(md2::digest(bytes("a"))), "32ec01ec4a6dac72c0ab96fb34c0b5d1");
  EXPECT_EQ(hex(md2::digest(bytes("abc"))), "da853b0d3f88d99b30283a69e6ded6bb");
  EXPECT_EQ(hex(md2::digest(bytes("message digest"))), "ab4f496bfb2a530b219ff33031fe06b0");
  EXPECT_EQ(hex(md2::digest(bytes("abcdefghijklmnopqrstuvwxyz"))), "4e8ddff3650292ab5a4108c3aa47940b");
  EXPECT_EQ(hex(md2::digest(bytes("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"))),
            "da33def2a42df13975352846c30338cd");
  EXPECT_EQ(hex(md2::digest(bytes("1234567890123456789012345678901234567890123456789012345678901234567890123456789"
                                   "0"))),
            "d5976f79d83d3a0dc9806c3c66f3efd8");
}

TEST(Md2, PiecewiseUpdatesAreOneMessage) {
  md2::Md2 m;
  const std::string a = "message ", b, c = "digest";
  m.update(bytes(a));
  m.update(bytes(b));
  m.update(bytes(c));
  EXPECT_EQ(hex(m.finish()), "ab4f496bfb2a530b219ff33031fe06b0");
}

TEST(Md2, HmacIsRfc2104WithSixteenByteBlocks) {
  // HMAC(K, m) = H((K ^ opad) || H((K ^ ipad) || m)), ipad 0x36.., opad 0x5c.. (RFC 2104), with MD2's
  // 16-byte block: a 16-byte key is used as it is.
  md2::Digest key{};
  for (std::size_t i = 0; i < 16; ++i) key[i] = static_cast<std::uint8_t>(i * 17);
  std::string inner, outer;
  for (std::uint8_t k : key) inner.push_back(static_cast<char>(k ^ 0x36));
  for (std::uint8_t k : key) outer.push_back(static_cast<char>(k ^ 0x5c));
  const md2::Digest in = md2::digest(bytes(inner + "abc" + "def"));
  const md2::Digest expected = md2::digest(bytes(outer + std::string(in.begin(), in.end())));
  const std::string abc = "abc", def = "def";
  const std::span<const std::uint8_t> parts[] = {bytes(abc), bytes(def)};
  EXPECT_EQ(hex(md2::hmac(key, parts)), hex(expected));
}
