// Integer arithmetic, bit manipulation, logic and shifts (PTX ISA "Integer Arithmetic", "Logic and
// Shift" instructions). Each operation is a small template instantiated per type; decode_int
// picks the instantiation for the instruction's type and modifiers.
//
// Division by zero does what the hardware does: an unsigned quotient of all ones, a signed
// quotient of -1 (dividend >= 0) or 1 (dividend < 0), a remainder equal to the dividend. The most
// negative value divided by -1 wraps (quotient = dividend, remainder 0).
#include <bit>
#include <limits>

#include "exec/ops_common.hpp"
#include "exec/segments.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

template <class T>
using U = std::make_unsigned_t<T>;
template <class T>
using S = std::make_signed_t<T>;

template <class T>
constexpr unsigned kBits = sizeof(T) * 8;

template <class T>
inline T wadd(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b)); }
template <class T>
inline T wsub(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b)); }
template <class T>
inline T wmul(T a, T b) {
  if constexpr (sizeof(T) < sizeof(unsigned)) {
    return static_cast<T>(static_cast<unsigned>(static_cast<U<T>>(a)) *
                          static_cast<unsigned>(static_cast<U<T>>(b)));
  } else {
    return static_cast<T>(static_cast<U<T>>(a) * static_cast<U<T>>(b));
  }
}

/// The high half of the full product.
template <class T>
inline T mulhi(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    if constexpr (std::is_signed_v<T>) {
      return static_cast<T>((static_cast<i128>(a) * static_cast<i128>(b)) >> 64);
    } else {
      return static_cast<T>((static_cast<u128>(a) * b) >> 64);
    }
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> kBits<T>);
  }
}

template <class T>
struct Wide;
template <> struct Wide<std::int16_t> { using type = std::int32_t; };
template <> struct Wide<std::uint16_t> { using type = std::uint32_t; };
template <> struct Wide<std::int32_t> { using type = std::int64_t; };
template <> struct Wide<std::uint32_t> { using type = std::uint64_t; };

template <class T>
inline T divide(T a, T b) {
  if (b == 0) {
    if constexpr (std::is_signed_v<T>) return a >= 0 ? T(-1) : T(1);
    else return std::numeric_limits<T>::max();
  }
  if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
  }
  return static_cast<T>(a / b);
}
template <class T>
inline T remainder_of(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == T(-1)) return 0;
  }
  return static_cast<T>(a % b);
}

template <class T>
inline T sat_s32(std::int64_t v) {
  if (v > std::numeric_limits<std::int32_t>::max()) return std::numeric_limits<std::int32_t>::max();
  if (v < std::numeric_limits<std::int32_t>::min()) return std::numeric_limits<std::int32_t>::min();
  return static_cast<T>(v);
}

// --- the semantic functions -------------------------------------------------------------------

template <class T> void add(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return wadd(a, b); });
}
template <class T> void sub(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return wsub(a, b); });
}
void add_sat(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<std::int32_t, std::int32_t, std::int32_t>(in, x, m, [](std::int32_t a, std::int32_t b) {
    return sat_s32<std::int32_t>(std::int64_t(a) + b);
  });
}
void sub_sat(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<std::int32_t, std::int32_t, std::int32_t>(in, x, m, [](std::int32_t a, std::int32_t b) {
    return sat_s32<std::int32_t>(std::int64_t(a) - b);
  });
}

/// add.cc / addc / sub.cc / subc (and their .cc forms): the carry flag is a slot of 0/1 per lane.
template <class T, bool Sub, bool CarryIn, bool CarryOut>
void add_carry(const Inst& in, Ctx& x, std::uint32_t m) {
  using UT = U<T>;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  std::uint64_t* cf = x.reg(in.e);
  for_lanes(m, [&](unsigned l) {
    const UT va = get<UT>(a[l]), vb = get<UT>(b[l]);
    const UT cin = CarryIn ? static_cast<UT>(cf[l] & 1) : UT(0);
    UT r;
    bool cout;
    if constexpr (Sub) {
      r = static_cast<UT>(va - vb - cin);
      cout = (static_cast<u128>(vb) + cin) > va;  // borrow
    } else {
      r = static_cast<UT>(va + vb + cin);
      cout = (static_cast<u128>(va) + vb + cin) >> kBits<UT>;
    }
    d[l] = put<UT>(r);
    if constexpr (CarryOut) cf[l] = cout ? 1 : 0;
  });
}

