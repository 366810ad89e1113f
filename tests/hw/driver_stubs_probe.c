// Measures what the CUDA driver (libcuda.so.1) answers for the driver entry points warpscope had as
// stubs (issue 29): the v1 names (32-bit CUdeviceptr_v1 and unsigned sizes), the batch copies and
// hints, the stream memory operations' pre-11.7 names, and the sparse, decompression, tensor map
// and miscellaneous calls. Each name is looked up with dlsym, so the v1 and _ptsz names are called
// directly; one line per call: "name(case) -> CUresult NAME | outputs".
//   gcc -std=c11 -I$CUDA/include driver_stubs_probe.c -ldl -o probe && ./probe [group]
// Groups (argument; none runs all): v1 batch memop misc sparse. Each group runs in its own process
// in tests/hw/capture_driver_stubs.sh, so a crash in one loses only that group.
#define __CUDA_API_VERSION_INTERNAL 1  // cuda.h then declares the v1 and un-suffixed prototypes
#include <cuda.h>
#include <cudaProfiler.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void* lib;
static CUresult missing(void) { return (CUresult)-1; }
static void* sym(const char* name) {
  void* f = dlsym(lib, name);
  if (f == NULL) { printf("%s: not exported\n", name); return (void*)&missing; }
  return f;
}
// P(name): a pointer p_name to the exported function `name`, typed as cuda.h declares it.
#define P(name) __attribute__((unused)) __typeof__(&name) p_##name = (__typeof__(&name))sym(#name)

static const char* err(CUresult r) {
  static __typeof__(&cuGetErrorName) f;
  if (f == NULL) f = (__typeof__(&cuGetErrorName))dlsym(lib, "cuGetErrorName");
  const char* s = NULL;
  if (r == (CUresult)-1) return "NOT_EXPORTED";
  if (f(r, &s) != CUDA_SUCCESS || s == NULL) return "?";
  return s;
}
#define SHOW(label, r, ...)                                  \
  do {                                                       \
    CUresult r_ = (r);                                       \
    printf("%s -> %d %s |", label, (int)r_, err(r_));        \
    printf(" " __VA_ARGS__);                                 \
    printf("\n");                                            \
    fflush(stdout);                                          \
  } while (0)

static CUdevice dev;
static CUcontext ctx;
static CUstream stream;

static const char kPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .align 4 .u32 g_value = 7;\n"
    ".global .attribute(.managed) .align 4 .u32 m_value = 9;\n"
    ".visible .entry k(.param .u64 p) { .reg .u64 %rd<2>; ld.param.u64 %rd1, [p]; ret; }\n";

static void attr(int a, const char* name) {
  P(cuDeviceGetAttribute);
  int v = -1;
  CUresult r = p_cuDeviceGetAttribute(&v, (CUdevice_attribute)a, dev);
  SHOW(name, r, "value %d", v);
}

