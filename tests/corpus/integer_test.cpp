// Integer division and remainder (kernels/integer.cu): signed and unsigned, 32 and 64 bits,
// run-time and constant divisors, negative operands (C++ and PTX both truncate toward zero;
// the remainder takes the dividend's sign). Division by zero and MIN / -1 are never asked for.
// Tolerance: bit-exact.
#include "corpus.hpp"

#include <limits>

namespace corpus {
namespace {

constexpr std::uint32_t kBlock = 128;

// Divisors of every magnitude: a random value shifted right by a random amount, random sign.
template <class T>
T random_divisor(Rng& rng) {
  constexpr int bits = static_cast<int>(sizeof(T) * 8);
  using U = std::make_unsigned_t<T>;
  U v = static_cast<U>(rng.next_u64()) >> rng.int_in(0, bits - 1);
  if (v == 0) v = 1;
  return static_cast<T>(v);
}

template <class T>
void check_divmod(const char* kernel, std::uint64_t seed) {
  using Limits = std::numeric_limits<T>;
  Rng rng(seed);
  std::vector<T> a, b;
  // Hand-picked pairs first: signs, |a| < |b|, extremes.
  const T picks[][2] = {{7, 2}, {static_cast<T>(-7), 2}, {7, static_cast<T>(-2)},
                        {static_cast<T>(-7), static_cast<T>(-2)}, {Limits::min(), 1},
                        {Limits::min(), 2}, {Limits::max(), static_cast<T>(-1)}, {5, 10},
                        {static_cast<T>(-5), 10}, {Limits::min(), Limits::min()},
                        {0, 5}, {Limits::max(), Limits::max()}, {Limits::max(), 3}};
  auto allowed = [](T x, T y) {
    if (y == 0) return false;  // (for unsigned T, Limits::min() is 0)
    if constexpr (Limits::is_signed) return !(x == Limits::min() && y == static_cast<T>(-1));
    return true;
  };
  for (const auto& p : picks) {
    if (!allowed(p[0], p[1])) continue;
    a.push_back(p[0]);
    b.push_back(p[1]);
  }
  while (a.size() < 2000) {
    const T x = static_cast<T>(rng.next_u64()), y = random_divisor<T>(rng);
    if (!allowed(x, y)) continue;
    a.push_back(x);
    b.push_back(y);
  }
  const int n = static_cast<int>(a.size());
  Device device;
  Module module = load(device, "integer");
  Buffer<T> da(device, a), db(device, b), q(device, a.size()), r(device, a.size());
  launch(device, module, kernel, blocks_for(a.size(), kBlock), Dim3{kBlock}, da.ptr(), db.ptr(),
         q.ptr(), r.ptr(), n);
  std::vector<T> want_q(a.size()), want_r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    want_q[i] = static_cast<T>(a[i] / b[i]);
    want_r[i] = static_cast<T>(a[i] % b[i]);
  }
  EXPECT_TRUE(bitwise_equal(q.download(), want_q)) << kernel << " quotients";
  EXPECT_TRUE(bitwise_equal(r.download(), want_r)) << kernel << " remainders";
}

TEST(Integer, SignedDivMod32) { check_divmod<int>("divmod_s32", 41); }
TEST(Integer, UnsignedDivMod32) { check_divmod<unsigned>("divmod_u32", 42); }
TEST(Integer, SignedDivMod64) { check_divmod<long long>("divmod_s64", 43); }
TEST(Integer, UnsignedDivMod64) { check_divmod<unsigned long long>("divmod_u64", 44); }

TEST(Integer, ConstantDivisors) {
  Rng rng(45);
  std::vector<int> a = {std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), -1, 0,
                        1, -15, -16, -17, 15, 16, 17, -7, 7, -3, 3, 999, 1000, -1000};
  while (a.size() < 1000) a.push_back(static_cast<int>(rng.next_u32()));
  const int n = static_cast<int>(a.size());
  Device device;
  Module module = load(device, "integer");
  Buffer<int> da(device, a), out(device, 8 * a.size());
  launch(device, module, "divmod_const", blocks_for(a.size(), kBlock), Dim3{kBlock}, da.ptr(),
         out.ptr(), n);
  std::vector<int> want;
  for (int x : a) {
    const auto ux = static_cast<unsigned>(x);
    want.insert(want.end(), {x / 7, x % 7, x / -3, x % -3, x / 16, x % 16,
                             static_cast<int>(ux / 10u), static_cast<int>(ux % 1000u)});
  }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
}

}  // namespace
}  // namespace corpus
