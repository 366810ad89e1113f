// Probe: the memory traffic of one wmma.load / wmma.store by one warp, from global and from
// shared memory, for the fragment types and a few leading dimensions. One launch per case,
// printed in launch order:
//   launch <n>: <global|shared> <matrix> <type> <shape> <layout> ld=<elements>
// capture_tensor.sh runs it under Nsight Compute (requests, sectors, wavefronts and instruction
// counts per launch) and keeps its machine code (cuobjdump -sass): what ptxas makes of each
// wmma.load/store (LDSM, LDS, LDG of which width, how many) is what warpscope counts.
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace nvcuda;
using namespace nvcuda::wmma;
namespace ex = nvcuda::wmma::experimental;

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kSmemBytes = 32768;

template <class Frag>
__device__ void sink(const Frag& f, std::uint32_t* out) {
  const std::uint32_t* w = reinterpret_cast<const std::uint32_t*>(&f.x[0]);
  std::uint32_t x = 0;
  for (unsigned i = 0; i < sizeof(f.x) / 4; ++i) x ^= w[i];
  out[threadIdx.x] = x;
}

// Multiplicand loads.
template <class Frag, class P, bool Shared>
__global__ void load_ab(const P* g, unsigned ld, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t sm[kSmemBytes];
  Frag f;
  load_matrix_sync(f, Shared ? reinterpret_cast<const P*>(sm) : g, ld);
  sink(f, out);
}
// Accumulator loads.
template <class Frag, class P, bool Shared>
__global__ void load_c(const P* g, unsigned ld, bool col, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t sm[kSmemBytes];
  Frag f;
  load_matrix_sync(f, Shared ? reinterpret_cast<const P*>(sm) : g, ld, col ? mem_col_major : mem_row_major);
  sink(f, out);
}
// Accumulator stores (the fragment filled without memory); a shared store is read back once.
template <class Frag, class P, bool Shared>
__global__ void store_d(P* g, unsigned ld, bool col, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t sm[kSmemBytes];
  Frag f;
  fill_fragment(f, static_cast<typename Frag::element_type>(threadIdx.x & 3));
  store_matrix_sync(Shared ? reinterpret_cast<P*>(sm) : g, f, ld, col ? mem_col_major : mem_row_major);
  if (Shared) {
    __syncwarp();
    out[threadIdx.x] = reinterpret_cast<const std::uint32_t*>(sm)[threadIdx.x * 7];
  }
}

int launch_no = 0;
void done(const char* where, const char* what) {
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("launch %d: %s %s\n", launch_no++, where, what);
}

template <bool S>
void all(void* g, std::uint32_t* out) {
  const char* w = S ? "shared" : "global";
#define AB(USE, M, N, K, T, L, P, LD, TEXT)                                                \
  load_ab<fragment<USE, M, N, K, T, L>, P, S><<<1, 32>>>(static_cast<const P*>(g), LD, out); \
  done(w, TEXT " ld=" #LD);
#define LC(M, N, K, T, P, LD, COL, TEXT)                                                                     \
  load_c<fragment<accumulator, M, N, K, T>, P, S><<<1, 32>>>(static_cast<const P*>(g), LD, COL, out); \
  done(w, TEXT " ld=" #LD);
#define SD(M, N, K, T, P, LD, COL, TEXT)                                                           \
  store_d<fragment<accumulator, M, N, K, T>, P, S><<<1, 32>>>(static_cast<P*>(g), LD, COL, out); \
  done(w, TEXT " ld=" #LD);
  AB(matrix_a, 16, 16, 16, __half, row_major, __half, 16, "a f16 m16n16k16 row")
  AB(matrix_a, 16, 16, 16, __half, row_major, __half, 24, "a f16 m16n16k16 row")
  AB(matrix_a, 16, 16, 16, __half, row_major, __half, 64, "a f16 m16n16k16 row")
  AB(matrix_a, 16, 16, 16, __half, col_major, __half, 16, "a f16 m16n16k16 col")
  AB(matrix_b, 16, 16, 16, __half, col_major, __half, 16, "b f16 m16n16k16 col")
  AB(matrix_b, 16, 16, 16, __half, col_major, __half, 24, "b f16 m16n16k16 col")
  AB(matrix_b, 16, 16, 16, __half, row_major, __half, 16, "b f16 m16n16k16 row")
  AB(matrix_a, 32, 8, 16, __half, row_major, __half, 16, "a f16 m32n8k16 row")
  AB(matrix_b, 8, 32, 16, __half, col_major, __half, 16, "b f16 m8n32k16 col")
  AB(matrix_a, 16, 16, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, "a bf16 m16n16k16 row")
  AB(matrix_b, 16, 16, 16, __nv_bfloat16, col_major, __nv_bfloat16, 24, "b bf16 m16n16k16 col")
  AB(matrix_a, 16, 16, 16, unsigned char, row_major, unsigned char, 16, "a u8 m16n16k16 row")
  AB(matrix_b, 16, 16, 16, unsigned char, col_major, unsigned char, 16, "b u8 m16n16k16 col")
  AB(matrix_a, 16, 16, 16, signed char, col_major, signed char, 32, "a s8 m16n16k16 col")
  AB(matrix_a, 16, 16, 8, precision::tf32, row_major, float, 8, "a tf32 m16n16k8 row")
  AB(matrix_b, 16, 16, 8, precision::tf32, col_major, float, 8, "b tf32 m16n16k8 col")
  AB(matrix_a, 8, 8, 4, double, row_major, double, 4, "a f64 m8n8k4 row")
  AB(matrix_b, 8, 8, 4, double, col_major, double, 4, "b f64 m8n8k4 col")
  AB(matrix_a, 8, 8, 32, ex::precision::s4, row_major, void, 32, "a s4 m8n8k32 row")
  AB(matrix_a, 8, 8, 128, ex::precision::b1, row_major, void, 128, "a b1 m8n8k128 row")
  LC(16, 16, 16, float, float, 16, false, "c f32 m16n16k16 row")
  LC(16, 16, 16, float, float, 64, false, "c f32 m16n16k16 row")
  LC(16, 16, 16, float, float, 16, true, "c f32 m16n16k16 col")
  LC(16, 16, 16, __half, __half, 16, false, "c f16 m16n16k16 row")
  LC(16, 16, 16, int, int, 16, false, "c s32 m16n16k16 row")
  LC(8, 8, 4, double, double, 8, false, "c f64 m8n8k4 row")
  SD(16, 16, 16, float, float, 16, false, "d f32 m16n16k16 row")
  SD(16, 16, 16, float, float, 64, false, "d f32 m16n16k16 row")
  SD(16, 16, 16, float, float, 16, true, "d f32 m16n16k16 col")
  SD(16, 16, 16, __half, __half, 16, false, "d f16 m16n16k16 row")
  SD(16, 16, 16, int, int, 24, false, "d s32 m16n16k16 row")
  SD(8, 8, 4, double, double, 8, false, "d f64 m8n8k4 row")
#undef AB
#undef LC
#undef SD
}

int main() {
  void* g;
  std::uint32_t* out;
  CHECK(cudaMalloc(&g, kSmemBytes));
  CHECK(cudaMemset(g, 0, kSmemBytes));
  CHECK(cudaMalloc(&out, 32 * 4));
  all<false>(g, out);
  all<true>(g, out);
  CHECK(cudaFree(g));
  CHECK(cudaFree(out));
  return 0;
}
