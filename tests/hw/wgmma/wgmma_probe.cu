// Probe: wgmma.mma_async on the H100 (issue 18). For each configuration below, `tests` test cases
// of mma_gen.hpp's generated inputs (six families: moderate, wide exponents, large C,
// near-cancelling pairs, tiny values, special values) are laid out in shared memory as the PTX
// ISA 9.0 describes for the matrix descriptors ("Shared Memory Matrix Layout": core matrices of
// 8 rows x 16 bytes, K-major or MN-major, no swizzle or 32/64/128-byte swizzle), one warpgroup
// runs one wgmma per test, and every element of D is printed as raw bits, row-major:
//   D <config> <test>: <hex> ...
// then a self-check per configuration against a long-double reference (exact for integers, a
// loose bound for floats: it checks the layouts and descriptors, not the rounding):
//   check <config>: <failures>/<elements>
// `alt` configurations lay MN-major operands out with the descriptor's LBO and SBO roles
// exchanged: of a configuration and its alt, the one whose check passes is the H100's reading.
// Usage: wgmma_probe [traffic|fp8]   (traffic: each configuration once, for ncu; fp8: only the
// .e4m3/.e5m2 configurations, which the other two modes leave out)
// tests/tensor replays the committed H100 output (tests/hw/data/h100/wgmma) under warpscope.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../tensor/mma_gen.hpp"

using namespace mma_gen;

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

// Copies the operand image into shared memory and adds the shared base address to the
// descriptors' start address fields (bits 0-13, address >> 4).
__device__ void stage_operands(std::uint32_t* sm, const std::uint32_t* img, int words, std::uint64_t& da,
                               std::uint64_t& db) {
  for (int i = threadIdx.x; i < words; i += blockDim.x) sm[i] = img[i];
  const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(sm));
  da += (base >> 4) & 0x3fff;
  db += (base >> 4) & 0x3fff;
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

#include "wgmma_kernels.inc"

struct Operand {
  bool mn_major = false;  // tnsp: the MN dimension is the contiguous one
  int swizzle = 0;        // bytes: 0, 32, 64, 128
  int lbo = 0, sbo = 0;   // bytes, as written into the descriptor
  int start = 0;          // byte offset of the matrix in its region
  bool alt = false;       // MN-major: lay out with LBO and SBO roles exchanged
};
struct Probe {
  int id, n, k;
  T d, a, b;
  bool areg;
  Operand A, B;
  int scale_d, scale_a, scale_b;  // scale-d (runtime predicate), imm-scale-a/b
  bool sat;
  int tests;
};

