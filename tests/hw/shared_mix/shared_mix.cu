// Do an SM's concurrent shared-memory loads add wavefronts to its stores? (issue 18: the H100
// counts more shared store wavefronts than the addresses give in the tensor-core GEMMs, in
// amounts that are no multiple of any instruction's.)  Every store below is conflict-free by its
// addresses: 32 lanes x 16 bytes, consecutive = 4 wavefronts per STS.128; 32 lanes x 4 bytes = 1.
//   shared_mix MODE BLOCKS ITERS
// MODE: stores    every warp stores (STS.128)
//       mixed     even warps store (STS.128), odd warps load (LDS.128) the other half of the buffer
//       mixed32   even warps store (STS.32), odd warps load (LDS.128)
//       loads     every warp loads (LDS.128)
// Prints the checksum; the counters come from ncu (capture_shared_mix.sh).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void mix(int mode, int iters, float* out) {
  __shared__ float4 buf[2048];  // 32 KiB: stores go to [0, 1024), loads read [1024, 2048)
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) buf[i] = make_float4(i, i, i, i);
  __syncthreads();
  const bool store = mode == 0 || ((mode == 1 || mode == 2) && (warp & 1) == 0);
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  float acc = 0.f;
  for (int i = 0; i < iters; ++i) {
    const int row = (warp * 7 + i) & 31;  // 32 rows of 32 float4
    if (store && mode == 2) {
      asm volatile("st.shared.f32 [%0], %1;" ::"r"(base + row * 512 + lane * 4), "f"(static_cast<float>(i + lane)) : "memory");
    } else if (store) {
      asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(base + row * 512 + lane * 16), "f"(static_cast<float>(i)),
                   "f"(static_cast<float>(lane)), "f"(static_cast<float>(warp)), "f"(1.f) : "memory");
    } else {
      float a, b, c, e;
      asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(e) : "r"(base + 16384 + row * 512 + lane * 16) : "memory");
      acc += a + b + c + e;
    }
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + buf[threadIdx.x].x;
}

int main(int argc, char** argv) {
  if (argc < 4) { std::printf("usage: shared_mix stores|mixed|mixed32|loads BLOCKS ITERS\n"); return 2; }
  const int mode = !std::strcmp(argv[1], "stores") ? 0 : !std::strcmp(argv[1], "mixed") ? 1 : !std::strcmp(argv[1], "mixed32") ? 2 : 3;
  const int blocks = std::atoi(argv[2]), iters = std::atoi(argv[3]), threads = 256;
  float* d = nullptr;
  cudaMalloc(&d, sizeof(float) * blocks * threads);
  mix<<<blocks, threads>>>(mode, iters, d);
  float* h = static_cast<float*>(std::malloc(sizeof(float) * blocks * threads));
  cudaMemcpy(h, d, sizeof(float) * blocks * threads, cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < blocks * threads; ++i) s += h[i];
  std::printf("%s blocks=%d iters=%d checksum=%.1f err=%s\n", argv[1], blocks, iters, s, cudaGetErrorString(cudaGetLastError()));
  return 0;
}
