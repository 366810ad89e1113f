// A shared library with one kernel, built with machine code only (-gencode arch=compute_90,code=sm_90,
// no PTX) and -cudart shared: its fatbinary registers with warpscope's runtime, which cannot
// interpret it and must say which library it comes from (closed_library_test.cpp).
#include <cuda_runtime.h>

__global__ void lib_kernel(int* out) { out[threadIdx.x] = threadIdx.x; }

extern "C" int sass_lib_launch(int* out) {
  lib_kernel<<<1, 32>>>(out);
  return static_cast<int>(cudaGetLastError());
}
