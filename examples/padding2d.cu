// Two-dimensional arrays (seed 002): thread (tx, ty) reads BaseAddress + width * ty + tx. The
// accesses coalesce only when the block width and the row width are multiples of the warp
// size; otherwise pad the rows. Three layouts of the same W x H matrix (W = 1000 floats):
//   unpadded   rows of 1000 floats back to back (4000 bytes: rows start off the 128-byte grid)
//   padded     rows padded by hand to 1024 floats
//   pitched    cudaMallocPitch + cudaMemcpy2D (the H100's pitch for 4000 bytes is 4096)
// Each kernel adds 1 to every element; the host checks the result.
// Usage: padding2d [W] [H]   (default 1000 300)
#include <vector>

#include "common.cuh"

__global__ void add_one(float* base, int width, int pitch_elems, int height) {
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  int ty = blockIdx.y * blockDim.y + threadIdx.y;
  if (tx < width && ty < height) base[pitch_elems * ty + tx] += 1.0f;
}

static bool check(const std::vector<float>& got, int w, int h, const char* name) {
  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (got[y * w + x] != static_cast<float>(y * 7 + x % 13) + 1.0f) ++bad;
  std::printf("%-9s %dx%d: %s\n", name, w, h, bad == 0 ? "OK" : "FAIL");
  return bad == 0;
}

int main(int argc, char** argv) {
  const int W = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int H = argc > 2 ? std::atoi(argv[2]) : 300;
  std::vector<float> host(W * H), back(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) host[y * W + x] = static_cast<float>(y * 7 + x % 13);
  const dim3 block(32, 8);
  const dim3 grid((W + block.x - 1) / block.x, (H + block.y - 1) / block.y);
  bool ok = true;

  // Unpadded.
  float* d;
  CHECK(cudaMalloc(&d, W * H * sizeof(float)));
  CHECK(cudaMemcpy(d, host.data(), W * H * sizeof(float), cudaMemcpyHostToDevice));
  add_one<<<grid, block>>>(d, W, W, H);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(back.data(), d, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= check(back, W, H, "unpadded");
  CHECK(cudaFree(d));

  // Padded by hand to a multiple of 32 floats.
  const int P = (W + 31) / 32 * 32;
  CHECK(cudaMalloc(&d, P * H * sizeof(float)));
  CHECK(cudaMemcpy2D(d, P * sizeof(float), host.data(), W * sizeof(float), W * sizeof(float), H,
                     cudaMemcpyHostToDevice));
  add_one<<<grid, block>>>(d, W, P, H);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2D(back.data(), W * sizeof(float), d, P * sizeof(float), W * sizeof(float), H,
                     cudaMemcpyDeviceToHost));
  ok &= check(back, W, H, "padded");
  std::printf("padded row: %d floats (%d bytes)\n", P, P * (int)sizeof(float));
  CHECK(cudaFree(d));

  // cudaMallocPitch.
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void**)&d, &pitch, W * sizeof(float), H));
  std::printf("cudaMallocPitch: width %d bytes -> pitch %zu bytes\n", W * (int)sizeof(float), pitch);
  CHECK(cudaMemset2D(d, pitch, 0, W * sizeof(float), H));
  CHECK(cudaMemcpy2D(d, pitch, host.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  add_one<<<grid, block>>>(d, W, static_cast<int>(pitch / sizeof(float)), H);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2D(back.data(), W * sizeof(float), d, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost));
  ok &= check(back, W, H, "pitched");
  CHECK(cudaFree(d));
  std::printf("%s\n", ok ? "all layouts OK" : "SOME LAYOUTS FAILED");
  return ok ? 0 : 1;
}
