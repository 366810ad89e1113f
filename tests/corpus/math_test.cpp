// Math functions (kernels/math.cu) against CPU references, within the maximum ulp errors that
// the CUDA C++ Programming Guide states in its "Mathematical Functions" chapter (CUDA 13.0
// edition: section 17.1 "Standard Functions", Table 17 for single precision and Table 18 for
// double precision; section 17.2 "Intrinsic Functions", Table 21):
//
//   function      bound   source                                   how it is checked
//   sqrtf         0 ulp   Table 17 (with -prec-sqrt=true, default)  bit-exact vs std::sqrt(float)
//   x / y (f32)   0 ulp   Table 17 (with -prec-div=true, default)   bit-exact vs host float '/'
//   expf          2 ulp   Table 17                                  ulp error vs double exp
//   logf          1 ulp   Table 17                                  ulp error vs double log
//   sinf, cosf    2 ulp   Table 17                                  ulp error vs double sin/cos
//   powf          4 ulp   Table 17                                  ulp error vs double pow
//   rsqrtf        2 ulp   Table 17                                  ulp error vs 1/sqrt in double
//   __fdividef    2 ulp   Table 21, for |y| in [2^-126, 2^126]      ulp error vs double x / y
//   fabsf, fminf, fmaxf, fabs   exact (no rounding involved)        bit-exact
//   sqrt (f64)    0 ulp   Table 18                                  bit-exact vs std::sqrt(double)
//   exp, log      1 ulp   Table 18                                  ulp error vs long double
//   sin (f64)     2 ulp   Table 18                                  ulp error vs long double
//
// The guide states each bound as the distance, in ulps, from the correctly rounded result; a
// correctly rounded result is itself within 0.5 ulp of the exact value, so a result may be up
// to (bound + 0.5) ulp from the exact value, which is what ulp_error() measures. kSlack covers
// the error of the reference (double for float functions: ~2^-29 float ulp; long double for
// double functions: ~2^-11 double ulp).
#include "corpus.hpp"

#include <cfloat>
#include <functional>