// ---- v1: CUdeviceptr_v1 (32 bits) and unsigned int sizes
static void group_v1(void) {
  P(cuMemAlloc); P(cuMemAlloc_v2); P(cuMemFree); P(cuMemFree_v2); P(cuMemAllocPitch); P(cuMemGetAddressRange);
  P(cuMemAllocHost); P(cuMemFreeHost); P(cuMemHostGetDevicePointer); P(cuMemHostAlloc); P(cuMemGetInfo);
  P(cuDeviceTotalMem); P(cuMemcpyHtoD); P(cuMemcpyDtoH); P(cuMemcpyDtoD); P(cuMemcpyHtoDAsync); P(cuMemcpyDtoHAsync);
  P(cuMemcpyDtoDAsync); P(cuMemsetD8); P(cuMemsetD16); P(cuMemsetD32); P(cuMemsetD2D8); P(cuMemsetD2D16);
  P(cuMemsetD2D32); P(cuMemcpy2D); P(cuMemcpy2DUnaligned); P(cuMemcpy2DAsync); P(cuMemcpy3D); P(cuMemcpy3DAsync);
  P(cuArrayCreate); P(cuArrayGetDescriptor); P(cuArray3DCreate); P(cuArray3DGetDescriptor); P(cuArrayCreate_v2);
  P(cuArrayDestroy); P(cuMemcpyHtoA); P(cuMemcpyAtoH); P(cuMemcpyAtoA); P(cuMemcpyDtoA); P(cuMemcpyAtoD);
  P(cuMemcpyHtoAAsync); P(cuMemcpyAtoHAsync); P(cuModuleLoadData); P(cuModuleGetGlobal); P(cuModuleGetGlobal_v2);
  P(cuMemcpyHtoD_v2); P(cuMemcpyDtoH_v2);

  CUdeviceptr_v1 d1 = 0xdeadbeefu;
  CUresult r1 = p_cuMemAlloc(&d1, 1024);
  SHOW("cuMemAlloc(1024)", r1, "ptr 0x%x", d1);
  if (r1 == CUDA_SUCCESS) {  // a 32-bit allocation: the v1 calls on it
    unsigned char hb[16] = {0};
    SHOW("cuMemsetD8(v1 ptr)", p_cuMemsetD8(d1, 0x5a, 1024), "");
    SHOW("cuMemcpyDtoH(v1 ptr)", p_cuMemcpyDtoH(hb, d1, 16), "hb[15] 0x%x", hb[15]);
    CUdeviceptr_v1 b1 = 1; unsigned s1 = 1;
    SHOW("cuMemGetAddressRange(v1 ptr+8)", p_cuMemGetAddressRange(&b1, &s1, d1 + 8), "base-ptr %d size %u", (int)(b1 - d1), s1);
    SHOW("cuMemFree(v1 ptr)", p_cuMemFree(d1), "");
  }
  SHOW("cuMemAlloc(0)", p_cuMemAlloc(&d1, 0), "ptr 0x%x", d1);
  SHOW("cuMemAlloc(NULL ptr)", p_cuMemAlloc(NULL, 1024), "");
  unsigned pitch = 0;
  d1 = 0xdeadbeefu;
  SHOW("cuMemAllocPitch(100,4,4)", p_cuMemAllocPitch(&d1, &pitch, 100, 4, 4), "ptr 0x%x pitch %u", d1, pitch);
  CUdeviceptr d2 = 0;
  SHOW("cuMemAlloc_v2(1024)", p_cuMemAlloc_v2(&d2, 1024), "ptr 0x%llx", (unsigned long long)d2);
  CUdeviceptr_v1 t = (CUdeviceptr_v1)d2;  // the low 32 bits of a 64-bit allocation
  SHOW("cuMemFree(0)", p_cuMemFree(0), "");
  SHOW("cuMemFree(low32 of v2 ptr)", p_cuMemFree(t), "");
  CUdeviceptr_v1 base = 1; unsigned size = 1;
  SHOW("cuMemGetAddressRange(low32)", p_cuMemGetAddressRange(&base, &size, t), "base 0x%x size %u", base, size);
  void* h = NULL;
  SHOW("cuMemAllocHost(4096)", p_cuMemAllocHost(&h, 4096), "ptr %s", h ? "non-null" : "null");
  if (h) {
    CUdeviceptr_v1 hd = 1;
    SHOW("cuMemHostGetDevicePointer(AllocHost)", p_cuMemHostGetDevicePointer(&hd, h, 0), "dptr 0x%x (host low32 0x%x)", hd,
         (unsigned)(unsigned long long)h);
    P(cuMemFreeHost);
    SHOW("cuMemFreeHost(AllocHost)", p_cuMemFreeHost(h), "");
  }
  unsigned fr = 1, tot = 1;
  SHOW("cuMemGetInfo", p_cuMemGetInfo(&fr, &tot), "free %u total %u", fr, tot);
  SHOW("cuDeviceTotalMem", p_cuDeviceTotalMem(&tot, dev), "total %u", tot);
  char host[64];
  memset(host, 1, sizeof host);
  SHOW("cuMemcpyHtoD(low32)", p_cuMemcpyHtoD(t, host, 64), "");
  SHOW("cuMemcpyDtoH(low32)", p_cuMemcpyDtoH(host, t, 64), "");
  SHOW("cuMemcpyDtoD(low32)", p_cuMemcpyDtoD(t, t, 64), "");
  SHOW("cuMemcpyHtoDAsync(low32)", p_cuMemcpyHtoDAsync(t, host, 64, stream), "");
  SHOW("cuMemcpyDtoHAsync(low32)", p_cuMemcpyDtoHAsync(host, t, 64, stream), "");
  SHOW("cuMemcpyDtoDAsync(low32)", p_cuMemcpyDtoDAsync(t, t, 64, stream), "");
  SHOW("cuMemsetD8(low32)", p_cuMemsetD8(t, 1, 64), "");
  SHOW("cuMemsetD16(low32)", p_cuMemsetD16(t, 1, 32), "");
  SHOW("cuMemsetD32(low32)", p_cuMemsetD32(t, 1, 16), "");
  SHOW("cuMemsetD2D8(low32)", p_cuMemsetD2D8(t, 64, 1, 64, 1), "");
  SHOW("cuMemsetD2D16(low32)", p_cuMemsetD2D16(t, 64, 1, 32, 1), "");
  SHOW("cuMemsetD2D32(low32)", p_cuMemsetD2D32(t, 64, 1, 16, 1), "");
  SHOW("cuMemsetD8(0)", p_cuMemsetD8(0, 1, 64), "");
  // Host-to-host 2D/3D copies: no device pointer involved.
  char src[64], dst[64];
  for (int i = 0; i < 64; ++i) { src[i] = (char)i; dst[i] = 0; }
  CUDA_MEMCPY2D_v1 c2;
  memset(&c2, 0, sizeof c2);
  c2.srcMemoryType = CU_MEMORYTYPE_HOST; c2.srcHost = src; c2.srcPitch = 16;
  c2.dstMemoryType = CU_MEMORYTYPE_HOST; c2.dstHost = dst; c2.dstPitch = 16;
  c2.WidthInBytes = 16; c2.Height = 4;
  SHOW("cuMemcpy2D(host to host)", p_cuMemcpy2D(&c2), "dst[63] %d", dst[63]);
  dst[63] = 0;
  SHOW("cuMemcpy2DUnaligned(host to host)", p_cuMemcpy2DUnaligned(&c2), "dst[63] %d", dst[63]);
  dst[63] = 0;
  SHOW("cuMemcpy2DAsync(host to host)", p_cuMemcpy2DAsync(&c2, stream), "");
  P(cuStreamSynchronize);
  p_cuStreamSynchronize(stream);
  printf("  after sync dst[63] %d\n", dst[63]);
  c2.dstMemoryType = CU_MEMORYTYPE_DEVICE; c2.dstDevice = t; c2.dstHost = NULL;
  SHOW("cuMemcpy2D(host to low32 device)", p_cuMemcpy2D(&c2), "");
  CUDA_MEMCPY3D_v1 c3;
  memset(&c3, 0, sizeof c3);
  memset(dst, 0, sizeof dst);
  c3.srcMemoryType = CU_MEMORYTYPE_HOST; c3.srcHost = src; c3.srcPitch = 16; c3.srcHeight = 2;
  c3.dstMemoryType = CU_MEMORYTYPE_HOST; c3.dstHost = dst; c3.dstPitch = 16; c3.dstHeight = 2;
  c3.WidthInBytes = 16; c3.Height = 2; c3.Depth = 2;
  SHOW("cuMemcpy3D(host to host)", p_cuMemcpy3D(&c3), "dst[63] %d", dst[63]);
  dst[63] = 0;
  SHOW("cuMemcpy3DAsync(host to host)", p_cuMemcpy3DAsync(&c3, stream), "");
  p_cuStreamSynchronize(stream);
  printf("  after sync dst[63] %d\n", dst[63]);
  // Arrays with the v1 descriptors.
  CUarray a = NULL, b = NULL;
  CUDA_ARRAY_DESCRIPTOR_v1 ad = {16, 4, CU_AD_FORMAT_UNSIGNED_INT8, 1};
  SHOW("cuArrayCreate(v1 16x4 u8)", p_cuArrayCreate(&a, &ad), "array %s", a ? "non-null" : "null");
  CUDA_ARRAY_DESCRIPTOR_v1 gd;
  memset(&gd, 0xff, sizeof gd);
  SHOW("cuArrayGetDescriptor", p_cuArrayGetDescriptor(&gd, a), "W %u H %u F %d C %u", gd.Width, gd.Height, (int)gd.Format,
       gd.NumChannels);
  CUDA_ARRAY3D_DESCRIPTOR_v1 a3 = {16, 4, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0};
  SHOW("cuArray3DCreate(v1 16x4x0 u8)", p_cuArray3DCreate(&b, &a3), "array %s", b ? "non-null" : "null");
  CUDA_ARRAY3D_DESCRIPTOR_v1 g3;
  memset(&g3, 0xff, sizeof g3);
  SHOW("cuArray3DGetDescriptor", p_cuArray3DGetDescriptor(&g3, b), "W %u H %u D %u F %d C %u Fl %u", g3.Width, g3.Height,
       g3.Depth, (int)g3.Format, g3.NumChannels, g3.Flags);
  memset(&gd, 0xff, sizeof gd);
  SHOW("cuArrayGetDescriptor(3D-made)", p_cuArrayGetDescriptor(&gd, b), "W %u H %u F %d C %u", gd.Width, gd.Height,
       (int)gd.Format, gd.NumChannels);
  memset(dst, 0, sizeof dst);
  SHOW("cuMemcpyHtoA(v1)", p_cuMemcpyHtoA(a, 0, src, 64), "");
  SHOW("cuMemcpyAtoA(v1)", p_cuMemcpyAtoA(b, 0, a, 0, 64), "");
  SHOW("cuMemcpyAtoH(v1)", p_cuMemcpyAtoH(dst, b, 0, 64), "dst[63] %d", dst[63]);
  SHOW("cuMemcpyHtoAAsync(v1)", p_cuMemcpyHtoAAsync(a, 16, src, 16, stream), "");
  SHOW("cuMemcpyAtoHAsync(v1)", p_cuMemcpyAtoHAsync(dst, a, 0, 16, stream), "");
  p_cuStreamSynchronize(stream);
  SHOW("cuMemcpyDtoA(low32)", p_cuMemcpyDtoA(a, 0, t, 64), "");
  SHOW("cuMemcpyAtoD(low32)", p_cuMemcpyAtoD(t, a, 0, 64), "");
  SHOW("cuMemcpyHtoA(v1 past end)", p_cuMemcpyHtoA(a, 32, src, 64), "");
  p_cuArrayDestroy(a);
  p_cuArrayDestroy(b);
  CUmodule mod = NULL;
  SHOW("cuModuleLoadData(ptx)", p_cuModuleLoadData(&mod, kPtx), "");
  CUdeviceptr_v1 g1 = 1; unsigned gb = 1;
  SHOW("cuModuleGetGlobal(g_value)", p_cuModuleGetGlobal(&g1, &gb, mod, "g_value"), "ptr 0x%x bytes %u", g1, gb);
  SHOW("cuModuleGetGlobal(NULL,&bytes,g_value)", p_cuModuleGetGlobal(NULL, &gb, mod, "g_value"), "bytes %u", gb);
  SHOW("cuModuleGetGlobal(nope)", p_cuModuleGetGlobal(&g1, &gb, mod, "nope"), "");
  CUdeviceptr g2 = 0; size_t gb2 = 0;
  SHOW("cuModuleGetGlobal_v2(g_value)", p_cuModuleGetGlobal_v2(&g2, &gb2, mod, "g_value"), "ptr 0x%llx bytes %zu",
       (unsigned long long)g2, gb2);
  SHOW("cuMemFree_v2", p_cuMemFree_v2(d2), "");
}