template <class T> void mul_lo(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return wmul(a, b); });
}
template <class T> void mul_hi(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return mulhi(a, b); });
}
template <class T> void mul_wide(const Inst& in, Ctx& x, std::uint32_t m) {
  using W = typename Wide<T>::type;
  lanes2<W, T, T>(in, x, m, [](T a, T b) { return static_cast<W>(static_cast<W>(a) * static_cast<W>(b)); });
}
template <class T> void mad_lo(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<T, T, T, T>(in, x, m, [](T a, T b, T c) { return wadd(wmul(a, b), c); });
}
template <class T> void mad_hi(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<T, T, T, T>(in, x, m, [](T a, T b, T c) { return wadd(mulhi(a, b), c); });
}
void mad_hi_sat(const Inst& in, Ctx& x, std::uint32_t m) {
  using T = std::int32_t;
  lanes3<T, T, T, T>(in, x, m,
                     [](T a, T b, T c) { return sat_s32<T>(std::int64_t(mulhi(a, b)) + c); });
}
template <class T> void mad_wide(const Inst& in, Ctx& x, std::uint32_t m) {
  using W = typename Wide<T>::type;
  lanes3<W, T, T, W>(in, x, m, [](T a, T b, W c) {
    return wadd(static_cast<W>(static_cast<W>(a) * static_cast<W>(b)), c);
  });
}
/// mad.lo.cc / mad.hi.cc / madc.lo / madc.hi (.cc)
template <class T, bool Hi, bool CarryIn, bool CarryOut>
void mad_carry(const Inst& in, Ctx& x, std::uint32_t m) {
  using UT = U<T>;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  std::uint64_t* cf = x.reg(in.e);
  for_lanes(m, [&](unsigned l) {
    const T p = Hi ? mulhi(get<T>(a[l]), get<T>(b[l])) : wmul(get<T>(a[l]), get<T>(b[l]));
    const UT vp = static_cast<UT>(p), vc = get<UT>(c[l]);
    const UT cin = CarryIn ? static_cast<UT>(cf[l] & 1) : UT(0);
    d[l] = put<UT>(static_cast<UT>(vp + vc + cin));
    if constexpr (CarryOut) cf[l] = ((static_cast<u128>(vp) + vc + cin) >> kBits<UT>) ? 1 : 0;
  });
}

template <class T> T ext24(T v) {
  if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<std::uint32_t>(v) << 8) >> 8;
  else return v & 0xffffffu;
}
template <class T, bool Hi> void mul24(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    const W p = static_cast<W>(ext24(a)) * static_cast<W>(ext24(b));
    return Hi ? static_cast<T>(p >> 16) : static_cast<T>(p);
  });
}
template <class T, bool Hi> void mad24(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<T, T, T, T>(in, x, m, [](T a, T b, T c) {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    const W p = static_cast<W>(ext24(a)) * static_cast<W>(ext24(b));
    return wadd(Hi ? static_cast<T>(p >> 16) : static_cast<T>(p), c);
  });
}
template <class T> void sad(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<T, T, T, T>(in, x, m, [](T a, T b, T c) {
    const U<T> diff = a < b ? static_cast<U<T>>(static_cast<U<T>>(b) - static_cast<U<T>>(a))
                            : static_cast<U<T>>(static_cast<U<T>>(a) - static_cast<U<T>>(b));
    return static_cast<T>(static_cast<U<T>>(diff + static_cast<U<T>>(c)));
  });
}
template <class T> void div_int(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return divide(a, b); });
}
template <class T> void rem_int(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return remainder_of(a, b); });
}
template <class T> void abs_int(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) { return a < 0 ? wsub(T(0), a) : a; });
}
template <class T> void neg_int(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) { return wsub(T(0), a); });
}
template <class T, bool Max, bool Relu> void minmax_int(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) {
    T r = Max ? (a > b ? a : b) : (a < b ? a : b);
    if constexpr (Relu) r = r < 0 ? T(0) : r;
    return r;
  });
}
template <class T> void popc(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<std::uint32_t, T>(in, x, m, [](T a) { return static_cast<std::uint32_t>(std::popcount(a)); });
}
template <class T> void clz(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<std::uint32_t, T>(in, x, m, [](T a) { return static_cast<std::uint32_t>(std::countl_zero(a)); });
}
template <class T> void brev(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) {
    T r = 0;
    for (unsigned i = 0; i < kBits<T>; ++i) r |= static_cast<T>(((a >> i) & 1u)) << (kBits<T> - 1 - i);
    return r;
  });
}
/// bfind: position of the most significant non-sign bit; 0xffffffff when none.
template <class T, bool ShiftAmt> void bfind(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<std::uint32_t, T>(in, x, m, [](T a) {
    U<T> v = static_cast<U<T>>(a);
    if constexpr (std::is_signed_v<T>) {
      if (a < 0) v = static_cast<U<T>>(~v);
    }
    if (v == 0) return 0xffffffffu;
    const std::uint32_t msb = kBits<T> - 1 - static_cast<std::uint32_t>(std::countl_zero(v));
    return ShiftAmt ? (kBits<T> - 1 - msb) : msb;
  });
}
template <class T> void bfe(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<T, T, std::uint32_t, std::uint32_t>(in, x, m, [](T a, std::uint32_t b, std::uint32_t c) {
    const unsigned msb = kBits<T> - 1;
    const unsigned pos = b & 0xff, len = c & 0xff;
    const U<T> ua = static_cast<U<T>>(a);
    unsigned sbit = 0;
    if (std::is_signed_v<T> && len != 0) {
      const unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
      sbit = static_cast<unsigned>((ua >> top) & 1u);
    }
    U<T> d = 0;
    for (unsigned i = 0; i <= msb; ++i) {
      const unsigned bit = (i < len && pos + i <= msb) ? static_cast<unsigned>((ua >> (pos + i)) & 1u) : sbit;
      d |= static_cast<U<T>>(bit) << i;
    }
    return static_cast<T>(d);
  });
}
template <class T> void bfi(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t *a = x.reg(in.a), *b = x.reg(in.b), *c = x.reg(in.c), *e = x.reg(in.e);
  for_lanes(m, [&](unsigned l) {
    const unsigned msb = kBits<T> - 1;
    const unsigned pos = get<std::uint32_t>(c[l]) & 0xff, len = get<std::uint32_t>(e[l]) & 0xff;
    T f = get<T>(b[l]);
    const T va = get<T>(a[l]);
    for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
      f = static_cast<T>((f & ~(T(1) << (pos + i))) | (((va >> i) & T(1)) << (pos + i)));
    }
    d[l] = put<T>(f);
  });
}

