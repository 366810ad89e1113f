#include <gtest/gtest.h>

#include <bit>

#include "ptx/lexer.hpp"
#include "warpscope/error.hpp"

namespace warpscope::ptx {
namespace {

std::vector<TokenKind> kinds(const std::vector<Token>& ts) {
  std::vector<TokenKind> out;
  for (const auto& t : ts) out.push_back(t.kind);
  return out;
}

TEST(PtxLexer, OpcodesRegistersAndDirectives) {
  auto ts = lex("ld.global.nc.L1::no_allocate.v4.f32 {%f1, _}, [%rd4+16]; .shared::cta", "t");
  using K = TokenKind;
  EXPECT_EQ(kinds(ts), (std::vector<K>{K::kIdent, K::kLBrace, K::kIdent, K::kComma, K::kIdent,
                                       K::kRBrace, K::kComma, K::kLBracket, K::kIdent, K::kPlus,
                                       K::kInt, K::kRBracket, K::kSemicolon, K::kDirective, K::kEnd}));
  EXPECT_EQ(ts[0].text, "ld.global.nc.L1::no_allocate.v4.f32");
  EXPECT_EQ(ts[2].text, "%f1");
  EXPECT_EQ(ts[4].text, "_");
  EXPECT_EQ(ts[10].u, 16u);
  EXPECT_EQ(ts[13].text, ".shared::cta");
}

TEST(PtxLexer, SpecialRegistersAndLabelsAreIdentifiers) {
  auto ts = lex("%tid.x $L__BB0_2: __local_depot0 %r<6>", "t");
  EXPECT_EQ(ts[0].text, "%tid.x");
  EXPECT_EQ(ts[1].text, "$L__BB0_2");
  EXPECT_EQ(ts[2].kind, TokenKind::kColon);
  EXPECT_EQ(ts[3].text, "__local_depot0");
  EXPECT_EQ(ts[4].text, "%r");
  EXPECT_EQ(ts[5].kind, TokenKind::kLess);
  EXPECT_EQ(ts[6].u, 6u);
}

TEST(PtxLexer, Numbers) {
  auto ts = lex("42 0x1F 0XfF 017 0b101 7U 0f3F800000 0d3FF0000000000000 1.5 2e3 0", "t");
  ASSERT_EQ(ts.size(), 12u);
  EXPECT_EQ(ts[0].u, 42u);
  EXPECT_EQ(ts[1].u, 31u);
  EXPECT_EQ(ts[2].u, 255u);
  EXPECT_EQ(ts[3].u, 15u);  // octal
  EXPECT_EQ(ts[4].u, 5u);
  EXPECT_EQ(ts[5].u, 7u);
  EXPECT_EQ(ts[6].kind, TokenKind::kF32);
  EXPECT_EQ(ts[6].u, 0x3F800000u);
  EXPECT_EQ(ts[7].kind, TokenKind::kF64);
  EXPECT_EQ(ts[7].u, 0x3FF0000000000000ull);
  EXPECT_EQ(ts[8].kind, TokenKind::kF64);
  EXPECT_EQ(std::bit_cast<double>(ts[8].u), 1.5);
  EXPECT_EQ(std::bit_cast<double>(ts[9].u), 2000.0);
  EXPECT_EQ(ts[10].kind, TokenKind::kInt);
  EXPECT_EQ(ts[10].u, 0u);
  EXPECT_EQ(lex("0xFFFFFFFFFFFFFFFF", "t")[0].u, ~0ull);
}

TEST(PtxLexer, CommentsStringsAndPositions) {
  auto ts = lex("// line comment\n  /* block\n comment */ .file 1 \"a\\\"b.cu\"\n\tret;", "t");
  ASSERT_EQ(ts.size(), 6u);
  EXPECT_EQ(ts[0].text, ".file");
  EXPECT_EQ(ts[0].pos, (PtxPos{3, 13}));
  EXPECT_EQ(ts[2].kind, TokenKind::kString);
  EXPECT_EQ(ts[2].text_value, "a\"b.cu");
  EXPECT_EQ(ts[3].text, "ret");
  EXPECT_EQ(ts[3].pos, (PtxPos{4, 2}));
}

void expect_lex_error(std::string_view text, std::string_view where, std::string_view what) {
  try {
    lex(text, "in.ptx");
    FAIL() << "accepted " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kParse);
    std::string msg = e.what();
    EXPECT_NE(msg.find(std::string("in.ptx:") + std::string(where) + ":"), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(PtxLexer, ErrorsNamePosition) {
  expect_lex_error("ret;\n  # x", "2:3", "unexpected character '#'");
  expect_lex_error("ret;\n /* never closed", "2:2", "unterminated");
  expect_lex_error(".file 1 \"abc\n", "1:9", "unterminated string");
  expect_lex_error("0f3F80", "1:1", "8 hex digits");
  expect_lex_error("0x1FFFFFFFFFFFFFFFF", "1:1", "64 bits");
  expect_lex_error("09", "1:1", "base 8");
  expect_lex_error("12abc", "1:1", "malformed");
  expect_lex_error(std::string_view("ret\0;", 5), "1:4", "0x00");
}

}  // namespace
}  // namespace warpscope::ptx
