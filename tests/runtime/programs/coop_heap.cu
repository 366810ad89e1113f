// Cooperative launches, device-side malloc/new and the heap and printf FIFO limits through the
// CUDA runtime. Prints "ok NAME" or "not ok NAME: detail" per check and "N failures" at the end.
// It runs natively too (as an H100 probe: the lines starting with "probe" are values to compare).
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

static int failures = 0;
static void check(bool ok, const char* name, const char* detail = "") {
  if (ok) {
    std::printf("ok %s\n", name);
  } else {
    std::printf("not ok %s: %s\n", name, detail);
    ++failures;
  }
}
static void check_err(cudaError_t got, cudaError_t want, const char* name) {
  char detail[160];
  std::snprintf(detail, sizeof detail, "got %s, want %s", cudaGetErrorName(got), cudaGetErrorName(want));
  check(got == want, name, detail);
}

// Sum of in[] by a grid-stride loop, per-block partial sums, one grid barrier, then block 0 adds
// the partial sums; a second barrier and every block reads the total.
__global__ void grid_sum(const int* in, int n, int* partial, int* total, int* seen) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[128];
  int v = 0;
  for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += grid.size()) v += in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
  grid.sync();
  if (threadIdx.x == 0) seen[blockIdx.x] = *total;
}

struct Node {
  int value;
  Node* next;
};

// A linked list of `count` nodes built with new, summed, deleted.
__global__ void list_sum(int count, int* out) {
  Node* head = nullptr;
  for (int i = 0; i < count; ++i) head = new Node{i + static_cast<int>(threadIdx.x), head};
  int s = 0;
  while (head != nullptr) {
    s += head->value;
    Node* next = head->next;
    delete head;
    head = next;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void grab(size_t bytes, unsigned long long* ptrs) {
  ptrs[threadIdx.x] = reinterpret_cast<unsigned long long>(malloc(bytes));
}

__global__ void say(int lines) {
  for (int i = 0; i < lines; ++i) printf("line %d of thread %d\n", i, threadIdx.x);
}

int main() {
  int sms = 0, coop = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
  check(coop == 1, "cooperative launch supported");

  // Limits before any kernel uses them.
  size_t heap = 0, fifo = 0;
  check_err(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), cudaSuccess, "get heap limit");
  check(heap == 8u << 20, "default heap is 8 MiB");
  check_err(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize), cudaSuccess, "get printf limit");
  check(fifo == 8650752, "default printf FIFO is 8.25 MiB (the H100's)");
  check_err(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1u << 20), cudaSuccess, "set heap limit before use");
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  std::printf("probe heap limit after setting 1 MiB: %zu\n", heap);
  check_err(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096), cudaSuccess, "set printf limit before use");
  cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
  std::printf("probe printf limit after setting 4096: %zu\n", fifo);

  // Cooperative grid sum on two blocks per SM.
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, 128, 0);
  std::printf("probe grid_sum blocks per SM at 128 threads: %d\n", per_sm);
  const int blocks = 2 * sms, n = 100000;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) want += h[i] = (i * 13) % 29 - 14;
  int *in, *partial, *total, *seen;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&partial, blocks * per_sm * sizeof(int) + 4);
  cudaMalloc(&total, sizeof(int));
  cudaMalloc(&seen, blocks * per_sm * sizeof(int) + 4);
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int nn = n;
  void* args[] = {&in, &nn, &partial, &total, &seen};
  check_err(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(grid_sum), dim3(blocks), dim3(128), args, 0, 0),
            cudaSuccess, "cooperative launch");
  check_err(cudaDeviceSynchronize(), cudaSuccess, "cooperative launch completes");
  std::vector<int> got(blocks);
  cudaMemcpy(got.data(), seen, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  bool all = true;
  for (int b = 0; b < blocks; ++b) all = all && got[b] == want;
  check(all, "grid.sync reduction: every block sees the total");

  // One block more than fits at once.
  const int too_many = per_sm * sms + 1;
  check_err(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(grid_sum), dim3(too_many), dim3(128), args, 0, 0),
            cudaErrorCooperativeLaunchTooLarge, "cooperative launch too large");
  check_err(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge, "too large is the last error");
  check_err(cudaGetLastError(), cudaSuccess, "too large is not sticky");

  // cudaLaunchKernelEx with the cooperative attribute.
  cudaMemset(seen, 0, blocks * sizeof(int));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks / 2);
  config.blockDim = dim3(128);
  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  attrs[1].id = cudaLaunchAttributePriority;  // a hint
  attrs[1].val.priority = 0;
  config.attrs = attrs;
  config.numAttrs = 2;
  check_err(cudaLaunchKernelEx(&config, grid_sum, static_cast<const int*>(in), nn, partial, total, seen), cudaSuccess,
            "cudaLaunchKernelEx cooperative");
  cudaMemcpy(got.data(), seen, blocks / 2 * sizeof(int), cudaMemcpyDeviceToHost);
  all = true;
  for (int b = 0; b < blocks / 2; ++b) all = all && got[b] == want;
  check(all, "cudaLaunchKernelEx grid.sync reduction");

  // new/delete.
  int* sums;
  cudaMalloc(&sums, 4 * 64 * sizeof(int));
  list_sum<<<4, 64>>>(20, sums);
  check_err(cudaDeviceSynchronize(), cudaSuccess, "new/delete kernel");
  std::vector<int> s(4 * 64);
  cudaMemcpy(s.data(), sums, s.size() * sizeof(int), cudaMemcpyDeviceToHost);
  all = true;
  for (int t = 0; t < 4 * 64; ++t) all = all && s[t] == 20 * (t % 64) + 190;
  check(all, "linked list with new/delete");
  check_err(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2u << 20), cudaErrorInvalidValue,
            "heap limit fixed after a malloc kernel");
  cudaGetLastError();

  // Exhaustion: 64 requests of 96 KiB (6 MiB) in a heap set to 1 MiB (raised to 4 MiB, as on the
  // H100; there 39 of 64 requests of 64 KiB succeed: tests/hw/data/h100/runtime_gt/checks).
  unsigned long long* ptrs;
  cudaMalloc(&ptrs, 64 * sizeof(unsigned long long));
  grab<<<1, 64>>>(96 << 10, ptrs);
  std::vector<unsigned long long> p(64);
  cudaMemcpy(p.data(), ptrs, p.size() * sizeof(p[0]), cudaMemcpyDeviceToHost);
  int non_null = 0;
  bool aligned = true;
  for (unsigned long long v : p) {
    non_null += v != 0;
    aligned = aligned && v % 16 == 0;
  }
  std::printf("probe 96 KiB blocks from a 4 MiB heap: %d\n", non_null);
  check(non_null > 0 && non_null < 64, "heap exhaustion returns NULL");
  check(aligned, "malloc is 16-byte aligned");

  // printf through the FIFO (raised to 512 KiB); the FIFO size is fixed once printf was used.
  std::fflush(stdout);
  say<<<1, 32>>>(10);
  cudaDeviceSynchronize();
  std::fflush(stdout);
  check_err(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1u << 20), cudaErrorInvalidValue,
            "printf limit fixed after a printf kernel");
  cudaGetLastError();
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
