// Device management, properties and attributes, versions, errors, function attributes and
// occupancy.
#include <algorithm>
#include <cstring>

#include "analysis/occupancy.hpp"
#include "runtime/cudart/api.hpp"
#include "runtime/cudart/mem_pools.hpp"
#include "runtime/cudart/graph.hpp"

namespace warpscope::cudart {
namespace {

struct ErrorRow {
  int code;
  const char* name;
  const char* text;
};
constexpr ErrorRow kErrors[] = {
#define X(n, name, text) {n, name, text},
#include "runtime/cudart/error_table.inc"
#undef X
};

struct AttrRow {
  int attr;
  int value;
};
constexpr AttrRow kH100Attributes[] = {
#define X(a, v) {a, v},
#include "runtime/cudart/h100_attributes.inc"
#undef X
};

int clamp_int(std::uint64_t v) { return static_cast<int>(std::min<std::uint64_t>(v, 0x7fffffff)); }

constexpr int kDriverVersion = 13000;   // runtime_probe.csv: driver_version
constexpr int kRuntimeVersion = 13000;  // runtime_probe.csv: runtime_version

}  // namespace

const char* error_name(cudaError_t e) {
  for (const auto& r : kErrors)
    if (r.code == e) return r.name;
  return "unrecognized error code";
}

const char* error_string(cudaError_t e) {
  for (const auto& r : kErrors)
    if (r.code == e) return r.text;
  return "unrecognized error code";
}

DeviceProp device_properties(const arch::Profile& p) {
  DeviceProp d{};
  // An H100 80GB HBM3 as measured (tests/hw/data/h100/runtime_probe.csv) ...
  std::strncpy(d.name, "NVIDIA H100 80GB HBM3", sizeof d.name - 1);
  std::memcpy(d.uuid.bytes, "warpscope-emu-00", 16);
  d.totalGlobalMem = 85017493504ull;
  d.sharedMemPerBlock = 49152;
  d.regsPerBlock = 65536;
  d.warpSize = 32;
  d.memPitch = 2147483647;
  d.maxThreadsPerBlock = 1024;
  d.maxThreadsDim[0] = 1024;
  d.maxThreadsDim[1] = 1024;
  d.maxThreadsDim[2] = 64;
  d.maxGridSize[0] = 2147483647;
  d.maxGridSize[1] = 65535;
  d.maxGridSize[2] = 65535;
  d.totalConstMem = 65536;
  d.major = 9;
  d.minor = 0;
  d.textureAlignment = 512;
  d.texturePitchAlignment = 32;
  d.multiProcessorCount = 132;
  d.integrated = 0;
  d.canMapHostMemory = 1;
  d.maxTexture1D = 131072;
  d.maxTexture1DMipmap = 32768;
  d.maxTexture2D[0] = 131072;
  d.maxTexture2D[1] = 65536;
  d.maxTexture2DMipmap[0] = 32768;
  d.maxTexture2DMipmap[1] = 32768;
  d.maxTexture2DLinear[0] = 131072;
  d.maxTexture2DLinear[1] = 65000;
  d.maxTexture2DLinear[2] = 2097120;
  d.maxTexture2DGather[0] = 32768;
  d.maxTexture2DGather[1] = 32768;
  d.maxTexture3D[0] = d.maxTexture3D[1] = d.maxTexture3D[2] = 16384;
  d.maxTexture3DAlt[0] = d.maxTexture3DAlt[1] = 8192;
  d.maxTexture3DAlt[2] = 32768;
  d.maxTextureCubemap = 32768;
  d.maxTexture1DLayered[0] = 32768;
  d.maxTexture1DLayered[1] = 2048;
  d.maxTexture2DLayered[0] = d.maxTexture2DLayered[1] = 32768;
  d.maxTexture2DLayered[2] = 2048;
  d.maxTextureCubemapLayered[0] = 32768;
  d.maxTextureCubemapLayered[1] = 2046;
  d.maxSurface1D = 32768;
  d.maxSurface2D[0] = 131072;
  d.maxSurface2D[1] = 65536;
  d.maxSurface3D[0] = d.maxSurface3D[1] = d.maxSurface3D[2] = 16384;
  d.maxSurface1DLayered[0] = 32768;
  d.maxSurface1DLayered[1] = 2048;
  d.maxSurface2DLayered[0] = d.maxSurface2DLayered[1] = 32768;
  d.maxSurface2DLayered[2] = 2048;
  d.maxSurfaceCubemap = 32768;
  d.maxSurfaceCubemapLayered[0] = 32768;
  d.maxSurfaceCubemapLayered[1] = 2046;
  d.surfaceAlignment = 512;
  d.concurrentKernels = 1;
  d.ECCEnabled = 1;
  d.pciBusID = 0;
  d.pciDeviceID = 6;
  d.pciDomainID = 0;
  d.tccDriver = 0;
  d.asyncEngineCount = 3;
  d.unifiedAddressing = 1;
  d.memoryBusWidth = 5120;
  d.l2CacheSize = 52428800;
  d.persistingL2CacheMaxSize = 32768000;
  d.maxThreadsPerMultiProcessor = 2048;
  d.streamPrioritiesSupported = 1;
  d.globalL1CacheSupported = 1;
  d.localL1CacheSupported = 1;
  d.sharedMemPerMultiprocessor = 233472;
  d.regsPerMultiprocessor = 65536;
  d.managedMemory = 1;
  d.isMultiGpuBoard = 0;
  d.multiGpuBoardGroupID = 0;
  d.hostNativeAtomicSupported = 0;
  d.pageableMemoryAccess = 0;
  d.concurrentManagedAccess = 1;
  d.computePreemptionSupported = 1;
  d.canUseHostPointerForRegisteredMem = 1;
  d.cooperativeLaunch = 1;
  d.sharedMemPerBlockOptin = 232448;
  d.pageableMemoryAccessUsesHostPageTables = 0;
  d.directManagedMemAccessFromHost = 0;
  d.maxBlocksPerMultiProcessor = 32;
  d.accessPolicyMaxWindowSize = 134217728;
  d.reservedSharedMemPerBlock = 1024;
  d.hostRegisterSupported = 1;
  d.sparseCudaArraySupported = 1;
  d.hostRegisterReadOnlySupported = 1;
  d.timelineSemaphoreInteropSupported = 1;
  d.memoryPoolsSupported = 1;
  d.gpuDirectRDMASupported = 1;
  d.gpuDirectRDMAFlushWritesOptions = 1;
  d.gpuDirectRDMAWritesOrdering = 100;
  d.memoryPoolSupportedHandleTypes = 9;
  d.deferredMappingCudaArraySupported = 1;
  d.ipcEventSupported = 1;
  d.clusterLaunch = 1;
  d.unifiedFunctionPointers = 1;
  d.deviceNumaConfig = 0;
  d.deviceNumaId = -1;
  d.mpsEnabled = 0;
  d.hostNumaId = 0;
  d.gpuPciDeviceID = 590352606;
  d.gpuPciSubsystemID = 381751518;
  d.hostNumaMultinodeIpcSupported = 0;
  if (p.name == "hopper") return d;
  // ... with the numbers a profile states replaced by the profile's.
  std::memset(d.name, 0, sizeof d.name);
  std::strncpy(d.name, p.gpu.c_str(), sizeof d.name - 1);
  if (p.dram_bytes != 0) d.totalGlobalMem = p.dram_bytes;
  d.sharedMemPerBlock = std::min<std::uint64_t>(49152, p.shared_bytes_per_block);
  d.regsPerBlock = clamp_int(p.registers_per_block);
  d.warpSize = clamp_int(p.warp_size);
  d.maxThreadsPerBlock = clamp_int(p.max_threads_per_block);
  d.major = p.cc_major;
  d.minor = p.cc_minor;
  d.multiProcessorCount = clamp_int(p.sm_count);
  d.l2CacheSize = clamp_int(p.l2.bytes);
  d.maxThreadsPerMultiProcessor = clamp_int(p.max_threads_per_sm);
  d.sharedMemPerMultiprocessor = p.shared_bytes_per_sm;
  d.regsPerMultiprocessor = clamp_int(p.registers_per_sm);
  d.sharedMemPerBlockOptin = p.shared_bytes_per_block;
  d.maxBlocksPerMultiProcessor = clamp_int(p.max_blocks_per_sm);
  d.reservedSharedMemPerBlock = p.shared_reserved_per_block;
  d.globalL1CacheSupported = p.global_loads_cached_in_l1 ? 1 : 0;
  d.localL1CacheSupported = p.local_cached_in_l1 ? 1 : 0;
  return d;
}

bool device_attribute(const arch::Profile& p, int attr, int* value) {
  const AttrRow* row = nullptr;
  for (const auto& r : kH100Attributes)
    if (r.attr == attr) row = &r;
  if (row == nullptr) return false;
  *value = row->value;
  if (p.name == "hopper") return true;
  const DeviceProp d = device_properties(p);
  switch (attr) {
    case 1: *value = d.maxThreadsPerBlock; break;
    case 8: *value = clamp_int(d.sharedMemPerBlock); break;
    case 10: *value = d.warpSize; break;
    case 12: *value = d.regsPerBlock; break;
    case 13: *value = static_cast<int>(p.sm_clock_mhz * 1000); break;
    case 16: *value = d.multiProcessorCount; break;
    case 36:
      if (p.dram_clock_khz != 0) *value = static_cast<int>(p.dram_clock_khz);
      break;
    case 37:
      if (p.dram_bus_width_bits != 0) *value = static_cast<int>(p.dram_bus_width_bits);
      break;
    case 38: *value = d.l2CacheSize; break;
    case 39: *value = d.maxThreadsPerMultiProcessor; break;
    case 75: *value = d.major; break;
    case 76: *value = d.minor; break;
    case 79: *value = d.globalL1CacheSupported; break;
    case 80: *value = d.localL1CacheSupported; break;
    case 81: *value = clamp_int(d.sharedMemPerMultiprocessor); break;
    case 82: *value = d.regsPerMultiprocessor; break;
    case 97: *value = clamp_int(d.sharedMemPerBlockOptin); break;
    case 106: *value = d.maxBlocksPerMultiProcessor; break;
    case 111: *value = clamp_int(d.reservedSharedMemPerBlock); break;
    default: break;
  }
  return true;
}

std::size_t pitch_for(std::size_t width) {
  // Measured on the H100: rows are padded to a multiple of 512 bytes (at least 512).
  constexpr std::size_t kGranule = 512;
  return std::max<std::size_t>(kGranule, (width + kGranule - 1) / kGranule * kGranule);
}

}  // namespace warpscope::cudart

