// The AVX2 build of the whole-warp coalescing kernel (warp_kernel.hpp). CMake compiles this file
// only on x86-64 with GCC or Clang, with -mavx2 -mbmi -mbmi2 -mpopcnt, and defines
// WARPSCOPE_MEM_AVX2 for the library; the coalescer calls it only when the CPU has these
// instructions.
#define WARPSCOPE_KERNEL_NS avx2
#include "mem/warp_kernel.inl"
#undef WARPSCOPE_KERNEL_NS
