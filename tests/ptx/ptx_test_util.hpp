// Helpers shared by the PTX front-end tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "ptx/ptx.hpp"
#include "warpscope/error.hpp"

namespace warpscope::ptx::test {

/// Three header lines; snippets that follow start on line 4.
inline constexpr std::string_view kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

inline Module load(std::string_view body) {
  return load_module(std::string(kHeader) + std::string(body), "test.ptx");
}

/// A kernel `k` with the given register declarations and body; its first body line is line 7.
inline std::string kernel(std::string_view body) {
  return std::string(
             ".visible .entry k(\n"                             // line 4
             "  .param .u64 k_p0\n"                             // line 5
             ")\n{\n") +                                        // lines 6, 7
         ".reg .pred %p<4>; .reg .b16 %rs<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>; "
         ".reg .f32 %f<8>; .reg .f64 %fd<4>;\n" +               // line 8
         std::string(body) + "\n}\n";
}

/// Loads a kernel whose body is `body` (the body's first line is line 9).
inline Module load_kernel(std::string_view body) { return load(kernel(body)); }

/// Text of the error thrown by loading `text`, checking its kind; "" if it loaded.
inline std::string error_of(std::string_view full_text, ErrorKind kind) {
  try {
    load_module(full_text, "test.ptx");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted:\n" << full_text;
  return "";
}

inline std::string kernel_error(std::string_view body, ErrorKind kind = ErrorKind::kParse) {
  return error_of(std::string(kHeader) + kernel(body), kind);
}

inline const Instruction& only_instruction(const Module& m) {
  EXPECT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].instructions.size(), 1u);
  return m.functions.at(0).instructions.at(0);
}

inline std::string text_of(const Module& m, std::size_t fn, std::size_t i) {
  return format_instruction(m, m.functions.at(fn), m.functions.at(fn).instructions.at(i));
}

}  // namespace warpscope::ptx::test