inline std::uint32_t prmt_byte(ptx::PrmtMode mode, unsigned ctl, unsigned i, std::uint64_t src) {
  unsigned sel = 0;
  switch (mode) {
    case ptx::PrmtMode::kNone: {
      const unsigned byte = static_cast<unsigned>((src >> ((ctl & 7) * 8)) & 0xff);
      if (ctl & 8) return (byte & 0x80) ? 0xff : 0x00;
      return byte;
    }
    case ptx::PrmtMode::kF4e: sel = (ctl + i) & 7; break;
    case ptx::PrmtMode::kB4e: sel = (ctl - i) & 7; break;
    case ptx::PrmtMode::kRc8: sel = ctl; break;
    case ptx::PrmtMode::kEcl: sel = i > ctl ? i : ctl; break;
    case ptx::PrmtMode::kEcr: sel = i < ctl ? i : ctl; break;
    case ptx::PrmtMode::kRc16: sel = (ctl & 1) * 2 + (i & 1); break;
  }
  return static_cast<std::uint32_t>((src >> (sel * 8)) & 0xff);
}
template <ptx::PrmtMode Mode> void prmt(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>(
      in, x, m, [](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        const std::uint64_t src = (std::uint64_t(b) << 32) | a;
        std::uint32_t r = 0;
        for (unsigned i = 0; i < 4; ++i) {
          const unsigned ctl = Mode == ptx::PrmtMode::kNone ? (c >> (4 * i)) & 0xf : c & 3;
          r |= prmt_byte(Mode, ctl, i, src) << (8 * i);
        }
        return r;
      });
}

template <bool ASigned, bool BSigned> void dp4a(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>(
      in, x, m, [](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        std::int64_t acc = static_cast<std::int32_t>(c);
        if (!ASigned && !BSigned) acc = c;
        for (unsigned i = 0; i < 4; ++i) {
          const std::uint32_t ba = (a >> (8 * i)) & 0xff, bb = (b >> (8 * i)) & 0xff;
          const std::int64_t va = ASigned ? static_cast<std::int8_t>(ba) : std::int64_t(ba);
          const std::int64_t vb = BSigned ? static_cast<std::int8_t>(bb) : std::int64_t(bb);
          acc += va * vb;
        }
        return static_cast<std::uint32_t>(acc);
      });
}
template <bool ASigned, bool BSigned, bool Hi> void dp2a(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>(
      in, x, m, [](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        std::int64_t acc = (!ASigned && !BSigned) ? std::int64_t(c) : std::int64_t(static_cast<std::int32_t>(c));
        for (unsigned i = 0; i < 2; ++i) {
          const std::uint32_t ha = (a >> (16 * i)) & 0xffff, bb = (b >> (8 * (i + (Hi ? 2 : 0)))) & 0xff;
          const std::int64_t va = ASigned ? static_cast<std::int16_t>(ha) : std::int64_t(ha);
          const std::int64_t vb = BSigned ? static_cast<std::int8_t>(bb) : std::int64_t(bb);
          acc += va * vb;
        }
        return static_cast<std::uint32_t>(acc);
      });
}

