// A runtime program that also calls the driver API (linked with -lcuda): the runtime's context is
// the driver's primary context, memory from either API works in the other, and launches through
// cuLaunchKernel and <<<>>> land in the same report.
// Usage: driver_mixed KERNELS.ptx
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "expect.cuh"
#include "expect_cu.h"

__global__ void twice(float* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2.0f;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: driver_mixed KERNELS.ptx\n");
    return 2;
  }
  const int n = 500;
  float* x = nullptr;
  EXPECT_ERR("cudaMalloc", cudaMalloc(&x, n * sizeof(float)), cudaSuccess);
  // The runtime initialised the driver and made the primary context current.
  CUcontext cur = nullptr, primary = nullptr;
  EXPECT_CU("current context", cuCtxGetCurrent(&cur), CUDA_SUCCESS);
  EXPECT("a context is current", cur != nullptr);
  CUdevice dev = -1;
  EXPECT_CU("context device", cuCtxGetDevice(&dev), CUDA_SUCCESS);
  EXPECT("device 0", dev == 0);
  EXPECT_CU("primary retain", cuDevicePrimaryCtxRetain(&primary, 0), CUDA_SUCCESS);
  EXPECT("runtime context is the primary context", primary == cur);
  cuDevicePrimaryCtxRelease(0);

  // Driver memory, runtime copies; a driver module's kernel on runtime memory.
  CUdeviceptr y = 0;
  EXPECT_CU("cuMemAlloc", cuMemAlloc(&y, n * sizeof(float)), CUDA_SUCCESS);
  std::vector<float> hx(n), hy(n), want(n), got(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = float(i);
    hy[i] = 1.0f;
    want[i] = 2.0f * (3.0f * hx[i] + hy[i]);
  }
  EXPECT_ERR("copy x", cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_ERR("copy y to driver memory", cudaMemcpy(reinterpret_cast<void*>(y), hy.data(), n * sizeof(float),
                                                   cudaMemcpyHostToDevice), cudaSuccess);
  CUmodule mod = nullptr;
  EXPECT_CU("module", cuModuleLoad(&mod, argv[1]), CUDA_SUCCESS);
  CUfunction scale = nullptr;
  EXPECT_CU("function", cuModuleGetFunction(&scale, mod, "scale_add"), CUDA_SUCCESS);
  float a = 3.0f;
  int nn = n;
  void* params[] = {&y, &x, &a, &nn};
  EXPECT_CU("cuLaunchKernel", cuLaunchKernel(scale, 4, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr), CUDA_SUCCESS);
  twice<<<4, 128>>>(reinterpret_cast<float*>(y), n);
  EXPECT_ERR("runtime launch", cudaGetLastError(), cudaSuccess);
  EXPECT_CU("copy back", cuMemcpyDtoH(got.data(), y, n * sizeof(float)), CUDA_SUCCESS);
  EXPECT("results", got == want);

  // The runtime's kernel handle is a CUkernel.
  cudaKernel_t k = nullptr;
  EXPECT_ERR("cudaGetKernel", cudaGetKernel(&k, twice), cudaSuccess);
  CUfunction f = nullptr;
  EXPECT_CU("cuKernelGetFunction", cuKernelGetFunction(&f, reinterpret_cast<CUkernel>(k)), CUDA_SUCCESS);
  float* fy = reinterpret_cast<float*>(y);
  void* tparams[] = {&fy, &nn};
  EXPECT_CU("cuLaunchKernel of a runtime kernel", cuLaunchKernel(f, 4, 1, 1, 128, 1, 1, 0, nullptr, tparams, nullptr),
            CUDA_SUCCESS);
  cudaMemcpy(got.data(), fy, n * sizeof(float), cudaMemcpyDeviceToHost);
  EXPECT("runtime kernel through the driver", got[10] == 4.0f * (3.0f * 10 + 1.0f));

  // cudaGetDriverEntryPoint hands out the driver's functions.
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  EXPECT_ERR("entry point", cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 13000, cudaEnableDefault, &q), cudaSuccess);
  EXPECT("entry point is cuMemAlloc_v2", fn == reinterpret_cast<void*>(&cuMemAlloc_v2) &&
                                             q == cudaDriverEntryPointSuccess);
  // A driver error does not become the runtime's last error.
  EXPECT_CU("driver error", cuMemcpyDtoH(got.data(), reinterpret_cast<CUdeviceptr>(hx.data()), 4),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_ERR("runtime last error untouched", cudaGetLastError(), cudaSuccess);
  cuMemFree(y);
  cudaFree(x);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