// ---- batch copies and batch hints
static void group_batch(void) {
  P(cuMemAlloc_v2); P(cuMemAllocManaged); P(cuMemcpyBatchAsync); P(cuMemcpyBatchAsync_ptsz); P(cuMemcpyBatchAsync_v2);
  P(cuMemcpyBatchAsync_v2_ptsz); P(cuMemcpy3DBatchAsync); P(cuMemcpy3DBatchAsync_ptsz); P(cuMemcpy3DBatchAsync_v2);
  P(cuMemcpy3DBatchAsync_v2_ptsz); P(cuMemPrefetchBatchAsync); P(cuMemPrefetchBatchAsync_ptsz); P(cuMemDiscardBatchAsync);
  P(cuMemDiscardBatchAsync_ptsz); P(cuMemDiscardAndPrefetchBatchAsync); P(cuMemDiscardAndPrefetchBatchAsync_ptsz);
  P(cuStreamSynchronize); P(cuMemcpyDtoH_v2); P(cuMemcpyHtoD_v2); P(cuArrayCreate_v2); P(cuMemAllocHost_v2);

  CUdeviceptr a = 0, b = 0, m = 0;
  p_cuMemAlloc_v2(&a, 256);
  p_cuMemAlloc_v2(&b, 256);
  p_cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL);
  unsigned char host[256], back[256];
  for (int i = 0; i < 256; ++i) host[i] = (unsigned char)(i * 3);
  p_cuMemcpyHtoD_v2(a, host, 256);
  CUdeviceptr dsts[2] = {b, b + 128}, srcs[2] = {a, a + 128};
  size_t sizes[2] = {128, 128};
  CUmemcpyAttributes at;
  memset(&at, 0, sizeof at);
  at.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t idx = 0, fail = 12345;
  SHOW("cuMemcpyBatchAsync_v2(D2D x2, stream)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, &idx, 1, stream), "");
  p_cuStreamSynchronize(stream);
  memset(back, 0, sizeof back);
  p_cuMemcpyDtoH_v2(back, b, 256);
  printf("  b[255] %d (want %d)\n", back[255], (unsigned char)(255 * 3));
  SHOW("cuMemcpyBatchAsync_v2(legacy stream 0)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, &idx, 1, NULL), "");
  SHOW("cuMemcpyBatchAsync_v2(CU_STREAM_PER_THREAD)",
       p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, &idx, 1, CU_STREAM_PER_THREAD), "");
  SHOW("cuMemcpyBatchAsync_v2_ptsz(stream 0)", p_cuMemcpyBatchAsync_v2_ptsz(dsts, srcs, sizes, 2, &at, &idx, 1, NULL), "");
  SHOW("cuMemcpyBatchAsync(v1 failIdx, stream)", p_cuMemcpyBatchAsync(dsts, srcs, sizes, 2, &at, &idx, 1, &fail, stream),
       "failIdx %zu", fail);
  fail = 12345;
  SHOW("cuMemcpyBatchAsync_ptsz(v1, stream 0)", p_cuMemcpyBatchAsync_ptsz(dsts, srcs, sizes, 2, &at, &idx, 1, &fail, NULL),
       "failIdx %zu", fail);
  fail = 12345;
  SHOW("cuMemcpyBatchAsync(v1, NULL failIdx)", p_cuMemcpyBatchAsync(dsts, srcs, sizes, 2, &at, &idx, 1, NULL, stream), "");
  SHOW("cuMemcpyBatchAsync_v2(count 0)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 0, &at, &idx, 1, stream), "");
  SHOW("cuMemcpyBatchAsync_v2(numAttrs 0)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, &idx, 0, stream), "");
  CUmemcpyAttributes bad = at;
  bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
  fail = 12345;
  SHOW("cuMemcpyBatchAsync(v1, srcAccessOrder INVALID)",
       p_cuMemcpyBatchAsync(dsts, srcs, sizes, 2, &bad, &idx, 1, &fail, stream), "failIdx %zu", fail);
  bad = at;
  bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
  SHOW("cuMemcpyBatchAsync_v2(DURING_API_CALL)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &bad, &idx, 1, stream), "");
  bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
  SHOW("cuMemcpyBatchAsync_v2(ANY)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &bad, &idx, 1, stream), "");
  bad = at;
  bad.flags = CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE;
  SHOW("cuMemcpyBatchAsync_v2(flag PREFER_OVERLAP)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &bad, &idx, 1, stream), "");
  bad.flags = 0x100;
  SHOW("cuMemcpyBatchAsync_v2(flag 0x100)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &bad, &idx, 1, stream), "");
  size_t idx2[2] = {1, 0};
  SHOW("cuMemcpyBatchAsync_v2(attrsIdxs[0] 1)", p_cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, &idx2[0], 1, stream), "");
  // Host (pageable) and managed operands.
  CUdeviceptr hd[1] = {(CUdeviceptr)(size_t)back}, hs[1] = {a};
  size_t hsz[1] = {256};
  memset(back, 0, sizeof back);
  SHOW("cuMemcpyBatchAsync_v2(D2H pageable)", p_cuMemcpyBatchAsync_v2(hd, hs, hsz, 1, &at, &idx, 1, stream), "");
  p_cuStreamSynchronize(stream);
  printf("  back[255] %d\n", back[255]);
  CUdeviceptr md[1] = {m}, ms[1] = {a};
  SHOW("cuMemcpyBatchAsync_v2(D2managed)", p_cuMemcpyBatchAsync_v2(md, ms, hsz, 1, &at, &idx, 1, stream), "");

  // 3D batches.
  CUDA_MEMCPY3D_BATCH_OP op;
  memset(&op, 0, sizeof op);
  op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  op.src.op.ptr.ptr = a; op.src.op.ptr.rowLength = 0; op.src.op.ptr.layerHeight = 0;
  op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  op.dst.op.ptr.ptr = b;
  op.extent.width = 64; op.extent.height = 2; op.extent.depth = 2;
  op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  SHOW("cuMemcpy3DBatchAsync_v2(ptr to ptr 64x2x2)", p_cuMemcpy3DBatchAsync_v2(1, &op, 0, stream), "");
  SHOW("cuMemcpy3DBatchAsync_v2(stream 0)", p_cuMemcpy3DBatchAsync_v2(1, &op, 0, NULL), "");
  SHOW("cuMemcpy3DBatchAsync_v2_ptsz(stream 0)", p_cuMemcpy3DBatchAsync_v2_ptsz(1, &op, 0, NULL), "");
  fail = 12345;
  SHOW("cuMemcpy3DBatchAsync(v1 failIdx)", p_cuMemcpy3DBatchAsync(1, &op, &fail, 0, stream), "failIdx %zu", fail);
  fail = 12345;
  SHOW("cuMemcpy3DBatchAsync_ptsz(v1, stream 0)", p_cuMemcpy3DBatchAsync_ptsz(1, &op, &fail, 0, NULL), "failIdx %zu", fail);
  SHOW("cuMemcpy3DBatchAsync_v2(flags 1)", p_cuMemcpy3DBatchAsync_v2(1, &op, 1, stream), "");
  SHOW("cuMemcpy3DBatchAsync_v2(0 ops)", p_cuMemcpy3DBatchAsync_v2(0, &op, 0, stream), "");
  CUDA_MEMCPY3D_BATCH_OP o2 = op;
  o2.extent.depth = 0;
  SHOW("cuMemcpy3DBatchAsync_v2(depth 0)", p_cuMemcpy3DBatchAsync_v2(1, &o2, 0, stream), "");
  o2 = op;
  o2.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
  fail = 12345;
  SHOW("cuMemcpy3DBatchAsync(v1, order INVALID)", p_cuMemcpy3DBatchAsync(1, &o2, &fail, 0, stream), "failIdx %zu", fail);
  CUarray arr = NULL;
  CUDA_ARRAY_DESCRIPTOR ad = {16, 4, CU_AD_FORMAT_UNSIGNED_INT8, 4};
  p_cuArrayCreate_v2(&arr, &ad);
  o2 = op;
  o2.dst.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
  memset(&o2.dst.op, 0, sizeof o2.dst.op);
  o2.dst.op.array.array = arr;
  o2.extent.width = 16; o2.extent.height = 4; o2.extent.depth = 1;
  SHOW("cuMemcpy3DBatchAsync_v2(ptr to array 16x4x1 elements)", p_cuMemcpy3DBatchAsync_v2(1, &o2, 0, stream), "");
  p_cuStreamSynchronize(stream);

  // Batch hints on managed memory.
  CUdeviceptr ptrs[1] = {m};
  size_t msz[1] = {4096};
  CUmemLocation loc;
  loc.type = CU_MEM_LOCATION_TYPE_DEVICE; loc.id = 0;
  CUmemLocation hloc;
  hloc.type = CU_MEM_LOCATION_TYPE_HOST; hloc.id = 0;
  size_t li = 0;
  SHOW("cuMemPrefetchBatchAsync(managed, device)", p_cuMemPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 0, stream), "");
  SHOW("cuMemPrefetchBatchAsync(managed, host)", p_cuMemPrefetchBatchAsync(ptrs, msz, 1, &hloc, &li, 1, 0, stream), "");
  SHOW("cuMemPrefetchBatchAsync_ptsz(stream 0)", p_cuMemPrefetchBatchAsync_ptsz(ptrs, msz, 1, &loc, &li, 1, 0, NULL), "");
  SHOW("cuMemPrefetchBatchAsync(stream 0)", p_cuMemPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 0, NULL), "");
  SHOW("cuMemPrefetchBatchAsync(flags 1)", p_cuMemPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 1, stream), "");
  SHOW("cuMemPrefetchBatchAsync(count 0)", p_cuMemPrefetchBatchAsync(ptrs, msz, 0, &loc, &li, 1, 0, stream), "");
  CUdeviceptr dev_ptrs[1] = {a};
  size_t dsz[1] = {256};
  SHOW("cuMemPrefetchBatchAsync(cuMemAlloc memory)", p_cuMemPrefetchBatchAsync(dev_ptrs, dsz, 1, &loc, &li, 1, 0, stream), "");
  unsigned* mh = (unsigned*)(size_t)m;
  p_cuStreamSynchronize(stream);
  mh[0] = 0x12345678u;
  SHOW("cuMemDiscardBatchAsync(managed)", p_cuMemDiscardBatchAsync(ptrs, msz, 1, 0, stream), "");
  p_cuStreamSynchronize(stream);
  printf("  managed[0] after discard 0x%x\n", mh[0]);
  SHOW("cuMemDiscardBatchAsync_ptsz(stream 0)", p_cuMemDiscardBatchAsync_ptsz(ptrs, msz, 1, 0, NULL), "");
  SHOW("cuMemDiscardBatchAsync(flags 1)", p_cuMemDiscardBatchAsync(ptrs, msz, 1, 1, stream), "");
  SHOW("cuMemDiscardBatchAsync(cuMemAlloc memory)", p_cuMemDiscardBatchAsync(dev_ptrs, dsz, 1, 0, stream), "");
  size_t odd[1] = {100};
  SHOW("cuMemDiscardBatchAsync(size 100)", p_cuMemDiscardBatchAsync(ptrs, odd, 1, 0, stream), "");
  SHOW("cuMemDiscardAndPrefetchBatchAsync(managed, device)",
       p_cuMemDiscardAndPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 0, stream), "");
  SHOW("cuMemDiscardAndPrefetchBatchAsync_ptsz(stream 0)",
       p_cuMemDiscardAndPrefetchBatchAsync_ptsz(ptrs, msz, 1, &hloc, &li, 1, 0, NULL), "");
  SHOW("cuMemDiscardAndPrefetchBatchAsync(cuMemAlloc memory)",
       p_cuMemDiscardAndPrefetchBatchAsync(dev_ptrs, dsz, 1, &loc, &li, 1, 0, stream), "");
  size_t big[1] = {1 << 20};
  fail = 12345;
  SHOW("cuMemcpyBatchAsync(v1, size past allocation)", p_cuMemcpyBatchAsync(dsts, srcs, big, 1, &at, &idx, 1, &fail, stream),
       "failIdx %zu", fail);
  SHOW("sync", p_cuStreamSynchronize(stream), "");
}

// ---- stream memory operations: the pre-11.7 names, the _v2 and _ptsz ones
static void group_memop(void) {
  P(cuMemAlloc_v2); P(cuMemcpyDtoH_v2); P(cuMemsetD32_v2); P(cuStreamSynchronize); P(cuStreamWriteValue32);
  P(cuStreamWriteValue64); P(cuStreamWaitValue32); P(cuStreamWaitValue64); P(cuStreamBatchMemOp);
  P(cuStreamWriteValue32_ptsz); P(cuStreamWriteValue64_ptsz); P(cuStreamWaitValue32_ptsz); P(cuStreamWaitValue64_ptsz);
  P(cuStreamBatchMemOp_ptsz); P(cuStreamWriteValue32_v2); P(cuStreamWaitValue32_v2); P(cuStreamBatchMemOp_v2);
  P(cuGraphCreate); P(cuGraphAddBatchMemOpNode); P(cuGraphBatchMemOpNodeGetParams); P(cuGraphBatchMemOpNodeSetParams);
  P(cuGraphInstantiateWithFlags); P(cuGraphExecBatchMemOpNodeSetParams); P(cuGraphLaunch); P(cuCtxGetCurrent);
  attr(92, "attr CAN_USE_STREAM_MEM_OPS_V1(92)");
  attr(93, "attr CAN_USE_64_BIT_STREAM_MEM_OPS_V1(93)");
  attr(94, "attr CAN_USE_STREAM_WAIT_VALUE_NOR_V1(94)");
  attr(98, "attr CAN_FLUSH_REMOTE_WRITES(98)");
  attr(122, "attr CAN_USE_64_BIT_STREAM_MEM_OPS(122)");
  attr(123, "attr CAN_USE_STREAM_WAIT_VALUE_NOR(123)");
  CUdeviceptr d = 0;
  p_cuMemAlloc_v2(&d, 64);
  p_cuMemsetD32_v2(d, 0, 16);
  unsigned long long out[8];
  SHOW("cuStreamWriteValue32(v1, 5)", p_cuStreamWriteValue32(stream, d, 5, 0), "");
  SHOW("cuStreamWriteValue32(v1, NO_MEMORY_BARRIER)", p_cuStreamWriteValue32(stream, d + 4, 6, 1), "");
  SHOW("cuStreamWriteValue32(v1, flags 2)", p_cuStreamWriteValue32(stream, d + 4, 6, 2), "");
  SHOW("cuStreamWriteValue64(v1)", p_cuStreamWriteValue64(stream, d + 8, 0x100000007ull, 0), "");
  SHOW("cuStreamWriteValue32_ptsz(stream 0)", p_cuStreamWriteValue32_ptsz(NULL, d + 16, 8, 0), "");
  SHOW("cuStreamWriteValue64_ptsz(stream 0)", p_cuStreamWriteValue64_ptsz(NULL, d + 24, 9, 0), "");
  SHOW("cuStreamWaitValue32(v1, GEQ 5)", p_cuStreamWaitValue32(stream, d, 5, CU_STREAM_WAIT_VALUE_GEQ), "");
  SHOW("cuStreamWaitValue32(v1, EQ 5)", p_cuStreamWaitValue32(stream, d, 5, CU_STREAM_WAIT_VALUE_EQ), "");
  SHOW("cuStreamWaitValue32(v1, AND 1)", p_cuStreamWaitValue32(stream, d, 1, CU_STREAM_WAIT_VALUE_AND), "");
  SHOW("cuStreamWaitValue32(v1, NOR 0)", p_cuStreamWaitValue32(stream, d, 0, CU_STREAM_WAIT_VALUE_NOR), "");
  SHOW("cuStreamWaitValue32(v1, GEQ|FLUSH)", p_cuStreamWaitValue32(stream, d, 5, CU_STREAM_WAIT_VALUE_GEQ | CU_STREAM_WAIT_VALUE_FLUSH), "");
  SHOW("cuStreamWaitValue32(v1, flags 4)", p_cuStreamWaitValue32(stream, d, 5, 4), "");
  SHOW("cuStreamWaitValue32_v2(GEQ|FLUSH)", p_cuStreamWaitValue32_v2(stream, d, 5, CU_STREAM_WAIT_VALUE_GEQ | CU_STREAM_WAIT_VALUE_FLUSH), "");
  SHOW("cuStreamWaitValue64(v1, GEQ)", p_cuStreamWaitValue64(stream, d + 8, 0x100000007ull, 0), "");
  SHOW("cuStreamWaitValue32_ptsz(stream 0)", p_cuStreamWaitValue32_ptsz(NULL, d, 5, 0), "");
  SHOW("cuStreamWaitValue64_ptsz(stream 0)", p_cuStreamWaitValue64_ptsz(NULL, d + 8, 7, 0), "");
  SHOW("cuStreamWriteValue32(v1, unaligned)", p_cuStreamWriteValue32(stream, d + 2, 1, 0), "");
  SHOW("cuStreamWriteValue32(v1, addr 0)", p_cuStreamWriteValue32(stream, 0, 1, 0), "");
  CUstreamBatchMemOpParams ops[3];
  memset(ops, 0, sizeof ops);
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = d + 32; ops[0].writeValue.value = 11;
  ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  ops[1].waitValue.address = d + 32; ops[1].waitValue.value = 11; ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  ops[2].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
  ops[2].writeValue.address = d + 40; ops[2].writeValue.value64 = 12;
  SHOW("cuStreamBatchMemOp(v1, 3 ops)", p_cuStreamBatchMemOp(stream, 3, ops, 0), "");
  SHOW("cuStreamBatchMemOp(v1, flags 1)", p_cuStreamBatchMemOp(stream, 3, ops, 1), "");
  SHOW("cuStreamBatchMemOp(v1, 0 ops)", p_cuStreamBatchMemOp(stream, 0, ops, 0), "");
  SHOW("cuStreamBatchMemOp_ptsz(stream 0)", p_cuStreamBatchMemOp_ptsz(NULL, 3, ops, 0), "");
  CUstreamBatchMemOpParams fl;
  memset(&fl, 0, sizeof fl);
  fl.flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
  SHOW("cuStreamBatchMemOp(v1, FLUSH_REMOTE_WRITES)", p_cuStreamBatchMemOp(stream, 1, &fl, 0), "");
  fl.memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  fl.memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
  SHOW("cuStreamBatchMemOp(v1, BARRIER)", p_cuStreamBatchMemOp(stream, 1, &fl, 0), "");
  SHOW("cuStreamBatchMemOp_v2(BARRIER)", p_cuStreamBatchMemOp_v2(stream, 1, &fl, 0), "");
  SHOW("sync", p_cuStreamSynchronize(stream), "");
  memset(out, 0, sizeof out);
  p_cuMemcpyDtoH_v2(out, d, 64);
  unsigned* u = (unsigned*)out;
  printf("  words: %u %u 0x%llx %u %llu %u %llu\n", u[0], u[1], out[1], u[4], out[3], u[8], out[5]);
  // Batch memop graph nodes.
  CUgraph g = NULL;
  p_cuGraphCreate(&g, 0);
  CUcontext cur = NULL;
  p_cuCtxGetCurrent(&cur);
  CUDA_BATCH_MEM_OP_NODE_PARAMS np;
  memset(&np, 0, sizeof np);
  np.ctx = cur; np.count = 1; np.paramArray = ops; np.flags = 0;
  CUgraphNode node = NULL;
  SHOW("cuGraphAddBatchMemOpNode(write 32)", p_cuGraphAddBatchMemOpNode(&node, g, NULL, 0, &np), "");
  CUDA_BATCH_MEM_OP_NODE_PARAMS gp;
  memset(&gp, 0, sizeof gp);
  SHOW("cuGraphBatchMemOpNodeGetParams", p_cuGraphBatchMemOpNodeGetParams(node, &gp), "count %u flags %u ctx %s array %s op %d",
       gp.count, gp.flags, gp.ctx == cur ? "same" : "other", gp.paramArray == ops ? "same" : "copy",
       gp.paramArray ? (int)gp.paramArray[0].operation : -1);
  ops[0].writeValue.value = 21;
  SHOW("cuGraphBatchMemOpNodeSetParams", p_cuGraphBatchMemOpNodeSetParams(node, &np), "");
  CUgraphExec ex = NULL;
  SHOW("cuGraphInstantiateWithFlags", p_cuGraphInstantiateWithFlags(&ex, g, 0), "");
  ops[0].writeValue.value = 22;
  SHOW("cuGraphExecBatchMemOpNodeSetParams", p_cuGraphExecBatchMemOpNodeSetParams(ex, node, &np), "");
  SHOW("cuGraphLaunch", p_cuGraphLaunch(ex, stream), "");
  p_cuStreamSynchronize(stream);
  p_cuMemcpyDtoH_v2(out, d, 64);
  printf("  word 8 after graph %u\n", u[8]);
  np.count = 0;
  SHOW("cuGraphAddBatchMemOpNode(count 0)", p_cuGraphAddBatchMemOpNode(&node, g, NULL, 0, &np), "");
}

static void cb(CUasyncNotificationInfo* info, void* user, CUasyncCallbackHandle h) { (void)info; (void)user; (void)h; }

// ---- pointer attributes, libraries, profiler, tensor maps, decompression, deprecated context calls
static void group_misc(void) {
  P(cuMemAlloc_v2); P(cuMemAllocHost_v2); P(cuPointerSetAttribute); P(cuPointerGetAttribute); P(cuLibraryLoadData);
  P(cuLibraryGetManaged); P(cuLibraryGetUnifiedFunction); P(cuLibraryGetGlobal); P(cuProfilerInitialize);
  P(cuTensorMapEncodeIm2colWide); P(cuTensorMapEncodeIm2col); P(cuMemBatchDecompressAsync); P(cuMemBatchDecompressAsync_ptsz);
  P(cuCtxAttach); P(cuCtxDetach); P(cuCtxGetExecAffinity); P(cuCtxGetSharedMemConfig); P(cuCtxSetSharedMemConfig);
  P(cuDeviceGetExecAffinitySupport); P(cuDeviceGetHostAtomicCapabilities); P(cuDeviceGetLuid);
  P(cuDeviceGetP2PAtomicCapabilities); P(cuDeviceRegisterAsyncNotification); P(cuDeviceUnregisterAsyncNotification);
  P(cuFlushGPUDirectRDMAWrites); P(cuFuncSetSharedMemConfig); P(cuModuleLoadData); P(cuModuleGetFunction);
  P(cuLaunchCooperativeKernelMultiDevice); P(cuCtxGetCurrent); P(cuStreamSynchronize);
  attr(136, "attr MEM_DECOMPRESS_ALGORITHM_MASK(136)");
  attr(137, "attr MEM_DECOMPRESS_MAXIMUM_LENGTH(137)");
  attr(84, "attr COOPERATIVE_MULTI_DEVICE_LAUNCH(84)");
  attr(117, "attr GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS(117)");
  attr(86, "attr HOST_NATIVE_ATOMIC_SUPPORTED(86)");
  CUdeviceptr d = 0;
  p_cuMemAlloc_v2(&d, 256);
  unsigned one = 1, got = 7;
  SHOW("cuPointerGetAttribute(SYNC_MEMOPS before)", p_cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), "value %u", got);
  SHOW("cuPointerSetAttribute(SYNC_MEMOPS 1)", p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), "");
  got = 7;
  SHOW("cuPointerGetAttribute(SYNC_MEMOPS after)", p_cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), "value %u", got);
  got = 7;
  SHOW("cuPointerGetAttribute(SYNC_MEMOPS, interior +16)", p_cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 16), "value %u", got);
  unsigned zero = 0;
  SHOW("cuPointerSetAttribute(SYNC_MEMOPS 0)", p_cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), "");
  got = 7;
  SHOW("cuPointerGetAttribute(SYNC_MEMOPS after 0)", p_cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), "value %u", got);
  unsigned two = 2;
  SHOW("cuPointerSetAttribute(SYNC_MEMOPS 2)", p_cuPointerSetAttribute(&two, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), "");
  got = 7;
  p_cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d);
  printf("  read back %u\n", got);
  SHOW("cuPointerSetAttribute(SYNC_MEMOPS, interior +16)", p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 16), "");
  SHOW("cuPointerSetAttribute(CONTEXT)", p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_CONTEXT, d), "");
  SHOW("cuPointerSetAttribute(BUFFER_ID)", p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_BUFFER_ID, d), "");
  SHOW("cuPointerSetAttribute(value NULL)", p_cuPointerSetAttribute(NULL, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), "");
  SHOW("cuPointerSetAttribute(ptr 0)", p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, 0), "");
  int stackv = 0;
  SHOW("cuPointerSetAttribute(pageable host)", p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)(size_t)&stackv), "");
  void* ph = NULL;
  p_cuMemAllocHost_v2(&ph, 4096);
  SHOW("cuPointerSetAttribute(pinned host)", p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)(size_t)ph), "");

  CUlibrary lib_ = NULL;
  SHOW("cuLibraryLoadData(ptx)", p_cuLibraryLoadData(&lib_, kPtx, NULL, NULL, 0, NULL, NULL, 0), "");
  CUdeviceptr mp = 0; size_t mb = 0;
  SHOW("cuLibraryGetManaged(m_value)", p_cuLibraryGetManaged(&mp, &mb, lib_, "m_value"), "ptr %s bytes %zu value %u",
       mp ? "non-null" : "null", mb, mp ? *(unsigned*)(size_t)mp : 0u);
  SHOW("cuLibraryGetManaged(g_value, not managed)", p_cuLibraryGetManaged(&mp, &mb, lib_, "g_value"), "");
  SHOW("cuLibraryGetManaged(nope)", p_cuLibraryGetManaged(&mp, &mb, lib_, "nope"), "");
  mb = 0;
  SHOW("cuLibraryGetManaged(NULL dptr)", p_cuLibraryGetManaged(NULL, &mb, lib_, "m_value"), "bytes %zu", mb);
  CUdeviceptr gp = 0; size_t gb = 0;
  SHOW("cuLibraryGetGlobal(m_value)", p_cuLibraryGetGlobal(&gp, &gb, lib_, "m_value"), "same as managed %d bytes %zu", gp == mp, gb);
  void* fp = (void*)1;
  SHOW("cuLibraryGetUnifiedFunction(k)", p_cuLibraryGetUnifiedFunction(&fp, lib_, "k"), "fptr %p", fp);
  fp = (void*)1;
  SHOW("cuLibraryGetUnifiedFunction(nope)", p_cuLibraryGetUnifiedFunction(&fp, lib_, "nope"), "fptr %p", fp);
  SHOW("cuLibraryGetUnifiedFunction(NULL fptr)", p_cuLibraryGetUnifiedFunction(NULL, lib_, "k"), "");

  SHOW("cuProfilerInitialize(NULL,NULL,KEY_VALUE)", p_cuProfilerInitialize(NULL, NULL, CU_OUT_KEY_VALUE_PAIR), "");
  SHOW("cuProfilerInitialize(cfg,out,CSV)", p_cuProfilerInitialize("/tmp/ws_prof.cfg", "/tmp/ws_prof.out", CU_OUT_CSV), "");

  // Tensor maps: im2col-wide on a 4D fp16 NHWC tensor.
  CUtensorMap tm;
  cuuint64_t dims[4] = {64, 16, 16, 1};          // C W H N
  cuuint64_t strides[3] = {128, 128 * 16, 128 * 256};  // bytes
  cuuint32_t es[4] = {1, 1, 1, 1};
  CUdeviceptr big = 0;
  p_cuMemAlloc_v2(&big, 1 << 20);
  memset(&tm, 0, sizeof tm);
  SHOW("cuTensorMapEncodeIm2colWide(fp16 4D, W, 128B swizzle)",
       p_cuTensorMapEncodeIm2colWide(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, (void*)(size_t)big, dims, strides, 0, 0, 64, 16, es,
                                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W,
                                     CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
       "");
  SHOW("cuTensorMapEncodeIm2colWide(W128, 64B swizzle)",
       p_cuTensorMapEncodeIm2colWide(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, (void*)(size_t)big, dims, strides, 0, 0, 32, 16, es,
                                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128,
                                     CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
       "");
  SHOW("cuTensorMapEncodeIm2colWide(NULL map)",
       p_cuTensorMapEncodeIm2colWide(NULL, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, (void*)(size_t)big, dims, strides, 0, 0, 64, 16, es,
                                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W,
                                     CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
       "");
  int lower[2] = {0, 0}, upper[2] = {0, 0};
  SHOW("cuTensorMapEncodeIm2col(fp16 4D) for comparison",
       p_cuTensorMapEncodeIm2col(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, (void*)(size_t)big, dims, strides, lower, upper, 64, 16, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
       "");

  // Decompression.
  CUmemDecompressParams dp;
  memset(&dp, 0, sizeof dp);
  CUdeviceptr act = 0;
  p_cuMemAlloc_v2(&act, 64);
  dp.srcNumBytes = 64; dp.dstNumBytes = 64; dp.dstActBytes = (cuuint32_t*)(size_t)act;
  dp.src = (void*)(size_t)big; dp.dst = (void*)(size_t)(big + 4096); dp.algo = CU_MEM_DECOMPRESS_ALGORITHM_DEFLATE;
  size_t ei = 12345;
  SHOW("cuMemBatchDecompressAsync(1 deflate, cuMemAlloc memory)", p_cuMemBatchDecompressAsync(&dp, 1, 0, &ei, stream), "errorIndex %zu", ei);
  ei = 12345;
  SHOW("cuMemBatchDecompressAsync(count 0)", p_cuMemBatchDecompressAsync(&dp, 0, 0, &ei, stream), "errorIndex %zu", ei);
  ei = 12345;
  SHOW("cuMemBatchDecompressAsync_ptsz(stream 0)", p_cuMemBatchDecompressAsync_ptsz(&dp, 1, 0, &ei, NULL), "errorIndex %zu", ei);
  ei = 12345;
  SHOW("cuMemBatchDecompressAsync(NULL params)", p_cuMemBatchDecompressAsync(NULL, 1, 0, &ei, stream), "errorIndex %zu", ei);

  // Deprecated and miscellaneous context and device calls.
  CUcontext c = NULL, cur = NULL;
  p_cuCtxGetCurrent(&cur);
  SHOW("cuCtxAttach(flags 0)", p_cuCtxAttach(&c, 0), "same as current %d", c == cur);
  SHOW("cuCtxAttach(flags 1)", p_cuCtxAttach(&c, 1), "");
  SHOW("cuCtxDetach(current)", p_cuCtxDetach(cur), "");
  CUexecAffinityParam ea;
  memset(&ea, 0, sizeof ea);
  SHOW("cuCtxGetExecAffinity(SM_COUNT)", p_cuCtxGetExecAffinity(&ea, CU_EXEC_AFFINITY_TYPE_SM_COUNT), "type %d smCount %u",
       (int)ea.type, ea.param.smCount.val);
  SHOW("cuCtxGetExecAffinity(type 1)", p_cuCtxGetExecAffinity(&ea, (CUexecAffinityType)1), "");
  int sup = -1;
  SHOW("cuDeviceGetExecAffinitySupport(SM_COUNT)", p_cuDeviceGetExecAffinitySupport(&sup, CU_EXEC_AFFINITY_TYPE_SM_COUNT, dev), "value %d", sup);
  CUsharedconfig sc = (CUsharedconfig)7;
  SHOW("cuCtxGetSharedMemConfig", p_cuCtxGetSharedMemConfig(&sc), "config %d", (int)sc);
  SHOW("cuCtxSetSharedMemConfig(EIGHT_BYTE)", p_cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE), "");
  sc = (CUsharedconfig)7;
  p_cuCtxGetSharedMemConfig(&sc);
  printf("  config after set %d\n", (int)sc);
  SHOW("cuCtxSetSharedMemConfig(7)", p_cuCtxSetSharedMemConfig((CUsharedconfig)7), "");
  CUmodule mod = NULL;
  CUfunction fn = NULL;
  p_cuModuleLoadData(&mod, kPtx);
  p_cuModuleGetFunction(&fn, mod, "k");
  SHOW("cuFuncSetSharedMemConfig(FOUR_BYTE)", p_cuFuncSetSharedMemConfig(fn, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE), "");
  SHOW("cuFuncSetSharedMemConfig(7)", p_cuFuncSetSharedMemConfig(fn, (CUsharedconfig)7), "");
  CUatomicOperation aops[13];
  unsigned caps[13];
  for (int i = 0; i < 13; ++i) { aops[i] = (CUatomicOperation)i; caps[i] = 0xffffffffu; }
  SHOW("cuDeviceGetHostAtomicCapabilities(13 ops)", p_cuDeviceGetHostAtomicCapabilities(caps, aops, 13, dev),
       "caps %x %x %x %x %x %x %x %x %x %x %x %x %x", caps[0], caps[1], caps[2], caps[3], caps[4], caps[5], caps[6], caps[7],
       caps[8], caps[9], caps[10], caps[11], caps[12]);
  for (int i = 0; i < 13; ++i) caps[i] = 0xffffffffu;
  SHOW("cuDeviceGetP2PAtomicCapabilities(0,0)", p_cuDeviceGetP2PAtomicCapabilities(caps, aops, 13, dev, dev),
       "caps %x %x %x %x %x %x %x %x %x %x %x %x %x", caps[0], caps[1], caps[2], caps[3], caps[4], caps[5], caps[6], caps[7],
       caps[8], caps[9], caps[10], caps[11], caps[12]);
  char luid[8] = {0};
  unsigned mask = 77;
  SHOW("cuDeviceGetLuid", p_cuDeviceGetLuid(luid, &mask, dev), "mask %u", mask);
  CUasyncCallbackHandle ah = NULL;
  SHOW("cuDeviceRegisterAsyncNotification", p_cuDeviceRegisterAsyncNotification(dev, cb, NULL, &ah), "handle %s", ah ? "non-null" : "null");
  SHOW("cuDeviceUnregisterAsyncNotification", p_cuDeviceUnregisterAsyncNotification(dev, ah), "");
  SHOW("cuFlushGPUDirectRDMAWrites(CTX, OWNER)",
       p_cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX, CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER), "");
  SHOW("cuFlushGPUDirectRDMAWrites(CTX, ALL_DEVICES)",
       p_cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX, CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES), "");
  CUDA_LAUNCH_PARAMS lp;
  memset(&lp, 0, sizeof lp);
  void* args[1] = {&d};
  lp.function = fn; lp.gridDimX = lp.gridDimY = lp.gridDimZ = 1; lp.blockDimX = 32; lp.blockDimY = lp.blockDimZ = 1;
  lp.hStream = stream; lp.kernelParams = args;
  SHOW("cuLaunchCooperativeKernelMultiDevice(1 device)", p_cuLaunchCooperativeKernelMultiDevice(&lp, 1, 0), "");
  SHOW("sync", p_cuStreamSynchronize(stream), "");
}