void fns(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<std::uint32_t, std::uint32_t, std::uint32_t, std::int32_t>(
      in, x, m, [](std::uint32_t mask, std::uint32_t base, std::int32_t offset) {
        std::uint32_t d = 0xffffffffu;
        if (offset == 0) {
          if (base < 32 && ((mask >> base) & 1)) d = base;
          return d;
        }
        int pos = static_cast<int>(base);
        std::int64_t count = (offset < 0 ? -std::int64_t(offset) : std::int64_t(offset)) - 1;
        const int inc = offset > 0 ? 1 : -1;
        while (pos >= 0 && pos < 32) {
          if ((mask >> pos) & 1) {
            if (count == 0) return static_cast<std::uint32_t>(pos);
            --count;
          }
          pos += inc;
        }
        return d;
      });
}
template <bool Clamp> void bmsk(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<std::uint32_t, std::uint32_t, std::uint32_t>(in, x, m, [](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    std::uint32_t mask0 = ~0u << a1;
    std::uint32_t mask1 = sum >= 32 ? 0u : (~0u << sum);
    bool overflow = sum >= 32;
    if (Clamp) {
      if (a >= 32) { overflow = true; mask0 = 0; }
      if (b >= 32) overflow = true;
    }
    if (overflow) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    return mask0 & ~mask1;
  });
}
template <bool Clamp, bool Signed> void szext(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<std::uint32_t, std::uint32_t, std::uint32_t>(in, x, m, [](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t b1 = b & 0x1f;
    const bool too_large = b >= 32 && Clamp;
    const std::uint32_t mask = too_large ? 0u : (~0u << b1);
    const std::uint32_t sign_pos = (b1 - 1) & 0x1f;
    const bool sign = (b1 == 0 || too_large || !Signed) ? false : ((a >> sign_pos) & 1);
    return (a & ~mask) | (sign ? mask : 0u);
  });
}

// --- logic and shifts ------------------------------------------------------------------------

template <class T> void and_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return static_cast<T>(a & b); });
}
template <class T> void or_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return static_cast<T>(a | b); });
}
template <class T> void xor_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return static_cast<T>(a ^ b); });
}
template <class T> void not_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) { return static_cast<T>(~a); });
}
template <class T> void cnot(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) { return static_cast<T>(a == 0 ? 1 : 0); });
}
// Predicates are 0/1: and/or/xor work as for integers; not flips bit 0.
void not_pred(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<std::uint8_t, std::uint8_t>(in, x, m, [](std::uint8_t a) { return static_cast<std::uint8_t>((a & 1) ^ 1); });
}
void lop3(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t lut = static_cast<std::uint32_t>(in.imm);
  lanes3<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>(
      in, x, m, [lut](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        std::uint32_t r = 0;
        for (unsigned bit = 0; bit < 8; ++bit) {
          if (!((lut >> bit) & 1)) continue;
          const std::uint32_t ta = (bit & 4) ? a : ~a;
          const std::uint32_t tb = (bit & 2) ? b : ~b;
          const std::uint32_t tc = (bit & 1) ? c : ~c;
          r |= ta & tb & tc;
        }
        return r;
      });
}
template <class T> void shl(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, std::uint32_t>(in, x, m, [](T a, std::uint32_t b) {
    return b >= kBits<T> ? T(0) : static_cast<T>(static_cast<U<T>>(a) << b);
  });
}
template <class T> void shr(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, std::uint32_t>(in, x, m, [](T a, std::uint32_t b) {
    if constexpr (std::is_signed_v<T>) return static_cast<T>(a >> (b >= kBits<T> ? kBits<T> - 1 : b));
    else return b >= kBits<T> ? T(0) : static_cast<T>(a >> b);
  });
}
template <bool Left, bool Clamp> void shf(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes3<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>(
      in, x, m, [](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        const std::uint32_t n = Clamp ? (c > 32 ? 32 : c) : (c & 31);
        const std::uint64_t v = (std::uint64_t(b) << 32) | a;
        if (Left) return static_cast<std::uint32_t>((v << n) >> 32);
        return static_cast<std::uint32_t>(v >> n);
      });
}

// --- dispatch --------------------------------------------------------------------------------

#define WS_INT_CASES(FN)                                                                 \
  case Type::kB16: case Type::kU16: return &FN<std::uint16_t>;                           \
  case Type::kS16: return &FN<std::int16_t>;                                             \
  case Type::kB32: case Type::kU32: return &FN<std::uint32_t>;                           \
  case Type::kS32: return &FN<std::int32_t>;                                             \
  case Type::kB64: case Type::kU64: return &FN<std::uint64_t>;                           \
  case Type::kS64: return &FN<std::int64_t>;

