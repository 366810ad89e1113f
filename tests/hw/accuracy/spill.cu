// Register pressure: the same kernel twice, once free to use the registers it needs and once
// under __launch_bounds__(256, 8) (8 blocks of 256 threads per SM: at most 32 registers per
// thread), which makes ptxas spill live values to local memory (STL/LDL in the SASS; PTX has no
// local memory here). Also local arrays that are local in the PTX:
//   local_uniform     a private array indexed by a loop counter the compiler cannot unroll
//                     (the same for every lane: coalesced local accesses)
//   local_per_thread  the same array indexed by a per-thread value (scattered local accesses)
// Usage: spill [N]   (threads, a multiple of 256; default 65536)
// Checks against the host (integer arithmetic, exact); prints OK, or FAIL and exits 1.
#include <vector>

#include "../../../examples/common.cuh"

constexpr int kLive = 40;
constexpr int kIters = 8;

__device__ __forceinline__ void mix(unsigned (&acc)[kLive], int it) {
#pragma unroll
  for (int k = 0; k < kLive; ++k) acc[k] = acc[k] * 2654435761u + (acc[(k + 7) % kLive] ^ static_cast<unsigned>(it + k));
}

__global__ void pressure_free(const unsigned* in, unsigned* out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc[kLive];
#pragma unroll
  for (int k = 0; k < kLive; ++k) acc[k] = in[(g + k * 1024) % n];
#pragma unroll 1
  for (int it = 0; it < kIters; ++it) mix(acc, it);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < kLive; ++k) s ^= acc[k] * (k + 1);
  out[g] = s;
}

__global__ void __launch_bounds__(256, 8) pressure_spill(const unsigned* in, unsigned* out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc[kLive];
#pragma unroll
  for (int k = 0; k < kLive; ++k) acc[k] = in[(g + k * 1024) % n];
#pragma unroll 1
  for (int it = 0; it < kIters; ++it) mix(acc, it);
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < kLive; ++k) s ^= acc[k] * (k + 1);
  out[g] = s;
}

constexpr int kArr = 24;

// `sel` holds, per thread, the index to read back; `uniform` picks the block's first entry.
__global__ void local_array(const unsigned* in, const int* sel, unsigned* out, int uniform) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a[kArr];
  const int start = sel[blockIdx.x * blockDim.x] % 4;  // uniform, unknown to the compiler
#pragma unroll 1
  for (int k = 0; k < kArr; ++k) a[k] = in[g] + k * 3;
  unsigned s = 0;
#pragma unroll 1
  for (int k = start; k < kArr; k += 4) s += a[k];
  const int i = uniform ? sel[blockIdx.x * blockDim.x] : sel[g];
  out[g] = s ^ a[i];
}

static void host_mix(unsigned (&acc)[kLive], int it) {
  // Same order as the device: acc[k] is updated in place, reading acc[(k+7)%kLive] as it is then.
  for (int k = 0; k < kLive; ++k) acc[k] = acc[k] * 2654435761u + (acc[(k + 7) % kLive] ^ static_cast<unsigned>(it + k));
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  if (n <= 0 || n % 256 != 0) {
    std::fprintf(stderr, "N must be a positive multiple of 256\n");
    return 2;
  }
  std::vector<unsigned> h(n), got(n), want(n);
  std::vector<int> sel(n);
  for (int i = 0; i < n; ++i) {
    h[i] = static_cast<unsigned>(i) * 2246822519u + 374761393u;
    sel[i] = (i * 7 + 5) % kArr;
  }
  for (int g = 0; g < n; ++g) {
    unsigned acc[kLive];
    for (int k = 0; k < kLive; ++k) acc[k] = h[(g + k * 1024) % n];
    for (int it = 0; it < kIters; ++it) host_mix(acc, it);
    unsigned s = 0;
    for (int k = 0; k < kLive; ++k) s ^= acc[k] * (k + 1);
    want[g] = s;
  }
  unsigned *in, *out;
  int* dsel;
  CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dsel, n * sizeof(int)));
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dsel, sel.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int failures = 0;
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMemset(out, 0, n * sizeof(unsigned)));
    if (k == 0) pressure_free<<<n / 256, 256>>>(in, out, n);
    if (k == 1) pressure_spill<<<n / 256, 256>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += got[i] != want[i];
    std::printf("%s n=%d out[0]=%u: %s\n", k == 0 ? "pressure_free" : "pressure_spill", n, got[0], bad ? "FAIL" : "ok");
    failures += bad != 0;
  }
  for (int uniform = 1; uniform >= 0; --uniform) {
    CHECK(cudaMemset(out, 0, n * sizeof(unsigned)));
    local_array<<<n / 256, 256>>>(in, dsel, out, uniform);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int g = 0; g < n; ++g) {
      const int b = g / 256 * 256;
      const int start = sel[b] % 4, i = uniform ? sel[b] : sel[g];
      unsigned s = 0;
      for (int k = start; k < kArr; k += 4) s += h[g] + k * 3;
      bad += got[g] != (s ^ (h[g] + i * 3));
    }
    std::printf("local_array %s n=%d: %s\n", uniform ? "uniform" : "per_thread", n, bad ? "FAIL" : "ok");
    failures += bad != 0;
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(dsel));
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