namespace corpus {
namespace {

constexpr int kN = 4096;
constexpr std::uint32_t kBlock = 256;
constexpr double kSlack = 1.0 / 64;

double limit_for(int bound_ulps) { return bound_ulps + 0.5 + kSlack; }

// ---- single precision ---------------------------------------------------------------------

std::vector<float> run_unary(const char* kernel, const std::vector<float>& x) {
  Device device;
  Module module = load(device, "math");
  Buffer<float> dx(device, x), dy(device, x.size());
  launch(device, module, kernel, blocks_for(x.size(), kBlock), Dim3{kBlock}, dx.ptr(), dy.ptr(),
         static_cast<int>(x.size()));
  return dy.download();
}

std::vector<float> run_binary(const char* kernel, const std::vector<float>& x,
                              const std::vector<float>& z) {
  Device device;
  Module module = load(device, "math");
  Buffer<float> dx(device, x), dz(device, z), dy(device, x.size());
  launch(device, module, kernel, blocks_for(x.size(), kBlock), Dim3{kBlock}, dx.ptr(), dz.ptr(),
         dy.ptr(), static_cast<int>(x.size()));
  return dy.download();
}

void check_unary_ulps(const char* kernel, const std::vector<float>& x,
                      const std::function<double(double)>& exact, int bound_ulps) {
  const std::vector<float> got = run_unary(kernel, x);
  std::vector<double> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = exact(x[i]);
  EXPECT_TRUE(within_ulps(x, got, want, limit_for(bound_ulps))) << kernel;
}

std::vector<float> log_uniform_floats(Rng& rng, std::size_t count, double lo, double hi) {
  std::vector<float> v(count);
  for (float& f : v) f = static_cast<float>(rng.log_uniform(lo, hi));
  return v;
}

std::vector<float> uniform_floats(Rng& rng, std::size_t count, double lo, double hi) {
  std::vector<float> v(count);
  for (float& f : v) f = static_cast<float>(rng.uniform(lo, hi));
  return v;
}

TEST(Math, SqrtfIsCorrectlyRounded) {
  Rng rng(21);
  std::vector<float> x = log_uniform_floats(rng, kN, 1e-37, 1e37);
  for (int k = 0; k < 64; ++k) x[k] = static_cast<float>(k * k);  // exact squares
  x[64] = -0.0f;                                                   // sqrt(-0) = -0
  x[65] = std::numeric_limits<float>::infinity();
  x[66] = std::numeric_limits<float>::denorm_min();  // subnormal input
  x[67] = -1.0f;                                     // NaN
  x[68] = FLT_MAX;
  const std::vector<float> got = run_unary("math_sqrtf", x);
  std::vector<float> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = std::sqrt(x[i]);
  EXPECT_TRUE(bitwise_equal(got, want));
}

TEST(Math, FloatDivisionIsCorrectlyRounded) {
  Rng rng(22);
  std::vector<float> x = uniform_floats(rng, kN, -1e4, 1e4);
  std::vector<float> z = log_uniform_floats(rng, kN, 1e-20, 1e20);
  for (std::size_t i = 0; i < z.size(); i += 2) z[i] = -z[i];
  const std::vector<float> got = run_binary("math_divf", x, z);
  std::vector<float> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = x[i] / z[i];
  EXPECT_TRUE(bitwise_equal(got, want));
}

TEST(Math, ExpfWithinTwoUlps) {
  Rng rng(23);
  std::vector<float> x = uniform_floats(rng, kN, -87.0, 88.0);  // results stay normal, finite
  x[0] = 0.0f;
  x[1] = 1.0f;
  x[2] = -1.0f;
  check_unary_ulps("math_expf", x, [](double v) { return std::exp(v); }, 2);
}

TEST(Math, LogfWithinOneUlp) {
  Rng rng(24);
  std::vector<float> x = log_uniform_floats(rng, kN / 2, 1e-37, 1e38);
  const std::vector<float> near_one = uniform_floats(rng, kN / 2, 0.5, 2.0);
  x.insert(x.end(), near_one.begin(), near_one.end());
  x[0] = 1.0f;  // log(1) = 0 exactly
  x[1] = 2.0f;
  x[2] = std::nextafter(1.0f, 2.0f);
  check_unary_ulps("math_logf", x, [](double v) { return std::log(v); }, 1);
}

std::vector<float> trig_inputs(std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> x = uniform_floats(rng, kN / 2, -10.0, 10.0);
  const std::vector<float> wide = uniform_floats(rng, kN / 4, -1e4, 1e4);
  x.insert(x.end(), wide.begin(), wide.end());
  // Huge arguments take the slow (Payne-Hanek) argument reduction, which uses local memory.
  std::vector<float> huge = log_uniform_floats(rng, kN / 4, 1e5, 1e30);
  for (std::size_t i = 0; i < huge.size(); i += 2) huge[i] = -huge[i];
  x.insert(x.end(), huge.begin(), huge.end());
  x[0] = 0.0f;
  x[1] = 1e-20f;
  return x;
}

TEST(Math, SinfWithinTwoUlps) {
  check_unary_ulps("math_sinf", trig_inputs(25), [](double v) { return std::sin(v); }, 2);
}

TEST(Math, CosfWithinTwoUlps) {
  check_unary_ulps("math_cosf", trig_inputs(26), [](double v) { return std::cos(v); }, 2);
}

TEST(Math, RsqrtfWithinTwoUlps) {
  Rng rng(27);
  std::vector<float> x = log_uniform_floats(rng, kN, 1e-30, 1e30);
  x[0] = 1.0f;
  x[1] = 4.0f;
  x[2] = 0.25f;
  check_unary_ulps("math_rsqrtf", x, [](double v) { return 1.0 / std::sqrt(v); }, 2);
}

TEST(Math, PowfWithinFourUlps) {
  Rng rng(28);
  std::vector<float> x = log_uniform_floats(rng, kN, 0.01, 100.0);
  std::vector<float> y = uniform_floats(rng, kN, -15.0, 15.0);  // |y log2 x| <= 100: normal results
  // Negative bases with integer exponents, and exact cases.
  const float bases[] = {-3.0f, -2.0f, -0.5f, -7.25f};
  const float exponents[] = {3.0f, -5.0f, 4.0f, 2.0f};
  for (int k = 0; k < 4; ++k) {
    x[k] = bases[k];
    y[k] = exponents[k];
  }
  x[4] = 2.0f;
  y[4] = 10.0f;
  x[5] = 1.0f;
  y[5] = 123.456f;
  x[6] = 17.0f;
  y[6] = 0.0f;
  const std::vector<float> got = run_binary("math_powf", x, y);
  std::vector<double> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = std::pow(static_cast<double>(x[i]), y[i]);
  EXPECT_TRUE(within_ulps(x, got, want, limit_for(4)));
}

TEST(Math, FdividefWithinTwoUlps) {
  Rng rng(29);
  std::vector<float> x = log_uniform_floats(rng, kN, 1e-3, 1e3);
  std::vector<float> y = log_uniform_floats(rng, kN, 1e-3, 1e3);  // well inside [2^-126, 2^126]
  for (std::size_t i = 0; i < x.size(); i += 3) x[i] = -x[i];
  for (std::size_t i = 0; i < y.size(); i += 2) y[i] = -y[i];
  const std::vector<float> got = run_binary("math_fdividef", x, y);
  std::vector<double> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = static_cast<double>(x[i]) / y[i];
  EXPECT_TRUE(within_ulps(x, got, want, limit_for(2)));
}

TEST(Math, FabsFminFmaxAreExact) {
  Rng rng(30);
  std::vector<float> a = uniform_floats(rng, kN, -1e3, 1e3), b = uniform_floats(rng, kN, -1e3, 1e3);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // fmin/fmax ignore a single NaN operand; zeros of the same sign; infinities; -0 for fabs.
  const float specials[][2] = {{nan, 1.0f},  {-2.0f, nan}, {nan, nan},   {-0.0f, -0.0f},
                               {inf, -inf},  {-inf, 5.0f}, {0.0f, 0.0f}, {-0.0f, 3.0f},
                               {1e-45f, -1e-45f}};
  for (std::size_t k = 0; k < std::size(specials); ++k) {
    a[k] = specials[k][0];
    b[k] = specials[k][1];
  }
  Device device;
  Module module = load(device, "math");
  Buffer<float> da(device, a), db(device, b), abs_out(device, kN), min_out(device, kN),
      max_out(device, kN);
  Buffer<double> dabs_out(device, kN);
  launch(device, module, "math_fabs_fminmax", blocks_for(kN, kBlock), Dim3{kBlock}, da.ptr(),
         db.ptr(), abs_out.ptr(), min_out.ptr(), max_out.ptr(), dabs_out.ptr(), kN);
  std::vector<float> want_abs(kN), want_min(kN), want_max(kN);
  std::vector<double> want_dabs(kN);
  for (int i = 0; i < kN; ++i) {
    want_abs[i] = std::fabs(a[i]);
    want_min[i] = std::fmin(a[i], b[i]);
    want_max[i] = std::fmax(a[i], b[i]);
    want_dabs[i] = std::fabs(static_cast<double>(a[i]) * 3.0);
  }
  EXPECT_TRUE(bitwise_equal(abs_out.download(), want_abs));
  EXPECT_TRUE(bitwise_equal(min_out.download(), want_min));
  EXPECT_TRUE(bitwise_equal(max_out.download(), want_max));
  EXPECT_TRUE(bitwise_equal(dabs_out.download(), want_dabs));
}

// ---- double precision ---------------------------------------------------------------------

std::vector<double> run_unary_f64(const char* kernel, const std::vector<double>& x) {
  Device device;
  Module module = load(device, "math");
  Buffer<double> dx(device, x), dy(device, x.size());
  launch(device, module, kernel, blocks_for(x.size(), kBlock), Dim3{kBlock}, dx.ptr(), dy.ptr(),
         static_cast<int>(x.size()));
  return dy.download();
}

void check_unary_f64_ulps(const char* kernel, const std::vector<double>& x,
                          const std::function<long double(long double)>& exact, int bound_ulps) {
  if (LDBL_MANT_DIG < 64) GTEST_SKIP() << "long double is not wider than double here";
  const std::vector<double> got = run_unary_f64(kernel, x);
  std::vector<long double> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = exact(x[i]);
  EXPECT_TRUE(within_ulps(x, got, want, limit_for(bound_ulps))) << kernel;
}

TEST(Math, DoubleSqrtIsCorrectlyRounded) {
  Rng rng(31);
  std::vector<double> x(kN);
  for (double& v : x) v = rng.log_uniform(1e-300, 1e300);
  x[0] = 0x1p-1074;  // subnormal
  x[1] = 2.0;
  x[2] = -0.0;
  x[3] = 144.0;
  const std::vector<double> got = run_unary_f64("math_sqrt_f64", x);
  std::vector<double> want(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) want[i] = std::sqrt(x[i]);
  EXPECT_TRUE(bitwise_equal(got, want));
}

TEST(Math, DoubleExpWithinOneUlp) {
  Rng rng(32);
  std::vector<double> x(kN);
  for (double& v : x) v = rng.uniform(-700.0, 700.0);
  x[0] = 0.0;
  x[1] = 1.0;
  check_unary_f64_ulps("math_exp_f64", x, [](long double v) { return std::exp(v); }, 1);
}

TEST(Math, DoubleLogWithinOneUlp) {
  Rng rng(33);
  std::vector<double> x(kN);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = i % 2 == 0 ? rng.log_uniform(1e-300, 1e300) : rng.uniform(0.5, 2.0);
  x[0] = 1.0;
  x[2] = 2.0;
  check_unary_f64_ulps("math_log_f64", x, [](long double v) { return std::log(v); }, 1);
}

TEST(Math, DoubleSinWithinTwoUlps) {
  Rng rng(34);
  std::vector<double> x(kN);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = i % 8 == 7 ? rng.log_uniform(1e5, 1e15) : rng.uniform(-100.0, 100.0);
  x[0] = 0.0;
  x[1] = 1e-300;
  check_unary_f64_ulps("math_sin_f64", x, [](long double v) { return std::sin(v); }, 2);
}

}  // namespace
}  // namespace corpus
