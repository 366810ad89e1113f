// Arithmetic and conversions, bit for bit against host references: integer operations, f32/f64
// with rounding modes, float -> integer saturation, f16/bf16 round-to-nearest-even.
#include <bit>
#include <cfenv>
#include <climits>
#include <cmath>
#include <limits>
#include <random>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

std::uint32_t wrap(std::int64_t v) { return static_cast<std::uint32_t>(v); }

TEST(Ops, IntegerArithmetic) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  std::vector<int> in(128);
  std::mt19937 rng(7);
  for (int& v : in) v = static_cast<int>(rng());
  in[0] = INT_MIN;
  in[64] = 3;
  in[1] = 0;
  in[65] = 0;
  in[2] = -7;
  in[66] = 2;
  in[3] = INT_MAX;
  in[67] = INT_MAX;
  const DevicePtr din = upload(dev, in), dout = dev.malloc(64 * 16 * sizeof(int));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev.launch(m, "int_ops", {1}, {64}, args);
  const auto out = download<int>(dev, dout, 64 * 16);
  for (int t = 0; t < 64; ++t) {
    const int a = in[t], b = in[t + 64];
    const unsigned ua = static_cast<unsigned>(a), ub = static_cast<unsigned>(b);
    const int* o = out.data() + t * 16;
    SCOPED_TRACE("thread " + std::to_string(t) + " a=" + std::to_string(a) + " b=" + std::to_string(b));
    EXPECT_EQ(static_cast<std::uint32_t>(o[0]), ua + ub);
    EXPECT_EQ(static_cast<std::uint32_t>(o[1]), ua * ub);
    EXPECT_EQ(o[2], b != 0 ? static_cast<int>(std::int64_t(a) / b) : 0);
    EXPECT_EQ(o[3], b != 0 ? static_cast<int>(std::int64_t(a) % b) : 0);
    EXPECT_EQ(o[4], static_cast<int>((std::int64_t(a) * b) >> 32));
    EXPECT_EQ(static_cast<std::uint32_t>(o[5]), static_cast<std::uint32_t>((std::uint64_t(ua) * ub) >> 32));
    EXPECT_EQ(o[6], std::popcount(ua));
    EXPECT_EQ(o[7], std::countl_zero(ua));
    std::uint32_t rev = 0;
    for (int i = 0; i < 32; ++i) rev |= ((ua >> i) & 1u) << (31 - i);
    EXPECT_EQ(static_cast<std::uint32_t>(o[8]), rev);
    EXPECT_EQ(o[9], a == 0 ? 0 : std::countr_zero(ua) + 1);
    EXPECT_EQ(static_cast<std::uint32_t>(o[10]), (ua >> (ub & 31)) ^ (ua << (ub & 31)));
    EXPECT_EQ(o[11], a >> (b & 31));
    EXPECT_EQ(static_cast<std::uint32_t>(o[12]), wrap(std::int64_t(std::max(a, b)) - std::min(a, b)));
    std::uint32_t perm = 0;
    const std::uint64_t src = (std::uint64_t(ub) << 32) | ua;
    for (int i = 0; i < 4; ++i) perm |= static_cast<std::uint32_t>((src >> (8 * ((0x5140 >> (4 * i)) & 7))) & 0xff) << (8 * i);
    EXPECT_EQ(static_cast<std::uint32_t>(o[13]), perm);
    EXPECT_EQ(static_cast<std::uint32_t>(o[14]), static_cast<std::uint32_t>((std::uint64_t(ua) * ub) >> 7));
    const std::uint32_t absa = a < 0 ? 0u - ua : ua;
    const std::uint32_t sad = (a < b ? ub - ua : ua - ub) + 3u;
    EXPECT_EQ(static_cast<std::uint32_t>(o[15]), absa + sad);
  }
}

float add_rz(float a, float b) {
  const double s = double(a) + double(b);  // exact for the inputs used here
  float f = static_cast<float>(s);
  if (std::fabs(double(f)) > std::fabs(s)) f = std::nextafter(f, 0.0f);
  return f;
}