static std::vector<Probe> probes() {
  const Operand none_a{false, 0, 128, 256, 0, false}, none_b{false, 0, 128, 256, 0, false};
  auto swz = [](int w, int start) { return Operand{false, w, 16, 8 * w, start, false}; };
  return {
      {60, 8, 16, T::kF32, T::kF16, T::kF16, false, none_a, none_b, 1, 1, 1, false, 12},
      {61, 8, 16, T::kF32, T::kF16, T::kF16, false, swz(128, 32), swz(128, 0), 1, 1, 1, false, 12},
      {62, 8, 16, T::kF32, T::kF16, T::kF16, false, swz(64, 32), swz(64, 32), 1, 1, 1, false, 12},
      {63, 8, 16, T::kF32, T::kF16, T::kF16, false, swz(32, 0), swz(32, 0), 1, 1, 1, false, 12},
      {64, 16, 16, T::kF16, T::kF16, T::kF16, false, swz(128, 64), swz(128, 96), 1, 1, 1, false, 12},
      {65, 32, 16, T::kF32, T::kF16, T::kF16, true, {}, swz(128, 0), 1, 1, 1, false, 12},
      {66, 8, 16, T::kF32, T::kBF16, T::kBF16, false, swz(64, 0), swz(64, 0), 1, 1, 1, false, 12},
      {67, 8, 8, T::kF32, T::kTF32, T::kTF32, false, swz(128, 32), swz(128, 64), 1, 1, 1, false, 12},
      {68, 16, 8, T::kF32, T::kTF32, T::kTF32, true, {}, none_b, 1, 1, 1, false, 12},
      {69, 8, 32, T::kS32, T::kS8, T::kS8, false, swz(128, 0), swz(128, 32), 1, 1, 1, false, 12},
      {70, 16, 32, T::kS32, T::kU8, T::kS8, false, none_a, none_b, 1, 1, 1, true, 12},
      {71, 8, 256, T::kS32, T::kB1, T::kB1, false, swz(128, 0), swz(128, 0), 1, 1, 1, false, 6},
      // MN-major, no swizzle: CUTLASS's reading (SBO between 8-element MN chunks, LBO between
      // 8-row K groups) and the alt.
      {72, 16, 16, T::kF32, T::kF16, T::kF16, false, {true, 0, 1024, 128, 0, false}, {true, 0, 512, 128, 0, false}, 1, 1, 1, false, 12},
      {73, 16, 16, T::kF32, T::kF16, T::kF16, false, {true, 0, 128, 1024, 0, true}, {true, 0, 128, 512, 0, true}, 1, 1, 1, false, 12},
      // MN-major A with 32-byte swizzle (4 swizzle atoms along M): LBO between atoms along M,
      // SBO between 8-row K groups; and the alt.
      {74, 16, 16, T::kF32, T::kF16, T::kF16, false, {true, 32, 256, 1024, 0, false}, swz(32, 0), 1, 1, 1, false, 12},
      {75, 16, 16, T::kF32, T::kF16, T::kF16, false, {true, 32, 1024, 256, 0, true}, swz(32, 0), 1, 1, 1, false, 12},
      // MN-major A with 128-byte swizzle: one atom along M (LBO = SBO, either reading).
      {76, 16, 16, T::kF32, T::kF16, T::kF16, false, {true, 128, 1024, 1024, 0, false}, swz(128, 0), 1, 1, 1, false, 12},
      {77, 8, 16, T::kF32, T::kF16, T::kF16, false, none_a, none_b, 0, -1, 1, false, 12},
      {78, 8, 16, T::kF32, T::kBF16, T::kBF16, false, none_a, {true, 0, 512, 128, 0, false}, 1, 1, -1, false, 12},
      {79, 64, 16, T::kF32, T::kF16, T::kF16, true, {}, swz(128, 0), 1, 1, 1, false, 6},
      // K-major, no swizzle, with LBO and SBO exchanged (checks which is which).
      {80, 8, 16, T::kF32, T::kF16, T::kF16, false, {false, 0, 256, 128, 0, true}, {false, 0, 256, 128, 0, true}, 1, 1, 1, false, 12},
      {81, 8, 16, T::kF16, T::kF16, T::kF16, true, {}, swz(64, 0), 1, 1, 1, false, 12},
      // .e4m3/.e5m2, K-major (the only layout the PTX ISA allows for 8-bit floats): `wgmma_probe fp8`.
      {82, 8, 32, T::kF32, T::kE4M3, T::kE4M3, false, swz(128, 0), swz(128, 0), 1, 1, 1, false, 24},
      {83, 16, 32, T::kF32, T::kE5M2, T::kE4M3, false, none_a, none_b, 1, 1, 1, false, 24},
      {84, 8, 32, T::kF16, T::kE4M3, T::kE5M2, false, swz(64, 0), swz(64, 0), 1, 1, 1, false, 24},
      {85, 32, 32, T::kF32, T::kE4M3, T::kE4M3, true, {}, swz(128, 0), 1, 1, 1, false, 12},
      {86, 8, 32, T::kF16, T::kE5M2, T::kE5M2, false, swz(32, 0), swz(32, 0), 1, 1, 1, false, 24},
      {87, 8, 32, T::kF32, T::kE4M3, T::kE5M2, false, none_a, none_b, 0, -1, 1, false, 12},
  };
}

constexpr int kRegionB = 16384, kSmem = 32768;

