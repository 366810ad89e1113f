// Facts about the CUDA runtime on a real GPU that warpscope's runtime replacement and occupancy
// model must reproduce: device properties and attributes, cudaMallocPitch's pitches, and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor over registers x block size x shared memory.
// Output: sections of CSV on stdout, each introduced by a "# section" line.
#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e_ = (x);                                                               \
    if (e_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

// A kernel whose register use is capped at R by __maxnreg__ and that would like many more: it
// keeps 96 running sums live across a loop. Variants with static shared memory too.
template <int R>
__global__ void __maxnreg__(R) regs_kernel(const float* in, float* out, int n) {
  float acc[96];
#pragma unroll
  for (int k = 0; k < 96; ++k) acc[k] = in[k];
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < 96; ++k) acc[k] = acc[k] * in[i] + acc[(k + 1) % 96];
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 96; ++k) s += acc[k];
  out[threadIdx.x] = s;
}

template <int R>
__global__ void __maxnreg__(R) regs_static_smem_kernel(const float* in, float* out, int n) {
  __shared__ float tile[4096];  // 16 KB static
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float s = 0;
  for (int i = 0; i < n; ++i) s += tile[(threadIdx.x + i) % 4096] * in[i];
  out[threadIdx.x] = s;
}

template <class K>
static void occupancy_rows(const char* name, K kernel) {
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, kernel));
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             227 * 1024 - static_cast<int>(fa.sharedSizeBytes)));
  const int blocks[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
  const int smem_kb[] = {0, 1, 2, 8, 16, 32, 48, 64, 100, 150, 200};
  for (int b : blocks) {
    if (b > fa.maxThreadsPerBlock) continue;
    for (int kb : smem_kb) {
      size_t dyn = static_cast<size_t>(kb) * 1024;
      if (dyn + fa.sharedSizeBytes > 227 * 1024) continue;
      int n = -1;
      cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, b, dyn);
      std::printf("%s,%d,%zu,%zu,%d,%d,%zu,%d,%s\n", name, fa.numRegs, fa.sharedSizeBytes,
                  fa.localSizeBytes, fa.maxThreadsPerBlock, b, dyn, n,
                  e == cudaSuccess ? "ok" : cudaGetErrorName(e));
    }
  }
}

int main() {
  int dev = 0, driver = 0, runtime = 0;
  CHECK(cudaSetDevice(dev));
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, dev));
  std::printf("# properties\nfield,value\n");
  std::printf("name,%s\n", p.name);
  std::printf("driver_version,%d\nruntime_version,%d\n", driver, runtime);
#define PROP(f) std::printf(#f ",%lld\n", static_cast<long long>(p.f))
  PROP(totalGlobalMem); PROP(sharedMemPerBlock); PROP(regsPerBlock); PROP(warpSize);
  PROP(memPitch); PROP(maxThreadsPerBlock); PROP(maxThreadsDim[0]); PROP(maxThreadsDim[1]);
  PROP(maxThreadsDim[2]); PROP(maxGridSize[0]); PROP(maxGridSize[1]); PROP(maxGridSize[2]);
  PROP(totalConstMem); PROP(major); PROP(minor); PROP(textureAlignment); PROP(texturePitchAlignment);
  PROP(multiProcessorCount); PROP(integrated); PROP(canMapHostMemory); PROP(concurrentKernels);
  PROP(ECCEnabled); PROP(pciBusID); PROP(pciDeviceID); PROP(pciDomainID); PROP(asyncEngineCount);
  PROP(unifiedAddressing); PROP(memoryBusWidth); PROP(l2CacheSize); PROP(persistingL2CacheMaxSize);
  PROP(maxThreadsPerMultiProcessor); PROP(streamPrioritiesSupported); PROP(globalL1CacheSupported);
  PROP(localL1CacheSupported); PROP(sharedMemPerMultiprocessor); PROP(regsPerMultiprocessor);
  PROP(managedMemory); PROP(isMultiGpuBoard); PROP(multiGpuBoardGroupID);
  PROP(pageableMemoryAccess); PROP(concurrentManagedAccess); PROP(computePreemptionSupported);
  PROP(canUseHostPointerForRegisteredMem); PROP(cooperativeLaunch); PROP(sharedMemPerBlockOptin);
  PROP(pageableMemoryAccessUsesHostPageTables); PROP(directManagedMemAccessFromHost);
  PROP(maxBlocksPerMultiProcessor); PROP(accessPolicyMaxWindowSize); PROP(reservedSharedMemPerBlock);
  PROP(hostRegisterSupported); PROP(sparseCudaArraySupported); PROP(hostRegisterReadOnlySupported);
  PROP(timelineSemaphoreInteropSupported); PROP(memoryPoolsSupported); PROP(gpuDirectRDMASupported);
  PROP(memoryPoolSupportedHandleTypes); PROP(deferredMappingCudaArraySupported);
  PROP(ipcEventSupported); PROP(clusterLaunch); PROP(unifiedFunctionPointers);
#undef PROP
  std::printf("# attributes\nattribute,value\n");
  for (int a = 1; a < 200; ++a) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), dev) == cudaSuccess)
      std::printf("%d,%d\n", a, v);
    else
      cudaGetLastError();
  }
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  std::printf("# meminfo\nfree,total\n%zu,%zu\n", free_b, total_b);

  std::printf("# pitch\nwidth_bytes,height,pitch\n");
  const size_t widths[] = {1, 4, 31, 100, 127, 128, 129, 255, 256, 257, 500, 511, 512, 513, 1000,
                           1024, 1025, 2000, 2048, 4096, 5000, 65536, 100000};
  for (size_t w : widths) {
    for (size_t h : {1, 7}) {
      void* ptr = nullptr;
      size_t pitch = 0;
      CHECK(cudaMallocPitch(&ptr, &pitch, w, h));
      std::printf("%zu,%zu,%zu\n", w, h, pitch);
      CHECK(cudaFree(ptr));
    }
  }
  std::printf("# malloc_alignment\nbytes,address_mod_256,address_mod_4096,delta_from_previous\n");
  {
    char* prev = nullptr;
    for (size_t b : {1, 3, 100, 256, 257, 1000, 4096, 100000}) {
      void* ptr = nullptr;
      CHECK(cudaMalloc(&ptr, b));
      char* c = static_cast<char*>(ptr);
      std::printf("%zu,%zu,%zu,%lld\n", b, reinterpret_cast<size_t>(c) % 256,
                  reinterpret_cast<size_t>(c) % 4096, prev ? static_cast<long long>(c - prev) : 0ll);
      prev = c;
    }
  }

  std::printf("# occupancy\nkernel,registers,static_shared,local_bytes,max_threads_per_block,block,dynamic_shared,blocks_per_sm,status\n");
  occupancy_rows("regs16", regs_kernel<16>);
  occupancy_rows("regs24", regs_kernel<24>);
  occupancy_rows("regs32", regs_kernel<32>);
  occupancy_rows("regs40", regs_kernel<40>);
  occupancy_rows("regs48", regs_kernel<48>);
  occupancy_rows("regs64", regs_kernel<64>);
  occupancy_rows("regs72", regs_kernel<72>);
  occupancy_rows("regs96", regs_kernel<96>);
  occupancy_rows("regs128", regs_kernel<128>);
  occupancy_rows("regs168", regs_kernel<168>);
  occupancy_rows("regs255", regs_kernel<255>);
  occupancy_rows("smem16k_regs32", regs_static_smem_kernel<32>);
  occupancy_rows("smem16k_regs128", regs_static_smem_kernel<128>);
  return 0;
}