#define WS_PICK(NAME, FN)                           \
  ExecFn NAME(Type t) {                             \
    switch (t) { WS_INT_CASES(FN) default: break; } \
    return nullptr;                                 \
  }

WS_PICK(pick_add, add)
WS_PICK(pick_sub, sub)
WS_PICK(pick_mul_lo, mul_lo)
WS_PICK(pick_mul_hi, mul_hi)
WS_PICK(pick_mad_lo, mad_lo)
WS_PICK(pick_mad_hi, mad_hi)
WS_PICK(pick_div, div_int)
WS_PICK(pick_rem, rem_int)
WS_PICK(pick_sad, sad)
WS_PICK(pick_and, and_)
WS_PICK(pick_or, or_)
WS_PICK(pick_xor, xor_)
WS_PICK(pick_not, not_)
WS_PICK(pick_cnot, cnot)
WS_PICK(pick_shl, shl)
WS_PICK(pick_shr, shr)

ExecFn pick_signed(Type t, ExecFn s16, ExecFn s32, ExecFn s64) {
  switch (t) {
    case Type::kS16: return s16;
    case Type::kS32: return s32;
    case Type::kS64: return s64;
    default: return nullptr;
  }
}

template <bool Max, bool Relu>
ExecFn pick_minmax(Type t) {
  switch (t) {
    case Type::kU16: return &minmax_int<std::uint16_t, Max, false>;
    case Type::kS16: return &minmax_int<std::int16_t, Max, Relu>;
    case Type::kU32: return &minmax_int<std::uint32_t, Max, false>;
    case Type::kS32: return &minmax_int<std::int32_t, Max, Relu>;
    case Type::kU64: return &minmax_int<std::uint64_t, Max, false>;
    case Type::kS64: return &minmax_int<std::int64_t, Max, Relu>;
    default: return nullptr;
  }
}

template <bool Sub, bool CarryIn, bool CarryOut>
ExecFn pick_add_carry(Type t) {
  switch (t) {
    case Type::kU32: case Type::kS32: case Type::kB32: return &add_carry<std::uint32_t, Sub, CarryIn, CarryOut>;
    case Type::kU64: case Type::kS64: case Type::kB64: return &add_carry<std::uint64_t, Sub, CarryIn, CarryOut>;
    default: return nullptr;
  }
}
template <bool Hi, bool CarryIn, bool CarryOut>
ExecFn pick_mad_carry(Type t) {
  switch (t) {
    case Type::kU32: return &mad_carry<std::uint32_t, Hi, CarryIn, CarryOut>;
    case Type::kS32: return &mad_carry<std::int32_t, Hi, CarryIn, CarryOut>;
    case Type::kU64: return &mad_carry<std::uint64_t, Hi, CarryIn, CarryOut>;
    case Type::kS64: return &mad_carry<std::int64_t, Hi, CarryIn, CarryOut>;
    default: return nullptr;
  }
}

bool is_int_type(Type t) {
  return ptx::is_signed_int(t) || ptx::is_unsigned_int(t) || (ptx::is_bits(t) && t != Type::kB128);
}

/// Source type of the shift amount / bit positions: always .u32.
constexpr Type kU32 = Type::kU32;

}  // namespace

