#include <gtest/gtest.h>

#include <string>

#include "expr.hpp"
#include "warpscope/error.hpp"

namespace warpscope::cli {
namespace {

std::int64_t at(const std::string& text, std::int64_t lane) { return IndexExpr::parse(text).eval(lane); }

TEST(IndexExpr, SeedPatterns) {
  for (std::int64_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(at("lane", lane), lane);
    EXPECT_EQ(at("lane+1", lane), lane + 1);
    EXPECT_EQ(at("lane*32", lane), lane * 32);
    EXPECT_EQ(at("(lane*7+3)%32", lane), (lane * 7 + 3) % 32);
    EXPECT_EQ(at("0", lane), 0);
  }
}

TEST(IndexExpr, PrecedenceAndOperators) {
  EXPECT_EQ(at("1+2*3", 0), 7);
  EXPECT_EQ(at("(1+2)*3", 0), 9);
  EXPECT_EQ(at("10-4-3", 0), 3);        // left associative
  EXPECT_EQ(at("lane/2*4", 5), 8);
  EXPECT_EQ(at("lane^1", 6), 7);
  EXPECT_EQ(at("lane<<2|1", 3), 13);    // shift binds tighter than |
  EXPECT_EQ(at("1<<4+1", 0), 32);       // + binds tighter than <<, as in C
  EXPECT_EQ(at("-lane", 3), -3);
  EXPECT_EQ(at("~0", 0), -1);
  EXPECT_EQ(at("0x20 * lane", 2), 64);
  EXPECT_EQ(at("  lane  &  0x1f ", 37), 5);
  EXPECT_EQ(at("lane%8*33", 9), 33);
}

void expect_parse_error(const std::string& text, std::size_t column) {
  try {
    IndexExpr::parse(text);
    FAIL() << "accepted '" << text << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kParse);
    std::string msg = e.what();
    EXPECT_NE(msg.find("column " + std::to_string(column)), std::string::npos) << msg;
  }
}

TEST(IndexExpr, ErrorsGiveTheColumn) {
  expect_parse_error("lane+", 6);        // ended after an operator
  expect_parse_error("(lane*7+3", 10);   // missing ')'
  expect_parse_error("lane $ 2", 6);
  expect_parse_error("warp+1", 1);       // unknown name
  expect_parse_error("12abc", 3);
  expect_parse_error("", 1);
  expect_parse_error("0x", 3);
  expect_parse_error("99999999999999999999", 1);
  expect_parse_error(std::string(500, '('), 201);  // nesting limit, not a stack overflow
}

TEST(IndexExpr, EvaluationErrorsNameTheLane) {
  try {
    at("32/(lane-3)", 3);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("lane 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(at("1<<64", 0), Error);
  EXPECT_EQ(at("32/(lane-3)", 4), 32);
}

}  // namespace
}  // namespace warpscope::cli
