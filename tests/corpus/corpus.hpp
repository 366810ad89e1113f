// Helpers for the kernel corpus tests: loading the PTX that nvcc built from kernels/*.cu,
// device buffers that free themselves, typed copies, launches with typed arguments,
// deterministic inputs, and floating-point comparison (bit patterns and ulp distances).
//
// Everything here goes through the public API (include/warpscope/warpscope.hpp) only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "warpscope/warpscope.hpp"

namespace corpus {

using warpscope::Device;
using warpscope::DevicePtr;
using warpscope::Dim3;
using warpscope::Module;

// ---- host mirrors of CUDA vector types -------------------------------------------------------

/// float3 / a struct of three floats: 12 bytes, 4-byte aligned.
struct Float3 {
  float x, y, z;
};
/// float4 and int4: 16 bytes, 16-byte aligned (so the kernels' ld/st.v4 are aligned).
struct alignas(16) Float4 {
  float x, y, z, w;
};
struct alignas(16) Int4 {
  int x, y, z, w;
};
static_assert(sizeof(Float3) == 12 && sizeof(Float4) == 16 && sizeof(Int4) == 16);

// ---- PTX -------------------------------------------------------------------------------------

/// The path of the PTX nvcc made from kernels/<name>.cu (WARPSCOPE_CORPUS_PTX_DIR/<name>.ptx).
std::string ptx_path(std::string_view name);
/// The text of that PTX file; throws std::runtime_error when it cannot be read.
std::string read_ptx(std::string_view name);
/// Loads kernels/<name>.cu's PTX into `device`.
Module load(Device& device, std::string_view name);

// ---- device buffers ------------------------------------------------------------------------

/// `count` elements of T in device memory, freed on destruction. Move-only.
/// Observers of every Buffer::download's bytes and every launch's counters through launch_shared
/// (nullptr: none): tests/jit compares them between the interpreter and the JIT.
inline void (*observe_bytes)(const void* data, std::size_t bytes) = nullptr;
inline void (*observe_launch)(const warpscope::LaunchStats& stats) = nullptr;
/// When set, launch_shared gives every launch this access sink (Device::set_access_sink): tests/jit
/// compares the records of profiled launches between the interpreter and the JIT.
inline warpscope::AccessSink* launch_sink = nullptr;

template <class T>
class Buffer {
 public:
  Buffer(Device& device, std::size_t count)
      : device_(&device), count_(count), ptr_(device.malloc(bytes_for(count))) {}
  Buffer(Device& device, std::span<const T> host) : Buffer(device, host.size()) { upload(host); }
  Buffer(Device& device, const std::vector<T>& host) : Buffer(device, std::span<const T>(host)) {}
  ~Buffer() {
    if (device_ != nullptr) device_->free(ptr_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept
      : device_(std::exchange(other.device_, nullptr)), count_(other.count_), ptr_(other.ptr_) {}
  Buffer& operator=(Buffer&&) = delete;

  /// The device address of element 0 (pass this as a kernel's pointer argument).
  DevicePtr ptr() const { return ptr_; }
  /// The device address of element i.
  DevicePtr ptr(std::size_t i) const { return ptr_ + i * sizeof(T); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(std::span<const T> host) {
    EXPECT_LE(host.size(), count_);
    device_->copy_to_device(ptr_, host.data(), host.size_bytes());
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    device_->copy_to_host(host.data(), ptr_, bytes());
    if (observe_bytes != nullptr) observe_bytes(host.data(), bytes());
    return host;
  }
  /// Sets every byte (as cudaMemset does).
  void fill_bytes(int value) { device_->memset(ptr_, value, bytes()); }

 private:
  // A zero-length buffer still gets a real allocation, so ptr() is always valid.
  static std::size_t bytes_for(std::size_t count) { return count == 0 ? 1 : count * sizeof(T); }

  Device* device_;
  std::size_t count_;
  DevicePtr ptr_;
};

// ---- launches ------------------------------------------------------------------------------

/// Launches `kernel` with the given argument values (each passed by its bytes, as
/// cudaLaunchKernel's args[] would be: pass buffer.ptr() for pointers, and exactly the C++ type
/// the kernel declares for scalars, e.g. std::uint64_t for `unsigned long`).
template <class... Args>
warpscope::LaunchStats launch_shared(Device& device, const Module& module, std::string_view kernel,
                                     Dim3 grid, Dim3 block, std::size_t dynamic_shared_bytes,
                                     const Args&... args) {
  const warpscope::KernelArg list[] = {warpscope::arg(args)..., warpscope::KernelArg{}};
  if (launch_sink != nullptr) device.set_access_sink(launch_sink);
  warpscope::LaunchStats stats = device.launch(module, kernel, grid, block,
                                               std::span<const warpscope::KernelArg>(list, sizeof...(Args)),
                                               dynamic_shared_bytes);
  if (observe_launch != nullptr) observe_launch(stats);
  return stats;
}

template <class... Args>
warpscope::LaunchStats launch(Device& device, const Module& module, std::string_view kernel,
                              Dim3 grid, Dim3 block, const Args&... args) {
  return launch_shared(device, module, kernel, grid, block, 0, args...);
}

/// Blocks of `block` threads covering n elements in one dimension.
inline Dim3 blocks_for(std::size_t n, std::uint32_t block) {
  return Dim3{static_cast<std::uint32_t>((n + block - 1) / block), 1, 1};
}

/// Names value-parameterised tests after their kernel: INSTANTIATE_TEST_SUITE_P(..., KernelName{}).
struct KernelName {
  std::string operator()(const ::testing::TestParamInfo<const char*>& param) const {
    return std::string(param.param);
  }
};

// ---- deterministic inputs ------------------------------------------------------------------

/// A small, fully specified generator (xorshift64*), so inputs are the same on every platform
/// (std::uniform_real_distribution's output is implementation-defined).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next_u64() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }
  std::uint32_t next_u32() { return static_cast<std::uint32_t>(next_u64() >> 32); }
  /// Uniform in [lo, hi] (inclusive).
  std::int64_t int_in(std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(span == 0 ? next_u64() : next_u64() % span);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  float uniform_f(float lo, float hi) { return static_cast<float>(uniform(lo, hi)); }
  /// exp(uniform(log lo, log hi)): spreads values over many binades.
  double log_uniform(double lo, double hi) {
    return std::exp(uniform(std::log(lo), std::log(hi)));
  }

 private:
  std::uint64_t state_;
};

/// `v` with its low `bits` mantissa bits cleared. A float with at most 24 - k significant bits
/// times a constant with at most k significant bits is exact, so `y + a * x` then rounds once
/// whether or not nvcc contracted it into an fma: such inputs make results bit-exact.
inline float truncate_mantissa(float v, int bits) {
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  u &= ~((1u << bits) - 1u);
  std::memcpy(&v, &u, sizeof v);
  return v;
}

/// k / denominator for a random integer k in [-limit, limit]: dyadic values whose sums and
/// small products are exact in float, so order of evaluation and contraction do not matter.
inline float dyadic(Rng& rng, int limit, int denominator) {
  return static_cast<float>(rng.int_in(-limit, limit)) / static_cast<float>(denominator);
}

// ---- floating-point comparison -------------------------------------------------------------

inline std::uint32_t bits(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
inline std::uint64_t bits(double v) {
  std::uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
inline float float_from_bits(std::uint32_t u) {
  float v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}
inline double double_from_bits(std::uint64_t u) {
  double v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

/// The spacing of floats of type T around the (exact) value r, per the OpenCL/Muller definition
/// used by the CUDA guide: the gap between the two finite T values that bracket r. Subnormal
/// range: the smallest subnormal.
template <class T, class R>
R ulp_of(R r) {
  const R a = std::fabs(r);
  const R tiny = static_cast<R>(std::numeric_limits<T>::min());
  if (a < tiny) return static_cast<R>(std::numeric_limits<T>::denorm_min());
  int exponent = 0;
  (void)std::frexp(a, &exponent);  // a = m * 2^exponent with m in [0.5, 1)
  return std::ldexp(static_cast<R>(1), exponent - std::numeric_limits<T>::digits);
}

/// |got - exact| in units of T's ulp at `exact`. `exact` must be much more precise than T
/// (double for float results, long double for double results).
template <class T, class R>
double ulp_error(T got, R exact) {
  if (std::isnan(got) || std::isnan(exact)) {
    return std::isnan(got) && std::isnan(exact) ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (std::isinf(got) || std::isinf(exact)) {
    return static_cast<R>(got) == exact ? 0.0 : std::numeric_limits<double>::infinity();
  }
  return static_cast<double>(std::fabs(static_cast<R>(got) - exact) / ulp_of<T, R>(exact));
}

/// A value with its bit pattern, for failure messages.
std::string describe(float v);
std::string describe(double v);
std::string describe(std::int64_t v);
std::string describe(std::uint64_t v);
template <class T>
  requires std::is_integral_v<T>
std::string describe(T v) {
  if constexpr (std::is_signed_v<T>) {
    return describe(static_cast<std::int64_t>(v));
  } else {
    return describe(static_cast<std::uint64_t>(v));
  }
}
template <class T>
  requires(!std::is_arithmetic_v<T>)
std::string describe(const T& v) {
  std::string out = "{";
  const auto* p = reinterpret_cast<const unsigned char*>(&v);
  static const char* hex = "0123456789abcdef";
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out += hex[p[i] >> 4];
    out += hex[p[i] & 15];
  }
  return out + "}";
}

/// Checks that every element of `got` has the same bit pattern as `want` (for floats: NaNs
/// compare as NaN regardless of payload). Reports the first few mismatches by index.
template <class T>
::testing::AssertionResult bitwise_equal(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure()
           << "size " << got.size() << " != expected " << want.size();
  }
  std::size_t mismatches = 0;
  std::string detail;
  for (std::size_t i = 0; i < got.size(); ++i) {
    bool same;
    if constexpr (std::is_floating_point_v<T>) {
      same = (std::isnan(got[i]) && std::isnan(want[i])) || bits(got[i]) == bits(want[i]);
    } else {
      same = std::memcmp(&got[i], &want[i], sizeof(T)) == 0;
    }
    if (!same) {
      if (++mismatches <= 8) {
        detail += "\n  [" + std::to_string(i) + "] got " + describe(got[i]) + ", expected " +
                  describe(want[i]);
      }
    }
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << mismatches << " of " << got.size()
                                       << " elements differ" << detail;
}

/// Checks ulp_error(got[i], exact[i]) <= limit for every i; reports the worst elements.
template <class T, class R>
::testing::AssertionResult within_ulps(const std::vector<T>& inputs_for_report,
                                       const std::vector<T>& got, const std::vector<R>& exact,
                                       double limit) {
  std::size_t failures = 0;
  std::string detail;
  double worst = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = ulp_error<T, R>(got[i], exact[i]);
    worst = std::max(worst, e);
    if (!(e <= limit) && ++failures <= 8) {
      detail += "\n  [" + std::to_string(i) + "] input " + describe(inputs_for_report[i]) +
                ": got " + describe(got[i]) + ", exact " +
                describe(static_cast<double>(exact[i])) + " (" + std::to_string(e) + " ulp)";
    }
  }
  ::testing::Test::RecordProperty("worst_ulp_error", std::to_string(worst));  // for reports
  if (failures == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failures << " of " << got.size()
                                       << " results exceed " << limit << " ulp (worst " << worst
                                       << ")" << detail;
}

}  // namespace corpus
