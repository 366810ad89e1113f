#include "ptx/mma.hpp"

#include <charconv>
#include <string>

#include "common/error.hpp"

namespace warpscope::ptx {

namespace {

struct TypeWord {
  std::string_view text;
  MmaType type;
};
constexpr TypeWord kMmaTypes[] = {
    {"f16", MmaType::kF16},   {"bf16", MmaType::kBF16}, {"tf32", MmaType::kTF32}, {"f32", MmaType::kF32},
    {"f64", MmaType::kF64},   {"s32", MmaType::kS32},   {"s8", MmaType::kS8},     {"u8", MmaType::kU8},
    {"s4", MmaType::kS4},     {"u4", MmaType::kU4},     {"b1", MmaType::kB1},     {"e4m3", MmaType::kE4M3},
    {"e5m2", MmaType::kE5M2}, {"b16", MmaType::kB16},   {"b8", MmaType::kB8},
};

bool is_matrix_op(Opcode op) {
  return op == Opcode::kWmmaLoad || op == Opcode::kWmmaStore || op == Opcode::kWmmaMma || op == Opcode::kMma ||
         op == Opcode::kLdmatrix || op == Opcode::kStmatrix || op == Opcode::kMovmatrix || op == Opcode::kWgmmaMma;
}

// "m16n8k16" -> 16, 8, 16; "m8n8" -> 8, 8, 0.
bool parse_shape(std::string_view w, std::uint16_t& m, std::uint16_t& n, std::uint16_t& k) {
  auto number = [&](std::size_t& i, std::uint16_t& out) {
    unsigned v = 0;
    const char* b = w.data() + i;
    auto r = std::from_chars(b, w.data() + w.size(), v);
    if (r.ec != std::errc() || r.ptr == b || v == 0 || v > 1024) return false;
    i += static_cast<std::size_t>(r.ptr - b);
    out = static_cast<std::uint16_t>(v);
    return true;
  };
  std::size_t i = 0;
  if (w.size() < 4 || w[i++] != 'm' || !number(i, m) || i >= w.size() || w[i++] != 'n' || !number(i, n)) return false;
  k = 0;
  if (i == w.size()) return true;
  if (w[i++] != 'k' || !number(i, k)) return false;
  return i == w.size();
}

[[noreturn]] void refuse(const Instruction& in, std::string_view origin, const std::string& why) {
  fail(ErrorKind::kUnsupported, "{}:{}:{}: unsupported form of '{}' (line {}): {}", origin, in.ptx.line, in.ptx.column,
       in.text, in.ptx.line, why);
}

bool shape_is(const MmaQualifiers& q, int m, int n, int k) { return q.m == m && q.n == n && q.k == k; }
bool int8(MmaType t) { return t == MmaType::kS8 || t == MmaType::kU8; }
bool int4(MmaType t) { return t == MmaType::kS4 || t == MmaType::kU4; }
bool fp8(MmaType t) { return t == MmaType::kE4M3 || t == MmaType::kE5M2; }
bool f16_or_f32(MmaType t) { return t == MmaType::kF16 || t == MmaType::kF32; }

/// Registers of `elements` elements of type t per lane (f64: one element per register).
std::uint8_t regs_of(int elements, MmaType t) {
  if (t == MmaType::kF64) return static_cast<std::uint8_t>(elements);
  return static_cast<std::uint8_t>((elements * static_cast<int>(mma_type_bits(t)) + 31) / 32);
}

// wmma fragments (PTX ISA 9.7.14.4.1; the H100's registers are these, tests/hw/data/h100/tensor).
std::uint8_t wmma_regs(const MmaQualifiers& q, char matrix, MmaType t) {
  const int m = q.m, n = q.n, k = q.k;
  if (matrix == 'c' || matrix == 'd') return regs_of(m * n / 32, t);
  if (t == MmaType::kF16) return 8;  // .f16 multiplicands: always eight .f16x2 registers
  const int elements = matrix == 'a' ? m * k / 32 : k * n / 32;
  return regs_of(elements, t);
}

void wmma_shape_type(const Instruction& in, std::string_view origin, MmaType ab, MmaType acc) {
  const MmaQualifiers& q = in.mma;
  const bool big = shape_is(q, 16, 16, 16) || shape_is(q, 32, 8, 16) || shape_is(q, 8, 32, 16);
  bool ok = false;
  if (ab == MmaType::kF16 || ab == MmaType::kBF16 || int8(ab)) ok = big;
  if (ab == MmaType::kTF32) ok = shape_is(q, 16, 16, 8);
  if (ab == MmaType::kF64) ok = shape_is(q, 8, 8, 4);
  if (int4(ab)) ok = shape_is(q, 8, 8, 32);
  if (ab == MmaType::kB1) ok = shape_is(q, 8, 8, 128);
  if (acc != MmaType::kNone && ok) {
    if (ab == MmaType::kF16) ok = f16_or_f32(acc);
    else if (ab == MmaType::kBF16 || ab == MmaType::kTF32) ok = acc == MmaType::kF32;
    else if (ab == MmaType::kF64) ok = acc == MmaType::kF64;
    else ok = acc == MmaType::kS32;
  }
  if (!ok) refuse(in, origin, fmt::format("wmma has no .m{}n{}k{} with .{}{}{}", q.m, q.n, q.k, to_string(ab),
                                          acc == MmaType::kNone ? "" : " and .", to_string(acc)));
}

MmaForm wmma_load_store(const Instruction& in, std::string_view origin) {
  const MmaQualifiers& q = in.mma;
  MmaForm f;
  f.m = q.m;
  f.n = q.n;
  f.k = q.k;
  if (q.matrix == 0) refuse(in, origin, "missing .a, .b, .c or .d");
  if (in.op == Opcode::kWmmaLoad && q.matrix == 'd') refuse(in, origin, "wmma.load takes .a, .b or .c");
  if (in.op == Opcode::kWmmaStore && q.matrix != 'd') refuse(in, origin, "wmma.store takes .d");
  if (q.layouts != 1) refuse(in, origin, "needs one layout, .row or .col");
  if (q.ntypes != 1) refuse(in, origin, "needs one element type");
  if (q.k == 0) refuse(in, origin, "missing the shape (.m16n16k16 ...)");
  const MmaType t = q.types[0];
  if (q.matrix == 'a' || q.matrix == 'b') {
    if (t == MmaType::kF32 || t == MmaType::kS32) refuse(in, origin, "a multiplicand cannot be ." + std::string(to_string(t)));
    wmma_shape_type(in, origin, t, MmaType::kNone);
    if ((int4(t) || t == MmaType::kB1) && (q.matrix == 'a') == q.a_col)
      refuse(in, origin, "sub-byte matrices are .row for A and .col for B");
  } else {
    // An accumulator: which multiplicand types go with it is not written; check the shape.
    MmaType ab = MmaType::kNone;
    if (t == MmaType::kF16) ab = MmaType::kF16;
    else if (t == MmaType::kF32) ab = q.k == 8 ? MmaType::kTF32 : MmaType::kF16;
    else if (t == MmaType::kF64) ab = MmaType::kF64;
    else if (t == MmaType::kS32) ab = q.k == 32 ? MmaType::kS4 : q.k == 128 ? MmaType::kB1 : MmaType::kS8;
    else refuse(in, origin, "an accumulator is .f16, .f32, .f64 or .s32");
    wmma_shape_type(in, origin, ab, t);
  }
  if (in.space != StateSpace::kGeneric && in.space != StateSpace::kGlobal && in.space != StateSpace::kShared)
    refuse(in, origin, "wmma.load/store use .global, .shared or a generic address");
  if (q.matrix == 'a') f.a = t;
  if (q.matrix == 'b') f.b = t;
  if (q.matrix == 'c') f.c = t;
  if (q.matrix == 'd') f.d = t;
  f.regs[0] = wmma_regs(q, q.matrix, t);
  f.wide = t == MmaType::kF64;
  return f;
}

MmaForm wmma_mma(const Instruction& in, std::string_view origin) {
  const MmaQualifiers& q = in.mma;
  MmaForm f;
  f.m = q.m;
  f.n = q.n;
  f.k = q.k;
  if (q.layouts != 2) refuse(in, origin, "needs .alayout.blayout (.row/.col twice)");
  if (q.k == 0) refuse(in, origin, "missing the shape");
  if (q.ntypes == 2) {  // .dtype.ctype with .f16 multiplicands
    f.a = f.b = MmaType::kF16;
    f.d = q.types[0];
    f.c = q.types[1];
    if (!f16_or_f32(f.d) || !f16_or_f32(f.c)) refuse(in, origin, ".dtype and .ctype are .f16 or .f32");
    wmma_shape_type(in, origin, f.a, f.c);
  } else if (q.ntypes == 4) {
    f.d = q.types[0];
    f.a = q.types[1];
    f.b = q.types[2];
    f.c = q.types[3];
    if (f.a != f.b) refuse(in, origin, ".atype and .btype must be the same");
    wmma_shape_type(in, origin, f.a, f.c);
    if (f.d != f.c) refuse(in, origin, ".dtype must be .ctype");
  } else {
    refuse(in, origin, "needs .dtype.ctype or .dtype.atype.btype.ctype");
  }
  if ((int4(f.a) || f.a == MmaType::kB1) && (q.a_col || !q.b_col)) refuse(in, origin, "sub-byte wmma is .row.col");
  if ((f.a == MmaType::kB1) != (q.bitop != 0)) refuse(in, origin, ".b1 needs .xor.popc or .and.popc (and only .b1 takes them)");
  if (in.satfinite && !(int8(f.a) || int4(f.a))) refuse(in, origin, ".satfinite is for integer wmma only");
  if (in.rounding != Rounding::kNone && f.a != MmaType::kF64) refuse(in, origin, "a rounding mode is for .f64 only");
  f.regs[0] = wmma_regs(q, 'd', f.d);
  f.regs[1] = wmma_regs(q, 'a', f.a);
  f.regs[2] = wmma_regs(q, 'b', f.b);
  f.regs[3] = wmma_regs(q, 'c', f.c);
  f.wide = f.a == MmaType::kF64;
  return f;
}

MmaForm mma_sync(const Instruction& in, std::string_view origin) {
  const MmaQualifiers& q = in.mma;
  MmaForm f;
  f.m = q.m;
  f.n = q.n;
  f.k = q.k;
  if (q.ntypes != 4) refuse(in, origin, "needs .dtype.atype.btype.ctype");
  f.d = q.types[0];
  f.a = q.types[1];
  f.b = q.types[2];
  f.c = q.types[3];
  if (q.layouts != 2) refuse(in, origin, "needs .alayout.blayout");
  const bool row_col = !q.a_col && q.b_col;
  const auto shape = [&](std::initializer_list<std::array<int, 3>> ok) {
    for (const auto& s : ok)
      if (shape_is(q, s[0], s[1], s[2])) return true;
    return false;
  };
  std::string bad;
  if (f.a == MmaType::kF16 && f.b == MmaType::kF16) {
    if (!f16_or_f32(f.c) || !f16_or_f32(f.d)) bad = ".dtype and .ctype are .f16 or .f32";
    else if (shape_is(q, 8, 8, 4)) {
      if (f.c == MmaType::kF32 && f.d != MmaType::kF32) bad = "with .ctype .f32, .dtype must be .f32";
    } else if (!shape({{16, 8, 8}, {16, 8, 16}})) bad = "no such .f16 shape";
    else if (!row_col) bad = "this shape is .row.col";
    else if (f.c != f.d) bad = ".dtype must be .ctype";
  } else if (f.a == MmaType::kBF16 && f.b == MmaType::kBF16) {
    if (!shape({{16, 8, 8}, {16, 8, 16}}) || f.c != MmaType::kF32 || f.d != MmaType::kF32 || !row_col) bad = "no such .bf16 form";
  } else if (f.a == MmaType::kTF32 && f.b == MmaType::kTF32) {
    if (!shape({{16, 8, 4}, {16, 8, 8}}) || f.c != MmaType::kF32 || f.d != MmaType::kF32 || !row_col) bad = "no such .tf32 form";
  } else if (fp8(f.a) && fp8(f.b)) {
    if (!shape({{16, 8, 16}, {16, 8, 32}}) || !f16_or_f32(f.c) || f.c != f.d || !row_col) bad = "no such .e4m3/.e5m2 form";
  } else if (f.a == MmaType::kF64 && f.b == MmaType::kF64) {
    if (!shape({{8, 8, 4}, {16, 8, 4}, {16, 8, 8}, {16, 8, 16}}) || f.c != MmaType::kF64 || f.d != MmaType::kF64 || !row_col)
      bad = "no such .f64 form";
  } else if (int8(f.a) && int8(f.b)) {
    if (!shape({{8, 8, 16}, {16, 8, 16}, {16, 8, 32}}) || f.c != MmaType::kS32 || f.d != MmaType::kS32 || !row_col)
      bad = "no such 8-bit integer form";
  } else if (int4(f.a) && int4(f.b)) {
    if (!shape({{8, 8, 32}, {16, 8, 32}, {16, 8, 64}}) || f.c != MmaType::kS32 || f.d != MmaType::kS32 || !row_col)
      bad = "no such 4-bit integer form";
  } else if (f.a == MmaType::kB1 && f.b == MmaType::kB1) {
    if (!shape({{8, 8, 128}, {16, 8, 128}, {16, 8, 256}}) || f.c != MmaType::kS32 || f.d != MmaType::kS32 || !row_col)
      bad = "no such .b1 form";
  } else {
    bad = fmt::format("no mma multiplies .{} by .{}", to_string(f.a), to_string(f.b));
  }
  if (bad.empty() && (f.a == MmaType::kB1) != (q.bitop != 0)) bad = ".b1 needs .xor.popc or .and.popc (and only .b1 takes them)";
  if (bad.empty() && in.satfinite && !(int8(f.a) || int4(f.a))) bad = ".satfinite is for integer mma only";
  if (bad.empty() && in.rounding != Rounding::kNone && f.a != MmaType::kF64) bad = "a rounding mode is for .f64 only";
  if (!bad.empty()) refuse(in, origin, bad + fmt::format(" (.m{}n{}k{} .{}.{}.{}.{})", q.m, q.n, q.k, to_string(f.d),
                                                        to_string(f.a), to_string(f.b), to_string(f.c)));
  if (shape_is(q, 8, 8, 4) && f.a == MmaType::kF16) {  // four MMAs of quad pairs (9.7.14.5.1)
    f.regs[0] = regs_of(8, f.d);
    f.regs[1] = 2;
    f.regs[2] = 2;
    f.regs[3] = regs_of(8, f.c);
  } else {
    f.regs[0] = regs_of(q.m * q.n / 32, f.d);
    f.regs[1] = regs_of(q.m * q.k / 32, f.a);
    f.regs[2] = regs_of(q.k * q.n / 32, f.b);
    f.regs[3] = regs_of(q.m * q.n / 32, f.c);
  }
  f.wide = f.a == MmaType::kF64;
  return f;
}

MmaForm ld_st_mov_matrix(const Instruction& in, std::string_view origin) {
  const MmaQualifiers& q = in.mma;
  MmaForm f;
  f.m = q.m;
  f.n = q.n;
  if (!shape_is(q, 8, 8, 0)) refuse(in, origin, "only .m8n8 matrices exist on sm_90 (.m16n16/.m8n16/.m16n8 need sm_100a)");
  if (q.ntypes != 1 || q.types[0] != MmaType::kB16)
    refuse(in, origin, "only .b16 elements exist on sm_90 (.b8 and the packed formats need sm_100a)");
  if (q.layouts != 0 || q.bitop != 0 || q.matrix != 0) refuse(in, origin, "a qualifier of wmma/mma");
  f.a = f.b = f.c = f.d = MmaType::kB16;
  if (in.op == Opcode::kMovmatrix) {
    if (!q.trans) refuse(in, origin, "movmatrix needs .trans");
    if (q.num != 0) refuse(in, origin, "movmatrix moves one matrix");
    f.regs[0] = f.regs[1] = 1;
    return f;
  }
  if (q.num == 0) refuse(in, origin, "needs .x1, .x2 or .x4");
  if (in.space != StateSpace::kGeneric && in.space != StateSpace::kShared)
    refuse(in, origin, "ldmatrix/stmatrix address shared memory (.shared or a generic address)");
  f.regs[0] = q.num;
  return f;
}

}  // namespace

std::string_view to_string(MmaType t) {
  for (const TypeWord& w : kMmaTypes)
    if (w.type == t) return w.text;
  return "";
}

std::uint32_t mma_type_bits(MmaType t) {
  switch (t) {
    case MmaType::kF16: case MmaType::kBF16: case MmaType::kB16: return 16;
    case MmaType::kTF32: case MmaType::kF32: case MmaType::kS32: return 32;
    case MmaType::kF64: return 64;
    case MmaType::kS8: case MmaType::kU8: case MmaType::kE4M3: case MmaType::kE5M2: case MmaType::kB8: return 8;
    case MmaType::kS4: case MmaType::kU4: return 4;
    case MmaType::kB1: return 1;
    default: return 0;
  }
}

bool apply_mma_qualifier(std::string_view w, Instruction& in) {
  if (!is_matrix_op(in.op)) return false;
  MmaQualifiers& q = in.mma;
  if ((in.op == Opcode::kWmmaLoad || in.op == Opcode::kWmmaStore) && w.size() == 1 && std::string_view("abcd").find(w[0]) != std::string_view::npos) {
    if (q.matrix != 0) return false;
    q.matrix = w[0];
    return true;
  }
  if (w == "row" || w == "col") {
    if (q.layouts >= 2) return false;
    (q.layouts == 0 ? q.a_col : q.b_col) = w == "col";
    ++q.layouts;
    return true;
  }
  if (w[0] == 'm' && w.size() >= 4 && w[1] >= '0' && w[1] <= '9') {
    if (q.m != 0) return false;
    return parse_shape(w, q.m, q.n, q.k);
  }
  if (w == "x1" || w == "x2" || w == "x4") {
    if (q.num != 0) return false;
    q.num = static_cast<std::uint8_t>(w[1] - '0');
    return true;
  }
  if (w == "trans") {
    if (q.trans) return false;
    q.trans = true;
    return true;
  }
  if (w == "xor" || w == "and") {
    if (q.bitop != 0) return false;
    q.bitop = w == "xor" ? 1 : 2;
    return true;
  }
  if (w == "popc") return q.bitop != 0;
  for (const TypeWord& t : kMmaTypes) {
    if (t.text != w) continue;
    if (q.ntypes >= 4) return false;
    q.types[q.ntypes++] = t.type;
    return true;
  }
  return false;
}

MmaForm mma_form(const Instruction& in, std::string_view origin) {
  if (!in.sync || !in.aligned) refuse(in, origin, "needs .sync.aligned");
  switch (in.op) {
    case Opcode::kWmmaLoad:
    case Opcode::kWmmaStore: return wmma_load_store(in, origin);
    case Opcode::kWmmaMma: return wmma_mma(in, origin);
    case Opcode::kMma: return mma_sync(in, origin);
    case Opcode::kLdmatrix:
    case Opcode::kStmatrix:
    case Opcode::kMovmatrix: return ld_st_mov_matrix(in, origin);
    case Opcode::kWgmmaMma: return wgmma_form(in, origin);
    default: refuse(in, origin, "not a matrix instruction");
  }
}

}  // namespace warpscope::ptx