bool decode_int(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const Type t = ins.type;
  const auto& ops = ins.operands;
  const Opcode op = ins.op;
  auto need = [&](ExecFn f) {
    if (f == nullptr) {
      dc.unsupported(fmt::format("type .{} with these modifiers", ptx::to_string(t)));
    }
    out.fn = f;
  };
  auto std2 = [&](Type ta, Type tb) {
    out.d = dc.dst(ops[0]);
    out.a = dc.src(ops[1], ta);
    out.b = dc.src(ops[2], tb);
  };
  auto std3 = [&](Type ta, Type tb, Type tc) {
    std2(ta, tb);
    out.c = dc.src(ops[3], tc);
  };

  // Predicate logic: and/or/xor/not/cnot on .pred.
  if (t == Type::kPred) {
    switch (op) {
      case Opcode::kAnd: std2(t, t); need(&and_<std::uint8_t>); return true;
      case Opcode::kOr: std2(t, t); need(&or_<std::uint8_t>); return true;
      case Opcode::kXor: std2(t, t); need(&xor_<std::uint8_t>); return true;
      case Opcode::kNot: case Opcode::kCnot:
        out.d = dc.dst(ops[0]);
        out.a = dc.src(ops[1], t);
        need(&not_pred);
        return true;
      default: return false;
    }
  }
  if (!is_int_type(t)) return false;

  switch (op) {
    case Opcode::kAdd:
    case Opcode::kSub: {
      const bool sub = op == Opcode::kSub;
      if (ins.carry_out) {
        std2(t, t);
        out.e = dc.cc_slot();
        need(sub ? pick_add_carry<true, false, true>(t) : pick_add_carry<false, false, true>(t));
      } else if (ins.sat) {
        if (t != Type::kS32) dc.unsupported(".sat on a type other than .s32");
        std2(t, t);
        need(sub ? &sub_sat : &add_sat);
      } else {
        std2(t, t);
        need(sub ? pick_sub(t) : pick_add(t));
      }
      return true;
    }
    case Opcode::kAddc:
    case Opcode::kSubc: {
      std2(t, t);
      out.e = dc.cc_slot();
      const bool sub = op == Opcode::kSubc;
      if (ins.carry_out) need(sub ? pick_add_carry<true, true, true>(t) : pick_add_carry<false, true, true>(t));
      else need(sub ? pick_add_carry<true, true, false>(t) : pick_add_carry<false, true, false>(t));
      return true;
    }
    case Opcode::kMul: {
      if (ins.mul == ptx::MulMode::kWide) {
        std2(t, t);
        switch (t) {
          case Type::kU16: need(&mul_wide<std::uint16_t>); break;
          case Type::kS16: need(&mul_wide<std::int16_t>); break;
          case Type::kU32: need(&mul_wide<std::uint32_t>); break;
          case Type::kS32: need(&mul_wide<std::int32_t>); break;
          default: need(nullptr);
        }
      } else {
        std2(t, t);
        need(ins.mul == ptx::MulMode::kHi ? pick_mul_hi(t) : pick_mul_lo(t));
      }
      return true;
    }
    case Opcode::kMad:
    case Opcode::kMadc: {
      const bool hi = ins.mul == ptx::MulMode::kHi;
      if (ins.mul == ptx::MulMode::kWide) {
        Type wide = t == Type::kU16 ? Type::kU32 : t == Type::kS16 ? Type::kS32
                  : t == Type::kU32 ? Type::kU64 : Type::kS64;
        std3(t, t, wide);
        switch (t) {
          case Type::kU16: need(&mad_wide<std::uint16_t>); break;
          case Type::kS16: need(&mad_wide<std::int16_t>); break;
          case Type::kU32: need(&mad_wide<std::uint32_t>); break;
          case Type::kS32: need(&mad_wide<std::int32_t>); break;
          default: need(nullptr);
        }
        return true;
      }
      std3(t, t, t);
      if (op == Opcode::kMadc || ins.carry_out) {
        out.e = dc.cc_slot();
        const bool cin = op == Opcode::kMadc, cout = ins.carry_out;
        if (hi) need(cin ? (cout ? pick_mad_carry<true, true, true>(t) : pick_mad_carry<true, true, false>(t))
                         : pick_mad_carry<true, false, true>(t));
        else need(cin ? (cout ? pick_mad_carry<false, true, true>(t) : pick_mad_carry<false, true, false>(t))
                      : pick_mad_carry<false, false, true>(t));
      } else if (ins.sat) {
        if (!hi || t != Type::kS32) dc.unsupported("mad .sat other than mad.hi.sat.s32");
        need(&mad_hi_sat);
      } else {
        need(hi ? pick_mad_hi(t) : pick_mad_lo(t));
      }
      return true;
    }
    case Opcode::kMul24:
    case Opcode::kMad24: {
      const bool hi = ins.mul == ptx::MulMode::kHi;
      if (op == Opcode::kMul24) std2(t, t); else std3(t, t, t);
      if (ins.sat) dc.unsupported("mad24.sat");
      if (t == Type::kS32) need(op == Opcode::kMul24 ? (hi ? &mul24<std::int32_t, true> : &mul24<std::int32_t, false>)
                                                     : (hi ? &mad24<std::int32_t, true> : &mad24<std::int32_t, false>));
      else if (t == Type::kU32) need(op == Opcode::kMul24 ? (hi ? &mul24<std::uint32_t, true> : &mul24<std::uint32_t, false>)
                                                          : (hi ? &mad24<std::uint32_t, true> : &mad24<std::uint32_t, false>));
      else need(nullptr);
      return true;
    }
    case Opcode::kSad: std3(t, t, t); need(pick_sad(t)); return true;
    case Opcode::kDiv: std2(t, t); need(pick_div(t)); return true;
    case Opcode::kRem: std2(t, t); need(pick_rem(t)); return true;
    case Opcode::kAbs:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], t);
      need(pick_signed(t, &abs_int<std::int16_t>, &abs_int<std::int32_t>, &abs_int<std::int64_t>));
      return true;
    case Opcode::kNeg:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], t);
      need(pick_signed(t, &neg_int<std::int16_t>, &neg_int<std::int32_t>, &neg_int<std::int64_t>));
      return true;
    case Opcode::kMin: std2(t, t); need(ins.relu ? pick_minmax<false, true>(t) : pick_minmax<false, false>(t)); return true;
    case Opcode::kMax: std2(t, t); need(ins.relu ? pick_minmax<true, true>(t) : pick_minmax<true, false>(t)); return true;
    case Opcode::kPopc:
    case Opcode::kClz:
    case Opcode::kBrev: {
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], t);
      const bool b64 = ptx::type_bits(t) == 64, b32 = ptx::type_bits(t) == 32;
      if (!b64 && !b32) need(nullptr);
      if (op == Opcode::kPopc) need(b64 ? &popc<std::uint64_t> : &popc<std::uint32_t>);
      else if (op == Opcode::kClz) need(b64 ? &clz<std::uint64_t> : &clz<std::uint32_t>);
      else need(b64 ? &brev<std::uint64_t> : &brev<std::uint32_t>);
      return true;
    }
    case Opcode::kBfind:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], t);
      switch (t) {
        case Type::kU32: need(ins.shiftamt ? &bfind<std::uint32_t, true> : &bfind<std::uint32_t, false>); break;
        case Type::kS32: need(ins.shiftamt ? &bfind<std::int32_t, true> : &bfind<std::int32_t, false>); break;
        case Type::kU64: need(ins.shiftamt ? &bfind<std::uint64_t, true> : &bfind<std::uint64_t, false>); break;
        case Type::kS64: need(ins.shiftamt ? &bfind<std::int64_t, true> : &bfind<std::int64_t, false>); break;
        default: need(nullptr);
      }
      return true;
    case Opcode::kBfe:
      std3(t, kU32, kU32);
      switch (t) {
        case Type::kU32: case Type::kB32: need(&bfe<std::uint32_t>); break;
        case Type::kS32: need(&bfe<std::int32_t>); break;
        case Type::kU64: case Type::kB64: need(&bfe<std::uint64_t>); break;
        case Type::kS64: need(&bfe<std::int64_t>); break;
        default: need(nullptr);
      }
      return true;
    case Opcode::kBfi:
      std3(t, t, kU32);
      out.e = dc.src(ops[4], kU32);
      if (ptx::type_bits(t) == 32) need(&bfi<std::uint32_t>);
      else if (ptx::type_bits(t) == 64) need(&bfi<std::uint64_t>);
      else need(nullptr);
      return true;
    case Opcode::kPrmt:
      std3(Type::kB32, Type::kB32, Type::kB32);
      switch (ins.prmt) {
        case ptx::PrmtMode::kNone: need(&prmt<ptx::PrmtMode::kNone>); break;
        case ptx::PrmtMode::kF4e: need(&prmt<ptx::PrmtMode::kF4e>); break;
        case ptx::PrmtMode::kB4e: need(&prmt<ptx::PrmtMode::kB4e>); break;
        case ptx::PrmtMode::kRc8: need(&prmt<ptx::PrmtMode::kRc8>); break;
        case ptx::PrmtMode::kEcl: need(&prmt<ptx::PrmtMode::kEcl>); break;
        case ptx::PrmtMode::kEcr: need(&prmt<ptx::PrmtMode::kEcr>); break;
        case ptx::PrmtMode::kRc16: need(&prmt<ptx::PrmtMode::kRc16>); break;
      }
      return true;
    case Opcode::kDp4a:
    case Opcode::kDp2a: {
      const bool as = ptx::is_signed_int(ins.type), bs = ptx::is_signed_int(ins.src_type);
      const Type ct = (as || bs) ? Type::kS32 : Type::kU32;
      std3(ins.type, ins.src_type, ct);
      if (op == Opcode::kDp4a) {
        need(as ? (bs ? &dp4a<true, true> : &dp4a<true, false>) : (bs ? &dp4a<false, true> : &dp4a<false, false>));
      } else {
        const bool hi = ins.mul == ptx::MulMode::kHi;
        if (hi) need(as ? (bs ? &dp2a<true, true, true> : &dp2a<true, false, true>) : (bs ? &dp2a<false, true, true> : &dp2a<false, false, true>));
        else need(as ? (bs ? &dp2a<true, true, false> : &dp2a<true, false, false>) : (bs ? &dp2a<false, true, false> : &dp2a<false, false, false>));
      }
      return true;
    }
    case Opcode::kFns: std3(Type::kB32, Type::kU32, Type::kS32); need(&fns); return true;
    case Opcode::kBmsk: std2(kU32, kU32); need(ins.clamp ? &bmsk<true> : &bmsk<false>); return true;
    case Opcode::kSzext: {
      std2(kU32, kU32);
      const bool s = t == Type::kS32;
      need(ins.clamp ? (s ? &szext<true, true> : &szext<true, false>) : (s ? &szext<false, true> : &szext<false, false>));
      return true;
    }
    case Opcode::kAnd: std2(t, t); need(pick_and(t)); return true;
    case Opcode::kOr: std2(t, t); need(pick_or(t)); return true;
    case Opcode::kXor: std2(t, t); need(pick_xor(t)); return true;
    case Opcode::kNot: out.d = dc.dst(ops[0]); out.a = dc.src(ops[1], t); need(pick_not(t)); return true;
    case Opcode::kCnot: out.d = dc.dst(ops[0]); out.a = dc.src(ops[1], t); need(pick_cnot(t)); return true;
    case Opcode::kLop3:
      std3(Type::kB32, Type::kB32, Type::kB32);
      if (ops.size() < 5 || ops[4].kind != ptx::OperandKind::kImm) dc.unsupported("lop3 with a non-immediate LUT");
      out.imm = static_cast<std::int64_t>(ops[4].imm & 0xff);
      need(&lop3);
      return true;
    case Opcode::kShl: std2(t, kU32); need(pick_shl(t)); return true;
    case Opcode::kShr: std2(t, kU32); need(pick_shr(t)); return true;
    case Opcode::kShf:
      std3(Type::kB32, Type::kB32, kU32);
      need(ins.shf_left ? (ins.clamp ? &shf<true, true> : &shf<true, false>)
                        : (ins.clamp ? &shf<false, true> : &shf<false, false>));
      return true;
    default: return false;
  }
}

