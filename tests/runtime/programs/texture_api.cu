// CUDA arrays, 3-D copies, texture and surface objects through the runtime API: prints one line
// per check and "N failures" at the end (tests/runtime/runtime_test.cpp).
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

// cudaMemcpyFromArray is deprecated, and still exported and used.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int failures = 0;
static void check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "ok" : "not ok", what);
  if (!ok) ++failures;
}

__global__ void read3d(cudaTextureObject_t t, float* out, int w, int h, int d) {
  const int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void double_surface(cudaSurfaceObject_t s) {
  float v;
  surf2Dread(&v, s, threadIdx.x * 4, threadIdx.y);
  surf2Dwrite(2 * v, s, threadIdx.x * 4, threadIdx.y);
}

int main() {
  const int w = 5, h = 3, d = 4;
  std::vector<float> host(w * h * d);
  for (int k = 0; k < w * h * d; ++k) host[k] = 0.25f * k;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  check(desc.x == 32 && desc.y == 0 && desc.f == cudaChannelFormatKindFloat, "cudaCreateChannelDesc<float>");

  cudaArray_t arr = nullptr;
  check(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(w, h, d)) == cudaSuccess, "cudaMalloc3DArray");
  cudaChannelFormatDesc got_desc;
  cudaExtent got_ext;
  unsigned flags = 99;
  check(cudaArrayGetInfo(&got_desc, &got_ext, &flags, arr) == cudaSuccess && got_ext.width == w && got_ext.height == h &&
            got_ext.depth == d && flags == 0 && got_desc.x == 32,
        "cudaArrayGetInfo");

  // Host -> array -> device pitched memory -> host.
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host.data(), w * sizeof(float), w, h);
  p.dstArray = arr;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  check(cudaMemcpy3D(&p) == cudaSuccess, "cudaMemcpy3D host to array");
  float* lin = nullptr;
  cudaMalloc(&lin, w * h * d * sizeof(float));
  cudaMemcpy3DParms q = {};
  q.srcArray = arr;
  q.dstPtr = make_cudaPitchedPtr(lin, w * sizeof(float), w, h);
  q.extent = make_cudaExtent(w, h, d);
  q.kind = cudaMemcpyDeviceToDevice;
  check(cudaMemcpy3D(&q) == cudaSuccess, "cudaMemcpy3D array to device");
  std::vector<float> back(w * h * d, -1);
  cudaMemcpy(back.data(), lin, back.size() * sizeof(float), cudaMemcpyDeviceToHost);
  check(back == host, "3-D round trip");

  // A texture on the 3-D array.
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  cudaTextureObject_t tex = 0;
  check(cudaCreateTextureObject(&tex, &res, &td, nullptr) == cudaSuccess && tex != 0, "cudaCreateTextureObject");
  cudaResourceDesc res2;
  cudaTextureDesc td2;
  check(cudaGetTextureObjectResourceDesc(&res2, tex) == cudaSuccess && res2.res.array.array == arr,
        "cudaGetTextureObjectResourceDesc");
  check(cudaGetTextureObjectTextureDesc(&td2, tex) == cudaSuccess && td2.addressMode[2] == cudaAddressModeClamp,
        "cudaGetTextureObjectTextureDesc");
  cudaMemset(lin, 0, w * h * d * sizeof(float));
  read3d<<<d, dim3(w, h)>>>(tex, lin, w, h, d);
  check(cudaDeviceSynchronize() == cudaSuccess, "tex3D kernel");
  cudaMemcpy(back.data(), lin, back.size() * sizeof(float), cudaMemcpyDeviceToHost);
  check(back == host, "tex3D reads every texel");
  check(cudaDestroyTextureObject(tex) == cudaSuccess, "cudaDestroyTextureObject");

  // A surface on a 2-D array, 2-D copies in and out.
  cudaArray_t a2 = nullptr;
  check(cudaMallocArray(&a2, &desc, w, h, cudaArraySurfaceLoadStore) == cudaSuccess, "cudaMallocArray");
  check(cudaMemcpy2DToArray(a2, 0, 0, host.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice) ==
            cudaSuccess,
        "cudaMemcpy2DToArray");
  cudaSurfaceObject_t surf = 0;
  res.res.array.array = a2;
  check(cudaCreateSurfaceObject(&surf, &res) == cudaSuccess, "cudaCreateSurfaceObject");
  double_surface<<<1, dim3(w, h)>>>(surf);
  check(cudaDeviceSynchronize() == cudaSuccess, "surface kernel");
  std::vector<float> two(w * h);
  check(cudaMemcpy2DFromArray(two.data(), w * sizeof(float), a2, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost) ==
            cudaSuccess,
        "cudaMemcpy2DFromArray");
  bool doubled = true;
  for (int k = 0; k < w * h; ++k) doubled = doubled && two[k] == 2 * host[k];
  check(doubled, "surface read-modify-write");
  float one = 0;
  check(cudaMemcpyFromArray(&one, a2, 4 * sizeof(float), 1, sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess &&
            one == 2 * host[w + 4],
        "cudaMemcpyFromArray");
  check(cudaDestroySurfaceObject(surf) == cudaSuccess, "cudaDestroySurfaceObject");

  // Errors.
  cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  cudaArray_t bad = nullptr;
  check(cudaMallocArray(&bad, &three, 4, 4) != cudaSuccess, "three channels refused");
  cudaGetLastError();
  check(cudaFreeArray(arr) == cudaSuccess && cudaFreeArray(a2) == cudaSuccess, "cudaFreeArray");
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