TEST(Ops, FloatArithmetic) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  std::vector<float> in(128);
  std::vector<double> din(128);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uf(-100.0f, 100.0f);
  std::uniform_real_distribution<double> ud(-1e6, 1e6);
  for (float& v : in) v = uf(rng);
  for (double& v : din) v = ud(rng);
  in[5] = 1.0f;
  in[69] = 3.0f;  // 1/3 rounds; rz differs from rn for some sums
  const DevicePtr dfin = upload(dev, in), dfout = dev.malloc(64 * 8 * 4), ddin = upload(dev, din), ddout = dev.malloc(64 * 4 * 8);
  const KernelArg args[] = {arg(dfin), arg(dfout), arg(ddin), arg(ddout)};
  dev.launch(m, "float_ops", {1}, {64}, args);
  const auto fo = download<float>(dev, dfout, 64 * 8);
  const auto dob = download<double>(dev, ddout, 64 * 4);
  for (int t = 0; t < 64; ++t) {
    const float a = in[t], b = in[t + 64];
    const float* o = fo.data() + t * 8;
    SCOPED_TRACE("thread " + std::to_string(t));
    EXPECT_EQ(o[0], a + b);
    EXPECT_EQ(o[1], a * b);
    EXPECT_EQ(o[2], a / b);
    EXPECT_EQ(o[3], std::sqrt(std::fabs(a)));
    EXPECT_EQ(o[4], std::fma(a, b, 1.0f));
    EXPECT_EQ(o[5], std::fmin(a, b));
    EXPECT_EQ(o[6], std::fmax(a, b));
    EXPECT_EQ(o[7], add_rz(a, b));
    const double x = din[t], y = din[t + 64];
    const double* d = dob.data() + t * 4;
    EXPECT_EQ(d[0], std::fma(x, y, x));
    EXPECT_EQ(d[1], x / y);
    EXPECT_EQ(d[2], std::sqrt(std::fabs(x)));
    EXPECT_EQ(d[3], std::fma(x, y, -1.0));
  }
}

