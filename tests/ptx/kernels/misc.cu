// A bit of everything nvcc emits: indirect calls through a function-pointer table, a switch,
// cache-operator intrinsics, scoped atomics, fences, cooperative groups, assert, printf,
// malloc, alloca, __managed__, clusters, launch bounds and __grid_constant__.
#include <cstdio>
#include <cuda_fp16.h>
#include <cassert>
#include <cuda/atomic>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct S { int a; double b; float c[3]; };
__device__ int fa(int x) { return x + 1; }
__device__ int fb(int x) { return x * 2; }
__device__ int (*fptr[2])(int) = {fa, fb};
__managed__ int managed_v;
__device__ __noinline__ int sw(int k, int v) {
  switch (k) { case 0: return v; case 1: return v+3; case 2: return v*7; case 3: return v-9; case 4: return v^5; case 5: return v|8; case 6: return v&3; default: return 0; }
}
__global__ void misc(S s, int* out, const float* __restrict__ in, int n, float* o2, long long* ll) {
  int t = threadIdx.x;
  int r = fptr[t & 1](t);
  r += sw(t % 8, t);
  float v = __ldg(in + t) + __ldcg(in + t + 1) + __ldcs(in + t + 2);
  __stcs(o2 + t, v);
  __stwt(o2 + t + 32, v * 2);
  __syncwarp();
  __nanosleep(10);
  atomicAdd_block(out, 1);
  atomicAdd_system(out + 1, 1);
  cuda::atomic_ref<int, cuda::thread_scope_device> a(out[2]);
  a.fetch_add(1, cuda::memory_order_acq_rel);
  int ld = a.load(cuda::memory_order_acquire);
  a.store(ld, cuda::memory_order_release);
  __threadfence(); __threadfence_block(); __threadfence_system();
  auto g = cg::this_thread_block();
  g.sync();
  auto w = cg::tiled_partition<32>(g);
  r += w.shfl(r, 0);
  r += __popc(r) + __clz(r) + __ffs(r) + __brev(r) + __byte_perm(r, t, 0x3210) + __funnelshift_l(r, t, 3);
  r += __mul24(r, t) + __umulhi(r, t) + __sad(r, t, 1) + __dp4a(r, t, 1);
  long long c = clock64() + clock();
  ll[t] = c + __double_as_longlong(s.b) + (long long)__fdividef(v, 3.0f) + (long long)rsqrtf(v) + (long long)__expf(v) + (long long)tanhf(v) + llrint(s.b) + (long long)floor(s.b) ;
  if (n < 0) assert(r != 12345);
  if (n == -7) printf("%d %f %s %lld\n", r, s.b, "x", c);
  int* p = (int*)malloc(16); if (p) { p[0] = r; free(p); }
  out[t + 3] = r + s.a + (int)s.c[t % 3] + managed_v + (int)__half2float(__float2half_rn(v));
  unsigned long long u = (unsigned long long)ll[t];
  ll[t+1] = __umul64hi(u, u) + __mulhi(r, t) + (long long)(u / (unsigned)n) + (long long)(u % 7);
  if (t == 999) __trap();
}
__global__ void __cluster_dims__(2,1,1) clus(int* o) { o[threadIdx.x] = 1; }
__global__ void __launch_bounds__(256, 2) lb(float* o) { o[threadIdx.x] = sqrtf(o[threadIdx.x]) / o[1]; }
__global__ void grid_const(const __grid_constant__ S s, int* o) { o[0] = s.a + (int)s.b; }
__global__ void dynalloca(int n, int* o) { int* a = (int*)alloca(n * 4); for (int i = 0; i < n; ++i) a[i] = i; o[0] = a[n/2]; }
