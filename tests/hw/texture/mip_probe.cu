// Mipmapped textures on the GPU (issue 29): what tex.level (tex1DLod, tex2DLod, tex2DLayeredLod,
// tex3DLod, texCubemapLod) and tex.grad (tex1DGrad, tex2DGrad) return at every level of detail.
// Output: CSV, one fetch a line: case, the coordinates and LOD (or gradients) as passed, and the
// raw bits of the four returned 32-bit components (hex), so a CPU reference compares bit for bit.
//   mip_probe > mip_samples.csv          every case
//   mip_probe NAME... > part.csv         only the cases named (NAME ending in '*': a name prefix)
// Cases:
//  - v2d_<filter>_<mipfilter>_<norm>: an 8x8 float texture with 4 levels, texel (x, y) of level l
//    = 100l + 10y + 0.75x^2 + 1, clamp, at 9 coordinates and LODs -1..4.5 in steps of 1/8;
//  - bias_*/clamp_*: the same texture with mipmapLevelBias, minMipmapLevelClamp and
//    maxMipmapLevelClamp;
//  - npot_*: a 12x6 texture with 3 levels (12x6, 6x3, 3x1);
//  - v1d_*: tex1DLod on a 16-texel 1-D texture with 5 levels;
//  - w_*: weights. A 16x16 float4 texture with 5 levels whose texel (x, y) has 1 in channel
//    (x & 1) + 2 (y & 1) and 0 in the others, on the even levels only (w_even_*) or the odd levels
//    only (w_odd_*): a linear fetch returns the weight of each of the four texels of its footprint
//    on that level, so the pair gives all eight weights of a fetch between two levels;
//  - g_*: tex2DGrad / tex1DGrad with gradients of several lengths and directions (weights and values);
//  - lay_*, v3d_*, cube_*: layered, 3-D and cubemap mipmapped textures.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct Q { float x, y, z, lod, dxx, dxy, dyx, dyy; };

// kind: 0 tex2DLod, 1 tex1DLod, 2 tex2DGrad, 3 tex1DGrad, 4 tex2DLayeredLod (z = layer),
//       5 tex3DLod, 6 texCubemapLod
__global__ void sample(cudaTextureObject_t t, const Q* q, uint4* out, int n, int kind) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Q p = q[i];
  float4 v = make_float4(0, 0, 0, 0);
  switch (kind) {
    case 0: v = tex2DLod<float4>(t, p.x, p.y, p.lod); break;
    case 1: v = tex1DLod<float4>(t, p.x, p.lod); break;
    case 2: v = tex2DGrad<float4>(t, p.x, p.y, make_float2(p.dxx, p.dxy), make_float2(p.dyx, p.dyy)); break;
    case 3: v = tex1DGrad<float4>(t, p.x, p.dxx, p.dyx); break;
    case 4: v = tex2DLayeredLod<float4>(t, p.x, p.y, (int)p.z, p.lod); break;
    case 5: v = tex3DLod<float4>(t, p.x, p.y, p.z, p.lod); break;
    case 6: v = texCubemapLod<float4>(t, p.x, p.y, p.z, p.lod); break;
  }
  out[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
}

static std::vector<const char*> g_only;  // the cases to run (none: all)

