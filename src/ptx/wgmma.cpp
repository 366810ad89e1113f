// wgmma.mma_async's forms (PTX ISA 9.0, "9.7.15.5.2 wgmma.mma_async"): the shapes .m64nNkK and
// the type combinations sm_90a accepts, with the registers of the accumulator fragment.
#include <string>

#include "common/error.hpp"
#include "ptx/mma.hpp"

namespace warpscope::ptx {

namespace {

[[noreturn]] void refuse(const Instruction& in, std::string_view origin, const std::string& why) {
  fail(ErrorKind::kUnsupported, "{}:{}:{}: unsupported form of '{}' (line {}): {}", origin, in.ptx.line, in.ptx.column,
       in.text, in.ptx.line, why);
}

bool fp8(MmaType t) { return t == MmaType::kE4M3 || t == MmaType::kE5M2; }
bool int8(MmaType t) { return t == MmaType::kS8 || t == MmaType::kU8; }

}  // namespace

MmaForm wgmma_form(const Instruction& in, std::string_view origin) {
  const MmaQualifiers& q = in.mma;
  if (q.layouts != 0 || q.num != 0 || q.trans || q.matrix != 0) refuse(in, origin, "a qualifier of wmma/mma/ldmatrix");
  if (q.ntypes != 3) refuse(in, origin, "needs three types: .dtype.atype.btype");
  MmaForm f;
  f.m = q.m;
  f.n = q.n;
  f.k = q.k;
  f.d = f.c = q.types[0];
  f.a = q.types[1];
  f.b = q.types[2];
  std::string bad;
  unsigned want_k = 0;
  bool n_ok = q.n >= 8 && q.n <= 256 && q.n % 8 == 0;
  const bool n_int = n_ok && (q.n <= 32 || q.n % 16 == 0);  // integer and .b1: 8, 16, 24, 32, 48, ..., 256
  if (f.a == MmaType::kF16 && f.b == MmaType::kF16) {
    want_k = 16;
    if (f.d != MmaType::kF16 && f.d != MmaType::kF32) bad = ".f16 multiplicands accumulate in .f16 or .f32";
    f.imms = 4;
  } else if (f.a == MmaType::kBF16 && f.b == MmaType::kBF16) {
    want_k = 16;
    if (f.d != MmaType::kF32) bad = ".bf16 multiplicands accumulate in .f32";
    f.imms = 4;
  } else if (f.a == MmaType::kTF32 && f.b == MmaType::kTF32) {
    want_k = 8;
    if (f.d != MmaType::kF32) bad = ".tf32 multiplicands accumulate in .f32";
    f.imms = 2;
  } else if (fp8(f.a) && fp8(f.b)) {
    want_k = 32;
    if (f.d != MmaType::kF16 && f.d != MmaType::kF32) bad = "8-bit float multiplicands accumulate in .f16 or .f32";
    f.imms = 2;
  } else if (int8(f.a) && int8(f.b)) {
    want_k = 32;
    n_ok = n_int;
    if (f.d != MmaType::kS32) bad = "8-bit integer multiplicands accumulate in .s32";
  } else if (f.a == MmaType::kB1 && f.b == MmaType::kB1) {
    want_k = 256;
    n_ok = n_int;
    if (f.d != MmaType::kS32) bad = ".b1 multiplicands accumulate in .s32";
    else if (q.bitop != 2) bad = ".b1 needs .and.popc";
  } else {
    bad = fmt::format("no wgmma multiplies .{} by .{}", to_string(f.a), to_string(f.b));
  }
  if (bad.empty() && (q.m != 64 || q.k != want_k || !n_ok))
    bad = fmt::format("no shape .m{}n{}k{} for these types (.m64nNk{} with N = {})", q.m, q.n, q.k, want_k,
                      f.imms ? "8, 16, ..., 256" : "8, 16, 24, 32, 48, 64, ..., 256");
  if (bad.empty() && q.bitop != 0 && f.a != MmaType::kB1) bad = ".and.popc is for .b1 only";
  if (bad.empty() && in.satfinite && !int8(f.a)) bad = ".satfinite is for 8-bit integer wgmma only";
  if (!bad.empty())
    refuse(in, origin, bad + fmt::format(" (.m{}n{}k{} .{}.{}.{})", q.m, q.n, q.k, to_string(f.d), to_string(f.a), to_string(f.b)));
  f.regs[0] = static_cast<std::uint8_t>(f.d == MmaType::kF16 ? q.n / 4 : q.n / 2);
  f.regs[1] = 4;
  f.regs[2] = 1;
  return f;
}

}  // namespace warpscope::ptx
