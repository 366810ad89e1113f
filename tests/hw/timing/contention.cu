// Microbenchmarks for the time model's serialised costs (docs/time.md, issue 19): atomics and
// reductions on few addresses, device printf, device malloc/free (new/delete), zero-copy host
// memory. Every figure is printed as `name value unit`, one per line, to the file named by the
// first argument (stdout stays free for the printf kernels). The second argument is how many
// times each timing repeats (the minimum is printed); 1 under ncu.
//   nvcc -arch=sm_90 -O3 -o contention contention.cu && ./contention out.txt 3
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

static FILE* out = nullptr;
static int reps = 3;

// ---- atomics: every thread adds `iters` times to buf[(lane-group) * stride] -------------------
// Thread i uses address (i % naddr) * stride elements. kResult: the result is used (ATOM),
// else RED. kLane0: only lane 0 of each warp adds (one request of one operation per warp).
template <typename T, bool kResult, bool kLane0>
__global__ void atomics(T* buf, unsigned naddr, unsigned stride, int iters, T* sink) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (kLane0 && (threadIdx.x & 31) != 0) return;
  T* p = buf + (i % naddr) * stride;
  T acc = 0;
  for (int k = 0; k < iters; ++k) {
    if (kResult) acc += atomicAdd(p, T(1));
    else atomicAdd(p, T(1));
  }
  if (kResult && acc == T(-1)) sink[i] = acc;  // keeps the result live
}

template <typename F>
static float time_ms(F launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    best = ms < best ? ms : best;
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return best;
}

template <typename T, bool kResult, bool kLane0>
static void atomic_case(const char* tname, void* buf, unsigned naddr, unsigned stride, void* sink) {
  const int blocks = 132 * 4, threads = 256;
  const double lanes = kLane0 ? blocks * threads / 32.0 : double(blocks) * threads;
  for (int iters : {2, 8}) {
    const float ms = time_ms([&] {
      atomics<T, kResult, kLane0><<<blocks, threads>>>(static_cast<T*>(buf), naddr, stride, iters, static_cast<T*>(sink));
    });
    std::fprintf(out, "atomic_%s_%s%s_naddr%u_stride%u_iters%d %.4f ms %.0f ops\n", tname, kResult ? "atom" : "red",
                 kLane0 ? "_lane0" : "", naddr, stride * unsigned(sizeof(T)), iters, ms, lanes * iters);
  }
}

// ---- printf: every thread prints one line with `kArgs` int arguments --------------------------
template <int kArgs>
__global__ void printer() {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (kArgs == 1) printf("%d\n", i);
  else printf("[%d, %d]: %d %d\n", i, i + 1, i + 2, i + 3);
}

// ---- device heap: each thread mallocs and frees `k` blocks of `bytes` -----------------------
__global__ void heap(int k, unsigned bytes, unsigned* fails) {
  for (int j = 0; j < k; ++j) {
    int* p = static_cast<int*>(malloc(bytes));
    if (p == nullptr) { atomicAdd(fails, 1u); continue; }
    p[0] = j;
    free(p);
  }
}
// One thread: k mallocs, then k frees (new then delete, as a single-thread container build does).
__global__ void heap_serial(int k, unsigned bytes, unsigned* fails) {
  int* ptrs[256];
  for (int j = 0; j < k; ++j) { ptrs[j] = static_cast<int*>(malloc(bytes)); if (!ptrs[j]) atomicAdd(fails, 1u); else ptrs[j][0] = j; }
  for (int j = 0; j < k; ++j) free(ptrs[j]);
}

// ---- zero-copy: c = a + b over mapped host memory; and a read-only sum -------------------------
__global__ void zc_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void zc_read(const float* a, int n, float* sink) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && a[i] == -1.0f) sink[0] = a[i];
}

__global__ void empty_kernel() {}

