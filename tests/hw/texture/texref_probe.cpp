// Texture and surface references through the driver API (issue 29), natively on a GPU: the values a
// fresh texref's Get* calls return, the byte offset cuTexRefSetAddress returns for misaligned
// pointers, and fetches through module texrefs bound to a CUDA array, linear memory and pitched
// memory with point and linear filtering, unnormalized and normalized coordinates, read-as-integer,
// a surfref's stores and loads, txq on a texref, and istypep. Host code only: the kernels are
// hand-written PTX loaded with cuModuleLoadData.
//   nvcc -o texref_probe texref_probe.cpp -lcuda && ./texref_probe > texref.txt
// Each line is `name: value` (CUresult codes as numbers, floats with %.9g and their bits).
#include <cuda.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.global .texref tarr;
.global .texref tlin;
.global .texref tpitch;
.global .texref tint;
.global .texref tunbound;
.global .surfref sarr;

// out[4i..4i+3] = tex.2d(tarr, coords[2i], coords[2i+1])
.visible .entry fetch2d(.param .u64 out, .param .u64 coords, .param .u32 n) {
  .reg .pred %p; .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
  mov.u32 %r0, %tid.x; ld.param.u32 %r1, [n]; setp.ge.u32 %p, %r0, %r1; @%p bra done;
  ld.param.u64 %rd0, [out]; ld.param.u64 %rd1, [coords]; cvta.to.global.u64 %rd0, %rd0; cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r0, 8; add.u64 %rd3, %rd1, %rd2; ld.global.v2.f32 {%f0, %f1}, [%rd3];
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [tarr, {%f0, %f1}];
  mul.wide.u32 %rd2, %r0, 16; add.u64 %rd3, %rd0, %rd2; st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
done:
  ret;
}
// the same through tpitch (memory bound with cuTexRefSetAddress2D)
.visible .entry fetchpitch(.param .u64 out, .param .u64 coords, .param .u32 n) {
  .reg .pred %p; .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
  mov.u32 %r0, %tid.x; ld.param.u32 %r1, [n]; setp.ge.u32 %p, %r0, %r1; @%p bra done;
  ld.param.u64 %rd0, [out]; ld.param.u64 %rd1, [coords]; cvta.to.global.u64 %rd0, %rd0; cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r0, 8; add.u64 %rd3, %rd1, %rd2; ld.global.v2.f32 {%f0, %f1}, [%rd3];
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [tpitch, {%f0, %f1}];
  mul.wide.u32 %rd2, %r0, 16; add.u64 %rd3, %rd0, %rd2; st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
done:
  ret;
}
// out[4i..] = tex.1d(tlin, i + first) with integer coordinates (tex1Dfetch)
.visible .entry fetch1d(.param .u64 out, .param .s32 first, .param .u32 n) {
  .reg .pred %p; .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
  mov.u32 %r0, %tid.x; ld.param.u32 %r1, [n]; setp.ge.u32 %p, %r0, %r1; @%p bra done;
  ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0; ld.param.s32 %r2, [first]; add.s32 %r3, %r0, %r2;
  tex.1d.v4.f32.s32 {%f2, %f3, %f4, %f5}, [tlin, {%r3}];
  mul.wide.u32 %rd2, %r0, 16; add.u64 %rd3, %rd0, %rd2; st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
done:
  ret;
}
// out[4i..] = tex.2d(tint, coords) as 32-bit integers, and as floats at out[4n + 4i]
.visible .entry fetchint(.param .u64 out, .param .u64 coords, .param .u32 n) {
  .reg .pred %p; .reg .b32 %r<12>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
  mov.u32 %r0, %tid.x; ld.param.u32 %r1, [n]; setp.ge.u32 %p, %r0, %r1; @%p bra done;
  ld.param.u64 %rd0, [out]; ld.param.u64 %rd1, [coords]; cvta.to.global.u64 %rd0, %rd0; cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r0, 8; add.u64 %rd3, %rd1, %rd2; ld.global.v2.f32 {%f0, %f1}, [%rd3];
  tex.2d.v4.u32.f32 {%r4, %r5, %r6, %r7}, [tint, {%f0, %f1}];
  mul.wide.u32 %rd2, %r0, 16; add.u64 %rd3, %rd0, %rd2; st.global.v4.u32 [%rd3], {%r4, %r5, %r6, %r7};
  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [tint, {%f0, %f1}];
  mul.wide.u32 %rd4, %r1, 16; add.u64 %rd3, %rd3, %rd4; st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
done:
  ret;
}
// txq on tarr: out = {width, height, channel data type, channel order}
.visible .entry txqk(.param .u64 out) {
  .reg .b32 %r<12>; .reg .b64 %rd<8>;
  ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;
  txq.width.b32 %r0, [tarr]; txq.height.b32 %r1, [tarr];
  txq.channel_data_type.b32 %r2, [tarr]; txq.channel_order.b32 %r3, [tarr];
  st.global.v4.u32 [%rd0], {%r0, %r1, %r2, %r3};
  ret;
}
// sust to sarr at (4*tid bytes, 0) the value tid*3+1, then suld at (4*(tid^1), 0) into out[tid]
.visible .entry surf(.param .u64 out) {
  .reg .b32 %r<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x; shl.b32 %r1, %r0, 2; mad.lo.u32 %r2, %r0, 3, 1; mov.u32 %r3, 0;
  sust.b.2d.b32.trap [sarr, {%r1, %r3}], {%r2};
  bar.sync 0;
  xor.b32 %r4, %r0, 1; shl.b32 %r4, %r4, 2;
  suld.b.2d.b32.trap {%r5}, [sarr, {%r4, %r3}];
  mul.wide.u32 %rd1, %r0, 4; add.u64 %rd2, %rd0, %rd1; st.global.u32 [%rd2], %r5;
  ret;
}
// a texref never bound: out[4i..] = tex.1d(tunbound, i)
.visible .entry unbound(.param .u64 out) {
  .reg .b32 %r<4>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
  mov.u32 %r0, %tid.x; ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;
  tex.1d.v4.f32.s32 {%f2, %f3, %f4, %f5}, [tunbound, {%r0}];
  mul.wide.u32 %rd2, %r0, 16; add.u64 %rd3, %rd0, %rd2; st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
  ret;
}
)";

