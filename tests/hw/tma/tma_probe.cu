// TMA ground truth (issue 18): each case builds a tensor map with cuTensorMapEncodeTiled (reached
// through cudaGetDriverEntryPointByVersion), TMA-loads one box into shared memory that was filled
// with 0xEEEEEEEE and dumps the shared bytes raw (loads), or TMA-stores shared words 0,1,2,... into
// a global tensor filled with 0xFFFFFFFF and dumps the tensor (stores). Global words hold their
// own word index. Usage: tma_probe [case ...] (all cases without arguments).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
struct Case { int st, ty, sw, fill, rank, d[3], b[3], e[3], c[3], col; };
// st: 0 load, 1 store; ty: CUtensorMapDataType; sw: CUtensorMapSwizzle; fill: CUtensorMapFloatOOBfill;
// col: after the load, warp 0 reads a column of 32 words (thread t: word t*32+k) for ncu.
static const Case kCases[] = {
  {0, 2, 0, 0, 2, {100, 40, 1}, {32, 8, 1}, {1, 1, 1}, {0, 0, 0}, 0},     // 0
  {0, 2, 0, 0, 2, {100, 40, 1}, {32, 8, 1}, {1, 1, 1}, {80, 36, 0}, 0},   // 1 out of bounds
  {0, 2, 1, 0, 2, {100, 40, 1}, {8, 8, 1}, {1, 1, 1}, {4, 2, 0}, 0},      // 2 32B swizzle
  {0, 2, 2, 0, 2, {100, 40, 1}, {16, 8, 1}, {1, 1, 1}, {4, 2, 0}, 0},     // 3 64B
  {0, 2, 3, 0, 2, {100, 40, 1}, {32, 8, 1}, {1, 1, 1}, {4, 2, 0}, 0},     // 4 128B
  {0, 2, 3, 0, 2, {100, 40, 1}, {32, 16, 1}, {1, 1, 1}, {3, 5, 0}, 0},    // 5
  {0, 2, 3, 0, 2, {100, 40, 1}, {16, 8, 1}, {1, 1, 1}, {0, 0, 0}, 0},     // 6 64-byte rows, 128B
  {0, 2, 0, 0, 2, {100, 40, 1}, {32, 8, 1}, {2, 1, 1}, {0, 0, 0}, 0},     // 7 element stride 2
  {0, 7, 0, 1, 2, {100, 40, 1}, {32, 8, 1}, {1, 1, 1}, {-4, -2, 0}, 0},   // 8 f32, NaN fill
  {0, 2, 0, 0, 3, {20, 6, 5}, {8, 4, 2}, {1, 1, 1}, {-2, 3, 1}, 0},       // 9 3-D
  {0, 2, 0, 0, 2, {100, 40, 1}, {4, 4, 1}, {1, 1, 1}, {1, 1, 0}, 0},      // 10 16-byte rows
  {0, 1, 3, 0, 2, {200, 40, 1}, {64, 8, 1}, {1, 1, 1}, {8, 1, 0}, 0},     // 11 u16 128B
  {0, 2, 3, 0, 2, {100, 40, 1}, {32, 32, 1}, {1, 1, 1}, {0, 0, 0}, 1},    // 12 128B + column read
  {0, 2, 0, 0, 2, {100, 40, 1}, {32, 32, 1}, {1, 1, 1}, {0, 0, 0}, 1},    // 13 none + column read
  {1, 2, 0, 0, 2, {100, 40, 1}, {32, 8, 1}, {1, 1, 1}, {8, 4, 0}, 0},     // 14 store
  {1, 2, 3, 0, 2, {100, 40, 1}, {32, 8, 1}, {1, 1, 1}, {8, 4, 0}, 0},     // 15 store 128B
  {1, 2, 0, 0, 2, {100, 40, 1}, {32, 8, 1}, {1, 1, 1}, {80, 36, 0}, 0},   // 16 store out of bounds
  {0, 2, 0, 0, 2, {100, 40, 1}, {32, 8, 1}, {1, 2, 1}, {0, 1, 0}, 0},     // 17 element stride 2 (dim 1)
  {0, 2, 1, 0, 2, {100, 40, 1}, {8, 16, 1}, {1, 1, 1}, {0, 0, 0}, 0},     // 18 32B, 16 rows
  {0, 2, 2, 0, 2, {100, 40, 1}, {16, 16, 1}, {1, 1, 1}, {0, 0, 0}, 0},    // 19 64B, 16 rows
};
__device__ unsigned g_timeout;
__global__ void tma_load(const __grid_constant__ CUtensorMap m, int r, int x, int y, int z, int n, int col, unsigned* o) {
  __shared__ __align__(1024) unsigned s[4096];
  __shared__ __align__(8) unsigned long long b;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&b);
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = 0xEEEEEEEEu;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(ba), "r"(n) : "memory");
    if (r == 2)
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(sa), "l"(&m), "r"(x), "r"(y), "r"(ba) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                   ::"r"(sa), "l"(&m), "r"(x), "r"(y), "r"(z), "r"(ba) : "memory");
  }
  unsigned done = 0;
  for (long long t0 = clock64(); !done && clock64() - t0 < 200000000;)  // about 0.1 s, then give up
    asm volatile("{.reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(done) : "r"(ba) : "memory");
  if (!done) atomicAdd(&g_timeout, 1);
  __syncthreads();
  if (col && threadIdx.x < 32) {
    unsigned sum = 0;
    for (int k = 0; k < 32; ++k) sum += s[threadIdx.x * 32 + k];
    o[4096 + threadIdx.x] = sum;
  }
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) o[i] = s[i];
}
__global__ void tma_store(const __grid_constant__ CUtensorMap m, int x, int y) {
  __shared__ __align__(1024) unsigned s[4096];
  unsigned sa = (unsigned)__cvta_generic_to_shared(s);
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = i;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&m), "r"(x), "r"(y), "r"(sa) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}
int main(int argc, char** argv) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) != cudaSuccess || !f) {
    printf("no entry point\n");
    return 1;
  }
  auto encode = (PFN_cuTensorMapEncodeTiled_v12000)f;
  std::vector<int> ids;
  for (int i = 1; i < argc; ++i) ids.push_back(atoi(argv[i]));
  if (ids.empty())
    for (int i = 0; i < (int)(sizeof kCases / sizeof kCases[0]); ++i) ids.push_back(i);
  unsigned *o, *g;
  cudaMalloc(&o, 8192 * 4);
  cudaMalloc(&g, 1 << 20);
  for (int id : ids) {
    const Case& c = kCases[id];
    int es = c.ty == 1 ? 2 : 4;
    cuuint64_t dims[3], str[2];
    cuuint32_t box[3], est[3];
    size_t total = es, n = es;
    for (int i = 0; i < c.rank; ++i) {
      dims[i] = c.d[i];
      box[i] = c.b[i];
      est[i] = c.e[i];
      total *= c.d[i];
      n *= (c.b[i] + c.e[i] - 1) / c.e[i];
    }
    for (int i = 1; i < c.rank; ++i) str[i - 1] = (i == 1 ? es * c.d[0] : str[i - 2] * c.d[i - 1]);
    std::vector<unsigned> h(total / 4);
    for (size_t i = 0; i < h.size(); ++i) h[i] = c.st ? 0xFFFFFFFFu : (unsigned)i;
    cudaMemcpy(g, h.data(), total, cudaMemcpyHostToDevice);
    CUtensorMap m;
    CUresult e = encode(&m, (CUtensorMapDataType)c.ty, c.rank, g, dims, str, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
                        (CUtensorMapSwizzle)c.sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, (CUtensorMapFloatOOBfill)c.fill);
    printf("case %d encode %d tx %zu\n", id, (int)e, n);
    if (e) continue;
    unsigned zero = 0;
    cudaMemcpyToSymbol(g_timeout, &zero, 4);
    if (c.st)
      tma_store<<<1, 128>>>(m, c.c[0], c.c[1]);
    else
      tma_load<<<1, 128>>>(m, c.rank, c.c[0], c.c[1], c.c[2], (int)n, c.col, o);
    cudaError_t err = cudaDeviceSynchronize();
    unsigned to = 0;
    cudaMemcpyFromSymbol(&to, g_timeout, 4);
    printf("case %d run %d timeout %u\n", id, (int)err, to);
    if (err) return 2;
    size_t words = c.st ? total / 4 : 4096;
    std::vector<unsigned> d(words);
    cudaMemcpy(d.data(), c.st ? g : o, words * 4, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < words; ++i) printf("%x%c", d[i], i % 16 == 15 ? '\n' : ' ');
    if (words % 16) printf("\n");
  }
  return 0;
}
