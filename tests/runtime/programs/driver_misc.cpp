// The driver calls that were stubs until issue 29, in a program linked with -lcuda: the batch
// copies and hints, the v1 calls and the pre-11.7 stream memory operations (looked up with dlsym,
// as cuda.h maps their names to the _v2 calls), pointer attributes, libraries, the deprecated
// context calls, execution affinity, atomic capabilities, notifications, RDMA flushes, the
// multi-device cooperative launch, batch memory operation graph nodes, im2col-wide tensor maps and
// the sparse-array queries. Every expected CUresult and value
// is the H200's (tests/hw/data/h200/driver_stubs/driver_stubs.txt) or cuda.h's.
// Usage: driver_misc KERNELS.ptx
#define CUDA_ENABLE_DEPRECATED 1  // cuCtxAttach, the bank configurations, cuProfilerInitialize: tested as they are
#include <cuda.h>
#include <cudaProfiler.h>
#include <dlfcn.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "expect_cu.h"

namespace {

void* g_lib = nullptr;

/// The exported function `name` of libcuda.so.1 as type F (the v1 and CUDA 12.8 names).
template <typename F>
F sym(const char* name) {
  void* f = dlsym(g_lib, name);
  if (f == nullptr) std::printf("not ok dlsym %s\n", name);
  return reinterpret_cast<F>(f);
}

const char kManagedPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .align 4 .u32 g_value = 7;\n"
    ".global .attribute(.managed) .align 4 .u32 m_value = 9;\n"
    ".visible .entry k(.param .u64 p) { ret; }\n";

void batch_copies(CUstream stream) {
  CUdeviceptr a = 0, b = 0, m = 0;
  EXPECT_CU("alloc a", cuMemAlloc(&a, 256), CUDA_SUCCESS);
  EXPECT_CU("alloc b", cuMemAlloc(&b, 256), CUDA_SUCCESS);
  EXPECT_CU("alloc managed", cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL), CUDA_SUCCESS);
  unsigned char host[256], back[256];
  for (int i = 0; i < 256; ++i) host[i] = static_cast<unsigned char>(i * 3);
  EXPECT_CU("fill a", cuMemcpyHtoD(a, host, 256), CUDA_SUCCESS);
  CUdeviceptr dsts[2] = {b, b + 128}, srcs[2] = {a, a + 128};
  size_t sizes[2] = {128, 128};
  CUmemcpyAttributes at{};
  at.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t idx[2] = {0, 1};
  EXPECT_CU("batch v2", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, idx, 1, stream), CUDA_SUCCESS);
  EXPECT_CU("sync", cuStreamSynchronize(stream), CUDA_SUCCESS);
  EXPECT_CU("read b", cuMemcpyDtoH(back, b, 256), CUDA_SUCCESS);
  EXPECT("batch copied", std::memcmp(back, host, 256) == 0);
  // "Must not be legacy NULL stream", also through the _v2_ptsz name (the H200's answer).
  EXPECT_CU("batch v2 legacy stream", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, idx, 1, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("batch v2 per-thread stream", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, idx, 1, CU_STREAM_PER_THREAD),
            CUDA_SUCCESS);
  using Batch2 = CUresult (*)(CUdeviceptr*, CUdeviceptr*, size_t*, size_t, CUmemcpyAttributes*, size_t*, size_t, CUstream);
  EXPECT_CU("batch v2_ptsz stream 0",
            sym<Batch2>("cuMemcpyBatchAsync_v2_ptsz")(dsts, srcs, sizes, 2, &at, idx, 1, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("batch count 0", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 0, &at, idx, 1, stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("batch no attributes", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, idx, 0, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("batch first index 1", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &at, &idx[1], 1, stream),
            CUDA_ERROR_INVALID_VALUE);
  CUmemcpyAttributes other = at;
  other.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
  other.flags = CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE;
  EXPECT_CU("batch ANY, prefer overlap", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &other, idx, 1, stream), CUDA_SUCCESS);
  other.flags = 0x100;
  EXPECT_CU("batch unknown flag", cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &other, idx, 1, stream),
            CUDA_ERROR_INVALID_VALUE);
  // The CUDA 12.8 names: a failIdx, SIZE_MAX unless one copy is to blame; their _ptsz takes stream 0.
  using Batch1 = CUresult (*)(CUdeviceptr*, CUdeviceptr*, size_t*, size_t, CUmemcpyAttributes*, size_t*, size_t, size_t*,
                              CUstream);
  auto batch1 = sym<Batch1>("cuMemcpyBatchAsync");
  auto batch1_ptsz = sym<Batch1>("cuMemcpyBatchAsync_ptsz");
  size_t fail = 12345;
  EXPECT_CU("batch 12.8", batch1(dsts, srcs, sizes, 2, &at, idx, 1, &fail, stream), CUDA_SUCCESS);
  EXPECT("batch 12.8 failIdx SIZE_MAX", fail == SIZE_MAX);
  fail = 12345;
  EXPECT_CU("batch 12.8 _ptsz stream 0", batch1_ptsz(dsts, srcs, sizes, 2, &at, idx, 1, &fail, nullptr), CUDA_SUCCESS);
  EXPECT("batch 12.8 _ptsz failIdx", fail == SIZE_MAX);
  CUmemcpyAttributes bad = at;
  bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
  fail = 12345;
  EXPECT_CU("batch 12.8 order INVALID", batch1(dsts, srcs, sizes, 2, &bad, idx, 1, &fail, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT("batch 12.8 order INVALID failIdx", fail == SIZE_MAX);
  size_t big[1] = {1 << 20};
  fail = 12345;
  EXPECT_CU("batch 12.8 copy past the allocation", batch1(dsts, srcs, big, 1, &at, idx, 1, &fail, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT("batch 12.8 copy past the allocation failIdx 0", fail == 0);

  // 3-D batches: pointer to pointer, and pointer to array (extent in elements).
  CUDA_MEMCPY3D_BATCH_OP op{};
  op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  op.src.op.ptr.ptr = a;
  op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  op.dst.op.ptr.ptr = b;
  op.extent = CUextent3D{64, 2, 2};
  op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  EXPECT_CU("3-D batch", cuMemcpy3DBatchAsync_v2(1, &op, 0, stream), CUDA_SUCCESS);
  EXPECT_CU("3-D batch legacy stream", cuMemcpy3DBatchAsync_v2(1, &op, 0, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("3-D batch flags 1", cuMemcpy3DBatchAsync_v2(1, &op, 1, stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("3-D batch no ops", cuMemcpy3DBatchAsync_v2(0, &op, 0, stream), CUDA_ERROR_INVALID_VALUE);
  CUDA_MEMCPY3D_BATCH_OP o2 = op;
  o2.extent.depth = 0;
  EXPECT_CU("3-D batch depth 0", cuMemcpy3DBatchAsync_v2(1, &o2, 0, stream), CUDA_ERROR_INVALID_VALUE);
  using Batch3D1 = CUresult (*)(size_t, CUDA_MEMCPY3D_BATCH_OP*, size_t*, unsigned long long, CUstream);
  auto batch3d1 = sym<Batch3D1>("cuMemcpy3DBatchAsync");
  auto batch3d1_ptsz = sym<Batch3D1>("cuMemcpy3DBatchAsync_ptsz");
  fail = 12345;
  EXPECT_CU("3-D batch 12.8", batch3d1(1, &op, &fail, 0, stream), CUDA_SUCCESS);
  EXPECT("3-D batch 12.8 failIdx SIZE_MAX", fail == SIZE_MAX);
  EXPECT_CU("3-D batch 12.8 _ptsz stream 0", batch3d1_ptsz(1, &op, &fail, 0, nullptr), CUDA_SUCCESS);
  o2 = op;
  o2.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
  fail = 12345;
  EXPECT_CU("3-D batch 12.8 order INVALID", batch3d1(1, &o2, &fail, 0, stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT("3-D batch 12.8 order INVALID failIdx 0", fail == 0);
  CUarray arr = nullptr;
  CUDA_ARRAY_DESCRIPTOR ad{16, 4, CU_AD_FORMAT_UNSIGNED_INT8, 4};
  EXPECT_CU("array", cuArrayCreate(&arr, &ad), CUDA_SUCCESS);
  o2 = op;
  o2.dst.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
  std::memset(&o2.dst.op, 0, sizeof o2.dst.op);
  o2.dst.op.array.array = arr;
  o2.extent = CUextent3D{16, 4, 1};
  EXPECT_CU("3-D batch to an array", cuMemcpy3DBatchAsync_v2(1, &o2, 0, stream), CUDA_SUCCESS);
  EXPECT_CU("sync 3-D", cuStreamSynchronize(stream), CUDA_SUCCESS);
  unsigned char row[256] = {};
  EXPECT_CU("array back", cuMemcpyAtoH(row, arr, 0, 256), CUDA_SUCCESS);
  EXPECT("3-D batch wrote the array", std::memcmp(row, host, 256) == 0);
  EXPECT_CU("array destroy", cuArrayDestroy(arr), CUDA_SUCCESS);

  // Batch hints: managed memory only; a discard keeps the contents (the H200 kept them).
  CUdeviceptr ptrs[1] = {m}, dev_ptrs[1] = {a};
  size_t msz[1] = {4096}, dsz[1] = {256}, odd[1] = {100};
  CUmemLocation loc{CU_MEM_LOCATION_TYPE_DEVICE, 0};
  size_t li = 0;
  EXPECT_CU("prefetch batch", cuMemPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 0, stream), CUDA_SUCCESS);
  using Prefetch = CUresult (*)(CUdeviceptr*, size_t*, size_t, CUmemLocation*, size_t*, size_t, unsigned long long,
                                CUstream);
  EXPECT_CU("prefetch batch _ptsz stream 0",
            sym<Prefetch>("cuMemPrefetchBatchAsync_ptsz")(ptrs, msz, 1, &loc, &li, 1, 0, nullptr), CUDA_SUCCESS);
  EXPECT_CU("prefetch batch legacy stream", cuMemPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 0, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("prefetch batch flags 1", cuMemPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 1, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("prefetch batch count 0", cuMemPrefetchBatchAsync(ptrs, msz, 0, &loc, &li, 1, 0, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("prefetch batch of cuMemAlloc memory", cuMemPrefetchBatchAsync(dev_ptrs, dsz, 1, &loc, &li, 1, 0, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("sync hints", cuStreamSynchronize(stream), CUDA_SUCCESS);
  unsigned* mh = reinterpret_cast<unsigned*>(static_cast<std::uintptr_t>(m));
  mh[0] = 0x12345678u;
  EXPECT_CU("discard batch", cuMemDiscardBatchAsync(ptrs, msz, 1, 0, stream), CUDA_SUCCESS);
  EXPECT_CU("discard batch 100 bytes", cuMemDiscardBatchAsync(ptrs, odd, 1, 0, stream), CUDA_SUCCESS);
  using Discard = CUresult (*)(CUdeviceptr*, size_t*, size_t, unsigned long long, CUstream);
  EXPECT_CU("discard batch _ptsz stream 0", sym<Discard>("cuMemDiscardBatchAsync_ptsz")(ptrs, msz, 1, 0, nullptr),
            CUDA_SUCCESS);
  EXPECT_CU("discard batch of cuMemAlloc memory", cuMemDiscardBatchAsync(dev_ptrs, dsz, 1, 0, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("discard and prefetch", cuMemDiscardAndPrefetchBatchAsync(ptrs, msz, 1, &loc, &li, 1, 0, stream),
            CUDA_SUCCESS);
  EXPECT_CU("discard and prefetch of cuMemAlloc memory",
            cuMemDiscardAndPrefetchBatchAsync(dev_ptrs, dsz, 1, &loc, &li, 1, 0, stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("sync discards", cuStreamSynchronize(stream), CUDA_SUCCESS);
  EXPECT("discarded contents kept", mh[0] == 0x12345678u);
  EXPECT_CU("free a", cuMemFree(a), CUDA_SUCCESS);
  EXPECT_CU("free b", cuMemFree(b), CUDA_SUCCESS);
  EXPECT_CU("free managed", cuMemFree(m), CUDA_SUCCESS);
}

void v1_calls(CUdevice dev, CUmodule mod, CUstream stream) {
  // Every v1 call with a CUdeviceptr_v1 or a 32-bit size: CUDA_ERROR_INVALID_CONTEXT.
  using Alloc1 = CUresult (*)(unsigned*, unsigned);
  using Free1 = CUresult (*)(unsigned);
  using Info1 = CUresult (*)(unsigned*, unsigned*);
  using Global1 = CUresult (*)(unsigned*, unsigned*, CUmodule, const char*);
  using HtoD1 = CUresult (*)(unsigned, const void*, unsigned);
  using Set1 = CUresult (*)(unsigned, unsigned char, unsigned);
  using Total1 = CUresult (*)(unsigned*, CUdevice);
  using Desc1 = CUresult (*)(void*, CUarray);
  unsigned p = 0xdeadbeefu, fr = 0, tot = 0;
  EXPECT_CU("v1 cuMemAlloc", sym<Alloc1>("cuMemAlloc")(&p, 1024), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_CU("v1 cuMemFree", sym<Free1>("cuMemFree")(0), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_CU("v1 cuMemGetInfo", sym<Info1>("cuMemGetInfo")(&fr, &tot), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_CU("v1 cuModuleGetGlobal", sym<Global1>("cuModuleGetGlobal")(&p, &tot, mod, "g_value"),
            CUDA_ERROR_INVALID_CONTEXT);
  char host[16] = {};
  EXPECT_CU("v1 cuMemcpyHtoD", sym<HtoD1>("cuMemcpyHtoD")(0x1000, host, 16), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_CU("v1 cuMemsetD8", sym<Set1>("cuMemsetD8")(0x1000, 1, 16), CUDA_ERROR_INVALID_CONTEXT);
  unsigned char desc[32];
  EXPECT_CU("v1 cuArrayGetDescriptor of null", sym<Desc1>("cuArrayGetDescriptor")(desc, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  // cuDeviceTotalMem (v1) succeeds, the H200's 141 GiB clamped to an unsigned int.
  EXPECT_CU("v1 cuDeviceTotalMem", sym<Total1>("cuDeviceTotalMem")(&tot, dev), CUDA_SUCCESS);
  EXPECT("v1 cuDeviceTotalMem clamped", tot == UINT_MAX);
  // The pre-11.7 stream memory operations: CUDA_ERROR_NOT_SUPPORTED (CAN_USE_STREAM_MEM_OPS_V1 0).
  int v = -1;
  EXPECT_CU("attribute 92", cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, dev), CUDA_SUCCESS);
  EXPECT("CAN_USE_STREAM_MEM_OPS_V1 0", v == 0);
  CUdeviceptr d = 0;
  EXPECT_CU("alloc for memops", cuMemAlloc(&d, 64), CUDA_SUCCESS);
  using Write32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
  using Batch = CUresult (*)(CUstream, unsigned, CUstreamBatchMemOpParams*, unsigned);
  EXPECT_CU("v1 cuStreamWriteValue32", sym<Write32>("cuStreamWriteValue32")(stream, d, 5, 0), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU("v1 cuStreamWaitValue32_ptsz", sym<Write32>("cuStreamWaitValue32_ptsz")(nullptr, d, 0, 0),
            CUDA_ERROR_NOT_SUPPORTED);
  CUstreamBatchMemOpParams op{};
  op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  op.writeValue.address = d;
  EXPECT_CU("v1 cuStreamBatchMemOp", sym<Batch>("cuStreamBatchMemOp")(stream, 1, &op, 0), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU("free memops", cuMemFree(d), CUDA_SUCCESS);
}

void pointer_and_library(CUmodule) {
  CUdeviceptr d = 0;
  EXPECT_CU("alloc", cuMemAlloc(&d, 256), CUDA_SUCCESS);
  unsigned char got = 7;
  unsigned one = 1, zero = 0, two = 2;
  EXPECT_CU("sync memops before", cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), CUDA_SUCCESS);
  EXPECT("sync memops 0", got == 0);
  EXPECT_CU("set sync memops", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), CUDA_SUCCESS);
  EXPECT_CU("sync memops inside", cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 16), CUDA_SUCCESS);
  EXPECT("sync memops 1", got == 1);
  EXPECT_CU("clear sync memops", cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), CUDA_SUCCESS);
  EXPECT_CU("sync memops cleared", cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), CUDA_SUCCESS);
  EXPECT("sync memops 0 again", got == 0);
  EXPECT_CU("set sync memops 2", cuPointerSetAttribute(&two, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 16), CUDA_SUCCESS);
  EXPECT_CU("sync memops read", cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d), CUDA_SUCCESS);
  EXPECT("sync memops 2 reads 1", got == 1);
  EXPECT_CU("set CONTEXT", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_CONTEXT, d), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("set null value", cuPointerSetAttribute(nullptr, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("set at 0", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, 0), CUDA_ERROR_INVALID_VALUE);
  int stack_value = 0;
  EXPECT_CU("set on pageable memory",
            cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, reinterpret_cast<CUdeviceptr>(&stack_value)),
            CUDA_ERROR_INVALID_VALUE);
  void* pinned = nullptr;
  EXPECT_CU("pinned", cuMemAllocHost(&pinned, 4096), CUDA_SUCCESS);
  EXPECT_CU("set on pinned memory",
            cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, reinterpret_cast<CUdeviceptr>(pinned)),
            CUDA_SUCCESS);
  EXPECT_CU("free pinned", cuMemFreeHost(pinned), CUDA_SUCCESS);
  EXPECT_CU("free", cuMemFree(d), CUDA_SUCCESS);

  CUlibrary lib = nullptr;
  EXPECT_CU("library", cuLibraryLoadData(&lib, kManagedPtx, nullptr, nullptr, 0, nullptr, nullptr, 0), CUDA_SUCCESS);
  CUdeviceptr g = 0;
  size_t bytes = 0;
  EXPECT_CU("managed variable", cuLibraryGetManaged(&g, &bytes, lib, "m_value"), CUDA_SUCCESS);
  EXPECT("managed variable 4 bytes", bytes == 4);
  unsigned value = 0;
  EXPECT_CU("managed variable copied", cuMemcpyDtoH(&value, g, 4), CUDA_SUCCESS);
  EXPECT("managed variable 9", value == 9);
  EXPECT_CU("managed variable missing", cuLibraryGetManaged(&g, &bytes, lib, "nope"), CUDA_ERROR_NOT_FOUND);
  void* fptr = reinterpret_cast<void*>(1);
  EXPECT_CU("unified function", cuLibraryGetUnifiedFunction(&fptr, lib, "k"), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("unload", cuLibraryUnload(lib), CUDA_SUCCESS);
}

void context_and_device(CUdevice dev, CUfunction fn, CUstream stream) {
  CUcontext cur = nullptr, c = nullptr;
  EXPECT_CU("current", cuCtxGetCurrent(&cur), CUDA_SUCCESS);
  EXPECT_CU("attach", cuCtxAttach(&c, 0), CUDA_SUCCESS);
  EXPECT("attach gives the current context", c == cur);
  EXPECT_CU("attach flags 1", cuCtxAttach(&c, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("detach", cuCtxDetach(cur), CUDA_SUCCESS);
  CUexecAffinityParam ea{};
  EXPECT_CU("exec affinity", cuCtxGetExecAffinity(&ea, CU_EXEC_AFFINITY_TYPE_SM_COUNT), CUDA_SUCCESS);
  int sms = 0;
  EXPECT_CU("SM count", cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), CUDA_SUCCESS);
  EXPECT("exec affinity: every SM (132 on the H200)", ea.type == CU_EXEC_AFFINITY_TYPE_SM_COUNT &&
                                                          ea.param.smCount.val == static_cast<unsigned>(sms));
  EXPECT_CU("exec affinity type 1", cuCtxGetExecAffinity(&ea, static_cast<CUexecAffinityType>(1)),
            CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
  int sup = -1;
  EXPECT_CU("exec affinity support", cuDeviceGetExecAffinitySupport(&sup, CU_EXEC_AFFINITY_TYPE_SM_COUNT, dev),
            CUDA_SUCCESS);
  EXPECT("exec affinity not supported", sup == 0);
  CUsharedconfig sc = static_cast<CUsharedconfig>(7);
  EXPECT_CU("bank config", cuCtxGetSharedMemConfig(&sc), CUDA_SUCCESS);
  EXPECT("four-byte banks", sc == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
  EXPECT_CU("set eight-byte banks", cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE), CUDA_SUCCESS);
  EXPECT_CU("bank config again", cuCtxGetSharedMemConfig(&sc), CUDA_SUCCESS);
  EXPECT("still four-byte banks", sc == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
  EXPECT_CU("set bank config 7", cuCtxSetSharedMemConfig(static_cast<CUsharedconfig>(7)), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("function bank config", cuFuncSetSharedMemConfig(fn, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE), CUDA_SUCCESS);
  EXPECT_CU("function bank config 7", cuFuncSetSharedMemConfig(fn, static_cast<CUsharedconfig>(7)),
            CUDA_ERROR_INVALID_VALUE);
  CUatomicOperation ops[13];
  unsigned caps[13];
  for (int i = 0; i < 13; ++i) {
    ops[i] = static_cast<CUatomicOperation>(i);
    caps[i] = 0xffffffffu;
  }
  EXPECT_CU("host atomic capabilities", cuDeviceGetHostAtomicCapabilities(caps, ops, 13, dev), CUDA_SUCCESS);
  bool none = true;
  for (unsigned cap : caps) none = none && cap == 0;
  EXPECT("no host atomic capability", none);
  EXPECT_CU("peer atomic capabilities", cuDeviceGetP2PAtomicCapabilities(caps, ops, 13, dev, dev),
            CUDA_ERROR_INVALID_DEVICE);
  char luid[8];
  unsigned mask = 0;
  EXPECT_CU("LUID", cuDeviceGetLuid(luid, &mask, dev), CUDA_ERROR_NOT_SUPPORTED);
  CUasyncCallbackHandle h = nullptr;
  auto cb = [](CUasyncNotificationInfo*, void*, CUasyncCallbackHandle) {};
  EXPECT_CU("register notification", cuDeviceRegisterAsyncNotification(dev, cb, nullptr, &h), CUDA_SUCCESS);
  EXPECT("notification handle", h != nullptr);
  EXPECT_CU("unregister notification", cuDeviceUnregisterAsyncNotification(dev, h), CUDA_SUCCESS);
  EXPECT_CU("RDMA flush to owner",
            cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
                                       CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER),
            CUDA_SUCCESS);
  EXPECT_CU("RDMA flush to all devices",
            cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
                                       CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES),
            CUDA_SUCCESS);
  EXPECT_CU("profiler initialize", cuProfilerInitialize(nullptr, nullptr, CU_OUT_KEY_VALUE_PAIR), CUDA_ERROR_NOT_SUPPORTED);
  CUmemDecompressParams dp{};
  size_t ei = 0;
  EXPECT_CU("decompress", cuMemBatchDecompressAsync(&dp, 1, 0, &ei, stream), CUDA_ERROR_NOT_SUPPORTED);
  // The multi-device cooperative launch of one device: scale_add on 64 floats, y = 2 x + y.
  CUdeviceptr x = 0, y = 0;
  EXPECT_CU("alloc x", cuMemAlloc(&x, 256), CUDA_SUCCESS);
  EXPECT_CU("alloc y", cuMemAlloc(&y, 256), CUDA_SUCCESS);
  EXPECT_CU("x = 1.0", cuMemsetD32(x, 0x3f800000u, 64), CUDA_SUCCESS);
  EXPECT_CU("y = 0", cuMemsetD32(y, 0, 64), CUDA_SUCCESS);
  float a = 2.0f;
  int n = 64;
  void* args[] = {&y, &x, &a, &n};
  CUDA_LAUNCH_PARAMS lp{};
  lp.function = fn;
  lp.gridDimX = lp.gridDimY = lp.gridDimZ = 1;
  lp.blockDimX = 64;
  lp.blockDimY = lp.blockDimZ = 1;
  lp.hStream = stream;
  lp.kernelParams = args;
  EXPECT_CU("cooperative multi-device launch", cuLaunchCooperativeKernelMultiDevice(&lp, 1, 0), CUDA_SUCCESS);
  EXPECT_CU("sync launch", cuStreamSynchronize(stream), CUDA_SUCCESS);
  float out[64] = {};
  EXPECT_CU("read y", cuMemcpyDtoH(out, y, 256), CUDA_SUCCESS);
  EXPECT("y = 2", out[0] == 2.0f && out[63] == 2.0f);
  EXPECT_CU("free x", cuMemFree(x), CUDA_SUCCESS);
  EXPECT_CU("free y", cuMemFree(y), CUDA_SUCCESS);
}

void graph_and_tensor_maps(CUstream stream) {
  // A batch memory operation node: its parameters read back from the node's own copy, set on the
  // graph and on the instantiated graph; the launch writes the last value set (the H200 wrote 22).
  CUdeviceptr d = 0;
  EXPECT_CU("alloc", cuMemAlloc(&d, 64), CUDA_SUCCESS);
  EXPECT_CU("zero", cuMemsetD32(d, 0, 16), CUDA_SUCCESS);
  CUgraph g = nullptr;
  EXPECT_CU("graph", cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUcontext cur = nullptr;
  EXPECT_CU("current", cuCtxGetCurrent(&cur), CUDA_SUCCESS);
  CUstreamBatchMemOpParams ops[1] = {};
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = d + 32;
  ops[0].writeValue.value = 11;
  CUDA_BATCH_MEM_OP_NODE_PARAMS np{};
  np.ctx = cur;
  np.count = 1;
  np.paramArray = ops;
  CUgraphNode node = nullptr;
  EXPECT_CU("batch memop node", cuGraphAddBatchMemOpNode(&node, g, nullptr, 0, &np), CUDA_SUCCESS);
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  EXPECT_CU("node type", cuGraphNodeGetType(node, &type), CUDA_SUCCESS);
  EXPECT("node type BATCH_MEM_OP", type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP);
  CUDA_BATCH_MEM_OP_NODE_PARAMS got{};
  EXPECT_CU("node params", cuGraphBatchMemOpNodeGetParams(node, &got), CUDA_SUCCESS);
  EXPECT("node params: one write, flags 0, the context", got.count == 1 && got.flags == 0 && got.ctx == cur &&
                                                             got.paramArray != nullptr &&
                                                             got.paramArray[0].operation == CU_STREAM_MEM_OP_WRITE_VALUE_32);
  EXPECT("node params: the node's own copy", got.paramArray != ops);
  ops[0].writeValue.value = 21;
  EXPECT_CU("set node params", cuGraphBatchMemOpNodeSetParams(node, &np), CUDA_SUCCESS);
  CUgraphExec ex = nullptr;
  EXPECT_CU("instantiate", cuGraphInstantiate(&ex, g, 0), CUDA_SUCCESS);
  ops[0].writeValue.value = 22;
  EXPECT_CU("set exec node params", cuGraphExecBatchMemOpNodeSetParams(ex, node, &np), CUDA_SUCCESS);
  EXPECT_CU("launch", cuGraphLaunch(ex, stream), CUDA_SUCCESS);
  EXPECT_CU("sync", cuStreamSynchronize(stream), CUDA_SUCCESS);
  unsigned words[16] = {};
  EXPECT_CU("read", cuMemcpyDtoH(words, d, 64), CUDA_SUCCESS);
  EXPECT("the node wrote 22", words[8] == 22);
  np.count = 0;
  EXPECT_CU("node of no operations", cuGraphAddBatchMemOpNode(&node, g, nullptr, 0, &np), CUDA_SUCCESS);
  EXPECT_CU("exec destroy", cuGraphExecDestroy(ex), CUDA_SUCCESS);
  EXPECT_CU("graph destroy", cuGraphDestroy(g), CUDA_SUCCESS);

  // cuTensorMapEncodeIm2colWide on a 4-D fp16 NHWC tensor (the H200 encodes it, though only sm_100 reads it).
  CUdeviceptr big = 0;
  EXPECT_CU("tensor", cuMemAlloc(&big, 1 << 20), CUDA_SUCCESS);
  CUtensorMap tm{};
  const cuuint64_t dims[4] = {64, 16, 16, 1};
  const cuuint64_t strides[3] = {128, 128 * 16, 128 * 256};
  const cuuint32_t es[4] = {1, 1, 1, 1};
  void* addr = reinterpret_cast<void*>(static_cast<std::uintptr_t>(big));
  EXPECT_CU("im2col wide W", cuTensorMapEncodeIm2colWide(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, addr, dims, strides, 0, 0,
                                                          64, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                                          CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_128B,
                                                          CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS);
  EXPECT_CU("im2col wide W128", cuTensorMapEncodeIm2colWide(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, addr, dims, strides, 0,
                                                             0, 32, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                                             CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128, CU_TENSOR_MAP_SWIZZLE_64B,
                                                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS);
  EXPECT_CU("im2col wide NULL map", cuTensorMapEncodeIm2colWide(nullptr, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, addr, dims,
                                                                 strides, 0, 0, 64, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                                                 CU_TENSOR_MAP_IM2COL_WIDE_MODE_W,
                                                                 CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("free tensor", cuMemFree(big), CUDA_SUCCESS);
  EXPECT_CU("free", cuMemFree(d), CUDA_SUCCESS);
}

void arrays(CUdevice dev, CUstream stream) {
  // A plain array: no memory requirements, sparse properties, planes or mappings (the H200's answers).
  CUarray arr = nullptr;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  d.Width = 1024;
  d.Height = 1024;
  d.Format = CU_AD_FORMAT_FLOAT;
  d.NumChannels = 1;
  EXPECT_CU("plain array", cuArray3DCreate(&arr, &d), CUDA_SUCCESS);
  CUDA_ARRAY_MEMORY_REQUIREMENTS mr{};
  CUDA_ARRAY_SPARSE_PROPERTIES sp{};
  EXPECT_CU("array memory requirements", cuArrayGetMemoryRequirements(&mr, arr, dev), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("array sparse properties", cuArrayGetSparseProperties(&sp, arr), CUDA_ERROR_INVALID_VALUE);
  CUarray plane = nullptr;
  EXPECT_CU("array plane", cuArrayGetPlane(&plane, arr, 0), CUDA_ERROR_INVALID_VALUE);
  CUarrayMapInfo mi{};
  mi.resourceType = CU_RESOURCE_TYPE_ARRAY;
  mi.resource.array = arr;
  EXPECT_CU("map a plain array", cuMemMapArrayAsync(&mi, 1, stream), CUDA_ERROR_INVALID_VALUE);
  CUmipmappedArray mm = nullptr;
  d.Width = d.Height = 256;
  EXPECT_CU("mipmapped array", cuMipmappedArrayCreate(&mm, &d, 4), CUDA_SUCCESS);
  EXPECT_CU("mipmapped memory requirements", cuMipmappedArrayGetMemoryRequirements(&mr, mm, dev),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("mipmapped sparse properties", cuMipmappedArrayGetSparseProperties(&sp, mm), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("mipmapped destroy", cuMipmappedArrayDestroy(mm), CUDA_SUCCESS);
  EXPECT_CU("array destroy", cuArrayDestroy(arr), CUDA_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: driver_misc KERNELS.ptx\n");
    return 2;
  }
  g_lib = dlopen("libcuda.so.1", RTLD_NOW);
  EXPECT("dlopen libcuda.so.1", g_lib != nullptr);
  if (g_lib == nullptr) return 1;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  EXPECT_CU("cuInit", cuInit(0), CUDA_SUCCESS);
  EXPECT_CU("device", cuDeviceGet(&dev, 0), CUDA_SUCCESS);
  EXPECT_CU("context", cuCtxCreate(&ctx, nullptr, 0, dev), CUDA_SUCCESS);
  EXPECT_CU("stream", cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  std::ifstream in(argv[1]);
  const std::string ptx((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CUmodule mod = nullptr, small = nullptr;
  CUfunction scale_add = nullptr;
  EXPECT_CU("module", cuModuleLoadData(&mod, ptx.c_str()), CUDA_SUCCESS);
  EXPECT_CU("scale_add", cuModuleGetFunction(&scale_add, mod, "scale_add"), CUDA_SUCCESS);
  EXPECT_CU("small module", cuModuleLoadData(&small, kManagedPtx), CUDA_SUCCESS);
  batch_copies(stream);
  v1_calls(dev, small, stream);
  pointer_and_library(small);
  context_and_device(dev, scale_add, stream);
  graph_and_tensor_maps(stream);
  arrays(dev, stream);
  EXPECT_CU("stream destroy", cuStreamDestroy(stream), CUDA_SUCCESS);
  EXPECT_CU("context destroy", cuCtxDestroy(ctx), CUDA_SUCCESS);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
