// Texture and surface traffic on the H100 for Nsight Compute (issue 17): one kernel per access
// pattern, each reading 1M elements through the texture pipe.
//   texture_traffic           (run under ncu --metrics ...)
#include <cstdio>
#include <cstring>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err,%s,%s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void fetch_coalesced(cudaTextureObject_t t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}
__global__ void fetch_stride(cudaTextureObject_t t, float* out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, (int)(((long long)i * stride) % n));
}
__global__ void fetch_float4(cudaTextureObject_t t, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(t, i);
}
__global__ void tex2d_rows(cudaTextureObject_t t, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
__global__ void tex2d_cols(cudaTextureObject_t t, float* out, int w, int h) {
  int y = blockIdx.x * blockDim.x + threadIdx.x, x = blockIdx.y;
  if (x < w && y < h) out[x * h + y] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
__global__ void tex2d_tile(cudaTextureObject_t t, float* out, int w, int h) {
  int x = blockIdx.x * 8 + threadIdx.x % 8, y = blockIdx.y * 4 + threadIdx.x / 8;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
__global__ void tex2d_linear(cudaTextureObject_t t, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.75f, y + 0.25f);
}
__global__ void pitch_rows(cudaTextureObject_t t, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
__global__ void surf_rows(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) { float v = surf2Dread<float>(s, x * 4, y); surf2Dwrite(v + 1.0f, s, x * 4, y); }
}

int main() {
  const int n = 1 << 20, W = 1024, H = 1024;
  float* lin; float* out; CK(cudaMalloc(&lin, n * 4 * 4)); CK(cudaMalloc(&out, n * 4 * 4));
  CK(cudaMemset(lin, 0, n * 16));
  cudaTextureDesc td; memset(&td, 0, sizeof td); td.readMode = cudaReadModeElementType;
  cudaResourceDesc rl; memset(&rl, 0, sizeof rl); rl.resType = cudaResourceTypeLinear;
  rl.res.linear.devPtr = lin; rl.res.linear.desc = cudaCreateChannelDesc<float>(); rl.res.linear.sizeInBytes = n * 4;
  cudaTextureObject_t tl; CK(cudaCreateTextureObject(&tl, &rl, &td, nullptr));
  rl.res.linear.desc = cudaCreateChannelDesc<float4>(); rl.res.linear.sizeInBytes = n * 16;
  cudaTextureObject_t tl4; CK(cudaCreateTextureObject(&tl4, &rl, &td, nullptr));
  fetch_coalesced<<<n / 256, 256>>>(tl, out, n);
  fetch_stride<<<n / 256, 256>>>(tl, out, n, 32);
  fetch_stride<<<n / 256, 256>>>(tl, out, n, 2);
  fetch_float4<<<n / 256, 256>>>(tl4, (float4*)out, n);
  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
  cudaArray_t a; CK(cudaMallocArray(&a, &f1, W, H, cudaArraySurfaceLoadStore));
  std::vector<float> h(W * H, 1.0f);
  CK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc ra; memset(&ra, 0, sizeof ra); ra.resType = cudaResourceTypeArray; ra.res.array.array = a;
  cudaTextureObject_t ta; CK(cudaCreateTextureObject(&ta, &ra, &td, nullptr));
  tex2d_rows<<<dim3(W / 128, H), 128>>>(ta, out, W, H);
  tex2d_cols<<<dim3(H / 128, W), 128>>>(ta, out, W, H);
  tex2d_tile<<<dim3(W / 8, H / 4), 32>>>(ta, out, W, H);
  td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t tal; CK(cudaCreateTextureObject(&tal, &ra, &td, nullptr));
  tex2d_linear<<<dim3(W / 128, H), 128>>>(tal, out, W, H);
  td.filterMode = cudaFilterModePoint;
  float* pl; size_t pitch; CK(cudaMallocPitch(&pl, &pitch, W * 4, H));
  cudaResourceDesc rp; memset(&rp, 0, sizeof rp); rp.resType = cudaResourceTypePitch2D;
  rp.res.pitch2D.devPtr = pl; rp.res.pitch2D.desc = f1; rp.res.pitch2D.width = W; rp.res.pitch2D.height = H; rp.res.pitch2D.pitchInBytes = pitch;
  cudaTextureObject_t tp; CK(cudaCreateTextureObject(&tp, &rp, &td, nullptr));
  pitch_rows<<<dim3(W / 128, H), 128>>>(tp, out, W, H);
  cudaSurfaceObject_t s; CK(cudaCreateSurfaceObject(&s, &ra));
  surf_rows<<<dim3(W / 128, H), 128>>>(s, W, H);
  CK(cudaDeviceSynchronize());
  printf("texture_traffic done\n");
  return 0;
}
