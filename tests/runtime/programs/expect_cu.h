// The checks of the driver API test programs (driver_api.cpp, driver_memory.cpp, driver_graph.cpp,
// driver_misc.cpp, driver_mixed.cu): each prints one "ok NAME" or "not ok NAME: detail (line N)"
// line and counts the failures in `failures`, which the program prints at its end ("N failures").
// EXPECT_CU names the CUresult it got; `failures` and EXPECT are expect.cuh's (the runtime
// programs' checks).
#pragma once
#include <cuda.h>

#include <cstdio>

#include "expect.cuh"  // failures, EXPECT (its EXPECT_ERR needs the runtime only where used)

#define EXPECT_CU(name, call, want)                                                                    \
  do {                                                                                                 \
    const CUresult e_ = (call);                                                                        \
    if (e_ == (want)) {                                                                                \
      std::printf("ok %s\n", name);                                                                    \
    } else {                                                                                           \
      ++failures;                                                                                      \
      const char* n_ = nullptr;                                                                        \
      cuGetErrorName(e_, &n_);                                                                         \
      std::printf("not ok %s: %s gave %d (%s), expected %d (line %d)\n", name, #call, int(e_),         \
                  n_ != nullptr ? n_ : "?", int(want), __LINE__);                                      \
    }                                                                                                  \
  } while (0)
