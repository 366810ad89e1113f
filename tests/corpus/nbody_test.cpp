// One step of the seed-003 N-body integrator (kernels/nbody.cu) in each layout: 12-byte struct,
// float3, 16-byte padded struct, float4, float4 with shared-memory tiles.
//
// Tolerance. The reference runs in double. The kernel works in float (unit roundoff
// u = 2^-24 ~ 6e-8): each pairwise term r * (1/sqrt(d^2 + eps^2))^3 takes ~6 roundings (sqrtf
// and the reciprocal are correctly rounded here; an rsqrtf would add 2 ulp), and the sequential
// sum over n = 256 terms adds at most (n - 1) u of the sum of |terms| -- but rounding errors of
// a sum grow like sqrt(n) u in practice (~1e-6). Cancellation makes |force| much smaller than
// the sum of |terms|, so errors are measured against the scale each result is computed from:
//   velocity: |v| + dt * sum_j |r_j s_j|      position: |p| + dt * (velocity scale)
// and each component must be within 1e-5 of that scale: ~10x the expected error, below the
// worst case, and far below what one wrong or missing term (~1/n of the scale) would cause.
// The fourth float (padding, float4.w) is copied through and must be bit-exact.
#include "corpus.hpp"

#include <cstdio>

namespace corpus {
namespace {

constexpr float kDt = 0.01f;
constexpr double kRelTolerance = 1e-5;

struct Body {
  double p[3], v[3];
};

struct Expected {
  double p[3], v[3];              // one step, in double
  double p_scale[3], v_scale[3];  // the magnitudes the results are computed from
};

std::vector<Expected> reference_step(const std::vector<Body>& bodies) {
  const float eps = 0.0001f;
  const double eps2 = static_cast<double>(eps * eps);  // nvcc folds eps * eps in float
  std::vector<Expected> out(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    double f[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
    for (const Body& other : bodies) {
      double r[3];
      for (int c = 0; c < 3; ++c) r[c] = other.p[c] - bodies[b].p[c];
      const double inv = 1.0 / std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + eps2);
      const double s = inv * inv * inv;
      for (int c = 0; c < 3; ++c) {
        f[c] += r[c] * s;
        magnitude[c] += std::fabs(r[c] * s);
      }
    }
    Expected& e = out[b];
    for (int c = 0; c < 3; ++c) {
      e.v[c] = bodies[b].v[c] + f[c] * kDt;
      e.p[c] = bodies[b].p[c] + e.v[c] * kDt;
      e.v_scale[c] = std::fabs(bodies[b].v[c]) + kDt * magnitude[c];
      e.p_scale[c] = std::fabs(bodies[b].p[c]) + kDt * e.v_scale[c];
    }
  }
  return out;
}

std::vector<Body> make_bodies(int n) {
  Rng rng(2024);
  std::vector<Body> bodies(static_cast<std::size_t>(n));
  for (Body& b : bodies) {
    for (double& c : b.p) c = static_cast<float>(rng.uniform(-1.0, 1.0));
    for (double& c : b.v) c = static_cast<float>(rng.uniform(-0.5, 0.5));
  }
  return bodies;
}

// Component c of a host element (Float3 or Float4).
template <class T>
float& component(T& value, int c) {
  return c == 0 ? value.x : c == 1 ? value.y : value.z;
}
template <class T>
float get(const T& value, int c) {
  return c == 0 ? value.x : c == 1 ? value.y : value.z;
}

template <class T>
void run_layout(const char* kernel, int n, std::uint32_t block) {
  const std::vector<Body> bodies = make_bodies(n);
  std::vector<T> p(bodies.size()), v(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      component(p[i], c) = static_cast<float>(bodies[i].p[c]);
      component(v[i], c) = static_cast<float>(bodies[i].v[c]);
    }
    if constexpr (sizeof(T) == 16) {  // the padding / w must be carried through unchanged
      p[i].w = static_cast<float>(i) + 0.5f;
      v[i].w = -static_cast<float>(i);
    }
  }
  Device device;
  Module module = load(device, "nbody");
  Buffer<T> d_p(device, p), d_v(device, v), new_p(device, p.size()), new_v(device, v.size());
  launch(device, module, kernel, blocks_for(p.size(), block), Dim3{block}, new_p.ptr(),
         new_v.ptr(), d_p.ptr(), d_v.ptr(), n, kDt);
  const std::vector<T> got_p = new_p.download(), got_v = new_v.download();
  const std::vector<Expected> want = reference_step(bodies);

  double worst = 0.0;
  int failures = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const double ev = std::fabs(get(got_v[i], c) - want[i].v[c]) /
                        want[i].v_scale[c];
      const double ep = std::fabs(get(got_p[i], c) - want[i].p[c]) /
                        want[i].p_scale[c];
      worst = std::max({worst, ev, ep});
      if (!(ev <= kRelTolerance && ep <= kRelTolerance) && ++failures <= 5) {
        ADD_FAILURE() << kernel << " body " << i << " component " << c << ": velocity "
                      << get(got_v[i], c) << " vs " << want[i].v[c]
                      << " (rel " << ev << "), position "
                      << get(got_p[i], c) << " vs " << want[i].p[c]
                      << " (rel " << ep << ")";
      }
    }
    if constexpr (sizeof(T) == 16) {
      EXPECT_EQ(bits(got_p[i].w), bits(p[i].w)) << kernel << " body " << i;
      EXPECT_EQ(bits(got_v[i].w), bits(v[i].w)) << kernel << " body " << i;
    }
  }
  EXPECT_EQ(failures, 0) << kernel << ": worst relative error " << worst;
  char worst_text[32];
  std::snprintf(worst_text, sizeof worst_text, "%.3g", worst);
  ::testing::Test::RecordProperty("worst_relative_error", worst_text);
}

// n = 250 with blocks of 128: the last 6 threads of block 1 take the early return.
TEST(NBody, Struct12Bytes) { run_layout<Float3>("nbody_struct12", 250, 128); }
TEST(NBody, Float3) { run_layout<Float3>("nbody_float3", 250, 128); }
TEST(NBody, Struct16BytesPadded) { run_layout<Float4>("nbody_struct16", 250, 128); }
TEST(NBody, Float4) { run_layout<Float4>("nbody_float4", 250, 128); }
// The tiled kernel needs n to be a multiple of its tile (= block) of 128.
TEST(NBody, Float4SharedTiles) { run_layout<Float4>("nbody_float4_shared", 256, 128); }

}  // namespace
}  // namespace corpus
