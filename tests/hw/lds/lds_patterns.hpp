// The lane -> byte offset maps of tests/hw/lds/lds_micro.cu (issue 34, item 0), shared by the
// program (which ran them on the H200: tests/hw/data/h200/lds) and the tests that replay them
// (tests/mem/shared_lds_h200_test.cpp). Host code only. Names say the map; "h" = half-warp (16
// lanes), "q" = quarter-warp (8 lanes). A negative offset leaves the lane inactive. The order is
// the launch order of the capture: do not reorder or change an entry (add new ones at the end).
#pragma once

namespace lds_micro {

struct Pattern {
  const char* name;
  int (*off)(int lane, int w);  // byte offset for lane and width w (bytes), or -1: inactive
};

inline constexpr Pattern kPatterns[] = {
  {"linear", [](int l, int w) { return l * w; }},
  {"broadcast0", [](int, int) { return 0; }},
  {"broadcast_w", [](int, int w) { return 5 * w; }},
  {"stride2", [](int l, int w) { return 2 * l * w; }},
  {"stride4", [](int l, int w) { return 4 * l * w; }},
  {"stride8", [](int l, int w) { return 8 * l * w; }},
  {"stride128B", [](int l, int) { return l * 128; }},
  {"reverse", [](int l, int w) { return (31 - l) * w; }},
  {"xor1", [](int l, int w) { return (l ^ 1) * w; }},
  {"xor8", [](int l, int w) { return (l ^ 8) * w; }},
  {"xor16", [](int l, int w) { return (l ^ 16) * w; }},
  {"pairs_same", [](int l, int w) { return (l / 2) * w; }},
  {"quads_same", [](int l, int w) { return (l / 4) * w; }},
  {"q_broadcast", [](int l, int w) { return (l / 8) * w; }},
  {"h_broadcast", [](int l, int w) { return (l / 16) * w; }},
  {"h_repeat", [](int l, int w) { return (l % 16) * w; }},
  {"q_repeat", [](int l, int w) { return (l % 8) * w; }},
  {"four_repeat", [](int l, int w) { return (l % 4) * w; }},
  {"h_rows", [](int l, int w) { return (l % 16) * w + (l / 16) * 512; }},
  {"q_rows", [](int l, int w) { return (l % 8) * w + (l / 8) * 512; }},
  {"q_rows128", [](int l, int w) { return (l % 8) * w + (l / 8) * 128; }},
  {"h_rows_shift", [](int l, int w) { return (l % 16) * w + (l / 16) * 64; }},
  {"first_half", [](int l, int w) { return l < 16 ? l * w : -1; }},
  {"second_half", [](int l, int w) { return l >= 16 ? l * w : -1; }},
  {"first_quarter", [](int l, int w) { return l < 8 ? l * w : -1; }},
  {"one_lane", [](int l, int w) { return l == 7 ? 3 * w : -1; }},
  {"even_lanes", [](int l, int w) { return l % 2 == 0 ? l * w : -1; }},
  {"odd_lanes_bcast", [](int l, int) { return l % 2 == 1 ? 64 : -1; }},
  {"q0q2_same", [](int l, int w) { return ((l / 8) % 2) * 8 * w + (l % 8) * w; }},
  {"q0q1_same", [](int l, int w) { return (l / 16) * 8 * w + (l % 8) * w; }},
  {"two_addr_one_bank", [](int l, int) { return (l % 2) * 128; }},
  {"four_addr_one_bank", [](int l, int) { return (l % 4) * 128; }},
  {"half_bcast_half_conflict", [](int l, int) { return l < 16 ? 0 : (l - 16) * 128; }},
  {"mixed_words", [](int l, int w) { return ((l * 7) % 32) * w; }},
  {"swizzle_xor_row", [](int l, int w) { return (((l % 8) ^ (l / 8)) * w) + (l / 8) * 128; }},
  {"col_of_8x8_f64", [](int l, int w) { return (l % 8) * 8 * w + (l / 8) * w; }},
  {"col_padded", [](int l, int w) { return (l % 8) * 9 * w + (l / 8) * w; }},
  {"colmajor_4", [](int l, int w) { return (l % 4) * 8 * w + (l / 4) * w; }},
  {"half_linear_half_bcast", [](int l, int w) { return l < 16 ? l * w : 0; }},
  {"block_of_4", [](int l, int w) { return (l / 4) * 4 * w * 2 + (l % 4) * w; }},
};

}  // namespace lds_micro
