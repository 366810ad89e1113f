// Helpers shared by the semantic-function files (ops_*.cpp): reading a slot as a C++ type,
// writing a result back, and the lane loops every semantic function is built from.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "exec/decode.hpp"
#include "exec/program.hpp"

namespace warpscope::exec {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/// Reads the low bits of a slot as T.
template <class T>
inline T get(std::uint64_t v) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(v));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(v);
  } else {
    return static_cast<T>(v);
  }
}

/// The slot value of a result of type T (integers zero-extended, floats as their bits).
template <class T>
inline std::uint64_t put(T v) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(v);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? 1u : 0u;
  } else {
    return static_cast<std::make_unsigned_t<T>>(v);
  }
}

/// GPUs return one canonical NaN for every float result that is NaN. (Integer compare and
/// select, so that lane loops stay branch-free and vectorize.)
inline float canon(float f) {
  const std::uint32_t b = std::bit_cast<std::uint32_t>(f);
  return std::bit_cast<float>((b & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : b);
}
inline double canon(double f) {
  const std::uint64_t b = std::bit_cast<std::uint64_t>(f);
  return std::bit_cast<double>((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull ? 0x7fffffffffffffffull : b);
}

/// Flush-to-zero of a subnormal f32 (sign kept).
inline float ftz(float f) {
  const std::uint32_t b = std::bit_cast<std::uint32_t>(f);
  return (b & 0x7f800000u) == 0 ? std::bit_cast<float>(b & 0x80000000u) : f;
}

// --- lane loops -------------------------------------------------------------------------------

/// d = F(a)
template <class R, class A, class F>
inline void lanes1(const Inst& in, Ctx& x, std::uint32_t m, F f) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) { d[l] = put<R>(f(get<A>(a[l]))); });
}

/// d = F(a, b)
template <class R, class A, class B, class F>
inline void lanes2(const Inst& in, Ctx& x, std::uint32_t m, F f) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  for_lanes(m, [&](unsigned l) { d[l] = put<R>(f(get<A>(a[l]), get<B>(b[l]))); });
}

/// d = F(a, b, c)
template <class R, class A, class B, class C, class F>
inline void lanes3(const Inst& in, Ctx& x, std::uint32_t m, F f) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  for_lanes(m, [&](unsigned l) { d[l] = put<R>(f(get<A>(a[l]), get<B>(b[l]), get<C>(c[l]))); });
}

/// The predicate bits of a slot as a lane mask.
inline std::uint32_t pred_mask(const std::uint64_t* p) {
  std::uint32_t m = 0;
  for (unsigned l = 0; l < kLanes; ++l) m |= static_cast<std::uint32_t>(p[l] & 1u) << l;
  return m;
}

}  // namespace warpscope::exec