// istypep on handles taken with mov: out = {istypep.texref(t), istypep.surfref(t), istypep.surfref(s),
// istypep.texref(s)}, then tex.1d through the moved handle at 4..7.
const char* kPtxIstype = R"(
.version 8.0
.target sm_90
.address_size 64
.global .texref t;
.global .surfref s;
.visible .entry istype(.param .u64 out) {
  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd0, [out]; cvta.to.global.u64 %rd0, %rd0;
  mov.u64 %rd1, t; mov.u64 %rd2, s;
  istypep.texref %p0, %rd1; selp.u32 %r2, 1, 0, %p0;
  istypep.surfref %p1, %rd1; selp.u32 %r3, 1, 0, %p1;
  istypep.surfref %p2, %rd2; selp.u32 %r4, 1, 0, %p2;
  istypep.texref %p3, %rd2; selp.u32 %r5, 1, 0, %p3;
  st.global.v4.u32 [%rd0], {%r2, %r3, %r4, %r5};
  mov.u32 %r6, 1;
  tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd1, {%r6}];
  st.global.v4.f32 [%rd0+16], {%f0, %f1, %f2, %f3};
  ret;
}
)";

#define SHOW(call) std::printf("%s: %d\n", #call, static_cast<int>(call))

void show_f(const char* what, float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  std::printf("%s: %.9g 0x%08x\n", what, f, b);
}

