// Runs the video-instruction forms of tests/exec/kernels/video.cu on a GPU and compares each
// result with tests/exec/video_ref.hpp (the PTX ISA's pseudocode, what warpscope's interpreter is
// tested against). Prints every mismatch and a summary; exit status 1 when any result differs.
//   nvcc -arch=sm_90 -o video tests/hw/ptx/video.cu && ./video
//   ./video --all    (also prints every result: "form thread a b c result")
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../exec/kernels/video.cu"
#include "../../exec/video_ref.hpp"

int main(int argc, char** argv) {
  const bool all = argc > 1 && std::strcmp(argv[1], "--all") == 0;
  const int n = 512;
  std::vector<unsigned> in(3 * n), out(n * kVideoForms);
  for (int t = 0; t < n; ++t) video_ref::inputs(t, in[3 * t], in[3 * t + 1], in[3 * t + 2]);
  unsigned *din = nullptr, *dout = nullptr;
  if (cudaMalloc(&din, in.size() * 4) != cudaSuccess || cudaMalloc(&dout, out.size() * 4) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 2;
  }
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  video<<<n / 128, 128>>>(din, dout, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 2;
  }
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  int bad[kVideoForms] = {};
  for (int t = 0; t < n; ++t) {
    const unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    for (int k = 0; k < kVideoForms; ++k) {
      const unsigned got = out[t * kVideoForms + k], want = video_ref::form(k, a, b, c);
      if (all) std::printf("%d %d 0x%08x 0x%08x 0x%08x 0x%08x\n", k, t, a, b, c, got);
      if (got != want && bad[k]++ < 4)
        std::printf("MISMATCH form %d thread %d a=0x%08x b=0x%08x c=0x%08x gpu=0x%08x isa=0x%08x\n", k, t, a, b, c,
                    got, want);
    }
  }
  int total = 0;
  for (int k = 0; k < kVideoForms; ++k) {
    if (bad[k]) std::printf("form %d: %d of %d threads differ\n", k, bad[k], n);
    total += bad[k];
  }
  std::printf("%s: %d forms x %d threads, %d mismatches\n", total ? "FAIL" : "OK", kVideoForms, n, total);
  return total ? 1 : 0;
}