static int run(const char* name, cudaTextureObject_t t, const std::vector<Q>& qs, int kind) {
  bool wanted = g_only.empty();
  for (const char* p : g_only) {
    const size_t n = strlen(p);
    wanted = wanted || (n > 0 && p[n - 1] == '*' ? strncmp(name, p, n - 1) == 0 : strcmp(name, p) == 0);
  }
  if (!wanted) return 0;
  Q* dq; uint4* dout; int n = (int)qs.size();
  CK(cudaMalloc(&dq, n * sizeof(Q))); CK(cudaMalloc(&dout, n * sizeof(uint4)));
  CK(cudaMemcpy(dq, qs.data(), n * sizeof(Q), cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0xee, n * sizeof(uint4)));
  sample<<<(n + 127) / 128, 128>>>(t, dq, dout, n, kind);
  CK(cudaGetLastError());
  std::vector<uint4> h(n);
  CK(cudaMemcpy(h.data(), dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    const Q& p = qs[i];
    if (kind == 2 || kind == 3)
      printf("%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%08x,%08x,%08x,%08x\n", name, p.x, p.y, p.dxx, p.dxy, p.dyx, p.dyy,
             h[i].x, h[i].y, h[i].z, h[i].w);
    else
      printf("%s,%.9g,%.9g,%.9g,%.9g,0,0,%08x,%08x,%08x,%08x\n", name, p.x, p.y, p.z, p.lod, h[i].x, h[i].y, h[i].z, h[i].w);
  }
  CK(cudaFree(dq)); CK(cudaFree(dout));
  return 0;
}

struct Desc {
  int filt = 1, mipfilt = 1, norm = 1, addr = 1, trilinear_off = 0;
  float bias = 0, minc = 0, maxc = 16;
};

static cudaTextureObject_t make_tex(cudaMipmappedArray_t mm, const Desc& d) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = mm;
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  for (int k = 0; k < 3; k++) td.addressMode[k] = (cudaTextureAddressMode)d.addr;
  td.filterMode = (cudaTextureFilterMode)d.filt;
  td.mipmapFilterMode = (cudaTextureFilterMode)d.mipfilt;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = d.norm;
  td.mipmapLevelBias = d.bias;
  td.minMipmapLevelClamp = d.minc;
  td.maxMipmapLevelClamp = d.maxc;
  td.disableTrilinearOptimization = d.trilinear_off;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
  if (e != cudaSuccess) { fprintf(stderr, "create texture: %s\n", cudaGetErrorString(e)); return 0; }
  return t;
}

static float fval(int x, int y, int z, int l) { return 100.0f * l + 10.0f * y + x * x * 0.75f + 1.0f + 1000.0f * z; }

