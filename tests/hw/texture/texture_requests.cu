// How the H100's texture pipe splits a warp's fetch into requests and sectors (issue 17), for
// Nsight Compute: one kernel per case, 1024 warps each (blocks of 128 threads), every lane
// fetching once. texture_traffic.cu measured 4-byte texels in full warps; this probe varies the
// texel size, the lanes' order, the active lanes and the kind of fetch (TLD, TEX 1-D/2-D/3-D,
// layered, gather, surfaces).
//   texture_requests        (run under ncu --metrics ...; prints a checksum per case)
#include <cstdio>
#include <cstring>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err,%s,%s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

constexpr int kW = 1024, kH = 1024;  // 2-D arrays: 1024 x 1024; the grid covers 32 rows x 1024
__device__ float g_sink[1 << 17];

__device__ int lane() { return threadIdx.x & 31; }
__device__ int warp() { return (blockIdx.x * blockDim.x + threadIdx.x) >> 5; }
__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
template <class T> __device__ float f(T v) { return (float)v; }
template <> __device__ float f(float2 v) { return v.x + v.y; }
template <> __device__ float f(float4 v) { return v.x + v.y + v.z + v.w; }
template <> __device__ float f(uchar4 v) { return v.x + v.y + v.z + v.w; }
__device__ void sink(float v) { g_sink[gid() & ((1 << 17) - 1)] = v; }

// --- linear memory (tex1Dfetch: TLD) ---
template <class T> __global__ void l_rows(cudaTextureObject_t t) { sink(f(tex1Dfetch<T>(t, gid()))); }
__global__ void l_f32_perm(cudaTextureObject_t t) {  // lanes 0..7 read 0,8,16,24,1,9,17,25
  sink(tex1Dfetch<float>(t, warp() * 32 + (lane() % 4) * 8 + lane() / 4));
}
__global__ void l_f32_lanes12(cudaTextureObject_t t) { if (lane() < 12) sink(tex1Dfetch<float>(t, gid())); }
__global__ void l_f32_odd(cudaTextureObject_t t) { if (lane() & 1) sink(tex1Dfetch<float>(t, gid())); }
__global__ void l_f32_same(cudaTextureObject_t t) { sink(tex1Dfetch<float>(t, warp())); }
__global__ void l_f32_sector_each(cudaTextureObject_t t) { sink(tex1Dfetch<float>(t, warp() * 256 + lane() * 8)); }

// --- 2-D CUDA arrays, point filtering (TEX) ---
__device__ int rx() { return gid() % kW; }
__device__ int ry() { return gid() / kW; }
template <class T> __global__ void a_rows(cudaTextureObject_t t) { sink(f(tex2D<T>(t, rx() + 0.5f, ry() + 0.5f))); }
__global__ void a_f32_quad2x2(cudaTextureObject_t t) {  // each quad a 2x2 block; a warp 16 x 2
  const int x = (warp() % 64) * 16 + (lane() / 4) * 2 + (lane() & 1), y = (warp() / 64) * 2 + ((lane() >> 1) & 1);
  sink(tex2D<float>(t, x + 0.5f, y + 0.5f));
}
__global__ void a_f32_perm(cudaTextureObject_t t) {  // quad lanes 16 bytes apart: x = (l%8)*4 + l/8
  const int x = (warp() % 32) * 32 + (lane() % 8) * 4 + lane() / 8, y = warp() / 32;
  sink(tex2D<float>(t, x + 0.5f, y + 0.5f));
}
__global__ void a_f32_lanes12(cudaTextureObject_t t) { if (lane() < 12) sink(tex2D<float>(t, rx() + 0.5f, ry() + 0.5f)); }
__global__ void a_f32_same(cudaTextureObject_t t) { sink(tex2D<float>(t, warp() % kW + 0.5f, warp() / kW + 0.5f)); }
__global__ void a_f32_gather(cudaTextureObject_t t) { sink(tex2Dgather<float>(t, rx() + 1.0f, ry() + 1.0f, 0)); }
__global__ void a1d_f32(cudaTextureObject_t t) { sink(tex1D<float>(t, gid() % 8192 + 0.5f)); }
__global__ void a1d_f32_linear(cudaTextureObject_t t) { sink(tex1D<float>(t, gid() % 8192 + 0.75f)); }
__global__ void a3d_f32(cudaTextureObject_t t) {  // 64 x 64 x 64: a warp is 32 x of one row
  const int i = gid();
  sink(tex3D<float>(t, i % 64 + 0.5f, (i / 64) % 64 + 0.5f, (i / 4096) % 64 + 0.5f));
}
__global__ void layered_f32(cudaTextureObject_t t) { sink(tex2DLayered<float>(t, gid() % 256 + 0.5f, (gid() / 256) % 64 + 0.5f, gid() / 16384)); }
__global__ void pitch_f4(cudaTextureObject_t t) { sink(f(tex2D<float4>(t, rx() % 256 + 0.5f, gid() / 256 % 1024 + 0.5f))); }

// --- surfaces (SULD / SUST) on 2-D arrays ---
template <class T> __global__ void s_read(cudaSurfaceObject_t s) { sink(f(surf2Dread<T>(s, rx() * (int)sizeof(T), ry()))); }
__global__ void s_f32_perm(cudaSurfaceObject_t s) {
  const int x = (warp() % 32) * 32 + (lane() % 8) * 4 + lane() / 8, y = warp() / 32;
  sink(surf2Dread<float>(s, x * 4, y));
}
template <class T> __global__ void s_write(cudaSurfaceObject_t s, T v) { surf2Dwrite(v, s, rx() * (int)sizeof(T), ry()); }
__global__ void s1d_f32(cudaSurfaceObject_t s) { sink(surf1Dread<float>(s, (gid() % 8192) * 4)); }

