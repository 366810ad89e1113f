// TMA im2col ground truth (issue 18). "checks": calls cuTensorMapEncodeIm2col (through
// cudaGetDriverEntryPointByVersion) with one argument changed at a time and prints the CUresult.
// A case number: builds an im2col tensor map over a tensor whose 4-byte (or 2-byte) words hold
// their own element index, fills 4096 shared words with 0xEEEEEEEE, loads one im2col request
// (channelsPerPixel x pixelsPerColumn) with the given im2col offsets and dumps the shared words.
// Usage: im2col_probe checks | im2col_probe N
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
struct Case {
  int ty, sw, fill, rank;
  long long d[5];      // globalDim, dimension 0 = channels
  int lo[3], up[3];    // pixel box corners (spatial dimensions 1 .. rank-2)
  int ch, px;
  int e[5];            // elementStrides
  int c[5];            // coordinates
  int off[3];          // im2col offsets
};
static const Case kCases[] = {
  // ty sw fill rank dims lower upper ch px estr coords offs
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 16, 8, {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0}},       // 0 plain
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {-1, -1}, {-1, -1}, 16, 32, {1, 1, 1, 1}, {0, -1, -1, 0}, {0, 0}}, // 1 3x3 pad 1 window
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {-1, -1}, {-1, -1}, 16, 32, {1, 1, 1, 1}, {0, -1, -1, 0}, {2, 1}}, // 2 offsets (2,1)
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 8, 16, {1, 1, 1, 1}, {8, 2, 1, 0}, {0, 0}},       // 3 half the channels, start inside
  {2, 3, 0, 4, {32, 5, 4, 2, 1}, {-1, -1}, {-1, -1}, 32, 16, {1, 1, 1, 1}, {0, 1, 0, 0}, {1, 1}},   // 4 128B swizzle
  {2, 0, 0, 4, {16, 6, 5, 2, 1}, {0, 0}, {0, 0}, 16, 16, {1, 2, 2, 1}, {0, 0, 0, 0}, {0, 0}},       // 5 element strides 2
  {2, 0, 0, 3, {16, 10, 2, 1, 1}, {-2}, {1}, 16, 24, {1, 1, 1}, {0, -2, 0}, {3}},                  // 6 3-D
  {2, 0, 0, 5, {4, 3, 3, 3, 2}, {0, 0, 0}, {-1, -1, -1}, 4, 20, {1, 1, 1, 1, 1}, {0, 0, 0, 0, 0}, {1, 1, 1}}, // 7 5-D
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 16, 16, {1, 1, 1, 1}, {0, 3, 3, 1}, {0, 0}},      // 8 runs past the last image
  {7, 0, 1, 4, {16, 5, 4, 2, 1}, {-1, -1}, {-1, -1}, 16, 16, {1, 1, 1, 1}, {0, -1, -1, 0}, {0, 0}}, // 9 f32 NaN fill
  {2, 3, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 16, 8, {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0}},       // 10 64-byte rows, 128B
  {1, 2, 0, 4, {32, 5, 4, 2, 1}, {0, 0}, {-2, -1}, 32, 16, {1, 1, 1, 1}, {0, 0, 0, 0}, {1, 0}},    // 11 u16, 64B swizzle
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {1, 1}, 16, 16, {1, 1, 1, 1}, {0, 4, 3, 0}, {0, 0}},      // 12 upper corner beyond the tensor
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 16, 8, {1, 1, 1, 1}, {0, 0, 0, 0}, {7, 0}},       // 13 offset past the box
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 16, 8, {1, 1, 1, 1}, {4, 0, 0, 0}, {0, 0}},       // 14 channel start 4 (16 B)
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 16, 8, {1, 1, 1, 1}, {0, 6, 0, 0}, {0, 0}},       // 15 start outside the box
  {2, 0, 0, 4, {16, 5, 4, 2, 1}, {0, 0}, {0, 0}, 16, 8, {1, 1, 1, 1}, {2, 0, 0, 0}, {0, 0}},       // 16 channel start 2 (8 B)
};
__device__ unsigned g_timeout;
__global__ void load(const __grid_constant__ CUtensorMap m, int r, int c0, int c1, int c2, int c3, int c4, short o0, short o1,
                     short o2, int n, unsigned* out) {
  __shared__ __align__(1024) unsigned s[4096];
  __shared__ __align__(8) unsigned long long b;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&b);
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = 0xEEEEEEEEu;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(ba), "r"(n) : "memory");
    if (r == 3)
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                   ::"r"(sa), "l"(&m), "r"(c0), "r"(c1), "r"(c2), "r"(ba), "h"(o0) : "memory");
    else if (r == 4)
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                   ::"r"(sa), "l"(&m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(ba), "h"(o0), "h"(o1) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                   ::"r"(sa), "l"(&m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(ba), "h"(o0), "h"(o1), "h"(o2) : "memory");
  }
  unsigned done = 0;
  for (long long t0 = clock64(); !done && clock64() - t0 < 200000000;)
    asm volatile("{.reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(done) : "r"(ba) : "memory");
  if (!done) atomicAdd(&g_timeout, 1);
  __syncthreads();
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) out[i] = s[i];
}
static PFN_cuTensorMapEncodeIm2col_v12000 encode;
static void* g_mem;
static int es_of(int ty) { return ty == 1 ? 2 : 4; }
static CUresult enc(CUtensorMap* m, const Case& c, void* addr) {
  cuuint64_t dims[5], str[4];
  cuuint32_t est[5];
  int es = es_of(c.ty);
  for (int i = 0; i < c.rank; ++i) dims[i] = c.d[i], est[i] = c.e[i];
  for (int i = 1; i < c.rank; ++i) str[i - 1] = (i == 1 ? es * c.d[0] : str[i - 2] * c.d[i - 1]);
  return encode(m, (CUtensorMapDataType)c.ty, c.rank, addr, dims, str, c.lo, c.up, c.ch, c.px, est,
                CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)c.sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                (CUtensorMapFloatOOBfill)c.fill);
}
alignas(64) static CUtensorMap g_map[2];
static void checks() {
  // Each line: what was changed from case 0, the CUresult.
  CUtensorMap& m = g_map[0];
  auto run = [&](const char* what, Case c, void* addr = nullptr, CUtensorMap* mp = g_map) {
    printf("check %-28s %d\n", what, (int)enc(mp, c, addr ? addr : g_mem));
  };
  const Case b = kCases[0];
  Case c;
  run("base", b);
  c = b; c.rank = 2; run("rank2", c);
  c = b; c.rank = 5; c.d[4] = 1; c.e[4] = 1; c.lo[2] = 0; c.up[2] = 0; run("rank5", c);
  c = b; c.ch = 0; run("ch0", c);
  c = b; c.ch = 256; run("ch256", c);
  c = b; c.ch = 257; run("ch257", c);
  c = b; c.ch = 2; run("ch2_8B", c);
  c = b; c.ch = 12; run("ch12_48B", c);
  c = b; c.px = 0; run("px0", c);
  c = b; c.px = 256; run("px256", c);
  c = b; c.px = 257; run("px257", c);
  c = b; c.px = 1024; run("px1024", c);
  c = b; c.px = 1025; run("px1025", c);
  c = b; c.sw = 3; c.ch = 64; c.d[0] = 64; run("sw128_ch64_256B", c);
  c = b; c.sw = 3; c.ch = 32; c.d[0] = 32; run("sw128_ch32_128B", c);
  c = b; c.sw = 1; c.ch = 16; run("sw32_ch16_64B", c);
  c = b; c.lo[0] = -128; run("4d_lo-128", c);
  c = b; c.lo[0] = -129; run("4d_lo-129", c);
  c = b; c.lo[0] = 127; run("4d_lo127", c);
  c = b; c.lo[0] = 128; run("4d_lo128", c);
  c = b; c.up[0] = 127; run("4d_up127", c);
  c = b; c.up[0] = 128; run("4d_up128", c);
  c = b; c.up[0] = -129; run("4d_up-129", c);
  c = b; c.lo[0] = 3; c.up[0] = -3; run("4d_empty_box", c);
  c = kCases[6]; c.lo[0] = -32768; run("3d_lo-32768", c);
  c = kCases[6]; c.lo[0] = -32769; run("3d_lo-32769", c);
  c = kCases[6]; c.up[0] = 32767; run("3d_up32767", c);
  c = kCases[6]; c.up[0] = 32768; run("3d_up32768", c);
  c = kCases[7]; c.lo[0] = -8; run("5d_lo-8", c);
  c = kCases[7]; c.lo[0] = -9; run("5d_lo-9", c);
  c = kCases[7]; c.up[0] = 7; run("5d_up7", c);
  c = kCases[7]; c.up[0] = 8; run("5d_up8", c);
  c = b; c.e[0] = 2; run("estr0_2", c);
  c = b; c.e[1] = 8; run("estr1_8", c);
  c = b; c.e[1] = 9; run("estr1_9", c);
  c = b; c.e[1] = 0; run("estr1_0", c);
  c = b; c.fill = 1; run("nanfill_u32", c);
  c = b; c.d[1] = 0; run("dim1_0", c);
  run("addr+8", b, (char*)g_mem + 8);
  run("map_misaligned", b, nullptr, (CUtensorMap*)((char*)&m + 8));
}
int main(int argc, char** argv) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &f, 12000, cudaEnableDefault, &q) != cudaSuccess || !f) {
    printf("no entry point\n");
    return 1;
  }
  encode = (PFN_cuTensorMapEncodeIm2col_v12000)f;
  unsigned* o;
  cudaMalloc(&o, 4096 * 4);
  cudaMalloc(&g_mem, 1 << 20);
  if (argc > 1 && !strcmp(argv[1], "checks")) {
    checks();
    return 0;
  }
  int id = argc > 1 ? atoi(argv[1]) : 0;
  const Case& c = kCases[id];
  int es = es_of(c.ty);
  size_t total = 1;
  for (int i = 0; i < c.rank; ++i) total *= c.d[i];
  if (es == 2) {
    std::vector<unsigned short> h(total);
    for (size_t i = 0; i < total; ++i) h[i] = (unsigned short)i;
    cudaMemcpy(g_mem, h.data(), total * 2, cudaMemcpyHostToDevice);
  } else {
    std::vector<unsigned> h(total);
    for (size_t i = 0; i < total; ++i) h[i] = (unsigned)i;
    cudaMemcpy(g_mem, h.data(), total * 4, cudaMemcpyHostToDevice);
  }
  alignas(64) CUtensorMap m;
  CUresult e = enc(&m, c, g_mem);
  int n = c.ch * c.px * es;
  printf("case %d encode %d tx %d\n", id, (int)e, n);
  if (e) return 0;
  unsigned zero = 0;
  cudaMemcpyToSymbol(g_timeout, &zero, 4);
  load<<<1, 128>>>(m, c.rank, c.c[0], c.c[1], c.c[2], c.c[3], c.c[4], (short)c.off[0], (short)c.off[1], (short)c.off[2], n, o);
  cudaError_t err = cudaDeviceSynchronize();
  unsigned to = 0;
  cudaMemcpyFromSymbol(&to, g_timeout, 4);
  printf("case %d run %d timeout %u\n", id, (int)err, to);
  if (err) return 2;
  std::vector<unsigned> d(4096);
  cudaMemcpy(d.data(), o, 4096 * 4, cudaMemcpyDeviceToHost);
  int last = 4095;
  while (last > 0 && d[last] == 0xEEEEEEEEu) --last;
  for (int i = 0; i <= (last | 15); ++i) printf("%x%c", d[i], i % 16 == 15 ? '\n' : ' ');
  return 0;
}