int main(int argc, char** argv) {
  out = argc > 1 ? std::fopen(argv[1], "w") : stderr;
  if (out == nullptr) return 1;
  reps = argc > 2 ? std::atoi(argv[2]) : 3;
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128u << 20));
  empty_kernel<<<1, 32>>>();
  CHECK(cudaDeviceSynchronize());
  void *buf = nullptr, *sink = nullptr;
  CHECK(cudaMalloc(&buf, 1 << 20));
  CHECK(cudaMalloc(&sink, 8 << 20));
  CHECK(cudaMemset(buf, 0, 1 << 20));
  for (unsigned naddr : {1u, 2u, 32u, 1024u}) {
    for (unsigned stride : {1u, 8u}) {  // 4 bytes apart (8 per sector), or a sector (32 B) apart
      if (naddr == 1 && stride == 8) continue;
      atomic_case<int, false, false>("int", buf, naddr, stride, sink);
      atomic_case<int, true, false>("int", buf, naddr, stride, sink);
      atomic_case<float, false, false>("float", buf, naddr, stride, sink);
      atomic_case<float, true, false>("float", buf, naddr, stride, sink);
    }
  }
  atomic_case<int, false, true>("int", buf, 1, 1, sink);
  atomic_case<int, true, true>("int", buf, 1, 1, sink);
  atomic_case<float, false, true>("float", buf, 1, 1, sink);

  for (int n : {32, 256, 2048, 16384}) {
    const int t = n < 256 ? n : 256;
    float ms = time_ms([&] { printer<1><<<n / t, t>>>(); });
    std::fprintf(out, "printf_1arg_calls%d %.4f ms\n", n, ms);
    ms = time_ms([&] { printer<4><<<n / t, t>>>(); });
    std::fprintf(out, "printf_4arg_calls%d %.4f ms\n", n, ms);
  }
  CHECK(cudaDeviceSynchronize());
  std::fflush(stdout);

  unsigned* fails = nullptr;
  CHECK(cudaMalloc(&fails, sizeof(unsigned)));
  CHECK(cudaMemset(fails, 0, sizeof(unsigned)));
  for (int k : {1, 16, 256}) {
    const float ms = time_ms([&] { heap_serial<<<1, 1>>>(k, 64, fails); });
    std::fprintf(out, "heap_serial_k%d_bytes64 %.4f ms\n", k, ms);
  }
  const float ms_big = time_ms([&] { heap_serial<<<1, 1>>>(1, 65536, fails); });
  std::fprintf(out, "heap_serial_k1_bytes65536 %.4f ms\n", ms_big);
  for (int n : {32, 256, 2048, 16384}) {
    const int t = n < 256 ? n : 256;
    for (int k : {1, 4}) {
      const float ms = time_ms([&] { heap<<<n / t, t>>>(k, 64, fails); });
      std::fprintf(out, "heap_parallel_threads%d_k%d_bytes64 %.4f ms\n", n, k, ms);
    }
  }
  unsigned nfail = 0;
  CHECK(cudaMemcpy(&nfail, fails, sizeof nfail, cudaMemcpyDeviceToHost));
  std::fprintf(out, "heap_failed_allocations %u count\n", nfail);

  for (int n : {1 << 18, 1 << 20, 1 << 22}) {
    float *a, *b, *c, *da, *db, *dc;
    const size_t bytes = size_t(n) * sizeof(float);
    CHECK(cudaHostAlloc(&a, bytes, cudaHostAllocMapped));
    CHECK(cudaHostAlloc(&b, bytes, cudaHostAllocMapped));
    CHECK(cudaHostAlloc(&c, bytes, cudaHostAllocMapped));
    for (int i = 0; i < n; ++i) { a[i] = float(i); b[i] = 1.0f; }
    CHECK(cudaHostGetDevicePointer(&da, a, 0));
    CHECK(cudaHostGetDevicePointer(&db, b, 0));
    CHECK(cudaHostGetDevicePointer(&dc, c, 0));
    float ms = time_ms([&] { zc_add<<<(n + 255) / 256, 256>>>(da, db, dc, n); });
    std::fprintf(out, "zerocopy_add_n%d %.4f ms %.0f bytes\n", n, ms, 3.0 * bytes);
    ms = time_ms([&] { zc_read<<<(n + 255) / 256, 256>>>(da, n, static_cast<float*>(sink)); });
    std::fprintf(out, "zerocopy_read_n%d %.4f ms %.0f bytes\n", n, ms, 1.0 * bytes);
    if (c[n - 1] != float(n - 1) + 1.0f) std::fprintf(out, "zerocopy_add_n%d WRONG\n", n);
    CHECK(cudaFreeHost(a));
    CHECK(cudaFreeHost(b));
    CHECK(cudaFreeHost(c));
  }
  std::fclose(out);
  return 0;
}
