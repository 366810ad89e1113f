// cp.reduce.async.bulk's element operations (bulk_reduce.hpp states the rules and their source).
#include "exec/bulk_reduce.hpp"

#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "exec/smallfloat.hpp"

namespace warpscope::exec::bulkred {
namespace {

using ptx::ReduceOp;

bool is_nan(std::uint64_t b, unsigned exp_bits, unsigned mant_bits) {
  const std::uint64_t e = (b >> mant_bits) & ((1ull << exp_bits) - 1);
  return e == (1ull << exp_bits) - 1 && (b & ((1ull << mant_bits) - 1)) != 0;
}

std::uint32_t f32_flush(std::uint32_t b) { return (b & 0x7f800000u) == 0 ? (b & 0x80000000u) : b; }

std::uint32_t add_f32(std::uint32_t a, std::uint32_t b, bool ftz) {
  if (ftz) {
    a = f32_flush(a);
    b = f32_flush(b);
  }
  const float r = std::bit_cast<float>(a) + std::bit_cast<float>(b);  // the host rounds to nearest even
  std::uint32_t bits = std::bit_cast<std::uint32_t>(r);
  if (std::isnan(r)) return 0x7fffffffu;
  if (ftz) bits = f32_flush(bits);
  return bits;
}

std::uint64_t add_f64(std::uint64_t a, std::uint64_t b) {
  if (is_nan(b, 11, 52)) return b;
  if (is_nan(a, 11, 52)) return a;
  const double r = std::bit_cast<double>(a) + std::bit_cast<double>(b);
  if (std::isnan(r)) return 0xfff8000000000000ull;  // inf + -inf
  return std::bit_cast<std::uint64_t>(r);
}

std::uint16_t add_half(std::uint16_t a, std::uint16_t b, FloatFormat f) {
  // The sum of two half or bfloat16 values is exact in double, so one rounding remains.
  return static_cast<std::uint16_t>(encode_small(decode_small(a, f) + decode_small(b, f), f, Round::kNearestEven));
}

std::uint16_t minmax_half(std::uint16_t a, std::uint16_t b, FloatFormat f, bool max) {
  const bool na = is_nan(a, f.exp_bits, f.mant_bits), nb = is_nan(b, f.exp_bits, f.mant_bits);
  if (na && nb) return static_cast<std::uint16_t>(f.canonical_nan);
  if (na) return b;
  if (nb) return a;
  const double va = decode_small(a, f), vb = decode_small(b, f);
  if (va == vb) {  // equal values: only zeros of different signs differ; -0 < +0
    const bool a_neg = (a & 0x8000u) != 0;
    return (max ? !a_neg : a_neg) ? a : b;
  }
  return (max ? va > vb : va < vb) ? a : b;
}

template <class T>
T int_op(ReduceOp op, T a, T b) {
  switch (op) {
    case ReduceOp::kAdd: return static_cast<T>(a + b);
    case ReduceOp::kMin: return a < b ? a : b;
    case ReduceOp::kMax: return a > b ? a : b;
    case ReduceOp::kInc: return a >= b ? T(0) : static_cast<T>(a + 1);
    case ReduceOp::kDec: return (a == 0 || a > b) ? b : static_cast<T>(a - 1);
    case ReduceOp::kAnd: return a & b;
    case ReduceOp::kOr: return a | b;
    case ReduceOp::kXor: return a ^ b;
    default: return a;
  }
}

/// One element: new value from the old and the source (both as unsigned bits of the element).
std::uint64_t combine(ReduceOp op, Elem e, std::uint64_t a, std::uint64_t b) {
  switch (e) {
    case Elem::kB32: case Elem::kU32:
      return int_op<std::uint32_t>(op, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
    case Elem::kS32:
      return static_cast<std::uint32_t>(int_op<std::int32_t>(op, static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)));
    case Elem::kB64: case Elem::kU64: return int_op<std::uint64_t>(op, a, b);
    case Elem::kS64:
      return static_cast<std::uint64_t>(int_op<std::int64_t>(op, static_cast<std::int64_t>(a), static_cast<std::int64_t>(b)));
    case Elem::kF16: case Elem::kBF16: {
      const FloatFormat f = e == Elem::kF16 ? kF16 : kBF16;
      const auto x = static_cast<std::uint16_t>(a), y = static_cast<std::uint16_t>(b);
      return op == ReduceOp::kAdd ? add_half(x, y, f) : minmax_half(x, y, f, op == ReduceOp::kMax);
    }
    case Elem::kF32: case Elem::kF32Ftz:
      return add_f32(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), e == Elem::kF32Ftz);
    case Elem::kF64: return add_f64(a, b);
  }
  return a;
}

template <class U>
void reduce_as(ReduceOp op, Elem e, std::uint8_t* dst, const std::uint8_t* src, std::size_t n, bool atomic) {
  for (std::size_t k = 0; k + sizeof(U) <= n; k += sizeof(U)) {
    U s;
    std::memcpy(&s, src + k, sizeof(U));
    if (atomic) {
      std::atomic_ref<U> ref(*reinterpret_cast<U*>(dst + k));
      U cur = ref.load(std::memory_order_relaxed);
      while (!ref.compare_exchange_weak(cur, static_cast<U>(combine(op, e, cur, s)), std::memory_order_relaxed)) {
      }
    } else {
      U d;
      std::memcpy(&d, dst + k, sizeof(U));
      d = static_cast<U>(combine(op, e, d, s));
      std::memcpy(dst + k, &d, sizeof(U));
    }
  }
}

}  // namespace

