// CHECK(x): return 1 from main (or any int function) with the file, line and CUDA error when a
// runtime call fails. Shared by the H100 microbenchmarks of this folder.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));       \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)
