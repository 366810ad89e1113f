// The fatbin reader on nvcc 13's real output, with each compression it offers, and on truncated
// and corrupted copies of it.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness.hpp"
#include "common/elf_file.hpp"
#include "runtime/fatbin.hpp"
#include "warpscope/error.hpp"

namespace fb = warpscope::runtime::fatbin;
using warpscope::ElfFile;

namespace {

struct Section {
  std::vector<std::uint8_t> file;
  std::vector<fb::Fatbin> fatbins;
  std::span<const std::uint8_t> bytes;
};

Section load(const std::string& name) {
  Section s;
  s.file = warpscope::read_file_bytes(rt_test::prog(name));
  ElfFile elf(std::span<const std::uint8_t>(s.file), name);
  const auto sec = elf.section(".nv_fatbin");
  EXPECT_TRUE(sec.has_value()) << name;
  if (!sec) return s;
  s.bytes = elf.section_bytes(*sec);
  s.fatbins = fb::parse_all(s.bytes, name);
  return s;
}

std::vector<const fb::Entry*> ptx_entries(const Section& s) {
  std::vector<const fb::Entry*> out;
  for (const auto& f : s.fatbins)
    for (const auto& e : f.entries)
      if (e.is_ptx()) out.push_back(&e);
  return out;
}

void expect_kernel_ptx(const fb::Entry& e) {
  const std::string text = fb::contents(e);
  EXPECT_NE(text.find(".version"), std::string::npos);
  EXPECT_NE(text.find(".entry _Z1kPi"), std::string::npos);
  EXPECT_EQ(text.find('\0'), std::string::npos);
}

}  // namespace

TEST(NvccFatbin, DefaultIsZstdCompressedPtx) {
  const Section s = load("fb_default");
  const auto ptx = ptx_entries(s);
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_EQ(ptx[0]->arch, 90u);
  EXPECT_EQ(ptx[0]->compression, fb::Compression::kZstd);
  expect_kernel_ptx(*ptx[0]);
  EXPECT_NE(fb::choose_ptx(s.fatbins, 9, 0, nullptr), nullptr);
}

TEST(NvccFatbin, CompressModeSpeedIsLz4) {
  const auto ptx = ptx_entries(load("fb_speed"));
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_EQ(ptx[0]->compression, fb::Compression::kLz4);
  expect_kernel_ptx(*ptx[0]);
}

TEST(NvccFatbin, CompressModeSizeCompressesEverything) {
  const Section s = load("fb_size");
  const auto ptx = ptx_entries(s);
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_NE(ptx[0]->compression, fb::Compression::kNone);
  expect_kernel_ptx(*ptx[0]);
  for (const auto& f : s.fatbins)
    for (const auto& e : f.entries)
      if (e.is_elf()) {
        EXPECT_NE(e.compression, fb::Compression::kNone);
      }
}

TEST(NvccFatbin, UncompressedVariants) {
  for (const char* name : {"fb_none", "fb_no_compress"}) {
    const auto ptx = ptx_entries(load(name));
    ASSERT_EQ(ptx.size(), 1u) << name;
    EXPECT_EQ(ptx[0]->compression, fb::Compression::kNone) << name;
    expect_kernel_ptx(*ptx[0]);
  }
}

TEST(NvccFatbin, SeveralArchitecturesAndChoice) {
  const Section s = load("fb_multi");
  const auto ptx = ptx_entries(s);
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_EQ(ptx[0]->arch, 75u);
  EXPECT_EQ(fb::choose_ptx(s.fatbins, 9, 0, nullptr)->arch, 75u);
  std::string why;
  EXPECT_EQ(fb::choose_ptx(s.fatbins, 7, 0, &why), nullptr);
  EXPECT_NE(why.find("compute_75"), std::string::npos) << why;
  const Section future = load("fb_future");
  EXPECT_EQ(fb::choose_ptx(future.fatbins, 9, 0, &why), nullptr);
  EXPECT_NE(why.find("compute_100"), std::string::npos) << why;
  const Section none = load("no_ptx");
  EXPECT_EQ(fb::choose_ptx(none.fatbins, 9, 0, &why), nullptr);
  EXPECT_NE(why.find("no PTX"), std::string::npos) << why;
}

TEST(NvccFatbin, TruncatedAndCorruptedCopies) {
  for (const char* name : {"fb_default", "fb_speed", "fb_size"}) {
    const Section s = load(name);
    ASSERT_FALSE(s.bytes.empty());
    const std::vector<std::uint8_t> whole(s.bytes.begin(), s.bytes.end());
    for (std::size_t n = 0; n < whole.size(); n += 7) {
      const std::vector<std::uint8_t> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n));
      try {
        for (const auto& f : fb::parse_all(std::span<const std::uint8_t>(cut)))
          for (const auto& e : f.entries) (void)fb::contents(e);
      } catch (const warpscope::Error& e) {
        EXPECT_EQ(e.kind(), warpscope::ErrorKind::kParse);
      }
    }
    std::uint32_t state = 99;
    for (int round = 0; round < 500; ++round) {
      auto bytes = whole;
      state = state * 1664525u + 1013904223u;
      bytes[(state >> 8) % bytes.size()] ^= static_cast<std::uint8_t>(1u << (state % 8));
      try {
        for (const auto& f : fb::parse_all(std::span<const std::uint8_t>(bytes))) {
          fb::Limits limits;
          limits.max_uncompressed = 16 << 20;
          for (const auto& e : f.entries) (void)fb::contents(e, name, limits);
        }
      } catch (const warpscope::Error& e) {
        EXPECT_EQ(e.kind(), warpscope::ErrorKind::kParse);
      }
    }
  }
}
