// The CUDA runtime's answers to calls with bad arguments (issue 32, "The GPU's answers"): each
// line is "<case> <returned error name> <cudaGetLastError() after it> <cudaPeekAtLastError() after that>".
// Run with no argument for the recoverable cases; with "fault" a kernel's illegal address shows
// the sticky error on the calls that follow; with "pinned" kernels read and write pinned host
// memory through its host pointer.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CASE(name, call)                                                                                \
  do {                                                                                                  \
    cudaError_t rc_ = (call);                                                                             \
    cudaError_t last_ = cudaGetLastError();                                                                 \
    cudaError_t peek_ = cudaPeekAtLastError();                                                              \
    printf("%s %s %s %s\n", name, cudaGetErrorName(rc_), cudaGetErrorName(last_), cudaGetErrorName(peek_));       \
  } while (0)

__global__ void touch(int* p) { p[threadIdx.x] += 1; }
__global__ void wild(int* p) { p[(1ull << 40) / 4] = 1; }
__global__ void nothing() {}

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);  // every line out before a crash
  const char* mode = argc > 1 ? argv[1] : "api";
  int* d = nullptr;
  CASE("malloc_4096", cudaMalloc(&d, 4096));
  static char host[1 << 16];
  if (!strcmp(mode, "api")) {
    CASE("memcpy_h2d_past_end", cudaMemcpy(d, host, 8192, cudaMemcpyHostToDevice));
    CASE("memcpy_d2h_past_end", cudaMemcpy(host, d, 8192, cudaMemcpyDeviceToHost));
    CASE("memcpy_d2d_past_end", cudaMemcpy(d, d + 512, 4096, cudaMemcpyDeviceToDevice));
    CASE("memcpy_default_past_end", cudaMemcpy(d, host, 8192, cudaMemcpyDefault));
    CASE("memcpy_zero_bytes_null", cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyHostToDevice));
    CASE("memcpy_h2d_to_host_ptr", cudaMemcpy(host, host + 100, 16, cudaMemcpyHostToDevice));
    CASE("memset_past_end", cudaMemset(d, 0, 8192));
    CASE("memset_offset_past_end", cudaMemset(d + 1000, 0, 100));
    CASE("memset_host_ptr", cudaMemset(host, 0, 16));
    CASE("memset_null", cudaMemset(nullptr, 0, 16));
    CASE("memcpy_async_past_end", cudaMemcpyAsync(d, host, 8192, cudaMemcpyHostToDevice, 0));
    CASE("memset_async_past_end", cudaMemsetAsync(d, 0, 8192, 0));
    CASE("free_interior", cudaFree(d + 4));
    CASE("free_host", cudaFree(host));
    CASE("free_null", cudaFree(nullptr));
    int* e = nullptr;
    cudaMalloc(&e, 256);
    CASE("free_once", cudaFree(e));
    CASE("free_twice", cudaFree(e));
    CASE("malloc_huge", cudaMalloc(&e, size_t(1) << 50));
    CASE("malloc_zero", cudaMalloc(&e, 0));
    printf("malloc_zero_ptr_is_null %d\n", e == nullptr);
    nothing<<<1, 2048>>>();
    CASE("launch_block_2048", cudaGetLastError());
    nothing<<<dim3(1, 70000), 1>>>();
    CASE("launch_grid_y_70000", cudaGetLastError());
    nothing<<<0, 32>>>();
    CASE("launch_grid_0", cudaGetLastError());
    nothing<<<1, 32, 1 << 20>>>();
    CASE("launch_shared_1MiB", cudaGetLastError());
    CASE("sync_after_bad_launches", cudaDeviceSynchronize());
    CASE("memcpy_kind_invalid", cudaMemcpy(d, host, 16, static_cast<cudaMemcpyKind>(7)));
    CASE("set_device_1", cudaSetDevice(1));
    CASE("set_device_neg", cudaSetDevice(-1));
    CASE("event_query_null", cudaEventQuery(nullptr));
    CASE("stream_destroy_bogus", cudaStreamDestroy(reinterpret_cast<cudaStream_t>(0x1234)));
  } else if (!strcmp(mode, "fault")) {
    wild<<<1, 1>>>(d);
    CASE("sync_after_fault", cudaDeviceSynchronize());
    CASE("malloc_after_fault", cudaMalloc(&d, 16));
    CASE("memcpy_after_fault", cudaMemcpy(host, d, 16, cudaMemcpyDeviceToHost));
    nothing<<<1, 1>>>();
    CASE("launch_after_fault", cudaGetLastError());
    CASE("reset", cudaDeviceReset());
    CASE("malloc_after_reset", cudaMalloc(&d, 16));
  } else if (!strcmp(mode, "pinned")) {
    int* h = nullptr;
    CASE("malloc_host", cudaMallocHost(&h, 32 * sizeof(int)));
    for (int i = 0; i < 32; ++i) h[i] = i;
    touch<<<1, 32>>>(h);
    CASE("kernel_on_pinned", cudaDeviceSynchronize());
    printf("pinned_after %d %d\n", h[0], h[31]);
    int* r = new int[1024]();
    CASE("host_register", cudaHostRegister(r, 4096, cudaHostRegisterDefault));
    touch<<<1, 32>>>(r);
    CASE("kernel_on_registered", cudaDeviceSynchronize());
    printf("registered_after %d %d\n", r[0], r[31]);
    CASE("host_register_again", cudaHostRegister(r, 4096, cudaHostRegisterDefault));
    CASE("host_register_overlap", cudaHostRegister(r + 512, 4096, cudaHostRegisterDefault));
    CASE("host_register_null", cudaHostRegister(nullptr, 4096, cudaHostRegisterDefault));
    CASE("host_register_zero_bytes", cudaHostRegister(r + 2048, 0, cudaHostRegisterDefault));
    CASE("host_register_bad_flags", cudaHostRegister(r + 2048, 64, 0x100));
    void* dp = nullptr;
    CASE("host_get_device_pointer_registered", cudaHostGetDevicePointer(&dp, r + 8, 0));
    printf("registered_device_pointer_same %d\n", dp == (void*)(r + 8));
    CASE("host_unregister", cudaHostUnregister(r));
    CASE("host_unregister_again", cudaHostUnregister(r));
    CASE("host_unregister_inside", cudaHostUnregister(h));
    int* m = static_cast<int*>(malloc(4096));
    memset(m, 0, 4096);
    touch<<<1, 32>>>(m);
    CASE("kernel_on_pageable", cudaDeviceSynchronize());
  }
  return 0;
}
