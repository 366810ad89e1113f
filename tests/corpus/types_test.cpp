// Element types of 1, 2, 8 and 16 bytes (kernels/types.cu): copies that must preserve every
// bit, and type-specific arithmetic. Tolerance: bit-exact everywhere (integer arithmetic;
// IEEE double +, *, /; float4 axpy whose products a * x are exact).
#include "corpus.hpp"

#include <limits>

namespace corpus {
namespace {

constexpr int kN = 1000;
constexpr std::uint32_t kBlock = 128;

template <class T>
std::vector<T> random_values(std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<T> v(count);
  for (T& x : v) {
    const std::uint64_t r = rng.next_u64();
    std::memcpy(&x, &r, sizeof(T) < sizeof r ? sizeof(T) : sizeof r);
  }
  return v;
}

template <class T>
void check_copy(const char* kernel, std::vector<T> values) {
  Device device;
  Module module = load(device, "types");
  Buffer<T> in(device, values), out(device, values.size());
  out.fill_bytes(0);
  const int n = static_cast<int>(values.size());
  launch(device, module, kernel, blocks_for(values.size(), kBlock), Dim3{kBlock}, in.ptr(),
         out.ptr(), n);
  EXPECT_TRUE(bitwise_equal(out.download(), values)) << kernel;
}

TEST(Types, CopyOneByte) { check_copy("copy_i8", random_values<signed char>(kN + 3, 1)); }
TEST(Types, CopyTwoBytes) { check_copy("copy_i16", random_values<short>(kN + 1, 2)); }

// Raw 64-bit patterns (NaNs with payloads, infinities, subnormals, -0) through a double copy.
TEST(Types, CopyEightBytesKeepsEveryBit) {
  std::vector<std::uint64_t> v = random_values<std::uint64_t>(kN, 3);
  v[0] = 0x7ff0000000000001ull;  // signalling NaN
  v[1] = 0xfff8000000000123ull;  // negative quiet NaN with payload
  v[2] = 0x8000000000000000ull;  // -0
  v[3] = 0x0000000000000001ull;  // smallest subnormal
  v[4] = 0x7ff0000000000000ull;  // +inf
  check_copy("copy_f64", v);
}

TEST(Types, CopySixteenBytes) {
  std::vector<Int4> v(kN);
  Rng rng(4);
  for (Int4& x : v) {
    x = {static_cast<int>(rng.next_u32()), static_cast<int>(rng.next_u32()),
         static_cast<int>(rng.next_u32()), static_cast<int>(rng.next_u32())};
  }
  check_copy("copy_int4", v);
}

// Every pair of bytes: 65536 threads.
TEST(Types, CharArithmeticAllPairs) {
  std::vector<signed char> a, b;
  for (int x = -128; x < 128; ++x)
    for (int y = -128; y < 128; ++y) {
      a.push_back(static_cast<signed char>(x));
      b.push_back(static_cast<signed char>(y));
    }
  const int n = static_cast<int>(a.size());
  Device device;
  Module module = load(device, "types");
  Buffer<signed char> da(device, a), db(device, b), sum(device, a.size());
  Buffer<int> product(device, a.size());
  Buffer<unsigned char> umax(device, a.size());
  launch(device, module, "char_ops", blocks_for(a.size(), 256), Dim3{256}, da.ptr(), db.ptr(),
         sum.ptr(), product.ptr(), umax.ptr(), n);
  std::vector<signed char> want_sum(a.size());
  std::vector<int> want_product(a.size());
  std::vector<unsigned char> want_umax(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    want_sum[i] = static_cast<signed char>(static_cast<unsigned char>(a[i] + b[i]));
    want_product[i] = a[i] * b[i];
    want_umax[i] = std::max(static_cast<unsigned char>(a[i]), static_cast<unsigned char>(b[i]));
  }
  EXPECT_TRUE(bitwise_equal(sum.download(), want_sum));
  EXPECT_TRUE(bitwise_equal(product.download(), want_product));
  EXPECT_TRUE(bitwise_equal(umax.download(), want_umax));
}

TEST(Types, ShortArithmetic) {
  std::vector<short> a = random_values<short>(kN, 5), b = random_values<short>(kN, 6);
  a[0] = std::numeric_limits<short>::min();
  b[0] = 1;  // wraps
  a[1] = std::numeric_limits<short>::max();
  b[1] = -1;  // wraps
  a[2] = -1;  // arithmetic vs logical shift
  Device device;
  Module module = load(device, "types");
  Buffer<short> da(device, a), db(device, b), diff(device, kN), shifted(device, kN);
  Buffer<int> product(device, kN);
  Buffer<unsigned short> ushifted(device, kN);
  launch(device, module, "short_ops", blocks_for(kN, kBlock), Dim3{kBlock}, da.ptr(), db.ptr(),
         diff.ptr(), product.ptr(), shifted.ptr(), ushifted.ptr(), kN);
  std::vector<short> want_diff(kN), want_shifted(kN);
  std::vector<int> want_product(kN);
  std::vector<unsigned short> want_ushifted(kN);
  for (int i = 0; i < kN; ++i) {
    want_diff[i] = static_cast<short>(static_cast<unsigned short>(a[i] - b[i]));
    want_product[i] = a[i] * b[i];
    want_shifted[i] = static_cast<short>(a[i] >> 3);
    want_ushifted[i] = static_cast<unsigned short>(static_cast<unsigned short>(a[i]) >> 3);
  }
  EXPECT_TRUE(bitwise_equal(diff.download(), want_diff));
  EXPECT_TRUE(bitwise_equal(product.download(), want_product));
  EXPECT_TRUE(bitwise_equal(shifted.download(), want_shifted));
  EXPECT_TRUE(bitwise_equal(ushifted.download(), want_ushifted));
}

TEST(Types, DoubleArithmeticIsIeee) {
  Rng rng(7);
  std::vector<double> x(kN), y(kN);
  for (int i = 0; i < kN; ++i) {
    x[i] = rng.uniform(-1.0, 1.0) * std::ldexp(1.0, static_cast<int>(rng.int_in(-600, 600)));
    y[i] = rng.uniform(0.5, 1.0) * std::ldexp(1.0, static_cast<int>(rng.int_in(-600, 600)));
  }
  x[0] = 1e-300;  // results in the subnormal range
  y[0] = 1e-20;
  x[1] = 0.1;
  y[1] = 0.2;
  Device device;
  Module module = load(device, "types");
  Buffer<double> dx(device, x), dy(device, y), sum(device, kN), product(device, kN),
      quotient(device, kN);
  launch(device, module, "double_ops", blocks_for(kN, kBlock), Dim3{kBlock}, dx.ptr(), dy.ptr(),
         sum.ptr(), product.ptr(), quotient.ptr(), kN);
  std::vector<double> want_sum(kN), want_product(kN), want_quotient(kN);
  for (int i = 0; i < kN; ++i) {
    want_sum[i] = x[i] + y[i];
    want_product[i] = x[i] * y[i];
    want_quotient[i] = x[i] / y[i];
  }
  EXPECT_TRUE(bitwise_equal(sum.download(), want_sum));
  EXPECT_TRUE(bitwise_equal(product.download(), want_product));
  EXPECT_TRUE(bitwise_equal(quotient.download(), want_quotient));
}

// The high 64 bits of a 64 x 64-bit unsigned product, from 32-bit halves.
std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu,
                      b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi,
                      hi_hi = a_hi * b_hi;
  const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

TEST(Types, LongLongArithmetic) {
  std::vector<long long> a = random_values<long long>(kN, 8), b = random_values<long long>(kN, 9);
  a[0] = std::numeric_limits<long long>::max();
  b[0] = 1;
  a[1] = -1;
  b[1] = -1;
  a[2] = std::numeric_limits<long long>::min();
  b[2] = std::numeric_limits<long long>::min();
  Device device;
  Module module = load(device, "types");
  Buffer<long long> da(device, a), db(device, b), shifted(device, kN);
  Buffer<unsigned long long> sum(device, kN), product(device, kN), high(device, kN);
  launch(device, module, "longlong_ops", blocks_for(kN, kBlock), Dim3{kBlock}, da.ptr(), db.ptr(),
         sum.ptr(), product.ptr(), high.ptr(), shifted.ptr(), kN);
  std::vector<unsigned long long> want_sum(kN), want_product(kN), want_high(kN);
  std::vector<long long> want_shifted(kN);
  for (int i = 0; i < kN; ++i) {
    const auto x = static_cast<unsigned long long>(a[i]), y = static_cast<unsigned long long>(b[i]);
    want_sum[i] = x + y;
    want_product[i] = x * y;
    want_high[i] = mul_high(x, y);
    want_shifted[i] = a[i] >> 13;
  }
  EXPECT_TRUE(bitwise_equal(sum.download(), want_sum));
  EXPECT_TRUE(bitwise_equal(product.download(), want_product));
  EXPECT_TRUE(bitwise_equal(high.download(), want_high));
  EXPECT_TRUE(bitwise_equal(shifted.download(), want_shifted));
}

TEST(Types, Float4Axpy) {
  constexpr float a = -2.5f;  // 3 significant bits; x keeps 21: a * x is exact
  Rng rng(10);
  std::vector<Float4> x(kN), y(kN);
  for (int i = 0; i < kN; ++i) {
    x[i] = {truncate_mantissa(rng.uniform_f(-8, 8), 3), truncate_mantissa(rng.uniform_f(-8, 8), 3),
            truncate_mantissa(rng.uniform_f(-8, 8), 3), truncate_mantissa(rng.uniform_f(-8, 8), 3)};
    y[i] = {rng.uniform_f(-8, 8), rng.uniform_f(-8, 8), rng.uniform_f(-8, 8), rng.uniform_f(-8, 8)};
  }
  Device device;
  Module module = load(device, "types");
  Buffer<Float4> dx(device, x), dy(device, y);
  launch(device, module, "float4_axpy", blocks_for(kN, kBlock), Dim3{kBlock}, dx.ptr(), dy.ptr(),
         a, kN);
  std::vector<float> got, want;
  for (const Float4& v : dy.download()) got.insert(got.end(), {v.x, v.y, v.z, v.w});
  for (int i = 0; i < kN; ++i) {
    want.insert(want.end(), {y[i].x + a * x[i].x, y[i].y + a * x[i].y, y[i].z + a * x[i].z,
                             y[i].w + a * x[i].w});
  }
  EXPECT_TRUE(bitwise_equal(got, want));
}

TEST(Types, Int4Arithmetic) {
  Rng rng(11);
  std::vector<Int4> a(kN), b(kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = {static_cast<int>(rng.next_u32()), static_cast<int>(rng.next_u32()),
            static_cast<int>(rng.next_u32()), static_cast<int>(rng.next_u32())};
    b[i] = {static_cast<int>(rng.next_u32()), static_cast<int>(rng.next_u32()),
            static_cast<int>(rng.next_u32()), static_cast<int>(rng.next_u32())};
  }
  Device device;
  Module module = load(device, "types");
  Buffer<Int4> da(device, a), db(device, b), out(device, kN);
  launch(device, module, "int4_ops", blocks_for(kN, kBlock), Dim3{kBlock}, da.ptr(), db.ptr(),
         out.ptr(), kN);
  auto u = [](int v) { return static_cast<std::uint32_t>(v); };
  std::vector<Int4> want(kN);
  for (int i = 0; i < kN; ++i) {
    want[i] = {static_cast<int>(u(a[i].x) + u(b[i].w)), static_cast<int>(u(a[i].y) - u(b[i].z)),
               static_cast<int>(u(a[i].z) * u(b[i].y)), a[i].w ^ b[i].x};
  }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
}

}  // namespace
}  // namespace corpus