unsigned element_bytes(Elem e) {
  switch (e) {
    case Elem::kF16: case Elem::kBF16: return 2;
    case Elem::kB64: case Elem::kU64: case Elem::kS64: case Elem::kF64: return 8;
    default: return 4;
  }
}

std::string_view name(Elem e) {
  switch (e) {
    case Elem::kB32: return "b32";
    case Elem::kU32: return "u32";
    case Elem::kS32: return "s32";
    case Elem::kB64: return "b64";
    case Elem::kU64: return "u64";
    case Elem::kS64: return "s64";
    case Elem::kF16: return "f16";
    case Elem::kBF16: return "bf16";
    case Elem::kF32: return "f32";
    case Elem::kF32Ftz: return "f32 (FLOAT32_FTZ)";
    case Elem::kF64: return "f64";
  }
  return "?";
}

std::optional<Elem> from_ptx(ptx::Type t) {
  switch (t) {
    case ptx::Type::kB32: return Elem::kB32;
    case ptx::Type::kU32: return Elem::kU32;
    case ptx::Type::kS32: return Elem::kS32;
    case ptx::Type::kB64: return Elem::kB64;
    case ptx::Type::kU64: return Elem::kU64;
    case ptx::Type::kS64: return Elem::kS64;
    case ptx::Type::kF16: return Elem::kF16;
    case ptx::Type::kBF16: return Elem::kBF16;
    case ptx::Type::kF32: return Elem::kF32;
    case ptx::Type::kF64: return Elem::kF64;
    default: return std::nullopt;
  }
}

std::optional<Elem> from_tensor_map(unsigned data_type) {
  // CUtensorMapDataType: 2 UINT32, 3 INT32, 4 UINT64, 5 INT64, 6 FLOAT16, 7 FLOAT32, 8 FLOAT64,
  // 9 BFLOAT16, 10 FLOAT32_FTZ, 11 TFLOAT32 (measured: reduced as f32, unrounded).
  switch (data_type) {
    case 2: return Elem::kU32;
    case 3: return Elem::kS32;
    case 4: return Elem::kU64;
    case 5: return Elem::kS64;
    case 6: return Elem::kF16;
    case 7: case 11: return Elem::kF32;
    case 8: return Elem::kF64;
    case 9: return Elem::kBF16;
    case 10: return Elem::kF32Ftz;
    default: return std::nullopt;
  }
}

bool valid(ReduceOp op, Elem e) {
  switch (op) {
    case ReduceOp::kAdd:
      return e == Elem::kU32 || e == Elem::kS32 || e == Elem::kU64 || e == Elem::kF16 || e == Elem::kBF16 ||
             e == Elem::kF32 || e == Elem::kF32Ftz || e == Elem::kF64;
    case ReduceOp::kMin: case ReduceOp::kMax:
      return e == Elem::kU32 || e == Elem::kS32 || e == Elem::kU64 || e == Elem::kS64 || e == Elem::kF16 || e == Elem::kBF16;
    case ReduceOp::kInc: case ReduceOp::kDec: return e == Elem::kU32;
    case ReduceOp::kAnd: case ReduceOp::kOr: case ReduceOp::kXor:
      return e == Elem::kB32 || e == Elem::kB64;
    default: return false;
  }
}

void reduce(ReduceOp op, Elem e, std::uint8_t* dst, const std::uint8_t* src, std::size_t n, bool atomic) {
  switch (element_bytes(e)) {
    case 2: reduce_as<std::uint16_t>(op, e, dst, src, n, atomic); break;
    case 4: reduce_as<std::uint32_t>(op, e, dst, src, n, atomic); break;
    default: reduce_as<std::uint64_t>(op, e, dst, src, n, atomic); break;
  }
}

}  // namespace warpscope::exec::bulkred
