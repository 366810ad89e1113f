// Alignment (seed 002): cudaMalloc aligns every allocation to at least 256 bytes, but arrays
// carved out of one big allocation start wherever the previous one ended. A copy kernel reads
// in[i] and writes out[i] for arrays placed at a byte offset of 0, 4, 8, ... 128 from the
// allocation's start: off the 128-byte (and 32-byte sector) grid, a warp's 128 bytes touch one
// more sector. With `fault`, a double read through a pointer 4 bytes off its natural alignment
// makes the kernel fault (misaligned address): the error is sticky, as on the hardware.
// Usage: misaligned_copy [N] [fault]   (default 262144)
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"

__global__ void copy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void read_double(const double* in, double* out) { out[threadIdx.x] = in[threadIdx.x]; }

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 18;
  const bool fault = argc > 2 && std::string(argv[2]) == "fault";
  const int threads = 256, blocks = (n + threads - 1) / threads;
  // One block of memory for both arrays and the offsets, as a sub-allocating memory pool would.
  const size_t slack = 256;
  char* pool;
  CHECK(cudaMalloc(&pool, 2 * (n * sizeof(float) + slack)));
  std::vector<float> host(n), back(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i) * 0.25f;
  bool ok = true;
  for (int offset = 0; offset <= 128; offset += (offset < 16 ? 4 : 16)) {
    float* in = reinterpret_cast<float*>(pool + offset);
    float* out = reinterpret_cast<float*>(pool + n * sizeof(float) + slack + offset);
    CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, n * sizeof(float)));
    const double t0 = wtime();
    copy<<<blocks, threads>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const double t1 = wtime();
    CHECK(cudaMemcpy(back.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(back.data(), host.data(), n * sizeof(float)) == 0;
    ok &= same;
    std::printf("copy offset %3d bytes (address %% 128 = %3d): %s\n", offset,
                static_cast<int>(reinterpret_cast<size_t>(in) % 128), same ? "OK" : "FAIL");
    std::printf("[timing] offset %d kernel (sec.): %.6f\n", offset, t1 - t0);
  }
  if (fault) {
    // 8-byte words must be 8-byte aligned: this pointer is 4 bytes off.
    const double* bad = reinterpret_cast<const double*>(pool + 4);
    double* out = reinterpret_cast<double*>(pool + n * sizeof(float) + slack);
    read_double<<<1, 32>>>(bad, out);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("misaligned double read: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    const cudaError_t again = cudaMemset(out, 0, 8);
    std::printf("next call after the fault: %s\n", cudaGetErrorName(again));
    return e == cudaErrorMisalignedAddress && again == e ? 0 : 1;
  }
  CHECK(cudaFree(pool));
  std::printf("%s\n", ok ? "all offsets OK" : "SOME OFFSETS FAILED");
  return ok ? 0 : 1;
}
