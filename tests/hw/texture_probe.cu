// Texture ground truth for warpscope (docs/mem.md, "Textures and surfaces"; docs/exec.md,
// "Textures and surfaces"). Run on a GPU:
//   nvcc -cudart shared -lineinfo -arch=sm_90 -o texture_probe tests/hw/texture_probe.cu
//   ./texture_probe > texture_results.csv
//   ncu --clock-control none --csv --page raw --metrics \
//     l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,\
//     l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum,\
//     l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum,\
//     l1tex__t_requests_pipe_tex_mem_surface_op_st.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum,\
//     smsp__sass_inst_executed_op_texture.sum,lts__t_sectors_srcunit_tex_op_read.sum ./texture_probe > texture_ncu.csv
//
// Part 1 (stdout, CSV): filtering results as bit patterns. For every address mode, point and
// linear filtering, normalized and unnormalized coordinates, a 4x3 float texture (value
// k*k*0.5-3 at texel k) is fetched at coordinates swept in steps of 1/64 texel over [-2, 6) x
// [-1, 4), one fetch per thread: `mode,filter,normalized,x,y,result_hex` (compare with
// tests/exec/texture_test.cpp's reference: the 8-bit weights, the rounding of the coordinate).
// Part 2 (ncu): one-warp launches whose texel addresses follow a known pattern, on a pitch-linear
// texture (real addresses) and on a CUDA array (the layout warpscope models): row reads, column
// reads, 2x2 quads, linear filtering of the same; surface loads and stores by row and by column.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));            \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void fetch(cudaTextureObject_t t, const float2* c, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

// Pattern launches: lane l of the one warp fetches texel (x0 + l * dx, y0 + l * dy) (+0.5).
__global__ void pattern(cudaTextureObject_t t, float* out, float x0, float y0, float dx, float dy) {
  const int l = threadIdx.x;
  out[l] = tex2D<float>(t, x0 + l * dx + 0.5f, y0 + l * dy + 0.5f);
}

__global__ void surf_pattern(cudaSurfaceObject_t s, int x0, int y0, int dx, int dy, int store) {
  const int l = threadIdx.x;
  float v;
  if (store) {
    surf2Dwrite(float(l), s, (x0 + l * dx) * 4, y0 + l * dy);
  } else {
    surf2Dread(&v, s, (x0 + l * dx) * 4, y0 + l * dy);
    if (v == -12345.f) surf2Dwrite(v, s, 0, 0);
  }
}

int main() {
  const int w = 4, h = 3;
  std::vector<float> img(w * h);
  for (int k = 0; k < w * h; ++k) img[k] = k * k * 0.5f - 3.0f;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &fd, w, h));
  CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  std::vector<float2> coords;
  for (int yi = -64; yi < 4 * 64; ++yi)
    for (int xi = -128; xi < 6 * 64; ++xi) coords.push_back(make_float2(xi / 64.0f, yi / 64.0f));
  const int n = static_cast<int>(coords.size());
  float2* dc;
  float* dout;
  CK(cudaMalloc(&dc, n * sizeof(float2)));
  CK(cudaMalloc(&dout, n * sizeof(float)));
  std::vector<float> res(n);
  std::printf("mode,filter,normalized,x,y,result_hex\n");
  for (int norm = 0; norm < 2; ++norm)
    for (int mode = 0; mode < 4; ++mode)
      for (int filter = 0; filter < 2; ++filter) {
        if (!norm && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) continue;
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureDesc td = {};
        for (int d = 0; d < 3; ++d) td.addressMode[d] = static_cast<cudaTextureAddressMode>(mode);
        td.filterMode = static_cast<cudaTextureFilterMode>(filter);
        td.normalizedCoords = norm;
        td.borderColor[0] = 7.5f;
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        std::vector<float2> c = coords;
        if (norm)
          for (auto& p : c) p = make_float2(p.x / w, p.y / h);
        CK(cudaMemcpy(dc, c.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
        fetch<<<(n + 255) / 256, 256>>>(t, dc, dout, n);
        CK(cudaMemcpy(res.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) {
          unsigned bits;
          std::memcpy(&bits, &res[i], 4);
          std::printf("%d,%d,%d,%a,%a,%08x\n", mode, filter, norm, c[i].x, c[i].y, bits);
        }
        CK(cudaDestroyTextureObject(t));
      }
  // Pattern launches for ncu on a 256x256 array and the same on pitch-linear memory.
  const int big = 256;
  std::vector<float> zeros(big * big, 1.0f);
  cudaArray_t barr;
  CK(cudaMallocArray(&barr, &fd, big, big, cudaArraySurfaceLoadStore));
  CK(cudaMemcpy2DToArray(barr, 0, 0, zeros.data(), big * 4, big * 4, big, cudaMemcpyHostToDevice));
  float* pl;
  size_t pitch;
  CK(cudaMallocPitch(&pl, &pitch, big * 4, big));
  const float pats[][4] = {{0, 0, 1, 0}, {0, 0, 0, 1}, {3, 5, 1, 0}, {0, 0, 2, 0}, {0, 0, 1, 1}, {7, 0, 0, 1}};
  for (int layout = 0; layout < 2; ++layout)
    for (int filter = 0; filter < 2; ++filter) {
      cudaResourceDesc rd = {};
      if (layout == 0) {
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = barr;
      } else {
        rd.resType = cudaResourceTypePitch2D;
        rd.res.pitch2D.devPtr = pl;
        rd.res.pitch2D.desc = fd;
        rd.res.pitch2D.width = big;
        rd.res.pitch2D.height = big;
        rd.res.pitch2D.pitchInBytes = pitch;
      }
      cudaTextureDesc td = {};
      td.filterMode = static_cast<cudaTextureFilterMode>(filter);
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
      cudaTextureObject_t t;
      CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
      for (const auto& p : pats) pattern<<<1, 32>>>(t, dout, p[0], p[1], p[2], p[3]);
      CK(cudaDeviceSynchronize());
    }
  cudaResourceDesc sd = {};
  sd.resType = cudaResourceTypeArray;
  sd.res.array.array = barr;
  cudaSurfaceObject_t s;
  CK(cudaCreateSurfaceObject(&s, &sd));
  for (int store = 0; store < 2; ++store)
    for (const auto& p : pats) surf_pattern<<<1, 32>>>(s, int(p[0]), int(p[1]), int(p[2]), int(p[3]), store);
  CK(cudaDeviceSynchronize());
  std::fprintf(stderr, "texture_probe: done\n");
  return 0;
}
