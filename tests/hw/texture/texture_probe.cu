// H100 ground truth for textures and surfaces (issue 17): every sample the hardware returns for
// a grid of coordinates under each filter mode, address mode and coordinate normalization, for
// several channel formats, plus gathers (tld4), 3-D, layered and mipmapped fetches and surface
// reads and writes with each boundary mode. Output: CSV, one sample a line, values as the raw
// bits of each returned 32-bit component (hex), so a CPU reference can be compared bit for bit.
//   texture_probe > texture_samples.csv
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct Coord { float x, y, z; };

template <typename T> __device__ inline uint4 bits4(T v);
template <> __device__ inline uint4 bits4(float4 v) { return make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w)); }
template <> __device__ inline uint4 bits4(float v) { return make_uint4(__float_as_uint(v), 0, 0, 0); }
template <> __device__ inline uint4 bits4(int4 v) { return make_uint4(v.x, v.y, v.z, v.w); }
template <> __device__ inline uint4 bits4(uint4 v) { return v; }

// kind: 0 tex2D, 1 tex1D, 2 tex3D, 3 tex2DLayered (z = layer), 4 tex2DLod (z = level),
//       5..8 tex2Dgather component 0..3, 9 tex1Dfetch (x as int)
template <typename T>
__global__ void sample(cudaTextureObject_t t, const Coord* c, uint4* out, int n, int kind) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Coord p = c[i];
  T v;
  switch (kind) {
    case 0: v = tex2D<T>(t, p.x, p.y); break;
    case 1: v = tex1D<T>(t, p.x); break;
    case 2: v = tex3D<T>(t, p.x, p.y, p.z); break;
    case 3: v = tex2DLayered<T>(t, p.x, p.y, (int)p.z); break;
    case 4: v = tex2DLod<T>(t, p.x, p.y, p.z); break;
    case 9: v = tex1Dfetch<T>(t, (int)p.x); break;
    default: v = T{}; break;
  }
  out[i] = bits4<T>(v);
}
template <typename T>
__global__ void gather(cudaTextureObject_t t, const Coord* c, uint4* out, int n, int comp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Coord p = c[i];
  T v;
  switch (comp) {
    case 0: v = tex2Dgather<T>(t, p.x, p.y, 0); break;
    case 1: v = tex2Dgather<T>(t, p.x, p.y, 1); break;
    case 2: v = tex2Dgather<T>(t, p.x, p.y, 2); break;
    default: v = tex2Dgather<T>(t, p.x, p.y, 3); break;
  }
  out[i] = bits4<T>(v);
}

static const char* kAddr[] = {"wrap", "clamp", "mirror", "border"};
static const char* kFilt[] = {"point", "linear"};

