// Texture and surface kernels for tests/exec/texture_test.cpp: each reads or writes through an
// object handle at coordinates the test chooses, so that the test can compare with its own
// reference of the documented rules.
#include <cuda_runtime.h>

__global__ void tex2d_f4(cudaTextureObject_t t, const float* x, const float* y, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, x[i], y[i]);
}

__global__ void tex2d_i4(cudaTextureObject_t t, const float* x, const float* y, int4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<int4>(t, x[i], y[i]);
}

__global__ void tex1d_fetch(cudaTextureObject_t t, const int* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, x[i]);
}

__global__ void tex3d_f(cudaTextureObject_t t, const float* x, const float* y, const float* z, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, x[i], y[i], z[i]);
}

__global__ void tex2d_layered(cudaTextureObject_t t, const float* x, const float* y, const int* layer, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, x[i], y[i], layer[i]);
}

__global__ void gather_r(cudaTextureObject_t t, const float* x, const float* y, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, x[i], y[i], 0);
}

__global__ void gather_g(cudaTextureObject_t t, const float* x, const float* y, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, x[i], y[i], 1);
}

__global__ void gather_b(cudaTextureObject_t t, const float* x, const float* y, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, x[i], y[i], 2);
}

__global__ void tex_cube(cudaTextureObject_t t, const float* x, const float* y, const float* z, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, x[i], y[i], z[i]);
}

__global__ void tex_cube_layered(cudaTextureObject_t t, const float* x, const float* y, const float* z, const int* layer,
                                 float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLayered<float>(t, x[i], y[i], z[i], layer[i]);
}

__global__ void gather_a(cudaTextureObject_t t, const float* x, const float* y, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, x[i], y[i], 3);
}

__global__ void tex_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int* out) {
  int w, h, d, a, n, sw, sh;
  asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
  asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
  asm("txq.depth.b32 %0, [%1];" : "=r"(d) : "l"(t));
  asm("txq.array_size.b32 %0, [%1];" : "=r"(a) : "l"(t));
  asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(n) : "l"(t));
  asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s));
  asm("suq.height.b32 %0, [%1];" : "=r"(sh) : "l"(s));
  out[0] = w;
  out[1] = h;
  out[2] = d;
  out[3] = a;
  out[4] = n;
  out[5] = sw;
  out[6] = sh;
}

// Reads element (x[i], y[i]) of a 4-byte surface with .zero and .clamp, then writes v + 1000 at
// (x, y) with .zero.
__global__ void surf_rw(cudaSurfaceObject_t s, const int* x, const int* y, int* zero, int* clamp, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v;
  surf2Dread(&v, s, x[i] * 4, y[i], cudaBoundaryModeZero);
  zero[i] = v;
  surf2Dread(&v, s, x[i] * 4, y[i], cudaBoundaryModeClamp);
  clamp[i] = v;
  surf2Dwrite(i + 1000, s, x[i] * 4, y[i], cudaBoundaryModeZero);
}

__global__ void surf_trap(cudaSurfaceObject_t s, int x) { surf2Dwrite(1, s, x * 4, 0, cudaBoundaryModeTrap); }

__global__ void surf_red_add(cudaSurfaceObject_t s) {
  const int x = (threadIdx.x % 4) * 4;
  asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(x), "r"(0), "r"(1));
}

__global__ void surf_store_p(cudaSurfaceObject_t s) {
  const int x = threadIdx.x;
  asm volatile("sust.p.1d.v4.b32.trap [%0, {%1}], {%2, %3, %4, %5};" ::"l"(s), "r"(x), "r"(x), "r"(x + 1), "r"(x + 2),
               "r"(x + 3));
}

__global__ void tex_cube_lod(cudaTextureObject_t t, const float* x, const float* y, const float* z, float lod, float* out,
                             int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLod<float>(t, x[i], y[i], z[i], lod);
}

__global__ void tex_cube_layered_lod(cudaTextureObject_t t, const float* x, const float* y, const float* z, float lod,
                                     float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLayeredLod<float>(t, x[i], y[i], z[i], 0, lod);
}
