// CUB block algorithms' shared-memory patterns (issue 34, item 0; design set): each kernel is one
// CUB collective over a CTA of 128 threads, 8 CTAs, loading from and storing to global memory.
//   wt_f32      BlockLoad/BlockStore WARP_TRANSPOSE, float x 4 items
//   wt_f64      the same, double x 4
//   wt_u16      the same, unsigned short x 8
//   tr_f32      BlockLoad/BlockStore TRANSPOSE (block-wide exchange), float x 4
//   vec_i32     BlockLoad/BlockStore VECTORIZE, int x 4 (128-bit global accesses)
//   scan_raking BlockScan<int> BLOCK_SCAN_RAKING exclusive sum, 4 items
//   scan_warps  BlockScan<int> BLOCK_SCAN_WARP_SCANS inclusive sum, 4 items
//   red_warps   BlockReduce<float> BLOCK_REDUCE_WARP_REDUCTIONS sum, 4 items
//   red_raking  BlockReduce<float> BLOCK_REDUCE_RAKING sum, 4 items
// Build: nvcc -O3 -arch=sm_90 -lineinfo cub_blocks.cu
#include <cstdio>
#include <cstdlib>
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

constexpr int kThreads = 128, kBlocks = 8;

template <typename T, int Items, cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__global__ void load_store(const T* in, T* out) {
  using Load = cub::BlockLoad<T, kThreads, Items, L>;
  using Store = cub::BlockStore<T, kThreads, Items, S>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } tmp;
  T v[Items];
  const int base = blockIdx.x * kThreads * Items;
  Load(tmp.load).Load(in + base, v);
  for (int i = 0; i < Items; ++i) v[i] = v[i] + T(1);
  __syncthreads();
  Store(tmp.store).Store(out + base, v);
}

template <cub::BlockScanAlgorithm A, bool Exclusive>
__global__ void scan(const int* in, int* out) {
  using Scan = cub::BlockScan<int, kThreads, A>;
  __shared__ typename Scan::TempStorage tmp;
  int v[4];
  const int base = (blockIdx.x * kThreads + threadIdx.x) * 4;
  for (int i = 0; i < 4; ++i) v[i] = in[base + i];
  if (Exclusive) Scan(tmp).ExclusiveSum(v, v);
  else Scan(tmp).InclusiveSum(v, v);
  for (int i = 0; i < 4; ++i) out[base + i] = v[i];
}

template <cub::BlockReduceAlgorithm A>
__global__ void reduce(const float* in, float* out) {
  using Reduce = cub::BlockReduce<float, kThreads, A>;
  __shared__ typename Reduce::TempStorage tmp;
  float v[4];
  const int base = blockIdx.x * kThreads * 4;
  for (int i = 0; i < 4; ++i) v[i] = in[base + i * kThreads + threadIdx.x];
  const float r = Reduce(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}

int main() {
  const size_t n = size_t{kThreads} * kBlocks * 8;
  double *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(double)));
  CHECK(cudaMalloc(&b, n * sizeof(double)));
  CHECK(cudaMemset(a, 0, n * sizeof(double)));
  using namespace cub;
  load_store<float, 4, BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE>
      <<<kBlocks, kThreads>>>(reinterpret_cast<float*>(a), reinterpret_cast<float*>(b));
  load_store<double, 4, BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE><<<kBlocks, kThreads>>>(a, b);
  load_store<unsigned short, 8, BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE><<<kBlocks, kThreads>>>(
      reinterpret_cast<unsigned short*>(a), reinterpret_cast<unsigned short*>(b));
  load_store<float, 4, BLOCK_LOAD_TRANSPOSE, BLOCK_STORE_TRANSPOSE>
      <<<kBlocks, kThreads>>>(reinterpret_cast<float*>(a), reinterpret_cast<float*>(b));
  load_store<int, 4, BLOCK_LOAD_VECTORIZE, BLOCK_STORE_VECTORIZE>
      <<<kBlocks, kThreads>>>(reinterpret_cast<int*>(a), reinterpret_cast<int*>(b));
  scan<BLOCK_SCAN_RAKING, true><<<kBlocks, kThreads>>>(reinterpret_cast<int*>(a), reinterpret_cast<int*>(b));
  scan<BLOCK_SCAN_WARP_SCANS, false><<<kBlocks, kThreads>>>(reinterpret_cast<int*>(a), reinterpret_cast<int*>(b));
  reduce<BLOCK_REDUCE_WARP_REDUCTIONS>
      <<<kBlocks, kThreads>>>(reinterpret_cast<float*>(a), reinterpret_cast<float*>(b));
  reduce<BLOCK_REDUCE_RAKING><<<kBlocks, kThreads>>>(reinterpret_cast<float*>(a), reinterpret_cast<float*>(b));
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("OK 9 launches\n");
  return 0;
}