// Byte address (relative to the 1024-aligned region) of element (mn, k) of an operand, and the
// bit within the byte for .b1.
static std::size_t element_addr(const Operand& o, int mn, int k, int bits, int& bit) {
  const int kbit = k * bits;
  bit = kbit % 8;
  std::size_t addr;
  if (!o.mn_major) {
    const int kb = kbit / 8;
    const int lbo = o.alt ? o.sbo : o.lbo, sbo = o.alt ? o.lbo : o.sbo;
    if (o.swizzle == 0) addr = o.start + (mn % 8) * 16 + (mn / 8) * sbo + (kb / 16) * lbo + kb % 16;
    else addr = o.start + (mn % 8) * o.swizzle + (mn / 8) * sbo + kb;
  } else {
    const int mb = mn * bits / 8;
    const int lbo = o.alt ? o.sbo : o.lbo, sbo = o.alt ? o.lbo : o.sbo;
    if (o.swizzle == 0) addr = o.start + mb % 16 + (mb / 16) * sbo + (k % 8) * 16 + (k / 8) * lbo;
    else addr = o.start + mb % o.swizzle + (mb / o.swizzle) * lbo + (k % 8) * o.swizzle + (k / 8) * sbo;
  }
  if (o.swizzle) {
    const std::size_t mask = o.swizzle / 16 - 1;
    addr ^= ((addr >> 7) & mask) << 4;
  }
  return addr;
}

static std::uint64_t descriptor(const Operand& o, int region) {
  const std::uint64_t mode = o.swizzle == 128 ? 1 : o.swizzle == 64 ? 2 : o.swizzle == 32 ? 3 : 0;
  return ((std::uint64_t(region + o.start) >> 4) & 0x3fff) | (((std::uint64_t(o.lbo) >> 4) & 0x3fff) << 16) |
         (((std::uint64_t(o.sbo) >> 4) & 0x3fff) << 32) | (mode << 62);
}