using namespace warpscope::cudart;  // NOLINT: the C entry points below

// ---- Errors -------------------------------------------------------------------------------

WS_API const char* cudaGetErrorName(cudaError_t e) { return error_name(e); }
WS_API const char* cudaGetErrorString(cudaError_t e) { return error_string(e); }

WS_API cudaError_t cudaGetLastError() {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  // Reading clears the last error, a sticky one too: every later call that fails with the sticky
  // error sets it again. An H200 answers so (tests/hw/data/h200/runtime_gt/api_errors.txt:
  // sync_after_fault, then cudaGetLastError and cudaPeekAtLastError give IllegalAddress, Success).
  const cudaError_t e = last_error();
  last_error() = kSuccess;
  return e;
}

WS_API cudaError_t cudaPeekAtLastError() {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  return last_error();
}

// ---- Versions and devices -------------------------------------------------------------------

WS_API cudaError_t cudaDriverGetVersion(int* v) {
  if (v == nullptr) return last_error() = kErrInvalidValue;
  *v = kDriverVersion;
  return kSuccess;
}

WS_API cudaError_t cudaRuntimeGetVersion(int* v) {
  if (v == nullptr) return last_error() = kErrInvalidValue;
  *v = kRuntimeVersion;
  return kSuccess;
}

WS_API cudaError_t cudaGetDeviceCount(int* n) {
  if (n == nullptr) return last_error() = kErrInvalidValue;
  *n = 1;
  return kSuccess;
}