TEST(Ops, FloatSpecialValuesOnAWholeWarp) {
  // Every lane active (the interpreter's whole-warp loops): each result is the host's IEEE
  // result, except that every NaN result is the GPU's canonical NaN 0x7fffffff (PTX ISA,
  // "Floating Point Instructions"; docs/exec.md). rsqrt.approx is 1 / sqrt(a), rounded twice
  // (docs/exec.md, approximate instructions).
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  const float nan1 = std::bit_cast<float>(0x7fa00001u), nan2 = std::bit_cast<float>(0xffc00000u);
  const float inf = std::numeric_limits<float>::infinity(), sub = std::numeric_limits<float>::denorm_min();
  const float tiny = std::numeric_limits<float>::min();
  const std::vector<float> a = {nan1, 1.0f, inf,  inf,   0.0f,  -0.0f, sub,  tiny, 3.0f,  -2.0f, 1e30f, 1e-30f,
                                nan2, 0.0f, -inf, 2.0f,  -1.0f, 4.0f,  0.5f, 7.0f, 1e38f, -0.0f, sub,   100.0f,
                                5.0f, 6.0f, 8.0f, 9.0f,  10.0f, 11.0f, 12.0f, 13.0f};
  const std::vector<float> b = {1.0f, nan1, -inf, inf,   0.0f, 0.0f,  sub,   -tiny, 3.0f, 0.0f, 1e30f, 1e30f,
                                2.0f, -0.0f, 1.0f, nan2, 1.0f, -4.0f, 0.25f, 7.0f, 10.0f, -0.0f, -sub, 0.01f,
                                -5.0f, 6.5f, 1e-40f, -9.0f, 3.0f, 1.0f / 3.0f, -12.0f, 0.1f};
  const std::vector<float> c = {0.0f, 0.0f, 1.0f, -inf, -0.0f, 0.0f,  0.0f, tiny,  -9.0f, 1.0f, -1e30f, 0.0f,
                                1.0f, 0.0f, nan1, 0.0f, 1.0f,  16.0f, 0.0f, -49.0f, 0.0f, 0.0f,  sub,   -1.0f,
                                25.0f, -39.0f, 0.0f, 81.0f, 0.0f, -11.0f / 3.0f, 144.0f, -1.3f};
  std::vector<float> in;
  for (const auto* v : {&a, &b, &c}) in.insert(in.end(), v->begin(), v->end());
  ASSERT_EQ(in.size(), 96u);
  const DevicePtr din = upload(dev, in), dout = dev.malloc(32 * 8 * 4);
  const KernelArg args[] = {arg(din), arg(dout)};
  dev.launch(m, "float_special", {1}, {32}, args);
  const auto out = download<std::uint32_t>(dev, dout, 32 * 8);
  auto bits = [](float v) { return std::isnan(v) ? 0x7fffffffu : std::bit_cast<std::uint32_t>(v); };
  for (int t = 0; t < 32; ++t) {
    SCOPED_TRACE("lane " + std::to_string(t));
    const float x = a[t], y = b[t], z = c[t];
    const std::uint32_t* o = out.data() + t * 8;
    EXPECT_EQ(o[0], bits(x + y));
    EXPECT_EQ(o[1], bits(x - y));
    EXPECT_EQ(o[2], bits(x * y));
    EXPECT_EQ(o[3], bits(x / y));
    EXPECT_EQ(o[4], bits(std::fma(x, y, z)));
    EXPECT_EQ(o[5], bits(1.0f / x));
    EXPECT_EQ(o[6], bits(std::sqrt(x)));
    EXPECT_EQ(o[7], bits(1.0f / std::sqrt(x)));
  }
}

/// Reference narrow-float rounding by exhaustive search: the nearest of all 65536 encodings,
/// ties to the even one (an implementation independent of the interpreter's).
std::uint16_t nearest_even(double v, bool bf16) {
  auto value = [&](std::uint32_t bits) -> double {
    const int eb = bf16 ? 8 : 5, mb = bf16 ? 7 : 10;
    const int bias = (1 << (eb - 1)) - 1;
    const std::uint32_t e = (bits >> mb) & ((1u << eb) - 1), f = bits & ((1u << mb) - 1);
    double r;
    if (e == (1u << eb) - 1) r = f ? NAN : INFINITY;
    else if (e == 0) r = std::ldexp(double(f), 1 - bias - mb);
    else r = std::ldexp(double(f | (1u << mb)), int(e) - bias - mb);
    return (bits & 0x8000u) ? -r : r;
  };
  if (std::isnan(v)) return 0x7fff;
  std::uint32_t best = 0;
  double best_d = INFINITY;
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double c = value(bits);
    if (std::isnan(c)) continue;
    const double dd = std::fabs(c - v);
    const bool tie = dd == best_d;
    if (dd < best_d || (tie && (bits & 1) == 0 && std::signbit(c) == std::signbit(v))) {
      best = bits;
      best_d = dd;
    }
  }
  // Values beyond the largest finite one by at least half an ulp round to infinity.
  const double max_finite = bf16 ? 3.3895313892515355e38 : 65504.0;
  const double half_ulp = bf16 ? std::ldexp(1.0, 127 - 8) : 16.0;
  if (std::fabs(v) >= max_finite + half_ulp) return v < 0 ? (bf16 ? 0xff80 : 0xfc00) : (bf16 ? 0x7f80 : 0x7c00);
  return static_cast<std::uint16_t>(best);
}

