// Exercises the runtime API with its documented edge cases. Built by nvcc (-cudart shared) and
// run under warpscope's libcudart.so.13 by runtime_tests; prints one "ok NAME" or
// "not ok NAME: detail" line per check (the numbers expected are an H100's, runtime_probe.csv).
#include <cstdio>
#include <cstring>
#include <vector>

#include "expect.cuh"

__constant__ float c_table[16];
__device__ int d_counter[4] = {1, 2, 3, 4};
__device__ float d_scalar;

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void use_symbols(float* out) {
  int i = threadIdx.x;
  out[i] = c_table[i % 16] + d_counter[i % 4] + d_scalar;
  if (i == 0) d_counter[0] += 100;
}

__global__ void inc(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1.0f;
}

__global__ void dyn_shared(int* out, int n) {
  extern __shared__ int s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = i * 3;
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += s[i];
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

__global__ void static_shared(float* out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

__global__ void through_pointer(int* p) { p[threadIdx.x] *= 2; }

static void host_fn(void* data) { *static_cast<int*>(data) = 42; }

int main() {
  // ---- Devices and versions
  int count = -1;
  EXPECT_ERR("device_count", cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT("device_count_is_1", count == 1);
  EXPECT_ERR("set_device_0", cudaSetDevice(0), cudaSuccess);
  EXPECT_ERR("set_device_1_invalid", cudaSetDevice(1), cudaErrorInvalidDevice);
  EXPECT_ERR("last_error_after_invalid_device", cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_ERR("last_error_cleared", cudaGetLastError(), cudaSuccess);
  int dev = -1;
  EXPECT_ERR("get_device", cudaGetDevice(&dev), cudaSuccess);
  EXPECT("get_device_is_0", dev == 0);
  int v = 0;
  EXPECT_ERR("driver_version", cudaDriverGetVersion(&v), cudaSuccess);
  EXPECT("driver_version_13000", v == 13000);
  EXPECT_ERR("runtime_version", cudaRuntimeGetVersion(&v), cudaSuccess);
  EXPECT("runtime_version_13000", v == 13000);

  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  EXPECT_ERR("properties", cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT("prop_name", std::strcmp(p.name, "NVIDIA H100 80GB HBM3") == 0);
  EXPECT("prop_total_global", p.totalGlobalMem == 85017493504ull);
  EXPECT("prop_cc", p.major == 9 && p.minor == 0);
  EXPECT("prop_sms", p.multiProcessorCount == 132);
  EXPECT("prop_smem_block", p.sharedMemPerBlock == 49152);
  EXPECT("prop_smem_optin", p.sharedMemPerBlockOptin == 232448);
  EXPECT("prop_smem_sm", p.sharedMemPerMultiprocessor == 233472);
  EXPECT("prop_reserved_smem", p.reservedSharedMemPerBlock == 1024);
  EXPECT("prop_regs", p.regsPerBlock == 65536 && p.regsPerMultiprocessor == 65536);
  EXPECT("prop_threads", p.maxThreadsPerBlock == 1024 && p.maxThreadsPerMultiProcessor == 2048);
  EXPECT("prop_dims", p.maxThreadsDim[2] == 64 && p.maxGridSize[0] == 2147483647 && p.maxGridSize[1] == 65535);
  EXPECT("prop_l2", p.l2CacheSize == 52428800 && p.persistingL2CacheMaxSize == 32768000);
  EXPECT("prop_warp", p.warpSize == 32);
  EXPECT("prop_bus", p.memoryBusWidth == 5120);
  EXPECT("prop_blocks_sm", p.maxBlocksPerMultiProcessor == 32);
  EXPECT("prop_const", p.totalConstMem == 65536);
  EXPECT("prop_unified", p.unifiedAddressing == 1 && p.managedMemory == 1 && p.concurrentManagedAccess == 1);
  EXPECT("prop_tail", p.memoryPoolSupportedHandleTypes == 9 && p.clusterLaunch == 1 && p.unifiedFunctionPointers == 1);
  EXPECT_ERR("properties_bad_device", cudaGetDeviceProperties(&p, 3), cudaErrorInvalidDevice);
  cudaGetLastError();

  struct {
    cudaDeviceAttr a;
    int want;
  } attrs[] = {{cudaDevAttrMaxThreadsPerBlock, 1024},
               {cudaDevAttrMultiProcessorCount, 132},
               {cudaDevAttrComputeCapabilityMajor, 9},
               {cudaDevAttrComputeCapabilityMinor, 0},
               {cudaDevAttrClockRate, 1980000},
               {cudaDevAttrMemoryClockRate, 2619000},
               {cudaDevAttrMaxSharedMemoryPerBlockOptin, 232448},
               {cudaDevAttrMaxBlocksPerMultiprocessor, 32},
               {cudaDevAttrL2CacheSize, 52428800},
               {cudaDevAttrTextureAlignment, 512},
               {static_cast<cudaDeviceAttr>(131), -1}};
  for (const auto& a : attrs) {
    int value = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&value, a.a, 0);
    char name[64];
    std::snprintf(name, sizeof name, "attribute_%d", static_cast<int>(a.a));
    EXPECT(name, e == cudaSuccess && value == a.want);
  }
  int value = 0;
  EXPECT_ERR("attribute_unknown", cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(400), 0),
             cudaErrorInvalidValue);
  cudaGetLastError();

  // ---- Errors
  EXPECT("error_name_success", std::strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0);
  EXPECT("error_string_invalid_value", std::strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
  EXPECT("error_name_illegal_address", std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0);
  EXPECT("error_string_unknown_code", std::strcmp(cudaGetErrorString(static_cast<cudaError_t>(12345)), "unrecognized error code") == 0);

  // ---- Memory
  int* d = nullptr;
  EXPECT_ERR("malloc", cudaMalloc(&d, 1000 * sizeof(int)), cudaSuccess);
  EXPECT("malloc_aligned_256", reinterpret_cast<size_t>(d) % 256 == 0);
  void* z = reinterpret_cast<void*>(1);
  EXPECT_ERR("malloc_zero", cudaMalloc(&z, 0), cudaSuccess);
  EXPECT("malloc_zero_null", z == nullptr);
  void* huge = nullptr;
  EXPECT_ERR("malloc_too_big", cudaMalloc(&huge, size_t(1) << 50), cudaErrorMemoryAllocation);
  EXPECT_ERR("peek_keeps_error", cudaPeekAtLastError(), cudaErrorMemoryAllocation);
  EXPECT_ERR("get_clears_error", cudaGetLastError(), cudaErrorMemoryAllocation);
  EXPECT_ERR("error_cleared", cudaPeekAtLastError(), cudaSuccess);
  EXPECT_ERR("free_null", cudaFree(nullptr), cudaSuccess);
  int host_int = 0;
  EXPECT_ERR("free_host_pointer", cudaFree(&host_int), cudaErrorInvalidValue);
  cudaGetLastError();

  size_t free_before = 0, total = 0, free_after = 0;
  EXPECT_ERR("mem_get_info", cudaMemGetInfo(&free_before, &total), cudaSuccess);
  EXPECT("mem_total", total == 85017493504ull);
  void* big = nullptr;
  EXPECT_ERR("malloc_64mb", cudaMalloc(&big, 64 << 20), cudaSuccess);
  cudaMemGetInfo(&free_after, &total);
  EXPECT("mem_free_drops", free_before - free_after >= (64u << 20));
  EXPECT_ERR("free_64mb", cudaFree(big), cudaSuccess);

  std::vector<int> h(1000), back(1000);
  for (int i = 0; i < 1000; ++i) h[i] = i * 7;
  EXPECT_ERR("memcpy_h2d", cudaMemcpy(d, h.data(), 4000, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_ERR("memcpy_d2h", cudaMemcpy(back.data(), d, 4000, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT("memcpy_roundtrip", back == h);
  int* d2 = nullptr;
  cudaMalloc(&d2, 4000);
  EXPECT_ERR("memcpy_d2d", cudaMemcpy(d2, d, 4000, cudaMemcpyDeviceToDevice), cudaSuccess);
  std::fill(back.begin(), back.end(), 0);
  EXPECT_ERR("memcpy_default_d2h", cudaMemcpy(back.data(), d2, 4000, cudaMemcpyDefault), cudaSuccess);
  EXPECT("memcpy_d2d_data", back == h);
  std::vector<int> h2(1000, -1);
  EXPECT_ERR("memcpy_h2h", cudaMemcpy(h2.data(), h.data(), 4000, cudaMemcpyHostToHost), cudaSuccess);
  EXPECT("memcpy_h2h_data", h2 == h);
  EXPECT_ERR("memcpy_default_h2d", cudaMemcpy(d2, h2.data(), 4000, cudaMemcpyDefault), cudaSuccess);
  EXPECT_ERR("memcpy_bad_kind", cudaMemcpy(d2, d, 4, static_cast<cudaMemcpyKind>(7)), cudaErrorInvalidMemcpyDirection);
  cudaGetLastError();
  EXPECT_ERR("memcpy_h2d_to_host", cudaMemcpy(h2.data(), h.data(), 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_ERR("memcpy_zero_bytes", cudaMemcpy(d2, d, 0, cudaMemcpyDeviceToDevice), cudaSuccess);

  EXPECT_ERR("memset", cudaMemset(d, 0x01, 4000), cudaSuccess);
  cudaMemcpy(back.data(), d, 4000, cudaMemcpyDeviceToHost);
  EXPECT("memset_value", back[0] == 0x01010101 && back[999] == 0x01010101);
  EXPECT_ERR("memset_host_pointer", cudaMemset(h2.data(), 0, 4), cudaErrorInvalidValue);
  cudaGetLastError();

  // Pitched memory (the H100's pitches: 512-byte granularity).
  const size_t widths[] = {1, 512, 513, 100000};
  const size_t pitches[] = {512, 512, 1024, 100352};
  for (int i = 0; i < 4; ++i) {
    void* pp = nullptr;
    size_t pitch = 0;
    const cudaError_t e = cudaMallocPitch(&pp, &pitch, widths[i], 7);
    char name[64];
    std::snprintf(name, sizeof name, "malloc_pitch_%zu", widths[i]);
    EXPECT(name, e == cudaSuccess && pitch == pitches[i] && reinterpret_cast<size_t>(pp) % 256 == 0);
    cudaFree(pp);
  }
  {
    const int W = 100, H = 5;  // bytes x rows
    char* dp = nullptr;
    size_t pitch = 0;
    cudaMallocPitch(reinterpret_cast<void**>(&dp), &pitch, W, H);
    std::vector<char> src(W * H), dst(W * H, 0);
    for (int i = 0; i < W * H; ++i) src[i] = static_cast<char>(i * 3);
    EXPECT_ERR("memset_whole", cudaMemset(dp, 0x11, pitch * H), cudaSuccess);
    EXPECT_ERR("memset2d", cudaMemset2D(dp, pitch, 0x55, W, H), cudaSuccess);
    std::vector<char> rows(pitch * H);
    cudaMemcpy(rows.data(), dp, pitch * H, cudaMemcpyDeviceToHost);
    EXPECT("memset2d_rows_and_padding", rows[0] == 0x55 && rows[W - 1] == 0x55 && rows[W] == 0x11 &&
                                            rows[pitch - 1] == 0x11 && rows[pitch * (H - 1) + W - 1] == 0x55);
    EXPECT_ERR("memcpy2d_h2d", cudaMemcpy2D(dp, pitch, src.data(), W, W, H, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_ERR("memcpy2d_d2h", cudaMemcpy2D(dst.data(), W, dp, pitch, W, H, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT("memcpy2d_data", dst == src);
    std::vector<char> row(pitch);
    cudaMemcpy(row.data(), dp, pitch, cudaMemcpyDeviceToHost);
    EXPECT("memcpy2d_padding_untouched", row[W] == 0x11 && row[pitch - 1] == 0x11 && row[0] == src[0]);
    EXPECT_ERR("memcpy2d_width_over_pitch", cudaMemcpy2D(dp, pitch, src.data(), W, W + 1, H, cudaMemcpyHostToDevice),
               cudaErrorInvalidPitchValue);
    cudaGetLastError();
    cudaFree(dp);
  }

  // Pinned, mapped and managed memory.
  int* pinned = nullptr;
  EXPECT_ERR("malloc_host", cudaMallocHost(&pinned, 4000), cudaSuccess);
  EXPECT_ERR("memcpy_from_pinned", cudaMemcpy(d, pinned, 4000, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_ERR("free_host", cudaFreeHost(pinned), cudaSuccess);
  int* mapped = nullptr;
  EXPECT_ERR("host_alloc_mapped", cudaHostAlloc(&mapped, 32 * sizeof(int), cudaHostAllocMapped), cudaSuccess);
  for (int i = 0; i < 32; ++i) mapped[i] = i;
  int* mapped_dev = nullptr;
  EXPECT_ERR("host_get_device_pointer", cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_dev), mapped, 0),
             cudaSuccess);
  through_pointer<<<1, 32>>>(mapped_dev);
  cudaDeviceSynchronize();
  EXPECT("mapped_written_by_kernel", mapped[0] == 0 && mapped[5] == 10 && mapped[31] == 62);
  EXPECT_ERR("free_mapped", cudaFreeHost(mapped), cudaSuccess);
  float* managed = nullptr;
  EXPECT_ERR("malloc_managed", cudaMallocManaged(&managed, 1000 * sizeof(float)), cudaSuccess);
  for (int i = 0; i < 1000; ++i) managed[i] = static_cast<float>(i);
  inc<<<4, 256>>>(managed, 1000);
  EXPECT_ERR("managed_sync", cudaDeviceSynchronize(), cudaSuccess);
  EXPECT("managed_visible_on_host", managed[0] == 1.0f && managed[999] == 1000.0f);
  cudaPointerAttributes pa;
  EXPECT_ERR("pointer_attributes_managed", cudaPointerGetAttributes(&pa, managed), cudaSuccess);
  EXPECT("pointer_type_managed", pa.type == cudaMemoryTypeManaged);
  cudaPointerGetAttributes(&pa, d);
  EXPECT("pointer_type_device", pa.type == cudaMemoryTypeDevice);
  cudaPointerGetAttributes(&pa, h.data());
  EXPECT("pointer_type_unregistered", pa.type == cudaMemoryTypeUnregistered);
  EXPECT_ERR("free_managed", cudaFree(managed), cudaSuccess);
  EXPECT_ERR("malloc_managed_zero", cudaMallocManaged(&managed, 0), cudaSuccess);
  EXPECT("malloc_managed_zero_null", managed == nullptr);

  // ---- Symbols
  float table[16];
  for (int i = 0; i < 16; ++i) table[i] = i * 0.5f;
  EXPECT_ERR("memcpy_to_constant", cudaMemcpyToSymbol(c_table, table, sizeof table), cudaSuccess);
  const float scalar = 1000.0f;
  EXPECT_ERR("memcpy_to_device_var", cudaMemcpyToSymbol(d_scalar, &scalar, sizeof scalar), cudaSuccess);
  const float two = 2.0f;
  EXPECT_ERR("memcpy_to_symbol_offset", cudaMemcpyToSymbol(c_table, &two, 4, 4 * 4), cudaSuccess);
  EXPECT_ERR("memcpy_to_symbol_past_end", cudaMemcpyToSymbol(c_table, table, 8, 15 * 4), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_ERR("memcpy_to_non_symbol", cudaMemcpyToSymbol(table, table, 4), cudaErrorInvalidSymbol);
  cudaGetLastError();
  float* out = nullptr;
  cudaMalloc(&out, 256 * sizeof(float));
  use_symbols<<<1, 32>>>(out);
  std::vector<float> o(32);
  cudaMemcpy(o.data(), out, 128, cudaMemcpyDeviceToHost);
  EXPECT("symbols_seen_by_kernel", o[0] == 0.0f + 1 + 1000 && o[4] == 2.0f + 1 + 1000 && o[7] == 3.5f + 4 + 1000);
  int counters[4] = {0, 0, 0, 0};
  EXPECT_ERR("memcpy_from_device_var", cudaMemcpyFromSymbol(counters, d_counter, sizeof counters), cudaSuccess);
  EXPECT("device_var_initialised_and_updated", counters[0] == 101 && counters[3] == 4);
  int tail[2];
  EXPECT_ERR("memcpy_from_symbol_offset", cudaMemcpyFromSymbol(tail, d_counter, 8, 8), cudaSuccess);
  EXPECT("from_symbol_offset_data", tail[0] == 3 && tail[1] == 4);
  int* counter_ptr = nullptr;
  EXPECT_ERR("get_symbol_address", cudaGetSymbolAddress(reinterpret_cast<void**>(&counter_ptr), d_counter), cudaSuccess);
  size_t sym_size = 0;
  EXPECT_ERR("get_symbol_size", cudaGetSymbolSize(&sym_size, d_counter), cudaSuccess);
  EXPECT("symbol_size_16", sym_size == 16);
  through_pointer<<<1, 4>>>(counter_ptr);
  cudaMemcpy(counters, counter_ptr, 16, cudaMemcpyDeviceToHost);
  EXPECT("symbol_address_usable", counters[0] == 202 && counters[1] == 4);
  int from_d2d[4];
  int* tmp = nullptr;
  cudaMalloc(&tmp, 16);
  EXPECT_ERR("memcpy_from_symbol_d2d", cudaMemcpyFromSymbol(tmp, d_counter, 16, 0, cudaMemcpyDeviceToDevice), cudaSuccess);
  cudaMemcpy(from_d2d, tmp, 16, cudaMemcpyDeviceToHost);
  EXPECT("from_symbol_d2d_data", from_d2d[2] == 6);

  // ---- Streams and events
  cudaStream_t s1, s2;
  EXPECT_ERR("stream_create", cudaStreamCreate(&s1), cudaSuccess);
  EXPECT_ERR("stream_create_flags", cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
  unsigned flags = 9;
  EXPECT_ERR("stream_get_flags", cudaStreamGetFlags(s2, &flags), cudaSuccess);
  EXPECT("stream_flags_nonblocking", flags == cudaStreamNonBlocking);
  EXPECT_ERR("memcpy_async", cudaMemcpyAsync(d, h.data(), 4000, cudaMemcpyHostToDevice, s1), cudaSuccess);
  fill<<<4, 256, 0, s2>>>(d, 5, 1000);
  EXPECT_ERR("launch_on_stream", cudaGetLastError(), cudaSuccess);
  EXPECT_ERR("memset_async", cudaMemsetAsync(d2, 0, 4000, s1), cudaSuccess);
  EXPECT_ERR("stream_sync", cudaStreamSynchronize(s2), cudaSuccess);
  EXPECT_ERR("stream_query", cudaStreamQuery(s1), cudaSuccess);
  cudaMemcpy(back.data(), d, 4000, cudaMemcpyDeviceToHost);
  EXPECT("stream_work_in_order", back[0] == 5 && back[999] == 1004);
  int host_flag = 0;
  EXPECT_ERR("launch_host_func", cudaLaunchHostFunc(s1, host_fn, &host_flag), cudaSuccess);
  cudaStreamSynchronize(s1);
  EXPECT("host_func_ran", host_flag == 42);
  cudaEvent_t e1, e2, e3;
  EXPECT_ERR("event_create", cudaEventCreate(&e1), cudaSuccess);
  cudaEventCreate(&e2);
  cudaEventCreateWithFlags(&e3, cudaEventDisableTiming);
  float ms = -1;
  EXPECT_ERR("elapsed_unrecorded", cudaEventElapsedTime(&ms, e1, e2), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  EXPECT_ERR("event_record", cudaEventRecord(e1, s1), cudaSuccess);
  fill<<<4, 256, 0, s1>>>(d, 1, 1000);
  EXPECT_ERR("event_record_2", cudaEventRecord(e2, s1), cudaSuccess);
  EXPECT_ERR("event_sync", cudaEventSynchronize(e2), cudaSuccess);
  EXPECT_ERR("event_query", cudaEventQuery(e2), cudaSuccess);
  EXPECT_ERR("elapsed", cudaEventElapsedTime(&ms, e1, e2), cudaSuccess);
  EXPECT("elapsed_nonnegative", ms >= 0.0f);
  cudaEventRecord(e3, s1);
  EXPECT_ERR("elapsed_disable_timing", cudaEventElapsedTime(&ms, e1, e3), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  EXPECT_ERR("stream_wait_event", cudaStreamWaitEvent(s2, e2, 0), cudaSuccess);
  cudaEventDestroy(e1);
  cudaEventDestroy(e2);
  cudaEventDestroy(e3);
  EXPECT_ERR("stream_destroy", cudaStreamDestroy(s1), cudaSuccess);
  cudaStreamDestroy(s2);

  // ---- Launches: configuration errors, dynamic shared memory, attributes, occupancy
  // (CUDA 13 reports a bad configuration as cudaErrorInvalidValue, measured on an H100.)
  fill<<<1, 1025>>>(d, 0, 10);
  EXPECT_ERR("launch_too_many_threads", cudaGetLastError(), cudaErrorInvalidValue);
  fill<<<0, 32>>>(d, 0, 10);
  EXPECT_ERR("launch_zero_grid", cudaGetLastError(), cudaErrorInvalidValue);
  fill<<<dim3(1, 65536), 32>>>(d, 0, 10);
  EXPECT_ERR("launch_grid_y_too_big", cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_ERR("config_errors_not_sticky", cudaDeviceSynchronize(), cudaSuccess);

  int* sums = nullptr;
  cudaMalloc(&sums, 2 * sizeof(int));
  const int n_small = 256, n_big = 16384;  // 1 KB and 64 KB of dynamic shared memory
  dyn_shared<<<2, 128, n_small * sizeof(int)>>>(sums, n_small);
  EXPECT_ERR("dynamic_shared_1k", cudaGetLastError(), cudaSuccess);
  int hs[2] = {0, 0};
  cudaMemcpy(hs, sums, 8, cudaMemcpyDeviceToHost);
  EXPECT("dynamic_shared_1k_result", hs[0] == 3 * (n_small - 1) * n_small / 2 && hs[1] == hs[0]);
  dyn_shared<<<2, 128, n_big * sizeof(int)>>>(sums, n_big);
  EXPECT_ERR("dynamic_shared_64k_needs_attribute", cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_ERR("func_set_attribute",
             cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, n_big * sizeof(int)),
             cudaSuccess);
  dyn_shared<<<2, 128, n_big * sizeof(int)>>>(sums, n_big);
  EXPECT_ERR("dynamic_shared_64k", cudaGetLastError(), cudaSuccess);
  cudaMemcpy(hs, sums, 8, cudaMemcpyDeviceToHost);
  EXPECT("dynamic_shared_64k_result", hs[0] == 3 * (n_big - 1) * n_big / 2);
  EXPECT_ERR("func_set_attribute_too_big",
             cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024),
             cudaErrorInvalidValue);
  cudaGetLastError();

  cudaFuncAttributes fa;
  EXPECT_ERR("func_get_attributes", cudaFuncGetAttributes(&fa, static_shared), cudaSuccess);
  EXPECT("func_attr_static_shared", fa.sharedSizeBytes == 1024);
  EXPECT("func_attr_max_threads", fa.maxThreadsPerBlock == 1024);
  EXPECT("func_attr_versions", fa.ptxVersion == 90 && fa.binaryVersion == 90);
  EXPECT("func_attr_registers_positive", fa.numRegs > 0);
  cudaFuncGetAttributes(&fa, dyn_shared);
  EXPECT("func_attr_max_dynamic", fa.maxDynamicSharedSizeBytes == n_big * 4);
  EXPECT_ERR("func_get_attributes_not_kernel", cudaFuncGetAttributes(&fa, reinterpret_cast<const void*>(&host_fn)),
             cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  static_shared<<<1, 256>>>(out);
  EXPECT_ERR("static_shared_launch", cudaGetLastError(), cudaSuccess);
  int blocks = 0;
  EXPECT_ERR("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 1024, 0), cudaSuccess);
  EXPECT("occupancy_1024_threads", blocks == 2);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 32, 0);
  EXPECT("occupancy_32_threads", blocks == 32);

  // CUDA 12-style launch through the public API with the host stub.
  int nn = 1000, base = 9;
  void* args[] = {&d, &base, &nn};
  EXPECT_ERR("cuda_launch_kernel", cudaLaunchKernel(reinterpret_cast<const void*>(fill), dim3(4), dim3(256), args, 0, 0),
             cudaSuccess);
  cudaMemcpy(back.data(), d, 4000, cudaMemcpyDeviceToHost);
  EXPECT("cuda_launch_kernel_result", back[0] == 9 && back[999] == 1008);

  // Limits, unsupported calls, reset.
  size_t limit = 0;
  EXPECT_ERR("get_limit", cudaDeviceGetLimit(&limit, cudaLimitStackSize), cudaSuccess);
  EXPECT_ERR("set_limit", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 24), cudaSuccess);
  cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
  EXPECT("limit_roundtrip", limit == (1u << 24));
  // Graphs: real on a GPU, a stub under warpscope (cudaErrorNotSupported).
  cudaGraph_t graph;
  const cudaError_t graph_error = cudaGraphCreate(&graph, 0);
  EXPECT("graph_create_works_or_is_a_stub", graph_error == cudaSuccess || graph_error == cudaErrorNotSupported);
  if (graph_error == cudaSuccess) cudaGraphDestroy(graph);
  cudaGetLastError();
  EXPECT_ERR("device_synchronize", cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_ERR("device_reset", cudaDeviceReset(), cudaSuccess);
  int* after = nullptr;
  EXPECT_ERR("malloc_after_reset", cudaMalloc(&after, 64), cudaSuccess);
  fill<<<1, 16>>>(after, 3, 16);
  int a16[16];
  EXPECT_ERR("launch_after_reset", cudaMemcpy(a16, after, 64, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT("launch_after_reset_result", a16[15] == 18);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
