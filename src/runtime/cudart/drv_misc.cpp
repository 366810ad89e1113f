// Driver calls of one device with little to do (drv.hpp), answered as the H200 answers them
// (tests/hw/data/h200/driver_stubs): cuDeviceTotalMem (v1), the deprecated context calls
// (cuCtxAttach, cuCtxDetach, shared memory bank configurations), execution affinity, atomic
// capabilities, async notifications, GPUDirect RDMA flushes, the multi-device cooperative launch
// of one device, cuLibraryGetManaged, and the sparse-array queries of warpscope's arrays (none
// sparse, deferred-mapping or planar).
#include <algorithm>
#include <climits>

#include "runtime/cudart/drv.hpp"

extern "C" {
using warpscope::cudart::cudaError_t;
using warpscope::cudart::drv::CUresult;
cudaError_t cudaDeviceRegisterAsyncNotification(int device, void* callback, void* user, void** handle);
cudaError_t cudaDeviceUnregisterAsyncNotification(int device, void* handle);
CUresult cuDeviceTotalMem_v2(std::size_t* bytes, int dev);
CUresult cuFuncGetName(const char** name, void* fn);
CUresult cuLibraryGetGlobal(std::uint64_t* dptr, std::size_t* bytes, void* library, const char* name);
CUresult cuLaunchCooperativeKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shmem, void* stream, void** params);
}

namespace warpscope::cudart::drv {
namespace {

inline constexpr CUresult kCuUnsupportedExecAffinity = 224;

/// CUexecAffinityParam: the type (CU_EXEC_AFFINITY_TYPE_SM_COUNT 0) and its value.
struct ExecAffinityParam {
  int type;
  unsigned sm_count;
};

/// CUDA_LAUNCH_PARAMS.
struct LaunchParams {
  void* function;
  unsigned grid[3], block[3], shared;
  void* stream;
  void** params;
};
static_assert(sizeof(LaunchParams) == 56);

/// CUsharedconfig: DEFAULT_BANK_SIZE 0, FOUR_BYTE 1, EIGHT_BYTE 2.
bool valid_bank_config(int config) { return config >= 0 && config <= 2; }

/// The calls about sparse, deferred-mapping and planar arrays: warpscope makes none (cuArray3DCreate
/// refuses their flags), and the H200 answers CUDA_ERROR_INVALID_VALUE for a plain array.
CUresult plain_array() {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return kCuInvalidValue;
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// The v1 call: the total in an unsigned int, which the H200's 141 GiB overflow: 4294967295, as it answers.
WS_DRV CUresult cuDeviceTotalMem(unsigned* bytes, int dev) {
  if (bytes == nullptr) return kCuInvalidValue;
  std::size_t total = 0;
  if (CUresult e = cuDeviceTotalMem_v2(&total, dev); e != kCuSuccess) return e;
  *bytes = static_cast<unsigned>(std::min<std::size_t>(total, UINT_MAX));
  return kCuSuccess;
}

// ---- Deprecated context calls

// caveat: the context's usage count is not kept: cuCtxDetach leaves the context as it is
WS_DRV CUresult cuCtxAttach(Context** ctx, unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (ctx == nullptr || flags != 0) return kCuInvalidValue;  // "flags: Context attach flags (must be 0)"
  *ctx = current_context();
  return kCuSuccess;
}
// caveat: the context's usage count is not kept: cuCtxDetach leaves the context as it is
WS_DRV CUresult cuCtxDetach(Context* ctx) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr || ctx->destroyed) return kCuInvalidContext;
  return kCuSuccess;
}

// Shared memory banks are four bytes wide from Maxwell on: the configuration is kept by no GPU since.
WS_DRV CUresult cuCtxGetSharedMemConfig(int* config) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (config == nullptr) return kCuInvalidValue;
  *config = 1;  // CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE, also after a set of EIGHT_BYTE (as the H200)
  return kCuSuccess;
}
WS_DRV CUresult cuCtxSetSharedMemConfig(int config) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return valid_bank_config(config) ? kCuSuccess : kCuInvalidValue;
}
WS_DRV CUresult cuFuncSetSharedMemConfig(void* fn, int config) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  const char* name = nullptr;
  if (CUresult e = cuFuncGetName(&name, fn); e != kCuSuccess) return e;
  return valid_bank_config(config) ? kCuSuccess : kCuInvalidValue;
}