// A mipmapped float4 array of w x h (h = 0: 1-D; depth d with flags), filled by level by f(x, y, z, l).
template <class F>
static int make_mip(cudaMipmappedArray_t* mm, int w, int h, int d, unsigned flags, int levels, F f) {
  cudaChannelFormatDesc c4 = cudaCreateChannelDesc<float4>();
  CK(cudaMallocMipmappedArray(mm, &c4, make_cudaExtent(w, h, d), levels, flags));
  const bool keep_depth = (flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;
  for (int l = 0; l < levels; l++) {
    cudaArray_t a; CK(cudaGetMipmappedArrayLevel(&a, *mm, l));
    cudaExtent e; cudaChannelFormatDesc cd; unsigned fl;
    CK(cudaArrayGetInfo(&cd, &e, &fl, a));
    const int lw = (int)e.width, lh = e.height ? (int)e.height : 1, ld = e.depth ? (int)e.depth : 1;
    std::vector<float4> hv((size_t)lw * lh * ld);
    for (int z = 0; z < ld; z++) for (int y = 0; y < lh; y++) for (int x = 0; x < lw; x++) hv[((size_t)z * lh + y) * lw + x] = f(x, y, z, l);
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(hv.data(), lw * sizeof(float4), lw, lh);
    p.dstArray = a;
    p.extent = make_cudaExtent(lw, e.height ? lh : 1, e.depth ? ld : 1);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    (void)keep_depth;
  }
  return 0;
}

static const char* kF[] = {"point", "linear"};

int main(int argc, char** argv) {
  for (int i = 1; i < argc; i++) g_only.push_back(argv[i]);
  printf("case,a,b,c,d,e,f,r,g,b,a\n");
  // --- values: 8x8, 4 levels ----------------------------------------------------------------------
  cudaMipmappedArray_t m8;
  if (make_mip(&m8, 8, 8, 0, 0, 4, [](int x, int y, int, int l) { float v = fval(x, y, 0, l); return make_float4(v, -v, v * 0.5f, 1); })) return 1;
  std::vector<Q> pts;  // 9 points, normalized
  for (int i = 0; i <= 8; i++) pts.push_back({0.05f + i / 9.0f, 0.3f + i / 40.0f, 0, 0, 0, 0, 0, 0});
  auto lods = [](const std::vector<Q>& ps, float lo, float hi, float step) {
    std::vector<Q> out;
    for (float l = lo; l <= hi + 1e-6f; l += step) for (Q p : ps) { p.lod = l; out.push_back(p); }
    return out;
  };
  for (int norm = 0; norm < 2; norm++) for (int filt = 0; filt < 2; filt++) for (int mf = 0; mf < 2; mf++) {
    Desc d; d.filt = filt; d.mipfilt = mf; d.norm = norm;
    std::vector<Q> ps = pts;
    if (!norm) for (Q& p : ps) { p.x *= 8; p.y *= 8; }
    char name[64]; snprintf(name, sizeof name, "v2d_%s_%s_%s", kF[filt], kF[mf], norm ? "norm" : "unnorm");
    cudaTextureObject_t t = make_tex(m8, d);
    if (!t || run(name, t, lods(ps, -1, 4.5f, 0.125f), 0)) return 1;
    CK(cudaDestroyTextureObject(t));
  }
  {  // trilinear optimization off
    Desc d; d.trilinear_off = 1;
    cudaTextureObject_t t = make_tex(m8, d);
    if (!t || run("v2d_linear_linear_norm_notriopt", t, lods(pts, -1, 4.5f, 0.125f), 0)) return 1;
    CK(cudaDestroyTextureObject(t));
  }
  // bias and clamps
  struct BC { const char* name; float bias, minc, maxc; int mf; };
  const BC bcs[] = {{"bias_p0.5", 0.5f, 0, 16, 1}, {"bias_m0.75", -0.75f, 0, 16, 1}, {"clamp_1_2", 0, 1, 2, 1},
                    {"clamp_0.5_2.25", 0, 0.5f, 2.25f, 1}, {"bias_clamp", 0.25f, 0.75f, 1.5f, 1},
                    {"clamp_0.5_2.25_point", 0, 0.5f, 2.25f, 0}, {"bias_p0.5_point", 0.5f, 0, 16, 0},
                    {"clamp_neg", 0, -1.0f, 0.5f, 1}, {"clamp_max0", 0, 0, 0, 1}};
  for (const BC& bc : bcs) {
    Desc d; d.bias = bc.bias; d.minc = bc.minc; d.maxc = bc.maxc; d.mipfilt = bc.mf;
    cudaTextureObject_t t = make_tex(m8, d);
    if (!t || run(bc.name, t, lods(pts, -1.5f, 5, 0.25f), 0)) return 1;
    CK(cudaDestroyTextureObject(t));
  }
  // --- non-power-of-two: 12x6, 3 levels -------------------------------------------------------------
  {
    cudaMipmappedArray_t mn;
    if (make_mip(&mn, 12, 6, 0, 0, 3, [](int x, int y, int, int l) { float v = fval(x, y, 0, l); return make_float4(v, 0, 0, 0); })) return 1;
    for (int mf = 0; mf < 2; mf++) {
      Desc d; d.mipfilt = mf;
      char name[64]; snprintf(name, sizeof name, "npot_linear_%s_norm", kF[mf]);
      cudaTextureObject_t t = make_tex(mn, d);
      if (!t || run(name, t, lods(pts, -0.5f, 3, 0.125f), 0)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
  }
  // --- 1-D: 16 texels, 5 levels -------------------------------------------------------------------
  {
    cudaMipmappedArray_t m1;
    if (make_mip(&m1, 16, 0, 0, 0, 5, [](int x, int, int, int l) { float v = fval(x, 0, 0, l); return make_float4(v, 0, 0, 0); })) return 1;
    std::vector<Q> p1;
    for (int i = 0; i <= 12; i++) p1.push_back({0.02f + i / 13.0f, 0, 0, 0, 0, 0, 0, 0});
    for (int filt = 0; filt < 2; filt++) for (int mf = 0; mf < 2; mf++) {
      Desc d; d.filt = filt; d.mipfilt = mf;
      char name[64]; snprintf(name, sizeof name, "v1d_%s_%s_norm", kF[filt], kF[mf]);
      cudaTextureObject_t t = make_tex(m1, d);
      if (!t || run(name, t, lods(p1, -1, 5, 0.125f), 1)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    // tex1DGrad
    Desc d;
    cudaTextureObject_t t = make_tex(m1, d);
    std::vector<Q> g1;
    for (int k = -12; k <= 12; k++) {
      const float g = ldexpf(1.0f, -6) * powf(2.0f, k / 4.0f);
      g1.push_back({0.37f, 0, 0, 0, g, 0, 0, 0});
      g1.push_back({0.37f, 0, 0, 0, 0, 0, g, 0});
      g1.push_back({0.37f, 0, 0, 0, -g, 0, g * 0.5f, 0});
    }
    if (!t || run("g1d_linear_linear", t, g1, 3)) return 1;
    CK(cudaDestroyTextureObject(t));
  }
  // --- weights: 16x16 float4, 5 levels, parity one-hot on even / odd levels ---------------------
  cudaMipmappedArray_t we, wo;
  auto onehot = [](int parity_level) {
    return [parity_level](int x, int y, int, int l) {
      float c[4] = {0, 0, 0, 0};
      if ((l & 1) == parity_level) c[(x & 1) + 2 * (y & 1)] = 1;
      return make_float4(c[0], c[1], c[2], c[3]);
    };
  };
  if (make_mip(&we, 16, 16, 0, 0, 5, onehot(0)) || make_mip(&wo, 16, 16, 0, 0, 5, onehot(1))) return 1;
  std::vector<Q> wp;
  for (int i = 0; i <= 6; i++) wp.push_back({0.1f + i * 0.1317f, 0.13f + i * 0.1093f, 0, 0, 0, 0, 0, 0});
  std::vector<Q> wl = lods(wp, -0.5f, 4.5f, 1.0f / 16);
  {  // a fine sweep of the LOD fraction at one point
    std::vector<Q> one = {{0.4321f, 0.2345f, 0, 0, 0, 0, 0, 0}};
    for (Q q : lods(one, 1.0f, 2.0f, 1.0f / 512)) wl.push_back(q);
    for (Q q : lods(one, 0.0f, 1.0f, 1.0f / 4096)) wl.push_back(q);
  }
  for (int mf = 0; mf < 2; mf++) for (int opt = 0; opt < 2; opt++) {
    if (mf == 0 && opt == 1) continue;
    Desc d; d.mipfilt = mf; d.trilinear_off = opt;
    for (int par = 0; par < 2; par++) {
      char name[64]; snprintf(name, sizeof name, "w_%s_%s%s", par ? "odd" : "even", kF[mf], opt ? "_notriopt" : "");
      cudaTextureObject_t t = make_tex(par ? wo : we, d);
      if (!t || run(name, t, wl, 0)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
  }
  {  // unnormalized coordinates: which texel of each level
    Desc d; d.norm = 0;
    std::vector<Q> up;
    for (int i = 0; i <= 6; i++) up.push_back({1.6f + i * 2.107f, 2.08f + i * 1.749f, 0, 0, 0, 0, 0, 0});
    for (int par = 0; par < 2; par++) {
      cudaTextureObject_t t = make_tex(par ? wo : we, d);
      if (!t || run(par ? "w_odd_linear_unnorm" : "w_even_linear_unnorm", t, lods(up, 0, 4, 0.25f), 0)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
  }
  // --- gradients --------------------------------------------------------------------------------
  {
    std::vector<Q> gq;
    const float dirs[][4] = {{1, 0, 0, 1}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 1, 0}, {0.6f, 0.8f, -0.8f, 0.6f},
                             {1, 0, 0, 0.25f}, {0.25f, 0, 0, 1}, {0.7f, 0.7f, 0, 0}, {1, 1, 1, 1}, {3, 0, 0, 1}};
    for (const auto& dv : dirs)
      for (int k = -20; k <= 44; k++) {
        const float g = ldexpf(1.0f, -6) * powf(2.0f, k / 8.0f);  // from 1/64 texel-size units of level 0 up
        gq.push_back({0.4321f, 0.2345f, 0, 0, g * dv[0], g * dv[1], g * dv[2], g * dv[3]});
      }
    for (int mf = 0; mf < 2; mf++) for (int par = 0; par < 2; par++) {
      Desc d; d.mipfilt = mf;
      char name[64]; snprintf(name, sizeof name, "g_w_%s_%s", par ? "odd" : "even", kF[mf]);
      cudaTextureObject_t t = make_tex(par ? wo : we, d);
      if (!t || run(name, t, gq, 2)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    Desc d;
    cudaTextureObject_t t = make_tex(m8, d);
    if (!t || run("g_v2d_linear_linear", t, gq, 2)) return 1;
    CK(cudaDestroyTextureObject(t));
  }
  // --- layered, 3-D, cubemap ---------------------------------------------------------------------
  {
    cudaMipmappedArray_t ml, m3, mc;
    auto f3 = [](int x, int y, int z, int l) { float v = fval(x, y, z, l); return make_float4(v, 0, 0, 0); };
    if (make_mip(&ml, 8, 8, 3, cudaArrayLayered, 4, f3) || make_mip(&m3, 8, 8, 8, 0, 4, f3) ||
        make_mip(&mc, 8, 8, 6, cudaArrayCubemap, 4, f3)) return 1;
    std::vector<Q> lp;
    for (int layer = 0; layer < 3; layer++) for (int i = 0; i <= 4; i++) lp.push_back({0.05f + i / 5.0f, 0.3f + i / 11.0f, (float)layer, 0, 0, 0, 0, 0});
    std::vector<Q> p3;
    for (int i = 0; i <= 8; i++) p3.push_back({0.05f + i / 9.0f, 0.3f + i / 40.0f, 0.62f - i / 17.0f, 0, 0, 0, 0, 0});
    std::vector<Q> pc;
    const float cd[][3] = {{1, 0.3f, -0.2f}, {-1, 0.5f, 0.25f}, {0.1f, 1, -0.4f}, {0.3f, -1, 0.6f}, {-0.2f, 0.45f, 1}, {0.7f, -0.1f, -1}};
    for (const auto& c : cd) pc.push_back({c[0], c[1], c[2], 0, 0, 0, 0, 0});
    for (int filt = 0; filt < 2; filt++) for (int mf = 0; mf < 2; mf++) {
      Desc d; d.filt = filt; d.mipfilt = mf;
      char name[64];
      cudaTextureObject_t t = make_tex(ml, d);
      snprintf(name, sizeof name, "lay_%s_%s_norm", kF[filt], kF[mf]);
      if (!t || run(name, t, lods(lp, -0.5f, 4, 0.25f), 4)) return 1;
      CK(cudaDestroyTextureObject(t));
      t = make_tex(m3, d);
      snprintf(name, sizeof name, "v3d_%s_%s_norm", kF[filt], kF[mf]);
      if (!t || run(name, t, lods(p3, -0.5f, 4, 0.25f), 5)) return 1;
      CK(cudaDestroyTextureObject(t));
      if (filt == 0) {
        t = make_tex(mc, d);
        snprintf(name, sizeof name, "cube_%s_%s", kF[filt], kF[mf]);
        if (!t || run(name, t, lods(pc, -0.5f, 4, 0.25f), 6)) return 1;
        CK(cudaDestroyTextureObject(t));
      }
    }
  }
  return 0;
}
