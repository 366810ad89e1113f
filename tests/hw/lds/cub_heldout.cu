// CUB block algorithms, held-out set (issue 34, item 0): written before the H200's answers were
// read, and not used to find or tune any rule; 128 threads, 8 CTAs.
//   radix_i32   BlockRadixSort<int, 128, 4> (keys only)
//   hist_u8     BlockHistogram<unsigned char, 128, 4, 256> (BLOCK_HISTO_SORT) into shared bins
//   exch_f64    BlockExchange<double, 128, 3> StripedToBlocked then BlockedToStriped
//   scan_memo   BlockScan<double> BLOCK_SCAN_RAKING_MEMOIZE exclusive sum, 2 items
//   wt_int2     BlockLoad/BlockStore WARP_TRANSPOSE of int2 x 2 items
//   red_i32_3   BlockReduce<int> default, 3 items
// Build: nvcc -O3 -arch=sm_90 -lineinfo cub_heldout.cu
#include <cstdio>
#include <cstdlib>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
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

__global__ void radix(const int* in, int* out) {
  using Sort = cub::BlockRadixSort<int, kThreads, 4>;
  __shared__ typename Sort::TempStorage tmp;
  int k[4];
  const int base = (blockIdx.x * kThreads + threadIdx.x) * 4;
  for (int i = 0; i < 4; ++i) k[i] = in[base + i];
  Sort(tmp).Sort(k);
  for (int i = 0; i < 4; ++i) out[base + i] = k[i];
}

__global__ void hist(const unsigned char* in, unsigned* out) {
  using Hist = cub::BlockHistogram<unsigned char, kThreads, 4, 256>;
  __shared__ typename Hist::TempStorage tmp;
  __shared__ unsigned bins[256];
  unsigned char v[4];
  const int base = (blockIdx.x * kThreads + threadIdx.x) * 4;
  for (int i = 0; i < 4; ++i) v[i] = in[base + i];
  Hist(tmp).Histogram(v, bins);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += kThreads) out[blockIdx.x * 256 + i] = bins[i];
}

__global__ void exch(const double* in, double* out) {
  using Ex = cub::BlockExchange<double, kThreads, 3>;
  __shared__ typename Ex::TempStorage tmp;
  double v[3];
  const int base = blockIdx.x * kThreads * 3;
  for (int i = 0; i < 3; ++i) v[i] = in[base + i * kThreads + threadIdx.x];
  Ex(tmp).StripedToBlocked(v, v);
  for (int i = 0; i < 3; ++i) v[i] *= 2.0;
  __syncthreads();
  Ex(tmp).BlockedToStriped(v, v);
  for (int i = 0; i < 3; ++i) out[base + i * kThreads + threadIdx.x] = v[i];
}

__global__ void scan_memo(const double* in, double* out) {
  using Scan = cub::BlockScan<double, kThreads, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
  __shared__ typename Scan::TempStorage tmp;
  double v[2];
  const int base = (blockIdx.x * kThreads + threadIdx.x) * 2;
  for (int i = 0; i < 2; ++i) v[i] = in[base + i];
  Scan(tmp).ExclusiveSum(v, v);
  for (int i = 0; i < 2; ++i) out[base + i] = v[i];
}

__global__ void wt_int2(const int2* in, int2* out) {
  using Load = cub::BlockLoad<int2, kThreads, 2, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<int2, kThreads, 2, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } tmp;
  int2 v[2];
  const int base = blockIdx.x * kThreads * 2;
  Load(tmp.load).Load(in + base, v);
  for (int i = 0; i < 2; ++i) v[i].x += v[i].y;
  __syncthreads();
  Store(tmp.store).Store(out + base, v);
}

__global__ void red3(const int* in, int* out) {
  using Reduce = cub::BlockReduce<int, kThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  int v[3];
  const int base = (blockIdx.x * kThreads + threadIdx.x) * 3;
  for (int i = 0; i < 3; ++i) v[i] = in[base + i];
  const int r = Reduce(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}

int main() {
  const size_t n = size_t{kThreads} * kBlocks * 8;
  double *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(double)));
  CHECK(cudaMalloc(&b, n * sizeof(double)));
  CHECK(cudaMemset(a, 0, n * sizeof(double)));
  radix<<<kBlocks, kThreads>>>(reinterpret_cast<int*>(a), reinterpret_cast<int*>(b));
  hist<<<kBlocks, kThreads>>>(reinterpret_cast<unsigned char*>(a), reinterpret_cast<unsigned*>(b));
  exch<<<kBlocks, kThreads>>>(a, b);
  scan_memo<<<kBlocks, kThreads>>>(a, b);
  wt_int2<<<kBlocks, kThreads>>>(reinterpret_cast<int2*>(a), reinterpret_cast<int2*>(b));
  red3<<<kBlocks, kThreads>>>(reinterpret_cast<int*>(a), reinterpret_cast<int*>(b));
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("OK 6 launches\n");
  return 0;
}