template <class T> cudaTextureObject_t linear_tex(void* p, size_t bytes) {
  cudaResourceDesc r; memset(&r, 0, sizeof r); r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = p; r.res.linear.desc = cudaCreateChannelDesc<T>(); r.res.linear.sizeInBytes = bytes;
  cudaTextureDesc d; memset(&d, 0, sizeof d); d.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0; cudaCreateTextureObject(&t, &r, &d, nullptr); return t;
}
cudaTextureObject_t array_tex(cudaArray_t a, cudaTextureFilterMode fm = cudaFilterModePoint) {
  cudaResourceDesc r; memset(&r, 0, sizeof r); r.resType = cudaResourceTypeArray; r.res.array.array = a;
  cudaTextureDesc d; memset(&d, 0, sizeof d); d.readMode = cudaReadModeElementType; d.filterMode = fm;
  cudaTextureObject_t t = 0; cudaCreateTextureObject(&t, &r, &d, nullptr); return t;
}
cudaSurfaceObject_t array_surf(cudaArray_t a) {
  cudaResourceDesc r; memset(&r, 0, sizeof r); r.resType = cudaResourceTypeArray; r.res.array.array = a;
  cudaSurfaceObject_t s = 0; cudaCreateSurfaceObject(&s, &r); return s;
}
template <class T> cudaArray_t array2d(int w, int h, unsigned flags = cudaArraySurfaceLoadStore) {
  cudaChannelFormatDesc c = cudaCreateChannelDesc<T>(); cudaArray_t a = nullptr;
  cudaMallocArray(&a, &c, w, h, flags); return a;
}

int main() {
  const dim3 g(256), b(128);  // 32768 threads = 1024 warps
  void* lin; CK(cudaMalloc(&lin, 64 << 20)); CK(cudaMemset(lin, 0, 64 << 20));
  l_rows<unsigned char><<<g, b>>>(linear_tex<unsigned char>(lin, 1 << 20));
  l_rows<unsigned short><<<g, b>>>(linear_tex<unsigned short>(lin, 1 << 20));
  l_rows<float><<<g, b>>>(linear_tex<float>(lin, 1 << 20));
  l_rows<float2><<<g, b>>>(linear_tex<float2>(lin, 1 << 20));
  l_rows<float4><<<g, b>>>(linear_tex<float4>(lin, 1 << 20));
  const cudaTextureObject_t lf = linear_tex<float>(lin, 16 << 20);
  l_f32_perm<<<g, b>>>(lf);
  l_f32_lanes12<<<g, b>>>(lf);
  l_f32_odd<<<g, b>>>(lf);
  l_f32_same<<<g, b>>>(lf);
  l_f32_sector_each<<<g, b>>>(lf);
  cudaArray_t af = array2d<float>(kW, kH), a8 = array2d<unsigned char>(kW, kH), a84 = array2d<uchar4>(kW, kH),
              af2 = array2d<float2>(kW, kH), af4 = array2d<float4>(kW, kH);
  a_rows<float><<<g, b>>>(array_tex(af));
  a_rows<unsigned char><<<g, b>>>(array_tex(a8));
  a_rows<uchar4><<<g, b>>>(array_tex(a84));
  a_rows<float2><<<g, b>>>(array_tex(af2));
  a_rows<float4><<<g, b>>>(array_tex(af4));
  const cudaTextureObject_t tf = array_tex(af);
  a_f32_quad2x2<<<g, b>>>(tf);
  a_f32_perm<<<g, b>>>(tf);
  a_f32_lanes12<<<g, b>>>(tf);
  a_f32_same<<<g, b>>>(tf);
  a_f32_gather<<<g, b>>>(tf);
  cudaArray_t a1 = array2d<float>(8192, 0);
  a1d_f32<<<g, b>>>(array_tex(a1));
  a1d_f32_linear<<<g, b>>>(array_tex(a1, cudaFilterModeLinear));
  cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
  cudaArray_t a3 = nullptr; CK(cudaMalloc3DArray(&a3, &c1, make_cudaExtent(64, 64, 64)));
  a3d_f32<<<g, b>>>(array_tex(a3));
  cudaArray_t al = nullptr; CK(cudaMalloc3DArray(&al, &c1, make_cudaExtent(256, 64, 2), cudaArrayLayered));
  layered_f32<<<g, b>>>(array_tex(al));
  {
    cudaResourceDesc r; memset(&r, 0, sizeof r); r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = lin; r.res.pitch2D.desc = cudaCreateChannelDesc<float4>();
    r.res.pitch2D.width = 256; r.res.pitch2D.height = 1024; r.res.pitch2D.pitchInBytes = 4096;
    cudaTextureDesc d; memset(&d, 0, sizeof d); d.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0; CK(cudaCreateTextureObject(&t, &r, &d, nullptr));
    pitch_f4<<<g, b>>>(t);
  }
  const cudaSurfaceObject_t sf = array_surf(af);
  s_read<float><<<g, b>>>(sf);
  s_read<unsigned char><<<g, b>>>(array_surf(a8));
  s_read<float2><<<g, b>>>(array_surf(af2));
  s_read<float4><<<g, b>>>(array_surf(af4));
  s_f32_perm<<<g, b>>>(sf);
  s_write<float><<<g, b>>>(sf, 1.0f);
  s_write<float4><<<g, b>>>(array_surf(af4), make_float4(1, 2, 3, 4));
  cudaArray_t a1s = array2d<float>(8192, 0);
  s1d_f32<<<g, b>>>(array_surf(a1s));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("texture_requests done\n");
  return 0;
}