template <class I>
I saturate(double v) {
  if (std::isnan(v)) return 0;
  if (v <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

TEST(Ops, Conversions) {
  WS_LOAD_PTX(ptx, "conversions");
  Device dev;
  Module m = dev.load_ptx(ptx, "conversions.ptx");
  const int n = 64;
  std::vector<float> f = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.7f, 3.99f, 1e10f, -1e10f, NAN, INFINITY, -INFINITY,
                          65504.0f, 65520.0f, 65519.99f, 1e-8f, 5.96e-8f, 2.98e-8f, 2.9802322e-8f, 1.00048828125f,
                          1.0009765625f, 1.00146484375f, 3.0e38f, 4294967296.0f, 2147483520.0f, -2147483904.0f,
                          0.099976f, 6.1e-5f, 6.0e-5f, 1.0f / 3.0f, 1.0e-40f, -0.0f};
  while (f.size() < n) f.push_back(std::ldexp(float(f.size() * 37 % 101) - 50.0f, int(f.size() % 40) - 20));
  std::vector<double> d(n);
  for (int i = 0; i < n; ++i) d[i] = i % 3 == 0 ? double(f[i]) * 1.000000001 : std::ldexp(double(i) - 31.7, i % 70);
  d[5] = 1e30;
  d[6] = -1e300;
  d[7] = NAN;
  const DevicePtr df = upload(dev, f), dd = upload(dev, d);
  const DevicePtr oi = dev.malloc(n * 16), ou = dev.malloc(n * 4), oll = dev.malloc(n * 8), of = dev.malloc(n * 8),
                  oh = dev.malloc(n * 2), ob = dev.malloc(n * 2), ohf = dev.malloc(n * 4);
  const KernelArg args[] = {arg(df), arg(dd), arg(oi), arg(ou), arg(oll), arg(of), arg(oh), arg(ob), arg(ohf)};
  dev.launch(m, "conv", {1}, {n}, args);
  const auto vi = download<int>(dev, oi, n * 4);
  const auto vu = download<unsigned>(dev, ou, n);
  const auto vll = download<long long>(dev, oll, n);
  const auto vf = download<float>(dev, of, n * 2);
  const auto vh = download<std::uint16_t>(dev, oh, n);
  const auto vb = download<std::uint16_t>(dev, ob, n);
  const auto vhf = download<float>(dev, ohf, n);
  for (int t = 0; t < n; ++t) {
    const float x = f[t];
    SCOPED_TRACE("input " + std::to_string(x) + " / " + std::to_string(d[t]));
    EXPECT_EQ(vi[t * 4 + 0], saturate<int>(std::trunc(double(x))));
    EXPECT_EQ(vi[t * 4 + 1], saturate<int>(std::nearbyint(double(x))));
    EXPECT_EQ(vi[t * 4 + 2], saturate<int>(std::floor(double(x))));
    EXPECT_EQ(vi[t * 4 + 3], saturate<int>(std::ceil(double(x))));
    EXPECT_EQ(vu[t], saturate<unsigned>(std::trunc(double(x))));
    EXPECT_EQ(vll[t], saturate<long long>(std::trunc(d[t])));
    const float rn = static_cast<float>(d[t]);
    if (std::isnan(d[t])) {
      EXPECT_TRUE(std::isnan(vf[t * 2]));
    } else {
      EXPECT_EQ(vf[t * 2], rn);
      float rz = rn;
      if (std::fabs(double(rz)) > std::fabs(d[t])) rz = std::nextafter(rz, 0.0f);
      EXPECT_EQ(vf[t * 2 + 1], rz);
    }
    EXPECT_EQ(vh[t], nearest_even(double(x), false)) << std::hex << std::bit_cast<std::uint32_t>(x);
    EXPECT_EQ(vb[t], nearest_even(double(x), true)) << std::hex << std::bit_cast<std::uint32_t>(x);
  }
  // __hadd(h, 1): 1.0 + 1.0 in f16 is exactly 2.0; 0.5 + 1 = 1.5.
  EXPECT_EQ(vhf[0], 1.5f);
  EXPECT_EQ(vhf[1], 2.5f);
  EXPECT_TRUE(std::isnan(vhf[9]));
}

}  // namespace
}  // namespace warpscope::exec::test
