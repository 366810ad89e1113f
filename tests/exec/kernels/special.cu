// Special registers and symbols (warpSize = WARP_SZ, %lanemask_*, %clock_hi, ...), clock spins,
// 32-bit shared/local addresses that wrap, generic-address conversions and isspacep.

// warpSize is the PTX symbol WARP_SZ.
extern "C" __global__ void warp_size(int* out) {
  const int t = threadIdx.x;
  out[t] = t % warpSize + (t / warpSize) * 100 + warpSize * 10000;
}

// Special registers read through inline PTX: 12 values per thread.
extern "C" __global__ void sregs(unsigned* out) {
  extern __shared__ int dyn[];
  __shared__ int stat[8];
  const int t = threadIdx.x;
  stat[t % 8] = t % 8;
  dyn[t] = t;
  unsigned* o = out + t * 12;
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(o[0]));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(o[1]));
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(o[2]));
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(o[3]));
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(o[4]));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(o[5]));
  asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(o[6]));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(o[7]));
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(o[8]));
  asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(o[9]));
  asm volatile("mov.u32 %0, %%clock_hi;" : "=r"(o[10]));
  asm volatile("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }" : "=r"(o[11]));
  __syncthreads();
  out[blockDim.x * 12 + t] = stat[(t + 1) % 8] + dyn[(t + 1) % blockDim.x];
}

// Spins until `cycles` clocks have passed (as programs that wait a fixed time do).
extern "C" __global__ void clock_spin(long long* out, long long cycles) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  out[threadIdx.x] = now - start;
}

// Clock difference across straight-line work: its instruction count.
extern "C" __global__ void clock_work(long long* out, const int* in) {
  long long a, b;
  int x = in[threadIdx.x];
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(a));
  asm volatile("{ add.s32 %0, %0, 1; mul.lo.s32 %0, %0, 3; add.s32 %0, %0, 7; xor.b32 %0, %0, 5; }" : "+r"(x));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(b));
  out[threadIdx.x] = b - a + 0LL * x;
}

// [a+68] with a = base - 64 in a 32-bit register (shared and local), and the 64-bit form.
extern "C" __global__ void addr_wrap(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = t * 10;
  __syncthreads();
  int v32, v64, vl;
  asm volatile("{ .reg .u32 a; mov.u32 a, %1; sub.u32 a, a, 64; ld.shared.u32 %0, [a+68]; }"
               : "=r"(v32) : "r"((unsigned)__cvta_generic_to_shared(s)));
  asm volatile("{ .reg .u64 a; mov.u64 a, %1; sub.u64 a, a, 64; ld.shared.u32 %0, [a+72]; }"
               : "=r"(v64) : "l"((unsigned long long)__cvta_generic_to_shared(s)));
  asm volatile(
      "{ .local .align 4 .b8 buf[16]; .reg .u32 a; mov.u32 a, buf; sub.u32 a, a, 64;\n"
      "  st.local.u32 [a+68], %1; ld.local.u32 %0, [a+68]; }"
      : "=r"(vl) : "r"(t + 7));
  out[t * 3] = v32;
  out[t * 3 + 1] = v64;
  out[t * 3 + 2] = vl;
}

// Generic addresses of each space through cvta and isspacep: 8 flags per pointer, 4 pointers.
__constant__ int cvar[4];
__device__ int gvar[4];
__device__ unsigned spaces(const void* p) {
  unsigned r = 0, f;
  asm("{ .reg .pred q; isspacep.global q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(f) : "l"(p)); r |= f << 0;
  asm("{ .reg .pred q; isspacep.shared q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(f) : "l"(p)); r |= f << 1;
  asm("{ .reg .pred q; isspacep.shared::cta q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(f) : "l"(p)); r |= f << 2;
  asm("{ .reg .pred q; isspacep.shared::cluster q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(f) : "l"(p)); r |= f << 3;
  asm("{ .reg .pred q; isspacep.local q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(f) : "l"(p)); r |= f << 4;
  asm("{ .reg .pred q; isspacep.const q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(f) : "l"(p)); r |= f << 5;
  asm("{ .reg .pred q; isspacep.param q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(f) : "l"(p)); r |= f << 6;
  return r;
}
extern "C" __global__ void generic_spaces(unsigned* out, int i) {
  __shared__ int s[4];
  int l[4];
  l[i & 3] = i;
  s[i & 3] = i;
  out[0] = spaces(&gvar[i & 3]);
  out[1] = spaces(&s[i & 3]);
  out[2] = spaces(&l[i & 3]);
  out[3] = spaces(&cvar[i & 3]);
  // cvta.shared::cluster / cvta.to.shared::cluster of the CTA's own shared memory.
  unsigned long long g, back;
  asm("cvta.shared::cluster.u64 %0, %1;" : "=l"(g) : "l"((unsigned long long)__cvta_generic_to_shared(&s[1])));
  asm("cvta.to.shared::cluster.u64 %0, %1;" : "=l"(back) : "l"(g));
  out[4] = g == (unsigned long long)&s[1] ? 1u : 0u;
  out[5] = (unsigned)back - (unsigned)__cvta_generic_to_shared(&s[0]);
  out[6] = (unsigned)l[i & 3] + (unsigned)s[i & 3];
}