static int run(const char* name, cudaTextureObject_t t, const std::vector<Coord>& cs, int kind, bool vec, bool is_int, bool gathering) {
  Coord* dc; uint4* dout; int n = (int)cs.size();
  CK(cudaMalloc(&dc, n * sizeof(Coord))); CK(cudaMalloc(&dout, n * sizeof(uint4)));
  CK(cudaMemcpy(dc, cs.data(), n * sizeof(Coord), cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0xee, n * sizeof(uint4)));
  int b = 128, g = (n + b - 1) / b;
  if (gathering) { if (is_int) gather<uint4><<<g, b>>>(t, dc, dout, n, kind - 5); else gather<float4><<<g, b>>>(t, dc, dout, n, kind - 5); }
  else if (is_int) sample<uint4><<<g, b>>>(t, dc, dout, n, kind);
  else if (vec) sample<float4><<<g, b>>>(t, dc, dout, n, kind);
  else sample<float><<<g, b>>>(t, dc, dout, n, kind);
  CK(cudaGetLastError());
  std::vector<uint4> h(n);
  CK(cudaMemcpy(h.data(), dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    printf("%s,%.9g,%.9g,%.9g,%08x,%08x,%08x,%08x\n", name, cs[i].x, cs[i].y, cs[i].z, h[i].x, h[i].y, h[i].z, h[i].w);
  cudaFree(dc); cudaFree(dout);
  return 0;
}

static cudaTextureObject_t make_tex(const cudaResourceDesc& rd, int addr, int filt, int norm, cudaTextureReadMode rm) {
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  for (int k = 0; k < 3; k++) td.addressMode[k] = (cudaTextureAddressMode)addr;
  td.filterMode = (cudaTextureFilterMode)filt;
  td.readMode = rm;
  td.normalizedCoords = norm;
  td.borderColor[0] = 0.25f; td.borderColor[1] = 0.5f; td.borderColor[2] = 0.75f; td.borderColor[3] = 1.0f;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.maxMipmapLevelClamp = 8;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
  if (e != cudaSuccess) { fprintf(stderr, "create texture: %s\n", cudaGetErrorString(e)); return 0; }
  return t;
}

// Test values: distinct, not symmetric, exact in every format used.
static float fval(int x, int y, int z) { return 100.0f * z + 10.0f * y + x * x * 0.75f + 1.0f; }

int main() {
  const int W = 4, H = 4, D = 4;
  printf("case,x,y,z,r,g,b,a\n");
  // --- f32 2-D array, every filter x address x normalization on a coarse grid -----------------
  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
  cudaArray_t af; CK(cudaMallocArray(&af, &f1, W, H));
  std::vector<float> hv(W * H);
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) hv[y * W + x] = fval(x, y, 0);
  CK(cudaMemcpy2DToArray(af, 0, 0, hv.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd); rd.resType = cudaResourceTypeArray; rd.res.array.array = af;
  for (int norm = 0; norm < 2; norm++) for (int filt = 0; filt < 2; filt++) for (int addr = 0; addr < 4; addr++) {
    std::vector<Coord> cs;
    for (int yi = -3; yi <= 11; yi++) for (int xi = -12; xi <= 44; xi++) {
      float x = xi / 8.0f, y = yi / 2.0f;
      if (norm) { x /= W; y /= H; }
      cs.push_back({x, y, 0});
    }
    char name[64]; snprintf(name, sizeof name, "f32_2d_%s_%s_%s", kFilt[filt], kAddr[addr], norm ? "norm" : "unnorm");
    cudaTextureObject_t t = make_tex(rd, addr, filt, norm, cudaReadModeElementType);
    if (!t || run(name, t, cs, 0, false, false, false)) return 1;
    cudaDestroyTextureObject(t);
  }
  // fine sweep along x: the filter weights' resolution
  {
    std::vector<Coord> cs;
    for (int i = 0; i <= 768; i++) cs.push_back({0.5f + i / 256.0f, 0.5f, 0});
    for (int i = 0; i <= 256; i++) cs.push_back({1.0f + i / 4096.0f, 1.0f + i / 1024.0f, 0});
    cudaTextureObject_t t = make_tex(rd, 1, 1, 0, cudaReadModeElementType);
    if (!t || run("f32_2d_linear_fine", t, cs, 0, false, false, false)) return 1;
    cudaDestroyTextureObject(t);
    std::vector<Coord> g;
    for (int yi = -2; yi <= 10; yi++) for (int xi = -2; xi <= 10; xi++) g.push_back({xi / 2.0f + 0.125f, yi / 2.0f + 0.375f, 0});
    for (int addr = 0; addr < 4; addr++) for (int comp = 0; comp < 1; comp++) {
      std::vector<Coord> gn = g;
      bool norm = addr == 0 || addr == 2;
      if (norm) for (auto& c : gn) { c.x /= W; c.y /= H; }
      cudaTextureObject_t tg = make_tex(rd, addr, 0, norm, cudaReadModeElementType);
      char name[64]; snprintf(name, sizeof name, "f32_gather_%s_%s", kAddr[addr], norm ? "norm" : "unnorm");
      if (!tg || run(name, tg, gn, 5 + comp, true, false, true)) return 1;
      cudaDestroyTextureObject(tg);
    }
  }
  // --- uchar4 / short2 / half read as normalized float, and uchar4 as integers ---------------
  {
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a8; CK(cudaMallocArray(&a8, &c4, W, H));
    std::vector<uchar4> h8(W * H);
    for (int i = 0; i < W * H; i++) h8[i] = make_uchar4((i * 37 + 11) & 255, (i * 91 + 200) & 255, 255 - i * 13, i * 3);
    CK(cudaMemcpy2DToArray(a8, 0, 0, h8.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaResourceDesc r8; memset(&r8, 0, sizeof r8); r8.resType = cudaResourceTypeArray; r8.res.array.array = a8;
    std::vector<Coord> cs;
    for (int i = 0; i <= 512; i++) cs.push_back({0.25f + i / 128.0f, 0.5f + i / 512.0f, 0});
    cudaTextureObject_t t = make_tex(r8, 1, 1, 0, cudaReadModeNormalizedFloat);
    if (!t || run("u8x4_normf_linear_clamp", t, cs, 0, true, false, false)) return 1;
    cudaDestroyTextureObject(t);
    t = make_tex(r8, 3, 0, 0, cudaReadModeNormalizedFloat);
    if (!t || run("u8x4_normf_point_border", t, cs, 0, true, false, false)) return 1;
    cudaDestroyTextureObject(t);
    t = make_tex(r8, 1, 0, 0, cudaReadModeElementType);
    if (!t || run("u8x4_elem_point_clamp", t, cs, 0, false, true, false)) return 1;
    cudaDestroyTextureObject(t);
    for (int comp = 0; comp < 4; comp++) {
      std::vector<Coord> g;
      for (int yi = -2; yi <= 10; yi++) for (int xi = -2; xi <= 10; xi++) g.push_back({xi / 2.0f + 0.1875f, yi / 2.0f + 0.3125f, 0});
      t = make_tex(r8, 1, 0, 0, cudaReadModeNormalizedFloat);
      char name[64]; snprintf(name, sizeof name, "u8x4_normf_gather%d_clamp", comp);
      if (!t || run(name, t, g, 5 + comp, true, false, true)) return 1;
      cudaDestroyTextureObject(t);
    }
    cudaChannelFormatDesc s2 = cudaCreateChannelDesc<short2>();
    cudaArray_t a16; CK(cudaMallocArray(&a16, &s2, W, H));
    std::vector<short2> h16(W * H);
    for (int i = 0; i < W * H; i++) h16[i] = make_short2((short)(i * 4099 - 32768), (short)(30000 - i * 3001));
    CK(cudaMemcpy2DToArray(a16, 0, 0, h16.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaResourceDesc r16; memset(&r16, 0, sizeof r16); r16.resType = cudaResourceTypeArray; r16.res.array.array = a16;
    t = make_tex(r16, 1, 1, 0, cudaReadModeNormalizedFloat);
    if (!t || run("s16x2_normf_linear_clamp", t, cs, 0, true, false, false)) return 1;
    cudaDestroyTextureObject(t);
    cudaChannelFormatDesc hf = cudaCreateChannelDescHalf();
    cudaArray_t ah; CK(cudaMallocArray(&ah, &hf, W, H));
    std::vector<__half> hh(W * H);
    for (int i = 0; i < W * H; i++) hh[i] = __float2half(fval(i % W, i / W, 0) / 7.0f);
    CK(cudaMemcpy2DToArray(ah, 0, 0, hh.data(), W * 2, W * 2, H, cudaMemcpyHostToDevice));
    cudaResourceDesc rh; memset(&rh, 0, sizeof rh); rh.resType = cudaResourceTypeArray; rh.res.array.array = ah;
    t = make_tex(rh, 1, 1, 0, cudaReadModeElementType);
    if (!t || run("f16_linear_clamp", t, cs, 0, false, false, false)) return 1;
    cudaDestroyTextureObject(t);
  }
  // --- linear memory (tex1Dfetch), in and out of range; pitch-linear 2-D ----------------------
  {
    const int N = 64;
    float4* lin; CK(cudaMalloc(&lin, N * sizeof(float4)));
    std::vector<float4> hl(N);
    for (int i = 0; i < N; i++) hl[i] = make_float4(i, i + 0.5f, -i, i * 2.0f);
    CK(cudaMemcpy(lin, hl.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
    cudaResourceDesc rl; memset(&rl, 0, sizeof rl); rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = lin; rl.res.linear.desc = cudaCreateChannelDesc<float4>(); rl.res.linear.sizeInBytes = N * sizeof(float4);
    std::vector<Coord> cs;
    for (int i = -3; i <= N + 3; i++) cs.push_back({(float)i, 0, 0});
    cs.push_back({1000.0f, 0, 0}); cs.push_back({-1000.0f, 0, 0});
    cudaTextureObject_t t = make_tex(rl, 1, 0, 0, cudaReadModeElementType);
    if (!t || run("linear_f32x4_fetch", t, cs, 9, true, false, false)) return 1;
    cudaDestroyTextureObject(t);
    const int PW = 5, PH = 3;
    float* pl; size_t pitch; CK(cudaMallocPitch(&pl, &pitch, PW * 4, PH));
    std::vector<float> hp(PW * PH);
    for (int y = 0; y < PH; y++) for (int x = 0; x < PW; x++) hp[y * PW + x] = fval(x, y, 1);
    CK(cudaMemcpy2D(pl, pitch, hp.data(), PW * 4, PW * 4, PH, cudaMemcpyHostToDevice));
    cudaResourceDesc rp; memset(&rp, 0, sizeof rp); rp.resType = cudaResourceTypePitch2D;
    rp.res.pitch2D.devPtr = pl; rp.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    rp.res.pitch2D.width = PW; rp.res.pitch2D.height = PH; rp.res.pitch2D.pitchInBytes = pitch;
    std::vector<Coord> c2;
    for (int yi = -2; yi <= 8; yi++) for (int xi = -4; xi <= 24; xi++) c2.push_back({xi / 4.0f, yi / 2.0f, 0});
    for (int addr = 0; addr < 4; addr++) for (int filt = 0; filt < 2; filt++) {
      bool norm = addr == 0 || addr == 2;
      std::vector<Coord> cn = c2;
      if (norm) for (auto& c : cn) { c.x /= PW; c.y /= PH; }
      char name[64]; snprintf(name, sizeof name, "pitch_f32_%s_%s_%s", kFilt[filt], kAddr[addr], norm ? "norm" : "unnorm");
      t = make_tex(rp, addr, filt, norm, cudaReadModeElementType);
      if (!t || run(name, t, cn, 0, false, false, false)) return 1;
      cudaDestroyTextureObject(t);
    }
    printf("pitch,%zu,0,0,0,0,0,0\n", pitch);
  }
  // --- 3-D, layered, mipmapped ------------------------------------------------------------------
  {
    cudaArray_t a3; cudaExtent ext = make_cudaExtent(W, H, D);
    CK(cudaMalloc3DArray(&a3, &f1, ext));
    std::vector<float> h3(W * H * D);
    for (int z = 0; z < D; z++) for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) h3[(z * H + y) * W + x] = fval(x, y, z);
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h3.data(), W * 4, W, H); p.dstArray = a3; p.extent = ext; p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaResourceDesc r3; memset(&r3, 0, sizeof r3); r3.resType = cudaResourceTypeArray; r3.res.array.array = a3;
    std::vector<Coord> cs;
    for (int i = 0; i <= 200; i++) cs.push_back({-0.5f + i / 40.0f, 0.3f + i / 64.0f, 4.5f - i / 37.0f});
    cudaTextureObject_t t = make_tex(r3, 1, 1, 0, cudaReadModeElementType);
    if (!t || run("f32_3d_linear_clamp", t, cs, 2, false, false, false)) return 1;
    cudaDestroyTextureObject(t);
    cudaArray_t al; CK(cudaMalloc3DArray(&al, &f1, make_cudaExtent(W, H, 3), cudaArrayLayered));
    p.dstArray = al; p.extent = make_cudaExtent(W, H, 3);
    CK(cudaMemcpy3D(&p));
    cudaResourceDesc rlay; memset(&rlay, 0, sizeof rlay); rlay.resType = cudaResourceTypeArray; rlay.res.array.array = al;
    std::vector<Coord> cl;
    for (int l = -1; l <= 3; l++) for (int i = 0; i <= 20; i++) cl.push_back({-0.5f + i / 4.0f, 1.25f + i / 16.0f, (float)l});
    t = make_tex(rlay, 1, 1, 0, cudaReadModeElementType);
    if (!t || run("f32_layered_linear_clamp", t, cl, 3, false, false, false)) return 1;
    cudaDestroyTextureObject(t);
    cudaMipmappedArray_t mm; CK(cudaMallocMipmappedArray(&mm, &f1, make_cudaExtent(8, 8, 0), 4));
    for (int lv = 0; lv < 4; lv++) {
      cudaArray_t lev; CK(cudaGetMipmappedArrayLevel(&lev, mm, lv));
      int s = 8 >> lv; std::vector<float> hm(s * s);
      for (int y = 0; y < s; y++) for (int x = 0; x < s; x++) hm[y * s + x] = fval(x, y, lv);
      CK(cudaMemcpy2DToArray(lev, 0, 0, hm.data(), s * 4, s * 4, s, cudaMemcpyHostToDevice));
    }
    cudaResourceDesc rm; memset(&rm, 0, sizeof rm); rm.resType = cudaResourceTypeMipmappedArray; rm.res.mipmap.mipmap = mm;
    std::vector<Coord> cm;
    for (int li = -2; li <= 16; li++) for (int i = 0; i <= 8; i++) cm.push_back({0.05f + i / 9.0f, 0.3f + i / 40.0f, li / 4.0f});
    t = make_tex(rm, 1, 1, 1, cudaReadModeElementType);
    if (!t || run("f32_mip_lod_linear_clamp_norm", t, cm, 4, false, false, false)) return 1;
    cudaDestroyTextureObject(t);
  }
  return 0;
}