static void put(std::vector<std::uint8_t>& img, std::size_t addr, int bit, int bits, std::uint64_t v) {
  if (bits == 1) {
    img[addr] = static_cast<std::uint8_t>((img[addr] & ~(1u << bit)) | ((v & 1) << bit));
    return;
  }
  for (int i = 0; i < bits / 8; ++i) img[addr + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

static int dregs(const Probe& p) { return p.d == T::kF16 ? p.n / 4 : p.n / 2; }
// Accumulator element i of thread th: row 16 * warp + g + 8 * ((i / 2) % 2), column 8 * (i / 4) + 2t + i % 2.
static Pos d_pos(int th, int i) {
  const int w = th / 32, l = th % 32, g = l / 4, t = l % 4;
  return {16 * w + g + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * t + i % 2};
}

static double ref_value(const Probe& p, const Inputs& in, int row, int col, double& mag) {
  const Config c{p.id, 2, 64, p.n, p.k, false, false, p.d, p.a, p.b, p.d, 0, p.sat, 0, p.tests};
  long double s = p.scale_d ? value(p.d, in.c[row * p.n + col]) : 0.0L;
  mag = std::fabs(static_cast<double>(s));
  for (int k = 0; k < p.k; ++k) {
    long double pr;
    if (p.a == T::kB1) pr = (in.a[row * p.k + k] & in.b[k * p.n + col]) & 1;
    else pr = static_cast<long double>(value(p.a, in.a[row * p.k + k])) * value(p.b, in.b[k * p.n + col]) * p.scale_a * p.scale_b;
    s += pr;
    mag += std::fabs(static_cast<double>(pr));
  }
  (void)c;
  return static_cast<double>(s);
}

int main(int argc, char** argv) {
  const bool traffic = argc > 1 && std::string(argv[1]) == "traffic";
  const bool fp8 = argc > 1 && std::string(argv[1]) == "fp8";
  std::uint32_t *dimg, *dareg, *dcin, *dout;
  CHECK(cudaMalloc(&dimg, kSmem));
  CHECK(cudaMalloc(&dareg, 128 * 4 * 4));
  CHECK(cudaMalloc(&dcin, 128 * 64 * 4));
  CHECK(cudaMalloc(&dout, 128 * 64 * 4));
  for (const Probe& p : probes()) {
    if (fp8 != (p.a == T::kE4M3 || p.a == T::kE5M2)) continue;
    decltype(&wgmma_60) fn = nullptr;
    for (const KernelEntry& e : kKernels)
      if (e.id == p.id) fn = e.fn;
    CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
    const Config cfg{p.id, 2, 64, p.n, p.k, false, false, p.d, p.a, p.b, p.d, 0, p.sat, 0, p.tests};
    const int nd = dregs(p), dpr = p.d == T::kF16 ? 2 : 1;
    int fails = 0, total = 0;
    for (int test = 0; test < (traffic ? 1 : p.tests); ++test) {
      const Inputs in = make_inputs(cfg, test);
      std::vector<std::uint8_t> img(kSmem, 0);
      const int ab = bits(p.a), bb = bits(p.b);
      for (int m = 0; m < 64 && !p.areg; ++m)
        for (int k = 0; k < p.k; ++k) {
          int bit;
          const std::size_t at = element_addr(p.A, m, k, ab, bit);
          put(img, at, bit, ab, in.a[m * p.k + k]);
        }
      for (int n = 0; n < p.n; ++n)
        for (int k = 0; k < p.k; ++k) {
          int bit;
          const std::size_t at = kRegionB + element_addr(p.B, n, k, bb, bit);
          put(img, at, bit, bb, in.b[k * p.n + n]);
        }
      // A from registers: warp w holds rows 16w..16w+15 as the mma m16n8kK A fragment.
      std::vector<std::uint32_t> areg(128 * 4, 0), cin(128 * nd, 0), out(128 * nd, 0);
      const Config frag{0, 0, 16, 8, p.k, false, false, p.d, p.a, p.b, p.d, 0, false, 0, 0};
      if (p.areg)
        for (int th = 0; th < 128; ++th)
          for (int j = 0; j < 4; ++j)
            for (int e = 0; e < per_reg(p.a); ++e) {
              const Pos ps = a_pos(frag, th % 32, j, e);
              const std::uint64_t v = in.a[(16 * (th / 32) + ps.row) * p.k + ps.col];
              areg[th * 4 + j] |= static_cast<std::uint32_t>(v << (e * bits(p.a)));
            }
      for (int th = 0; th < 128; ++th)
        for (int r = 0; r < nd; ++r)
          for (int e = 0; e < dpr; ++e) {
            const Pos ps = d_pos(th, r * dpr + e);
            cin[th * nd + r] |= static_cast<std::uint32_t>(in.c[ps.row * p.n + ps.col] << (e * (32 / dpr)));
          }
      CHECK(cudaMemcpy(dimg, img.data(), kSmem, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dareg, areg.data(), areg.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dcin, cin.data(), cin.size() * 4, cudaMemcpyHostToDevice));
      fn<<<1, 128, kSmem>>>(dimg, kSmem / 4, descriptor(p.A, 0), descriptor(p.B, kRegionB), dareg, dcin, dout, p.scale_d);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
      std::vector<std::uint32_t> dm(64 * p.n);
      for (int th = 0; th < 128; ++th)
        for (int r = 0; r < nd; ++r)
          for (int e = 0; e < dpr; ++e) {
            const Pos ps = d_pos(th, r * dpr + e);
            dm[ps.row * p.n + ps.col] = dpr == 2 ? (out[th * nd + r] >> (16 * e)) & 0xffff : out[th * nd + r];
          }
      if (!traffic) {
        std::printf("D %d %d:", p.id, test);
        for (std::uint32_t v : dm) std::printf(" %x", v);
        std::printf("\n");
      }
      for (int row = 0; row < 64; ++row)
        for (int col = 0; col < p.n; ++col) {
          double mag;
          const double ref = ref_value(p, in, row, col, mag);
          const double got = value(p.d, dm[row * p.n + col]);
          ++total;
          if (!std::isfinite(ref) || !std::isfinite(mag)) continue;
          bool ok;
          if (is_float(p.d)) {
            const double tol = (p.d == T::kF16 ? 0x1p-9 : 0x1p-18) * mag + (p.d == T::kF16 ? 0x1p-23 : 0x1p-140);
            ok = std::isfinite(got) ? std::fabs(got - ref) <= tol : std::fabs(ref) > (p.d == T::kF16 ? 65000.0 : 3e38);
          } else {
            long double want = ref;
            if (p.sat) want = want > 2147483647.0L ? 2147483647.0L : want < -2147483648.0L ? -2147483648.0L : want;
            else want = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(want)));
            ok = got == static_cast<double>(want);
          }
          if (!ok) ++fails;
        }
    }
    std::printf("check %d: %d/%d\n", p.id, fails, total);
  }
  std::printf("done\n");
  return 0;
}
