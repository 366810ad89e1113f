// Ground-truth probe for what warpscope assumes about cooperative launches, the device heap and
// the printf FIFO, to run natively on an H100 (not yet run: the numbers warpscope uses are
// documented in docs/exec.md as assumptions until this probe's output is committed):
//   nvcc -cudart shared -arch=sm_90 -o coop_heap_probe tests/hw/coop_heap_probe.cu
//   ./coop_heap_probe all > coop_heap_probe.txt; for m in nocoop badfree doublefree; do ./coop_heap_probe $m; done
// Each mode that faults poisons the context, so they run as separate processes.
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

// What %envreg1:%envreg2 hold: the grid workspace of this_grid() (0 makes grid.sync() trap).
__global__ void workspace(unsigned long long* out) {
  unsigned hi, lo;
  asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
  asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = (static_cast<unsigned long long>(hi) << 32) | lo;
}

__global__ void sync_once(int* out) {
  cg::this_grid().sync();
  out[blockIdx.x] = 1;
}

__global__ void mallocs(size_t bytes, int count, unsigned long long* ptrs) {
  for (int i = 0; i < count; ++i) ptrs[threadIdx.x * count + i] = reinterpret_cast<unsigned long long>(malloc(bytes));
}

__global__ void free_ptr(void* p) { free(p); }

__global__ void printer(int lines) {
  for (int i = 0; i < lines; ++i) printf("p %d %d\n", threadIdx.x, i);
}

__global__ void printer_s(int lines) {
  for (int i = 0; i < lines; ++i) printf("s %s %d\n", "abcdefghijklmnopqrstuvw", i);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "all";
  unsigned long long* d;
  cudaMalloc(&d, 1 << 20);
  if (!std::strcmp(mode, "nocoop")) {  // grid.sync() in an ordinary launch
    sync_once<<<2, 32>>>(reinterpret_cast<int*>(d));
    std::printf("nocoop grid.sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  if (!std::strcmp(mode, "badfree") || !std::strcmp(mode, "doublefree")) {
    void* p = d;  // cudaMalloc'ed memory, not the heap's
    if (!std::strcmp(mode, "doublefree")) {
      mallocs<<<1, 1>>>(64, 1, d);
      cudaMemcpy(&p, d, 8, cudaMemcpyDeviceToHost);
      free_ptr<<<1, 1>>>(p);
      std::printf("first free: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    }
    free_ptr<<<1, 1>>>(p);
    std::printf("%s: %s\n", mode, cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  unsigned long long h[4096];
  workspace<<<1, 32>>>(d);
  cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
  std::printf("envreg ordinary launch: 0x%llx\n", h[0]);
  void* args[] = {&d};
  cudaLaunchCooperativeKernel(reinterpret_cast<void*>(workspace), dim3(1), dim3(32), args, 0, 0);
  cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
  std::printf("envreg cooperative launch: 0x%llx\n", h[0]);

  for (size_t want : {size_t(1) << 20, size_t(1000000), size_t(3)}) {
    size_t got = 0;
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, want);
    cudaDeviceGetLimit(&got, cudaLimitMallocHeapSize);
    std::printf("heap limit set %zu -> %zu\n", want, got);
  }
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);
  for (size_t want : {size_t(4096), size_t(1000), size_t(100)}) {
    size_t got = 0;
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, want);
    cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize);
    std::printf("printf limit set %zu -> %zu\n", want, got);
  }
  cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096);
  // How many 64 KiB / 16-byte / 0-byte blocks a 1 MiB heap gives, and their addresses' alignment.
  for (size_t bytes : {size_t(65536), size_t(16), size_t(0), size_t(1)}) {
    const int count = bytes >= 65536 ? 1 : 64;
    mallocs<<<1, 64>>>(bytes, count, d);
    std::printf("mallocs(%zu): %s\n", bytes, cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(h, d, 64 * count * 8, cudaMemcpyDeviceToHost);
    int n = 0;
    unsigned long long align_or = 0, lo = ~0ull, hi = 0;
    for (int i = 0; i < 64 * count; ++i) {
      if (h[i] == 0) continue;
      ++n;
      align_or |= h[i];
      lo = h[i] < lo ? h[i] : lo;
      hi = h[i] > hi ? h[i] : hi;
    }
    std::printf("malloc %zu x %d: %d non-null, low bits 0x%llx, span 0x%llx\n", bytes, 64 * count, n,
                align_or & 0xff, n ? hi - lo : 0);
  }
  std::fflush(stdout);
  printer<<<1, 32>>>(10);  // 320 calls of two ints
  cudaDeviceSynchronize();
  std::fflush(stdout);
  printer_s<<<1, 32>>>(10);  // 320 calls with a 24-byte %s
  cudaDeviceSynchronize();
  std::fflush(stdout);
  std::printf("count the 'p ' and 's ' lines above: the FIFO of 4096 bytes holds that many calls\n");
  return 0;
}