// ---- Execution affinity: a context has every SM; limiting it (cuCtxCreate_v3) is not supported, as on the H200

WS_DRV CUresult cuCtxGetExecAffinity(ExecAffinityParam* param, int type) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (param == nullptr) return kCuInvalidValue;
  if (type != 0) return kCuUnsupportedExecAffinity;
  *param = ExecAffinityParam{0, static_cast<unsigned>(device_properties(Runtime::get().profile()).multiProcessorCount)};
  return kCuSuccess;
}
WS_DRV CUresult cuDeviceGetExecAffinitySupport(int* supported, int type, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (supported == nullptr || type != 0) return kCuInvalidValue;
  if (dev != 0) return kCuInvalidDevice;
  *supported = 0;
  return kCuSuccess;
}

// ---- Atomic capabilities: no native host atomics (CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED 0), no peer

WS_DRV CUresult cuDeviceGetHostAtomicCapabilities(unsigned* caps, const int* ops, unsigned count, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (count != 0 && (caps == nullptr || ops == nullptr)) return kCuInvalidValue;
  if (dev != 0) return kCuInvalidDevice;
  for (unsigned i = 0; i < count; ++i) {
    if (ops[i] < 0 || ops[i] > 12) return kCuInvalidValue;  // CUatomicOperation: INTEGER_ADD 0 .. FLOAT_MAX 12
  }
  std::fill(caps, caps + count, 0u);
  return kCuSuccess;
}
WS_DRV CUresult cuDeviceGetP2PAtomicCapabilities(unsigned*, const int*, unsigned, int, int) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  return kCuInvalidDevice;  // one device: no peer (the H200 answers so for source and destination 0)
}

// caveat: registered callbacks are never called: warpscope's device sends no notifications
WS_DRV CUresult cuDeviceRegisterAsyncNotification(int dev, void* callback, void* user, void** handle) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceRegisterAsyncNotification(dev, callback, user, handle); });
}
WS_DRV CUresult cuDeviceUnregisterAsyncNotification(int dev, void* handle) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceUnregisterAsyncNotification(dev, handle); });
}

// Every write is visible when made: a flush has nothing to wait for.
WS_DRV CUresult cuFlushGPUDirectRDMAWrites(int target, int scope) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  // CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX 0; scope TO_OWNER 100, TO_ALL_DEVICES 200
  return target == 0 && (scope == 100 || scope == 200) ? kCuSuccess : kCuInvalidValue;
}

// One device: the list's one launch, as cuLaunchCooperativeKernel (the H200 launches it so).
WS_DRV CUresult cuLaunchCooperativeKernelMultiDevice(LaunchParams* list, unsigned n, unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  // CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC 1, NO_POST_LAUNCH_SYNC 2
  if (list == nullptr || n != 1 || (flags & ~3u) != 0) return kCuInvalidValue;
  const LaunchParams& p = list[0];
  return cuLaunchCooperativeKernel(p.function, p.grid[0], p.grid[1], p.grid[2], p.block[0], p.block[1], p.block[2],
                                   p.shared, p.stream, p.params);
}

// caveat: the variable is found as cuLibraryGetGlobal finds it: a global that is not __managed__ too (the H200
//   answers CUDA_ERROR_NOT_FOUND), and a __managed__ one is device memory here (the host must copy it)
WS_DRV CUresult cuLibraryGetManaged(std::uint64_t* dptr, std::size_t* bytes, void* library, const char* name) {
  return cuLibraryGetGlobal(dptr, bytes, library, name);
}

// ---- Sparse, deferred-mapping and planar arrays: warpscope's arrays are none of them

WS_DRV CUresult cuArrayGetMemoryRequirements(void*, void*, int) { return plain_array(); }
WS_DRV CUresult cuMipmappedArrayGetMemoryRequirements(void*, void*, int) { return plain_array(); }
WS_DRV CUresult cuArrayGetSparseProperties(void*, void*) { return plain_array(); }
WS_DRV CUresult cuMipmappedArrayGetSparseProperties(void*, void*) { return plain_array(); }
WS_DRV CUresult cuArrayGetPlane(void**, void*, unsigned) { return plain_array(); }
WS_DRV CUresult cuMemMapArrayAsync(void*, unsigned, void*) { return plain_array(); }
WS_DRV CUresult cuMemMapArrayAsync_ptsz(void*, unsigned, void*) { return plain_array(); }
