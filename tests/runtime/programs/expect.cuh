// The checks of the runtime test programs (api_test.cu, graph_test.cu, capture_test.cu): each
// prints one "ok NAME" or "not ok NAME: detail (line N)" line and counts the failures in
// `failures`, which the program prints at its end ("N failures").
#pragma once
#include <cstdio>

static int failures = 0;

#define EXPECT(name, cond)                                             \
  do {                                                                 \
    if (cond) {                                                        \
      std::printf("ok %s\n", name);                                    \
    } else {                                                           \
      ++failures;                                                      \
      std::printf("not ok %s: %s (line %d)\n", name, #cond, __LINE__); \
    }                                                                  \
  } while (0)

#define EXPECT_ERR(name, call, want)                                                                   \
  do {                                                                                                 \
    cudaError_t e_ = (call);                                                                           \
    if (e_ == (want)) {                                                                                \
      std::printf("ok %s\n", name);                                                                    \
    } else {                                                                                           \
      ++failures;                                                                                      \
      std::printf("not ok %s: %s gave %s, expected %s (line %d)\n", name, #call, cudaGetErrorName(e_), \
                  cudaGetErrorName(want), __LINE__);                                                   \
    }                                                                                                  \
  } while (0)