// ---- sparse and deferred-mapping arrays, plane arrays, array mapping
static void group_sparse(void) {
  P(cuArray3DCreate_v2); P(cuMipmappedArrayCreate); P(cuArrayGetMemoryRequirements); P(cuMipmappedArrayGetMemoryRequirements);
  P(cuArrayGetSparseProperties); P(cuMipmappedArrayGetSparseProperties); P(cuArrayGetPlane); P(cuMemMapArrayAsync);
  P(cuMemMapArrayAsync_ptsz); P(cuMemCreate); P(cuMemGetAllocationGranularity); P(cuStreamSynchronize);
  attr(112, "attr SPARSE_CUDA_ARRAY_SUPPORTED(112)");
  attr(121, "attr DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED(121)");
  CUDA_ARRAY3D_DESCRIPTOR d3;
  memset(&d3, 0, sizeof d3);
  d3.Width = 1024; d3.Height = 1024; d3.Depth = 0; d3.Format = CU_AD_FORMAT_FLOAT; d3.NumChannels = 1;
  CUarray plain = NULL, sparse = NULL, deferred = NULL;
  SHOW("cuArray3DCreate(plain 1024x1024 f32)", p_cuArray3DCreate_v2(&plain, &d3), "");
  d3.Flags = CUDA_ARRAY3D_SPARSE;
  SHOW("cuArray3DCreate(SPARSE)", p_cuArray3DCreate_v2(&sparse, &d3), "");
  d3.Flags = CUDA_ARRAY3D_DEFERRED_MAPPING;
  SHOW("cuArray3DCreate(DEFERRED_MAPPING)", p_cuArray3DCreate_v2(&deferred, &d3), "");
  CUDA_ARRAY_MEMORY_REQUIREMENTS mr;
  CUDA_ARRAY_SPARSE_PROPERTIES sp;
  memset(&mr, 0xff, sizeof mr);
  SHOW("cuArrayGetMemoryRequirements(plain)", p_cuArrayGetMemoryRequirements(&mr, plain, dev), "size %zu align %zu", mr.size, mr.alignment);
  memset(&mr, 0xff, sizeof mr);
  SHOW("cuArrayGetMemoryRequirements(sparse)", p_cuArrayGetMemoryRequirements(&mr, sparse, dev), "size %zu align %zu", mr.size, mr.alignment);
  memset(&mr, 0xff, sizeof mr);
  SHOW("cuArrayGetMemoryRequirements(deferred)", p_cuArrayGetMemoryRequirements(&mr, deferred, dev), "size %zu align %zu", mr.size, mr.alignment);
  memset(&sp, 0xff, sizeof sp);
  SHOW("cuArrayGetSparseProperties(plain)", p_cuArrayGetSparseProperties(&sp, plain), "");
  memset(&sp, 0xff, sizeof sp);
  SHOW("cuArrayGetSparseProperties(sparse)", p_cuArrayGetSparseProperties(&sp, sparse),
       "tile %u x %u x %u miptailFirstLevel %u miptailSize %llu flags %u", sp.tileExtent.width, sp.tileExtent.height,
       sp.tileExtent.depth, sp.miptailFirstLevel, sp.miptailSize, sp.flags);
  CUarray plane = NULL;
  SHOW("cuArrayGetPlane(plain, 0)", p_cuArrayGetPlane(&plane, plain, 0), "");
  CUDA_ARRAY3D_DESCRIPTOR nv;
  memset(&nv, 0, sizeof nv);
  nv.Width = 64; nv.Height = 64; nv.Format = CU_AD_FORMAT_NV12; nv.NumChannels = 3;
  CUarray nv12 = NULL;
  SHOW("cuArray3DCreate(NV12 64x64)", p_cuArray3DCreate_v2(&nv12, &nv), "");
  if (nv12) {
    SHOW("cuArrayGetPlane(NV12, 0)", p_cuArrayGetPlane(&plane, nv12, 0), "");
    SHOW("cuArrayGetPlane(NV12, 1)", p_cuArrayGetPlane(&plane, nv12, 1), "");
    SHOW("cuArrayGetPlane(NV12, 2)", p_cuArrayGetPlane(&plane, nv12, 2), "");
  }
  // Mipmapped arrays.
  CUmipmappedArray mm = NULL, mms = NULL, mmd = NULL;
  d3.Width = 256; d3.Height = 256; d3.Flags = 0;
  SHOW("cuMipmappedArrayCreate(plain 256x256, 4 levels)", p_cuMipmappedArrayCreate(&mm, &d3, 4), "");
  d3.Flags = CUDA_ARRAY3D_SPARSE;
  SHOW("cuMipmappedArrayCreate(SPARSE, 9 levels)", p_cuMipmappedArrayCreate(&mms, &d3, 9), "");
  d3.Flags = CUDA_ARRAY3D_DEFERRED_MAPPING;
  SHOW("cuMipmappedArrayCreate(DEFERRED, 4 levels)", p_cuMipmappedArrayCreate(&mmd, &d3, 4), "");
  memset(&mr, 0xff, sizeof mr);
  SHOW("cuMipmappedArrayGetMemoryRequirements(plain)", p_cuMipmappedArrayGetMemoryRequirements(&mr, mm, dev), "size %zu align %zu", mr.size, mr.alignment);
  memset(&mr, 0xff, sizeof mr);
  SHOW("cuMipmappedArrayGetMemoryRequirements(sparse)", p_cuMipmappedArrayGetMemoryRequirements(&mr, mms, dev), "size %zu align %zu", mr.size, mr.alignment);
  memset(&mr, 0xff, sizeof mr);
  SHOW("cuMipmappedArrayGetMemoryRequirements(deferred)", p_cuMipmappedArrayGetMemoryRequirements(&mr, mmd, dev), "size %zu align %zu", mr.size, mr.alignment);
  memset(&sp, 0xff, sizeof sp);
  SHOW("cuMipmappedArrayGetSparseProperties(plain)", p_cuMipmappedArrayGetSparseProperties(&sp, mm), "");
  memset(&sp, 0xff, sizeof sp);
  SHOW("cuMipmappedArrayGetSparseProperties(sparse)", p_cuMipmappedArrayGetSparseProperties(&sp, mms),
       "tile %u x %u x %u miptailFirstLevel %u miptailSize %llu flags %u", sp.tileExtent.width, sp.tileExtent.height,
       sp.tileExtent.depth, sp.miptailFirstLevel, sp.miptailSize, sp.flags);
  // Map one tile of the sparse array.
  CUmemAllocationProp prop;
  memset(&prop, 0, sizeof prop);
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.allocFlags.usage = CU_MEM_CREATE_USAGE_TILE_POOL;
  size_t gran = 0;
  SHOW("cuMemGetAllocationGranularity(TILE_POOL)", p_cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), "%zu", gran);
  CUmemGenericAllocationHandle hnd = 0;
  SHOW("cuMemCreate(TILE_POOL, 2 MiB)", p_cuMemCreate(&hnd, 2u << 20, &prop, 0), "");
  memset(&sp, 0, sizeof sp);
  p_cuArrayGetSparseProperties(&sp, sparse);
  CUarrayMapInfo mi;
  memset(&mi, 0, sizeof mi);
  mi.resourceType = CU_RESOURCE_TYPE_ARRAY;
  mi.resource.array = sparse;
  mi.subresourceType = CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_SPARSE_LEVEL;
  mi.subresource.sparseLevel.extentWidth = sp.tileExtent.width;
  mi.subresource.sparseLevel.extentHeight = sp.tileExtent.height;
  mi.subresource.sparseLevel.extentDepth = 1;
  mi.memOperationType = CU_MEM_OPERATION_TYPE_MAP;
  mi.memHandleType = CU_MEM_HANDLE_TYPE_GENERIC;
  mi.memHandle.memHandle = hnd;
  mi.offset = 0;
  mi.deviceBitMask = 1;
  SHOW("cuMemMapArrayAsync(map one tile)", p_cuMemMapArrayAsync(&mi, 1, stream), "");
  SHOW("sync", p_cuStreamSynchronize(stream), "");
  mi.memOperationType = CU_MEM_OPERATION_TYPE_UNMAP;
  mi.memHandle.memHandle = 0;
  SHOW("cuMemMapArrayAsync_ptsz(unmap, stream 0)", p_cuMemMapArrayAsync_ptsz(&mi, 1, NULL), "");
  mi.resource.array = plain;
  mi.memOperationType = CU_MEM_OPERATION_TYPE_MAP;
  mi.memHandle.memHandle = hnd;
  SHOW("cuMemMapArrayAsync(plain array)", p_cuMemMapArrayAsync(&mi, 1, stream), "");
  SHOW("cuMemMapArrayAsync(count 0)", p_cuMemMapArrayAsync(&mi, 0, stream), "");
  SHOW("sync", p_cuStreamSynchronize(stream), "");
}