/// Every Get* of a texref (each call made before its values are printed).
void dump(const char* tag, CUtexref t) {
  CUarray_format fmt = static_cast<CUarray_format>(-1);
  int ch = -1;
  int r = cuTexRefGetFormat(&fmt, &ch, t);
  std::printf("[%s] GetFormat: %d fmt %d channels %d\n", tag, r, static_cast<int>(fmt), ch);
  for (int d = 0; d < 4; ++d) {
    CUaddress_mode am = static_cast<CUaddress_mode>(-1);
    r = cuTexRefGetAddressMode(&am, t, d);
    std::printf("[%s] GetAddressMode(%d): %d mode %d\n", tag, d, r, static_cast<int>(am));
  }
  CUfilter_mode fm = static_cast<CUfilter_mode>(-1);
  r = cuTexRefGetFilterMode(&fm, t);
  std::printf("[%s] GetFilterMode: %d mode %d\n", tag, r, static_cast<int>(fm));
  fm = static_cast<CUfilter_mode>(-1);
  r = cuTexRefGetMipmapFilterMode(&fm, t);
  std::printf("[%s] GetMipmapFilterMode: %d mode %d\n", tag, r, static_cast<int>(fm));
  float bias = -7;
  r = cuTexRefGetMipmapLevelBias(&bias, t);
  std::printf("[%s] GetMipmapLevelBias: %d %g\n", tag, r, bias);
  float lo = -7, hi = -7;
  r = cuTexRefGetMipmapLevelClamp(&lo, &hi, t);
  std::printf("[%s] GetMipmapLevelClamp: %d %g %g\n", tag, r, lo, hi);
  int aniso = -7;
  r = cuTexRefGetMaxAnisotropy(&aniso, t);
  std::printf("[%s] GetMaxAnisotropy: %d %d\n", tag, r, aniso);
  float border[4] = {-7, -7, -7, -7};
  r = cuTexRefGetBorderColor(border, t);
  std::printf("[%s] GetBorderColor: %d %g %g %g %g\n", tag, r, border[0], border[1], border[2], border[3]);
  unsigned flags = 0xdead;
  r = cuTexRefGetFlags(&flags, t);
  std::printf("[%s] GetFlags: %d 0x%x\n", tag, r, flags);
  CUarray arr = reinterpret_cast<CUarray>(0x1);
  r = cuTexRefGetArray(&arr, t);
  std::printf("[%s] GetArray: %d null %d one %d\n", tag, r, arr == nullptr ? 1 : 0, arr == reinterpret_cast<CUarray>(0x1) ? 1 : 0);
  CUmipmappedArray mip = reinterpret_cast<CUmipmappedArray>(0x1);
  r = cuTexRefGetMipmappedArray(&mip, t);
  std::printf("[%s] GetMipmappedArray: %d null %d\n", tag, r, mip == nullptr ? 1 : 0);
  CUdeviceptr p = 0x1;
  r = cuTexRefGetAddress(&p, t);
  std::printf("[%s] GetAddress: %d value 0x%llx\n", tag, r, static_cast<unsigned long long>(p));
}

void print4(const char* tag, const float* v, int n, const float* coords) {
  for (int i = 0; i < n; ++i) {
    std::printf("%s (%g, %g):", tag, coords ? coords[2 * i] : static_cast<float>(i), coords ? coords[2 * i + 1] : 0.f);
    for (int c = 0; c < 4; ++c) {
      std::uint32_t b;
      std::memcpy(&b, &v[4 * i + c], 4);
      std::printf(" %.9g(0x%08x)", v[4 * i + c], b);
    }
    std::printf("\n");
  }
}

CUresult launch(CUfunction f, void** args, unsigned threads) {
  CUresult r = cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr);
  CUresult s = cuCtxSynchronize();
  return r != CUDA_SUCCESS ? r : s;
}

}  // namespace

