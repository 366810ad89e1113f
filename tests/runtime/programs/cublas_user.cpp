// Uses cuBLAS, whose kernels are machine code only and which carries its own CUDA runtime:
// warpscope must name the library and say why it cannot run it.
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
  cublasHandle_t handle = nullptr;
  const cublasStatus_t s = cublasCreate(&handle);
  std::printf("cublasCreate: %d\n", static_cast<int>(s));
  if (s == CUBLAS_STATUS_SUCCESS) cublasDestroy(handle);
  return s == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