int main(int argc, char** argv) {
  lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (lib == NULL) { printf("dlopen libcuda.so.1: %s\n", dlerror()); return 1; }
  P(cuInit); P(cuDeviceGet); P(cuCtxCreate_v4); P(cuStreamCreate); P(cuDriverGetVersion);
  int ver = 0;
  SHOW("cuInit", p_cuInit(0), "");
  p_cuDriverGetVersion(&ver);
  printf("driver version %d\n", ver);
  SHOW("cuDeviceGet", p_cuDeviceGet(&dev, 0), "");
  SHOW("cuCtxCreate", p_cuCtxCreate_v4(&ctx, NULL, 0, dev), "");
  SHOW("cuStreamCreate(non-blocking)", p_cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "");
  const char* g = argc > 1 ? argv[1] : "all";
  int all = strcmp(g, "all") == 0;
  if (all || strcmp(g, "v1") == 0) { printf("== v1\n"); group_v1(); }
  if (all || strcmp(g, "batch") == 0) { printf("== batch\n"); group_batch(); }
  if (all || strcmp(g, "memop") == 0) { printf("== memop\n"); group_memop(); }
  if (all || strcmp(g, "misc") == 0) { printf("== misc\n"); group_misc(); }
  if (all || strcmp(g, "sparse") == 0) { printf("== sparse\n"); group_sparse(); }
  return 0;
}