int main() {
  SHOW(cuInit(0));
  CUdevice dev;
  SHOW(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  SHOW(cuDevicePrimaryCtxRetain(&ctx, dev));
  SHOW(cuCtxSetCurrent(ctx));
  int align = 0, palign = 0;
  cuDeviceGetAttribute(&align, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, dev);
  cuDeviceGetAttribute(&palign, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, dev);
  std::printf("TEXTURE_ALIGNMENT: %d\nTEXTURE_PITCH_ALIGNMENT: %d\n", align, palign);
  CUmodule mod;
  char log[8192] = {};
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[2] = {log, reinterpret_cast<void*>(sizeof log)};
  CUresult lr = cuModuleLoadDataEx(&mod, kPtx, 2, opts, vals);
  std::printf("cuModuleLoadDataEx: %d log: %s\n", static_cast<int>(lr), log);
  if (lr != CUDA_SUCCESS) return 1;

  CUtexref tarr, tlin, tpitch, tint, tunbound, tnone;
  CUsurfref sarr, snone;
  SHOW(cuModuleGetTexRef(&tarr, mod, "tarr"));
  SHOW(cuModuleGetTexRef(&tlin, mod, "tlin"));
  SHOW(cuModuleGetTexRef(&tpitch, mod, "tpitch"));
  SHOW(cuModuleGetTexRef(&tint, mod, "tint"));
  SHOW(cuModuleGetTexRef(&tunbound, mod, "tunbound"));
  SHOW(cuModuleGetTexRef(&tnone, mod, "nosuch"));
  SHOW(cuModuleGetTexRef(&tnone, mod, "sarr"));
  SHOW(cuModuleGetSurfRef(&sarr, mod, "sarr"));
  SHOW(cuModuleGetSurfRef(&snone, mod, "tarr"));
  SHOW(cuModuleGetSurfRef(&snone, mod, "nosuch"));
  CUtexref tarr2;
  SHOW(cuModuleGetTexRef(&tarr2, mod, "tarr"));
  std::printf("same handle twice: %d\n", tarr2 == tarr ? 1 : 0);
  dump("module", tarr);
  CUtexref created;
  SHOW(cuTexRefCreate(&created));
  dump("created", created);
  CUarray none_arr = nullptr;
  SHOW(cuSurfRefGetArray(&none_arr, sarr));

  CUfunction f2d, fpitch, f1d, fint, fquery, fsurf, funbound;
  SHOW(cuModuleGetFunction(&f2d, mod, "fetch2d"));
  SHOW(cuModuleGetFunction(&fpitch, mod, "fetchpitch"));
  SHOW(cuModuleGetFunction(&f1d, mod, "fetch1d"));
  SHOW(cuModuleGetFunction(&fint, mod, "fetchint"));
  SHOW(cuModuleGetFunction(&fquery, mod, "txqk"));
  SHOW(cuModuleGetFunction(&fsurf, mod, "surf"));
  SHOW(cuModuleGetFunction(&funbound, mod, "unbound"));
  SHOW(cuParamSetTexRef(f2d, CU_PARAM_TR_DEFAULT, tarr));
  SHOW(cuParamSetTexRef(f2d, 0, tarr));
  SHOW(cuParamSetTexRef(f1d, CU_PARAM_TR_DEFAULT, tlin));
  SHOW(cuParamSetSize(f2d, 20));
  SHOW(cuParamSetTexRef(f2d, CU_PARAM_TR_DEFAULT, tarr));

  CUdeviceptr out, coords;
  SHOW(cuMemAlloc(&out, 4096));
  SHOW(cuMemAlloc(&coords, 4096));
  float host[1024];

  // A 4x4 float array, texel (x, y) = 10*y + x.
  CUDA_ARRAY_DESCRIPTOR ad{};
  ad.Width = 4;
  ad.Height = 4;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUarray arr;
  SHOW(cuArrayCreate(&arr, &ad));
  float texels[16];
  for (int i = 0; i < 16; ++i) texels[i] = static_cast<float>(10 * (i / 4) + i % 4);
  CUDA_MEMCPY2D cp{};
  cp.srcMemoryType = CU_MEMORYTYPE_HOST;
  cp.srcHost = texels;
  cp.srcPitch = 16;
  cp.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  cp.dstArray = arr;
  cp.WidthInBytes = 16;
  cp.Height = 4;
  SHOW(cuMemcpy2D(&cp));
  SHOW(cuTexRefSetArray(tarr, arr, 0));
  dump("after SetArray flags 0", tarr);
  SHOW(cuTexRefSetFormat(tarr, CU_AD_FORMAT_SIGNED_INT16, 2));
  SHOW(cuTexRefSetArray(tarr, arr, 0));
  dump("after SetFormat s16x2 SetArray flags 0", tarr);
  SHOW(cuTexRefSetArray(tarr, arr, 2));
  SHOW(cuTexRefSetArray(tarr, arr, CU_TRSA_OVERRIDE_FORMAT));
  dump("after SetArray", tarr);
  CUarray got = nullptr;
  SHOW(cuTexRefGetArray(&got, tarr));
  std::printf("GetArray is the array: %d\n", got == arr ? 1 : 0);

  const float c2[] = {0.5f, 0.5f, 1.0f, 1.0f, 1.25f, 0.75f, 2.5f, 3.5f, -1.0f, 2.0f, 5.5f, 1.5f, 3.75f, 0.25f, 0.9f, 2.6f};
  const unsigned n2 = 8;
  SHOW(cuMemcpyHtoD(coords, c2, sizeof c2));
  unsigned n = n2;
  void* a2[] = {&out, &coords, &n};
  std::printf("launch fetch2d default: %d\n", static_cast<int>(launch(f2d, a2, n)));
  SHOW(cuMemcpyDtoH(host, out, n * 16));
  print4("arr default", host, n, c2);
  SHOW(cuTexRefSetFilterMode(tarr, CU_TR_FILTER_MODE_LINEAR));
  std::printf("launch fetch2d linear: %d\n", static_cast<int>(launch(f2d, a2, n)));
  SHOW(cuMemcpyDtoH(host, out, n * 16));
  print4("arr linear", host, n, c2);
  SHOW(cuTexRefSetAddressMode(tarr, 0, CU_TR_ADDRESS_MODE_BORDER));
  SHOW(cuTexRefSetAddressMode(tarr, 1, CU_TR_ADDRESS_MODE_BORDER));
  const float bc[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  SHOW(cuTexRefSetBorderColor(tarr, const_cast<float*>(bc)));
  std::printf("launch fetch2d linear border: %d\n", static_cast<int>(launch(f2d, a2, n)));
  SHOW(cuMemcpyDtoH(host, out, n * 16));
  print4("arr linear border", host, n, c2);
  SHOW(cuTexRefSetFlags(tarr, CU_TRSF_NORMALIZED_COORDINATES));
  SHOW(cuTexRefSetAddressMode(tarr, 0, CU_TR_ADDRESS_MODE_WRAP));
  SHOW(cuTexRefSetAddressMode(tarr, 1, CU_TR_ADDRESS_MODE_MIRROR));
  SHOW(cuTexRefSetFilterMode(tarr, CU_TR_FILTER_MODE_POINT));
  const float cn[] = {0.3f, 0.6f, 1.2f, -0.1f, 0.125f, 0.125f, -0.6f, 1.3f, 0.0f, 0.0f, 0.99f, 0.99f, 2.0f, 0.5f, 0.5f, 0.5f};
  SHOW(cuMemcpyHtoD(coords, cn, sizeof cn));
  std::printf("launch fetch2d norm wrap/mirror point: %d\n", static_cast<int>(launch(f2d, a2, n)));
  SHOW(cuMemcpyDtoH(host, out, n * 16));
  print4("arr norm wrap mirror point", host, n, cn);
  SHOW(cuTexRefSetFilterMode(tarr, CU_TR_FILTER_MODE_LINEAR));
  std::printf("launch fetch2d norm wrap/mirror linear: %d\n", static_cast<int>(launch(f2d, a2, n)));
  SHOW(cuMemcpyDtoH(host, out, n * 16));
  print4("arr norm wrap mirror linear", host, n, cn);
  dump("after settings", tarr);
  // txq on a texref
  void* aq[] = {&out};
  std::printf("launch txq: %d\n", static_cast<int>(launch(fquery, aq, 1)));
  {
    unsigned q[4] = {};
    SHOW(cuMemcpyDtoH(q, out, sizeof q));
    std::printf("txq: width %u height %u channel_data_type 0x%x channel_order 0x%x\n", q[0], q[1], q[2], q[3]);
  }
  // istypep (second module)
  {
    CUmodule m2;
    char log2[8192] = {};
    void* vals2[2] = {log2, reinterpret_cast<void*>(sizeof log2)};
    CUresult r2 = cuModuleLoadDataEx(&m2, kPtxIstype, 2, opts, vals2);
    std::printf("istype module: %d log: %s\n", static_cast<int>(r2), log2);
    if (r2 == CUDA_SUCCESS) {
      CUfunction fi;
      CUtexref ti;
      SHOW(cuModuleGetFunction(&fi, m2, "istype"));
      SHOW(cuModuleGetTexRef(&ti, m2, "t"));
      SHOW(cuTexRefSetArray(ti, arr, CU_TRSA_OVERRIDE_FORMAT));
      std::printf("launch istype: %d\n", static_cast<int>(launch(fi, aq, 1)));
      unsigned q[8] = {};
      SHOW(cuMemcpyDtoH(q, out, sizeof q));
      std::printf("istypep: texref(t) %u surfref(t) %u surfref(s) %u texref(s) %u tex via mov: 0x%x 0x%x 0x%x 0x%x\n",
                  q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
    }
  }

  // Linear memory: tlin, float x1, bound at misaligned pointers.
  CUdeviceptr lin;
  SHOW(cuMemAlloc(&lin, 4096));
  float linv[1024];
  for (int i = 0; i < 1024; ++i) linv[i] = static_cast<float>(i);
  SHOW(cuMemcpyHtoD(lin, linv, sizeof linv));
  std::printf("lin base mod 512: %llu\n", static_cast<unsigned long long>(lin % 512));
  dump("tlin fresh", tlin);
  for (unsigned off : {0u, 4u, 16u, 100u, 128u, 256u, 260u, 511u, 512u, 516u}) {
    size_t bo = 12345;
    CUresult r = cuTexRefSetAddress(&bo, tlin, lin + off, 1024);
    CUdeviceptr back = 0;
    CUresult g = cuTexRefGetAddress(&back, tlin);
    std::printf("SetAddress(+%u): %d offset %zu GetAddress %d +%lld\n", off, static_cast<int>(r), bo, static_cast<int>(g),
                static_cast<long long>(back - lin));
  }
  SHOW(cuTexRefSetFormat(tlin, CU_AD_FORMAT_FLOAT, 1));
  dump("tlin bound", tlin);
  {
    size_t bo = 7;
    SHOW(cuTexRefSetAddress(&bo, tlin, lin, 0));
    std::printf("offset for size 0: %zu\n", bo);
    dump("tlin size 0", tlin);
    SHOW(cuTexRefSetAddress(nullptr, tlin, lin + 4, 64));
    SHOW(cuTexRefSetAddress(&bo, tlin, lin, 1u << 30));
  }
  CUarray garr = reinterpret_cast<CUarray>(0x1);
  SHOW(cuTexRefGetArray(&garr, tlin));
  {
    size_t bo = 0;
    SHOW(cuTexRefSetAddress(&bo, tlin, lin + 20, 64));  // 16 floats from float 5; offset in bytes
    std::printf("offset for +20: %zu\n", bo);
    int first = -2;
    unsigned cnt = 20;
    void* a1[] = {&out, &first, &cnt};
    std::printf("launch fetch1d misaligned: %d\n", static_cast<int>(launch(f1d, a1, cnt)));
    SHOW(cuMemcpyDtoH(host, out, cnt * 16));
    print4("lin +20 bytes 64 from -2", host, cnt, nullptr);
    SHOW(cuTexRefSetAddress(&bo, tlin, lin + 512, 40));  // 10 floats
    first = 0;
    std::printf("launch fetch1d aligned: %d\n", static_cast<int>(launch(f1d, a1, cnt)));
    SHOW(cuMemcpyDtoH(host, out, cnt * 16));
    print4("lin +512 bytes 40 from 0", host, cnt, nullptr);
    SHOW(cuTexRefSetFormat(tlin, CU_AD_FORMAT_FLOAT, 2));
    std::printf("launch fetch1d float2: %d\n", static_cast<int>(launch(f1d, a1, cnt)));
    SHOW(cuMemcpyDtoH(host, out, cnt * 16));
    print4("lin +512 bytes 40 float2", host, cnt, nullptr);
    SHOW(cuTexRefSetFormat(tlin, CU_AD_FORMAT_UNSIGNED_INT16, 1));
    std::printf("launch fetch1d u16 (float read): %d\n", static_cast<int>(launch(f1d, a1, cnt)));
    SHOW(cuMemcpyDtoH(host, out, cnt * 16));
    print4("lin +512 bytes 40 u16", host, cnt, nullptr);
    SHOW(cuTexRefSetAddress(&bo, tlin, 0, 0));
    dump("tlin unbound by 0", tlin);
  }

  // Pitched memory: tpitch, 4x3 float texels (x, y) = 100 + 10*y + x, pitch 128 bytes.
  {
    CUdeviceptr pm;
    SHOW(cuMemAlloc(&pm, 1024));
    float pv[256] = {};
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) pv[y * 32 + x] = static_cast<float>(100 + 10 * y + x);
    SHOW(cuMemcpyHtoD(pm, pv, sizeof pv));
    CUDA_ARRAY_DESCRIPTOR pd{};
    pd.Width = 4;
    pd.Height = 3;
    pd.Format = CU_AD_FORMAT_FLOAT;
    pd.NumChannels = 1;
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm, 128));
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm, 100));
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm + 4, 128));
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm + 32, 128));
    dump("tpitch +32", tpitch);
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm + 256, 128));
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm, 96));
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm, 8));
    SHOW(cuTexRefSetAddress2D(tpitch, &pd, pm, 128));
    dump("tpitch bound", tpitch);
    SHOW(cuMemcpyHtoD(coords, c2, sizeof c2));
    std::printf("launch fetchpitch point: %d\n", static_cast<int>(launch(fpitch, a2, n)));
    SHOW(cuMemcpyDtoH(host, out, n * 16));
    print4("pitch point", host, n, c2);
    SHOW(cuTexRefSetFilterMode(tpitch, CU_TR_FILTER_MODE_LINEAR));
    std::printf("launch fetchpitch linear: %d\n", static_cast<int>(launch(fpitch, a2, n)));
    SHOW(cuMemcpyDtoH(host, out, n * 16));
    print4("pitch linear", host, n, c2);
    SHOW(cuTexRefSetFormat(tpitch, CU_AD_FORMAT_FLOAT, 1));
  }

  // Read as integer: tint, a 2x2 array of u8x4 texels.
  {
    CUDA_ARRAY_DESCRIPTOR id{};
    id.Width = 2;
    id.Height = 2;
    id.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    id.NumChannels = 4;
    CUarray ia;
    SHOW(cuArrayCreate(&ia, &id));
    const unsigned char iv[16] = {0, 51, 102, 255, 1, 2, 3, 4, 128, 64, 32, 16, 200, 100, 50, 25};
    CUDA_MEMCPY2D ic{};
    ic.srcMemoryType = CU_MEMORYTYPE_HOST;
    ic.srcHost = iv;
    ic.srcPitch = 8;
    ic.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    ic.dstArray = ia;
    ic.WidthInBytes = 8;
    ic.Height = 2;
    SHOW(cuMemcpy2D(&ic));
    SHOW(cuTexRefSetArray(tint, ia, CU_TRSA_OVERRIDE_FORMAT));
    dump("tint bound", tint);
    const float ci[] = {0.5f, 0.5f, 1.5f, 0.5f, 0.5f, 1.5f, 1.5f, 1.5f};
    SHOW(cuMemcpyHtoD(coords, ci, sizeof ci));
    unsigned ni = 4;
    void* ai[] = {&out, &coords, &ni};
    std::printf("launch fetchint default flags: %d\n", static_cast<int>(launch(fint, ai, ni)));
    unsigned u[32];
    SHOW(cuMemcpyDtoH(u, out, sizeof u));
    for (int i = 0; i < 8; ++i) std::printf("int default %d: 0x%08x 0x%08x 0x%08x 0x%08x\n", i, u[4 * i], u[4 * i + 1], u[4 * i + 2], u[4 * i + 3]);
    SHOW(cuTexRefSetFlags(tint, CU_TRSF_READ_AS_INTEGER));
    std::printf("launch fetchint read as integer: %d\n", static_cast<int>(launch(fint, ai, ni)));
    SHOW(cuMemcpyDtoH(u, out, sizeof u));
    for (int i = 0; i < 8; ++i) std::printf("int read_as_integer %d: 0x%08x 0x%08x 0x%08x 0x%08x\n", i, u[4 * i], u[4 * i + 1], u[4 * i + 2], u[4 * i + 3]);
    SHOW(cuTexRefSetFlags(tint, CU_TRSF_SRGB));
    std::printf("launch fetchint srgb: %d\n", static_cast<int>(launch(fint, ai, ni)));
    SHOW(cuMemcpyDtoH(u, out, sizeof u));
    for (int i = 0; i < 8; ++i) std::printf("int srgb %d: 0x%08x 0x%08x 0x%08x 0x%08x\n", i, u[4 * i], u[4 * i + 1], u[4 * i + 2], u[4 * i + 3]);
    SHOW(cuTexRefSetFormat(tint, CU_AD_FORMAT_UNSIGNED_INT16, 2));
    dump("tint reformatted", tint);
    SHOW(cuTexRefSetFlags(tint, 0));
    std::printf("launch fetchint as u16x2: %d\n", static_cast<int>(launch(fint, ai, ni)));
    SHOW(cuMemcpyDtoH(u, out, sizeof u));
    for (int i = 0; i < 8; ++i) std::printf("int u16x2 %d: 0x%08x 0x%08x 0x%08x 0x%08x\n", i, u[4 * i], u[4 * i + 1], u[4 * i + 2], u[4 * i + 3]);
  }

  // Surface reference: an 8x1 int array with surface load/store.
  {
    CUDA_ARRAY3D_DESCRIPTOR sd{};
    sd.Width = 8;
    sd.Height = 1;
    sd.Format = CU_AD_FORMAT_SIGNED_INT32;
    sd.NumChannels = 1;
    CUarray plain, sa;
    sd.Flags = 0;
    SHOW(cuArray3DCreate(&plain, &sd));
    SHOW(cuSurfRefSetArray(sarr, plain, 0));
    sd.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    SHOW(cuArray3DCreate(&sa, &sd));
    SHOW(cuSurfRefSetArray(sarr, sa, 1));
    SHOW(cuSurfRefSetArray(sarr, sa, 0));
    CUarray back = nullptr;
    SHOW(cuSurfRefGetArray(&back, sarr));
    std::printf("SurfRefGetArray is the array: %d\n", back == sa ? 1 : 0);
    void* as[] = {&out};
    std::printf("launch surf: %d\n", static_cast<int>(launch(fsurf, as, 8)));
    unsigned sv[8];
    SHOW(cuMemcpyDtoH(sv, out, sizeof sv));
    std::printf("surf:");
    for (unsigned v : sv) std::printf(" %u", v);
    std::printf("\n");
  }

  // Created texrefs: settings calls and destroy.
  SHOW(cuTexRefSetFormat(created, CU_AD_FORMAT_HALF, 4));
  SHOW(cuTexRefSetFormat(created, CU_AD_FORMAT_HALF, 3));
  SHOW(cuTexRefSetMaxAnisotropy(created, 8));
  SHOW(cuTexRefSetMipmapLevelBias(created, 1.5f));
  SHOW(cuTexRefSetMipmapLevelClamp(created, 0.5f, 3.0f));
  SHOW(cuTexRefSetMipmapFilterMode(created, CU_TR_FILTER_MODE_LINEAR));
  SHOW(cuTexRefSetFlags(created, 0xff));
  SHOW(cuTexRefSetAddressMode(created, 3, CU_TR_ADDRESS_MODE_WRAP));
  dump("created set", created);
  SHOW(cuTexRefDestroy(created));
  SHOW(cuTexRefSetAddressMode(tarr, 3, CU_TR_ADDRESS_MODE_WRAP));
  SHOW(cuTexRefSetFlags(tarr, 0xff));
  {
    unsigned fl = 0;
    SHOW(cuTexRefGetFlags(&fl, tarr));
    std::printf("flags after 0xff: 0x%x\n", fl);
  }

  // cuTexObjectGetResourceViewDesc of an object made without a view, and with one.
  {
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = arr;
    CUDA_TEXTURE_DESC td{};
    CUtexObject to = 0;
    SHOW(cuTexObjectCreate(&to, &rd, &td, nullptr));
    CUDA_RESOURCE_VIEW_DESC vd;
    std::memset(&vd, 0x5a, sizeof vd);
    CUresult r = cuTexObjectGetResourceViewDesc(&vd, to);
    std::printf("GetResourceViewDesc no view: %d format %d w %zu h %zu d %zu levels %u-%u layers %u-%u\n", static_cast<int>(r),
                static_cast<int>(vd.format), vd.width, vd.height, vd.depth, vd.firstMipmapLevel, vd.lastMipmapLevel,
                vd.firstLayer, vd.lastLayer);
    CUDA_RESOURCE_VIEW_DESC v{};
    v.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
    v.width = 4;
    v.height = 4;
    CUtexObject tv = 0;
    SHOW(cuTexObjectCreate(&tv, &rd, &td, &v));
    std::memset(&vd, 0x5a, sizeof vd);
    r = cuTexObjectGetResourceViewDesc(&vd, tv);
    std::printf("GetResourceViewDesc view: %d format %d w %zu h %zu d %zu levels %u-%u layers %u-%u\n", static_cast<int>(r),
                static_cast<int>(vd.format), vd.width, vd.height, vd.depth, vd.firstMipmapLevel, vd.lastMipmapLevel,
                vd.firstLayer, vd.lastLayer);
  }

  // Last (it may fault): a texref never bound.
  void* au[] = {&out};
  SHOW(cuMemsetD32(out, 0x7f7f7f7f, 64));
  CUresult ur = launch(funbound, au, 4);
  std::printf("launch unbound: %d\n", static_cast<int>(ur));
  if (ur == CUDA_SUCCESS) {
    SHOW(cuMemcpyDtoH(host, out, 4 * 16));
    print4("unbound", host, 4, nullptr);
  }
  std::printf("done\n");
  return 0;
}