bool describe_int(ExecFn f, JitDesc& d) {
  struct Row {
    ExecFn fn;
    JitOp op;
    std::uint8_t bits;
    bool sgn;
  };
#define WS_JD(FN, OP, ...)                                               \
  Row{&FN<std::uint16_t __VA_OPT__(, ) __VA_ARGS__>, OP, 16, false},     \
      Row{&FN<std::int16_t __VA_OPT__(, ) __VA_ARGS__>, OP, 16, true},   \
      Row{&FN<std::uint32_t __VA_OPT__(, ) __VA_ARGS__>, OP, 32, false}, \
      Row{&FN<std::int32_t __VA_OPT__(, ) __VA_ARGS__>, OP, 32, true},   \
      Row{&FN<std::uint64_t __VA_OPT__(, ) __VA_ARGS__>, OP, 64, false}, \
      Row{&FN<std::int64_t __VA_OPT__(, ) __VA_ARGS__>, OP, 64, true}
  static const Row rows[] = {WS_JD(add, JitOp::kAdd),   WS_JD(sub, JitOp::kSub), WS_JD(mul_lo, JitOp::kMulLo),
                             WS_JD(mad_lo, JitOp::kMadLo), WS_JD(and_, JitOp::kAnd), WS_JD(or_, JitOp::kOr),
                             WS_JD(xor_, JitOp::kXor), WS_JD(shl, JitOp::kShl), WS_JD(shr, JitOp::kShr),
                             Row{&mul_wide<std::uint16_t>, JitOp::kMulWide, 16, false},
                             Row{&mul_wide<std::int16_t>, JitOp::kMulWide, 16, true},
                             Row{&mul_wide<std::uint32_t>, JitOp::kMulWide, 32, false},
                             Row{&mul_wide<std::int32_t>, JitOp::kMulWide, 32, true},
                             // Predicates are 0/1 bytes: and/or/xor as 8-bit integers.
                             Row{&and_<std::uint8_t>, JitOp::kAnd, 8, false}, Row{&or_<std::uint8_t>, JitOp::kOr, 8, false},
                             Row{&xor_<std::uint8_t>, JitOp::kXor, 8, false},
                             // min/max without .relu; abs (signed types only)
                             WS_JD(minmax_int, JitOp::kMin, false, false), WS_JD(minmax_int, JitOp::kMax, true, false),
                             Row{&abs_int<std::int16_t>, JitOp::kAbs, 16, true}, Row{&abs_int<std::int32_t>, JitOp::kAbs, 32, true},
                             Row{&abs_int<std::int64_t>, JitOp::kAbs, 64, true}};
#undef WS_JD
  for (const Row& r : rows) {
    if (r.fn == f) {
      d.op = r.op;
      d.bits = r.bits;
      d.sgn = r.sgn;
      return true;
    }
  }
  return false;
}

}  // namespace warpscope::exec
