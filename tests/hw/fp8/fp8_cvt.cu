// Ground truth for the 8-bit float conversions (cvt with .e4m3x2 / .e5m2x2, PTX ISA 9.0 section
// 9.7.9.21), which every FP8 program uses around its tensor-core instructions. One thread per
// input; inputs are made here on the host from fixed rules, so warpscope's run of this program
// sees the same ones. Writes the results as raw bytes to OUTFILE and prints one FNV-1a hash per
// table:
//   f32      cvt.rn.satfinite{,.relu}.{e4m3x2,e5m2x2}.f32 of 2^20 + 64 floats (every exponent
//            from 2^-150 to 2^127 with 4096 mantissas each, the specials): 4 bytes per input,
//            then the lower byte of (2.0, -1.5) in e4m3 and the upper of it in e5m2
//   f16      cvt.rn.satfinite{,.relu}.{e4m3x2,e5m2x2}.f16x2 of all 65536 halves (paired with
//            themselves): 4 bytes per input
//   to_f16   cvt.rn{,.relu}.f16x2.{e4m3x2,e5m2x2} of all 65536 byte pairs: 16 bytes per input
// Usage: fp8_cvt OUTFILE
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void from_f32(const float* in, std::uint8_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = in[i], w = in[n - 1 - i];
  unsigned short a, b, c, d;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(a) : "f"(v), "f"(w));
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(b) : "f"(v), "f"(w));
  asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(c) : "f"(v), "f"(w));
  asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(d) : "f"(v), "f"(w));
  // The upper byte converts the first source (v), the lower the second (w): keep v's.
  out[4 * i + 0] = a >> 8;
  out[4 * i + 1] = b >> 8;
  out[4 * i + 2] = c >> 8;
  out[4 * i + 3] = d >> 8;
  if (i == 0) {  // which source goes to which byte: (2.0, -1.5) -> upper 2.0, lower -1.5
    unsigned short p, q;
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(p) : "f"(2.0f), "f"(-1.5f));
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(q) : "f"(2.0f), "f"(-1.5f));
    out[4 * n + 0] = p & 0xff;
    out[4 * n + 1] = q >> 8;
  }
}

__global__ void from_f16(std::uint8_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned pair = (i << 16) | (i ^ 0x8000u);  // upper: i, lower: i with its sign flipped
  unsigned short a, b, c, d;
  asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(a) : "r"(pair));
  asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(b) : "r"(pair));
  asm("cvt.rn.satfinite.relu.e4m3x2.f16x2 %0, %1;" : "=h"(c) : "r"(pair));
  asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(d) : "r"(pair));
  std::memcpy(out + 8 * i, &a, 2);
  std::memcpy(out + 8 * i + 2, &b, 2);
  std::memcpy(out + 8 * i + 4, &c, 2);
  std::memcpy(out + 8 * i + 6, &d, 2);
}

__global__ void to_f16(std::uint8_t* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short p = static_cast<unsigned short>(i);
  unsigned a, b, c, d;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(a) : "h"(p));
  asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(b) : "h"(p));
  asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(c) : "h"(p));
  asm("cvt.rn.relu.f16x2.e5m2x2 %0, %1;" : "=r"(d) : "h"(p));
  std::memcpy(out + 16 * i, &a, 4);
  std::memcpy(out + 16 * i + 4, &b, 4);
  std::memcpy(out + 16 * i + 8, &c, 4);
  std::memcpy(out + 16 * i + 12, &d, 4);
}

static unsigned long long fnv(const std::vector<std::uint8_t>& v) {
  unsigned long long h = 1469598103934665603ull;
  for (std::uint8_t b : v) h = (h ^ b) * 1099511628211ull;
  return h;
}

int main(int argc, char** argv) {
  if (argc < 2) { std::printf("usage: fp8_cvt OUTFILE\n"); return 2; }
  // Every biased f32 exponent 0..254 (subnormals at 0), 4096 mantissas each: the top 9 bits all
  // 512 ways, the low 14 bits as 8 patterns (0, 1, just below / at / above each half-way point of
  // the e4m3 and e5m2 grids), both signs alternating.
  std::vector<float> f;
  const std::uint32_t lows[8] = {0, 1, 0x1fff, 0x2000, 0x2001, 0x3fff, 0x0fff, 0x1000};
  for (std::uint32_t e = 0; e < 255; ++e)
    for (std::uint32_t top = 0; top < 512; ++top)
      for (int k = 0; k < 8; ++k) {
        const std::uint32_t man = (top << 14) | lows[k];
        const std::uint32_t sign = ((top + k) & 1u) << 31;
        const std::uint32_t bits = sign | (e << 23) | man;
        float v;
        std::memcpy(&v, &bits, 4);
        f.push_back(v);
      }
  const std::uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                                    0x7f800001u, 0x7fffffffu, 0x43e00000u, 0x43e80000u, 0x43f00000u, 0x43f80000u,
                                    0x47600000u, 0x47700000u, 0x47800000u, 0x3b000000u, 0x3a800000u, 0x3a000000u,
                                    0x37800000u, 0x37000000u, 0x36800000u, 0xc3e80000u, 0xc7700000u, 0x00000001u};
  for (std::uint32_t s : specials) {
    float v;
    std::memcpy(&v, &s, 4);
    f.push_back(v);
  }
  const int n = static_cast<int>(f.size());
  float* din;
  std::uint8_t* dout;
  const std::size_t total = 4 * std::size_t(n) + 2 + 8 * 65536 + 16 * 65536;
  cudaMalloc(&din, sizeof(float) * n);
  cudaMalloc(&dout, total);
  cudaMemset(dout, 0, total);
  cudaMemcpy(din, f.data(), sizeof(float) * n, cudaMemcpyHostToDevice);
  from_f32<<<(n + 255) / 256, 256>>>(din, dout, n);
  from_f16<<<256, 256>>>(dout + 4 * std::size_t(n) + 2);
  to_f16<<<256, 256>>>(dout + 4 * std::size_t(n) + 2 + 8 * 65536);
  const cudaError_t err = cudaDeviceSynchronize();
  std::vector<std::uint8_t> h(total);
  cudaMemcpy(h.data(), dout, total, cudaMemcpyDeviceToHost);
  std::FILE* o = std::fopen(argv[1], "wb");
  if (o == nullptr) { std::printf("cannot write %s\n", argv[1]); return 1; }
  std::fwrite(h.data(), 1, h.size(), o);
  std::fclose(o);
  const std::size_t a = 4 * std::size_t(n) + 2, b = a + 8 * 65536;
  std::printf("inputs %d: %s\n", n, cudaGetErrorString(err));
  std::printf("f32 %016llx\n", fnv(std::vector<std::uint8_t>(h.begin(), h.begin() + a)));
  std::printf("f16 %016llx\n", fnv(std::vector<std::uint8_t>(h.begin() + a, h.begin() + b)));
  std::printf("to_f16 %016llx\n", fnv(std::vector<std::uint8_t>(h.begin() + b, h.end())));
  return 0;
}