WS_API cudaError_t cudaSetDevice(int dev) {
  return call("cudaSetDevice", [&](Runtime& rt) {
    if (dev != 0) return kErrInvalidDevice;
    rt.current_device = dev;
    return kSuccess;
  });
}

WS_API cudaError_t cudaInitDevice(int dev, unsigned, unsigned) {
  return call("cudaInitDevice", [&](Runtime& rt) {
    if (dev != 0) return kErrInvalidDevice;
    rt.device();
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetDevice(int* dev) {
  return call("cudaGetDevice", true, [&](Runtime& rt) {
    if (dev == nullptr) return kErrInvalidValue;
    *dev = rt.current_device;
    return kSuccess;
  });
}

WS_API cudaError_t cudaChooseDevice(int* dev, const void*) {
  if (dev == nullptr) return last_error() = kErrInvalidValue;
  *dev = 0;
  return kSuccess;
}

// caveat: flags are kept and reported; scheduling flags change nothing
WS_API cudaError_t cudaSetDeviceFlags(unsigned flags) {
  return call("cudaSetDeviceFlags", [&](Runtime& rt) {
    rt.device_flags = flags;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  return call("cudaGetDeviceFlags", [&](Runtime& rt) {
    if (flags == nullptr) return kErrInvalidValue;
    *flags = rt.device_flags;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetDeviceProperties(DeviceProp* prop, int dev) {
  return call("cudaGetDeviceProperties", true, [&](Runtime& rt) {
    if (prop == nullptr) return kErrInvalidValue;
    if (dev != 0) return kErrInvalidDevice;
    *prop = device_properties(rt.profile());
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceGetAttribute(int* value, int attr, int dev) {
  return call("cudaDeviceGetAttribute", true, [&](Runtime& rt) {
    if (value == nullptr) return kErrInvalidValue;
    if (dev != 0) return kErrInvalidDevice;
    return device_attribute(rt.profile(), attr, value) ? kSuccess : kErrInvalidValue;
  });
}

// caveat: a made-up bus id 0000:00:00.0
WS_API cudaError_t cudaDeviceGetPCIBusId(char* id, int len, int dev) {
  return call("cudaDeviceGetPCIBusId", [&](Runtime&) {
    if (id == nullptr || len <= 0) return kErrInvalidValue;
    if (dev != 0) return kErrInvalidDevice;
    std::strncpy(id, "0000:00:00.0", static_cast<std::size_t>(len));
    id[len - 1] = '\0';
    return kSuccess;
  });
}

// caveat: returns at once (work has completed); cudaErrorStreamCaptureUnsupported while a stream captures
WS_API cudaError_t cudaDeviceSynchronize() {
  return call("cudaDeviceSynchronize", [&](Runtime& rt) {
    pools_synchronized();  // the pools give back what exceeds their release thresholds
    return device_sync_check(rt);
  });
}

// caveat: frees everything and ends every capture; graphs stay (their nodes may name freed memory or events)
WS_API cudaError_t cudaDeviceReset() {
  return call("cudaDeviceReset", true, [&](Runtime& rt) {
    rt.reset_device();
    pools_reset();
    last_error() = kSuccess;
    return kSuccess;
  });
}

namespace {
/// cudaLimitDevRuntimeSyncDepth, DevRuntimePendingLaunchCount, MaxL2FetchGranularity and
/// PersistingL2CacheSize: kept and reported (an H100's defaults), not modelled.
std::size_t* other_limits() {
  static std::size_t limits[4] = {2, 2048, 32, 0};
  return limits;
}
}  // namespace

WS_API cudaError_t cudaDeviceGetLimit(std::size_t* value, int limit) {
  return call("cudaDeviceGetLimit", [&](Runtime& rt) {
    if (value == nullptr) return kErrInvalidValue;
    switch (limit) {
      case 0: *value = rt.limit_stack; return kSuccess;        // cudaLimitStackSize
      case 1: *value = rt.limit_printf_fifo; return kSuccess;  // cudaLimitPrintfFifoSize
      case 2: *value = rt.limit_malloc_heap; return kSuccess;  // cudaLimitMallocHeapSize
      case 3: case 4: case 5: case 6: *value = other_limits()[limit - 3]; return kSuccess;
      default: return kErrInvalidValue;
    }
  });
}

// caveat: the stack, device-runtime and L2 limits are kept and reported but not enforced
// The printf FIFO and the device heap are sized before the first kernel that uses them runs; CUDA
// returns cudaErrorInvalidValue for a change after that (cudaDeviceSetLimit's documentation).
WS_API cudaError_t cudaDeviceSetLimit(int limit, std::size_t value) {
  return call("cudaDeviceSetLimit", [&](Runtime& rt) {
    switch (limit) {
      case 0: rt.limit_stack = value; return kSuccess;
      case 1:
        if (rt.has_device() && rt.device().printf_launched()) {
          rt.note("cudaDeviceSetLimit(cudaLimitPrintfFifoSize) after a kernel that uses printf was launched");
          return kErrInvalidValue;
        }
        // As the H100 does (tests/hw/data/h100/runtime_gt/limits.csv, heap.csv): at least 512 KiB,
        // rounded up to 256 bytes (600000 reads back as 600064, 4096 as 524288).
        value = std::max<std::size_t>((value + 255) / 256 * 256, std::size_t{512} << 10);
        rt.limit_printf_fifo = value;
        if (rt.has_device()) rt.device().set_printf_fifo_size(value);
        return kSuccess;
      case 2:
        if (rt.has_device() && rt.device().heap_created()) {
          rt.note("cudaDeviceSetLimit(cudaLimitMallocHeapSize) after a kernel that uses malloc or free was launched");
          return kErrInvalidValue;
        }
        // As the H100 does (limits.csv): at least 4 MiB, rounded up to 64 KiB (5000000 reads back
        // as 5046272, 1 MiB and 3 bytes as 4194304).
        value = std::max<std::size_t>((value + 65535) / 65536 * 65536, std::size_t{4} << 20);
        rt.limit_malloc_heap = value;
        if (rt.has_device()) rt.device().set_malloc_heap_size(value);
        return kSuccess;
      case 3: case 4: case 5: case 6: other_limits()[limit - 3] = value; return kSuccess;
      default: return kErrInvalidValue;
    }
  });
}

WS_API cudaError_t cudaDeviceGetCacheConfig(int* config) {
  if (config == nullptr) return last_error() = kErrInvalidValue;
  *config = 0;  // cudaFuncCachePreferNone
  return kSuccess;
}
// caveat: accepted; the L1/shared split is not modelled from it
WS_API cudaError_t cudaDeviceSetCacheConfig(int) { return kSuccess; }
WS_API cudaError_t cudaDeviceGetSharedMemConfig(int* config) {
  if (config == nullptr) return last_error() = kErrInvalidValue;
  *config = 1;  // cudaSharedMemBankSizeFourByte
  return kSuccess;
}
// caveat: accepted; banks are always 4 bytes
WS_API cudaError_t cudaDeviceSetSharedMemConfig(int) { return kSuccess; }

WS_API cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least != nullptr) *least = 0;
  if (greatest != nullptr) *greatest = -5;
  return kSuccess;
}

// caveat: one device: never
WS_API cudaError_t cudaDeviceCanAccessPeer(int* can, int, int) {
  if (can == nullptr) return last_error() = kErrInvalidValue;
  *can = 0;
  return kSuccess;
}

// caveat: nothing to start: warpscope records every launch
WS_API cudaError_t cudaProfilerStart() { return kSuccess; }
// caveat: nothing to stop: warpscope records every launch
WS_API cudaError_t cudaProfilerStop() { return kSuccess; }

// ---- Function attributes and occupancy ----------------------------------------------------------

namespace {

/// The largest block a kernel can be launched with: the profile's limit, lowered while the
/// registers of one block do not fit the SM's register file (the occupancy calculator's rule:
/// per-warp allocation units, warps in multiples of the allocation granularity). On an H100 this
/// gives cudaFuncGetAttributes' maxThreadsPerBlock of 512 at 102 registers, 640 at 96, 896 at 66
/// (tests/hw/data/h100/runtime_probe.csv).
int max_threads_for(const warpscope::arch::Profile& p, int regs) {
  const int warp = static_cast<int>(std::max<std::uint32_t>(1, p.warp_size));
  for (int threads = static_cast<int>(p.max_threads_per_block); threads >= warp; threads -= warp) {
    warpscope::analysis::OccupancyInput in;
    in.threads_per_block = static_cast<std::uint32_t>(threads);
    in.registers_per_thread = regs > 0 ? static_cast<std::uint32_t>(regs) : 0;
    try {
      if (warpscope::analysis::compute_occupancy(p, in).blocks_per_sm > 0) return threads;
    } catch (const warpscope::Error&) {
    }
  }
  return 0;
}

}  // namespace

WS_API cudaError_t cudaFuncGetAttributes(FuncAttributes* attr, const void* func) {
  return call("cudaFuncGetAttributes", [&](Runtime& rt) {
    if (attr == nullptr) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidResourceHandle;  // as CUDA 13 on an H100 (measured)
    if (cudaError_t e = rt.ensure_loaded(*k->module); e != kSuccess) return e;
    const KernelResources& r = rt.resources(*k);
    FuncAttributes a{};
    // ptxas's figures (Runtime::resources), as the driver reports them: registers, static shared
    // memory, the stack frame as local memory per thread, the module's __constant__ bytes. Without
    // ptxas, 32 registers stand in and the PTX's local depot is the local size (docs/runtime.md).
    a.sharedSizeBytes = r.static_shared;
    a.constSizeBytes = r.const_bytes;
    a.localSizeBytes = r.from_ptxas ? r.stack_frame_bytes : r.local_bytes;
    a.numRegs = r.registers >= 0 ? r.registers : 32;
    a.maxThreadsPerBlock = max_threads_for(rt.profile(), a.numRegs);
    a.ptxVersion = k->part == kNoPart ? k->module->ptx_arch : k->module->parts.at(k->part).ptx_arch;
    a.binaryVersion = rt.profile().cc_major * 10 + rt.profile().cc_minor;
    a.cacheModeCA = 0;
    a.maxDynamicSharedSizeBytes =
        k->max_dynamic_shared >= 0 ? k->max_dynamic_shared
                                   : static_cast<int>(49152 - std::min<std::uint64_t>(49152, r.static_shared));
    a.preferredShmemCarveout = k->carveout;
    *attr = a;
    return kSuccess;
  });
}

WS_API cudaError_t cudaFuncSetAttribute(const void* func, int attr, int value) {
  return call("cudaFuncSetAttribute", [&](Runtime& rt) {
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidResourceHandle;  // as CUDA 13 on an H100 (measured)
    if (cudaError_t e = rt.ensure_loaded(*k->module); e != kSuccess) return e;
    if (attr == kFuncAttrMaxDynamicShared) {
      const std::uint64_t stat = rt.resources(*k).static_shared;
      if (value < 0 || static_cast<std::uint64_t>(value) + stat > rt.profile().shared_bytes_per_block) {
        return kErrInvalidValue;
      }
      k->max_dynamic_shared = value;
      return kSuccess;
    }
    if (attr == kFuncAttrPreferredCarveout) {
      if (value < -1 || value > 100) return kErrInvalidValue;
      k->carveout = value;
      return kSuccess;
    }
    if (attr == kFuncAttrNonPortableClusterSizeAllowed) {
      if (value != 0 && value != 1) return kErrInvalidValue;
      k->non_portable_cluster = value;
      return kSuccess;
    }
    // The other cluster attributes: the required cluster dimensions come from the kernel's
    // __cluster_dims__ (its PTX), the scheduling policy changes no result.
    if (attr >= kFuncAttrFirst && attr <= kFuncAttrLast) return kSuccess;
    return kErrInvalidValue;
  });
}

// caveat: accepted; the L1/shared split is not modelled from it
WS_API cudaError_t cudaFuncSetCacheConfig(const void* func, int) {
  return call("cudaFuncSetCacheConfig", [&](Runtime& rt) {
    return rt.find_kernel(func) == nullptr ? kErrInvalidResourceHandle : kSuccess;
  });
}

// caveat: accepted; banks are always 4 bytes
WS_API cudaError_t cudaFuncSetSharedMemConfig(const void* func, int) {
  return call("cudaFuncSetSharedMemConfig", [&](Runtime& rt) {
    return rt.find_kernel(func) == nullptr ? kErrInvalidResourceHandle : kSuccess;
  });
}

WS_API cudaError_t cudaFuncGetName(const char** name, const void* func) {
  return call("cudaFuncGetName", [&](Runtime& rt) {
    if (name == nullptr) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidResourceHandle;  // as CUDA 13 on an H100 (measured)
    *name = k->name.c_str();
    return kSuccess;
  });
}

// Blocks per SM by the CUDA Occupancy Calculator's rules (src/analysis/occupancy.hpp, checked
// against every cudaOccupancyMaxActiveBlocksPerMultiprocessor answer captured on an H100). A block
// that cannot run at all (too many threads, registers or bytes of shared memory) gets 0.
int warpscope::cudart::occupancy_blocks(const warpscope::arch::Profile& p, int block_size, std::uint64_t shared,
                                        int regs) {
  if (block_size <= 0) return 0;
  warpscope::analysis::OccupancyInput in;
  in.threads_per_block = static_cast<std::uint32_t>(block_size);
  in.registers_per_thread = regs > 0 ? static_cast<std::uint32_t>(regs) : 0;
  in.static_shared_bytes = shared;
  try {
    return static_cast<int>(warpscope::analysis::compute_occupancy(p, in).blocks_per_sm);
  } catch (const warpscope::Error&) {
    return 0;
  }
}

WS_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, const void* func,
                                                                         int block_size,
                                                                         std::size_t dynamic_shared, unsigned) {
  return call("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&](Runtime& rt) {
    if (n == nullptr || block_size <= 0) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidResourceHandle;  // as CUDA 13 on an H100 (measured)
    if (cudaError_t e = rt.ensure_loaded(*k->module); e != kSuccess) return e;
    if (static_cast<std::uint32_t>(block_size) > rt.profile().max_threads_per_block) {
      *n = 0;
      return kSuccess;
    }
    const KernelResources& r = rt.resources(*k);
    *n = occupancy_blocks(rt.profile(), block_size, r.static_shared + dynamic_shared,
                          r.registers >= 0 ? r.registers : 32);
    return kSuccess;
  });
}

WS_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, const void* func, int block_size,
                                                                 std::size_t dynamic_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, block_size, dynamic_shared, 0);
}

WS_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* bytes, const void* func, int blocks,
                                                             int block_size) {
  return call("cudaOccupancyAvailableDynamicSMemPerBlock", [&](Runtime& rt) {
    if (bytes == nullptr || blocks <= 0 || block_size <= 0) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidResourceHandle;  // as CUDA 13 on an H100 (measured)
    if (cudaError_t e = rt.ensure_loaded(*k->module); e != kSuccess) return e;
    const auto& p = rt.profile();
    const std::uint64_t per_block = p.shared_bytes_per_sm / static_cast<std::uint64_t>(blocks);
    const std::uint64_t avail = per_block > p.shared_reserved_per_block ? per_block - p.shared_reserved_per_block : 0;
    const std::uint64_t stat = rt.resources(*k).static_shared;
    std::uint64_t dyn = avail > stat ? avail - stat : 0;
    dyn = std::min<std::uint64_t>(dyn, p.shared_bytes_per_block > stat ? p.shared_bytes_per_block - stat : 0);
    *bytes = dyn / p.shared_allocation_unit * p.shared_allocation_unit;
    return kSuccess;
  });
}
