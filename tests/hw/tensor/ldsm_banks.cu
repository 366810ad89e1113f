// Probe: shared-memory wavefronts and bank conflicts of ldmatrix and stmatrix (LDSM / STSM) for
// row-address layouts with and without conflicts. One warp, one instruction per launch; each
// launch's layout, instruction and matrix count are printed in launch order:
//   launch <n>: <ld|st> x<1|2|4>[.trans] <layout>
// and Nsight Compute's per-launch counters (capture_tensor.sh) say what the H100 did with it.
// Each lane's row address is `offsets[lane]` bytes into a 16 KiB shared array (16-byte aligned).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kSmem = 16384;

template <int X, bool Trans>
__global__ void ldsm(const int* offsets, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t smem[kSmem];
  const std::uint32_t addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem)) + offsets[threadIdx.x];
  std::uint32_t r[4] = {0, 0, 0, 0};
  if constexpr (X == 1 && !Trans) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  if constexpr (X == 2 && !Trans) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
  if constexpr (X == 4 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  if constexpr (X == 4 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  out[threadIdx.x] = r[0] ^ r[1] ^ r[2] ^ r[3];
}

template <int X, bool Trans>
__global__ void stsm(const int* offsets, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t smem[kSmem];
  const std::uint32_t addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem)) + offsets[threadIdx.x];
  const std::uint32_t v = threadIdx.x * 0x10001u;
  if constexpr (X == 1 && !Trans) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(addr), "r"(v));
  if constexpr (X == 2 && !Trans) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(v), "r"(v + 1));
  if constexpr (X == 4 && !Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3));
  if constexpr (X == 4 && Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3));
  if (out != nullptr) out[threadIdx.x] = v;
}

struct Layout {
  std::string name;
  std::vector<int> off;  // per lane
};

std::vector<Layout> layouts() {
  std::vector<Layout> v;
  auto add = [&](const char* name, auto f) {
    Layout l{name, std::vector<int>(32)};
    for (int lane = 0; lane < 32; ++lane) l.off[lane] = f(lane / 8, lane % 8, lane);
    v.push_back(l);
  };
  add("contiguous", [](int, int, int l) { return 16 * l; });
  add("stride32", [](int, int, int l) { return 32 * l; });
  add("stride64", [](int, int, int l) { return 64 * l; });
  add("stride128", [](int, int, int l) { return 128 * l; });
  add("stride256", [](int, int, int l) { return 256 * l; });
  add("stride144", [](int, int, int l) { return 144 * l; });
  add("swizzle128", [](int i, int j, int) { return 128 * (8 * i + j) + 16 * (j ^ (i & 7)); });
  // even matrices in banks 0-15, odd ones in banks 16-31, two words per bank each
  add("halfbanks", [](int i, int j, int) { return 1024 * i + 16 * (j % 4) + 128 * (j / 4) + 64 * (i % 2); });
  add("broadcast", [](int, int, int) { return 0; });
  add("samerows", [](int, int j, int) { return 16 * j; });  // every matrix the same 8 rows
  add("pairs", [](int i, int j, int) { return 128 * i + 16 * (j / 2); });
  add("tworegions", [](int i, int j, int) { return 1024 * i + 16 * j; });
  add("lowcontig_highconflict", [](int, int, int l) { return l < 8 ? 16 * l : 128 * l; });
  add("lowconflict_highcontig", [](int, int, int l) { return l < 8 ? 128 * l : 16 * l; });
  add("quarterbanks", [](int i, int j, int) { return 2048 * i + 16 * (j % 2) + 128 * (j / 2); });
  std::uint64_t s = 0x1234567;
  for (int r = 0; r < 4; ++r) {
    Layout l{"random" + std::to_string(r), std::vector<int>(32)};
    for (int lane = 0; lane < 32; ++lane) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      l.off[lane] = static_cast<int>((s >> 33) % 256) * 16;  // within 4 KiB
    }
    v.push_back(l);
  }
  return v;
}

int main() {
  int* doff;
  std::uint32_t* dout;
  CHECK(cudaMalloc(&doff, 32 * sizeof(int)));
  CHECK(cudaMalloc(&dout, 32 * 4));
  int launch = 0;
  for (const Layout& l : layouts()) {
    CHECK(cudaMemcpy(doff, l.off.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
    const char* what[] = {"ld x1", "ld x2", "ld x4", "ld x4.trans", "st x1", "st x2", "st x4", "st x4.trans"};
    for (int k = 0; k < 8; ++k) {
      switch (k) {
        case 0: ldsm<1, false><<<1, 32>>>(doff, dout); break;
        case 1: ldsm<2, false><<<1, 32>>>(doff, dout); break;
        case 2: ldsm<4, false><<<1, 32>>>(doff, dout); break;
        case 3: ldsm<4, true><<<1, 32>>>(doff, dout); break;
        case 4: stsm<1, false><<<1, 32>>>(doff, nullptr); break;
        case 5: stsm<2, false><<<1, 32>>>(doff, nullptr); break;
        case 6: stsm<4, false><<<1, 32>>>(doff, nullptr); break;
        default: stsm<4, true><<<1, 32>>>(doff, nullptr); break;
      }
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      std::printf("launch %d: %s %s\n", launch++, what[k], l.name.c_str());
    }
  }
  std::printf("offsets:\n");
  for (const Layout& l : layouts()) {
    std::printf("%s:", l.name.c_str());
    for (int o : l.off) std::printf(" %d", o);
    std::printf("\n");
  }
  CHECK(cudaFree(doff));
  CHECK(cudaFree(dout));
  return 0;
}
