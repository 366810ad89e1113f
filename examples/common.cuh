// Shared by the example programs: error checking and wall-clock timing. Lines that carry timings
// start with "[timing]" so that tests can drop them when comparing outputs.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,         \
                   cudaGetErrorString(err_), cudaGetErrorName(err_));                        \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// Seconds since an arbitrary start, as the seeds' wtime().
inline double wtime() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// Deterministic pseudo-random numbers in [-1, 1) (a 32-bit LCG), the same on every host.
struct Lcg {
  unsigned state;
  explicit Lcg(unsigned seed) : state(seed) {}
  float next() {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
  }
};
