// drvrt: registration, launches, errors and the context (see drvrt.hpp). nvcc's host code calls
// __cudaRegisterFatBinary / __cudaRegisterFunction / __cudaRegisterVar / __cudaRegisterFatBinaryEnd
// from static constructors, a <<<>>> launch __cudaPushCallConfiguration, then (in the kernel's stub)
// __cudaPopCallConfiguration, __cudaGetKernel (once) and __cudaLaunchKernel; the declarations
// below are those of CUDA 13.0's crt/host_runtime.h and crt/device_functions.h.
#include <type_traits>

#include "drvrt.hpp"

#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
void** __cudaRegisterFatBinary(void* fatCubin);
void __cudaRegisterFatBinaryEnd(void** handle);
void __cudaUnregisterFatBinary(void** handle);
char __cudaInitModule(void** handle);
void __cudaRegisterFunction(void** handle, const char* hostFun, char* deviceFun, const char* deviceName,
                            int thread_limit, uint3* tid, uint3* bid, dim3* bDim, dim3* gDim, int* wSize);
void __cudaRegisterVar(void** handle, char* hostVar, char* deviceAddress, const char* deviceName, int ext,
                       size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, CUstream_st* stream);
cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream);
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                               cudaStream_t stream);
}

namespace drvrt {
namespace {

/// One __cudaRegisterFatBinary: nvcc's wrapper {magic 0x466243B1, version, fatbinary, extra}
/// (docs/design.md), loaded with cuModuleLoadData at the first use of one of its kernels or
/// variables, as warpscope's own runtime loads it.
struct Fatbin {
  const void* wrapper = nullptr;
  CUmodule module = nullptr;
};
struct Kernel {
  Fatbin* fatbin = nullptr;
  std::string name;  // the mangled name, as the PTX's .entry
  CUfunction function = nullptr;
};
struct Variable {
  Fatbin* fatbin = nullptr;
  std::string name;
  std::size_t size = 0;
};
struct Configuration {
  dim3 grid, block;
  std::size_t shared = 0;
  CUstream stream = nullptr;
};

struct State {
  std::mutex mutex;
  std::deque<Fatbin> fatbins;  // stable addresses: a handle is a Fatbin*
  std::map<const void*, Kernel> kernels;
  std::map<const void*, Variable> variables;
  bool initialised = false;
  CUresult init_result = CUDA_SUCCESS;
  CUcontext context = nullptr;
};
State& state() {
  static State* s = new State;  // never destroyed: atexit handlers of nvcc's code still use it
  return *s;
}

thread_local cudaError_t last_error = cudaSuccess;
thread_local bool context_current = false;
thread_local std::vector<Configuration> configurations;

struct FatbinWrapper {
  int magic;
  int version;
  const void* data;
  const void* extra;
};
constexpr int kWrapperMagic = 0x466243B1;

/// Loads the module of `fb` (the fatbinary the wrapper points at) unless it is loaded. Caller
/// holds the state's mutex.
CUresult load(Fatbin& fb) {
  if (fb.module != nullptr) return CUDA_SUCCESS;
  const auto* w = static_cast<const FatbinWrapper*>(fb.wrapper);
  if (w->magic != kWrapperMagic) {
    std::fprintf(stderr, "drvrt: a registered fatbinary wrapper has magic 0x%x, not 0x%x\n",
                 static_cast<unsigned>(w->magic), static_cast<unsigned>(kWrapperMagic));
    return CUDA_ERROR_INVALID_IMAGE;
  }
  return cuModuleLoadData(&fb.module, w->data);
}

Kernel* find_kernel(const void* host_fun) {
  auto& s = state();
  const auto it = s.kernels.find(host_fun);
  return it == s.kernels.end() ? nullptr : &it->second;
}

/// The kernel's function, its module loaded first.
cudaError_t function_of(Kernel& k, CUfunction* out) {
  std::lock_guard lock(state().mutex);
  if (k.function == nullptr) {
    if (const CUresult r = load(*k.fatbin); r != CUDA_SUCCESS) return from(r);
    if (const CUresult r = cuModuleGetFunction(&k.function, k.fatbin->module, k.name.c_str()); r != CUDA_SUCCESS)
      return from(r);
  }
  *out = k.function;
  return cudaSuccess;
}

cudaError_t launch(Kernel* k, dim3 grid, dim3 block, void** args, std::size_t shared, cudaStream_t stream) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  if (k == nullptr) return note(cudaErrorInvalidDeviceFunction);
  CUfunction f = nullptr;
  if (const cudaError_t e = function_of(*k, &f); e != cudaSuccess) return note(e);
  return note(from(cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                  static_cast<unsigned>(shared), stream, args, nullptr)));
}

}  // namespace

cudaError_t note(cudaError_t e) {
  if (e != cudaSuccess && e != cudaErrorNotReady) last_error = e;  // "not ready" is an answer, not an error
  return e;
}

cudaError_t ensure_context() {
  auto& s = state();
  {
    std::lock_guard lock(s.mutex);
    if (!s.initialised) {
      s.initialised = true;
      CUdevice dev = 0;
      s.init_result = cuInit(0);
      if (s.init_result == CUDA_SUCCESS) s.init_result = cuDeviceGet(&dev, 0);
      if (s.init_result == CUDA_SUCCESS) s.init_result = cuDevicePrimaryCtxRetain(&s.context, dev);
    }
    if (s.init_result != CUDA_SUCCESS) return from(s.init_result);
  }
  if (!context_current) {
    if (const CUresult r = cuCtxSetCurrent(s.context); r != CUDA_SUCCESS) return from(r);
    context_current = true;
  }
  return cudaSuccess;
}

/// The variable registered for `symbol`: its device address and size, its module loaded first.
cudaError_t variable_address(const void* symbol, CUdeviceptr* address, std::size_t* size) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return e;
  auto& s = state();
  std::lock_guard lock(s.mutex);
  const auto it = s.variables.find(symbol);
  if (it == s.variables.end()) return cudaErrorInvalidSymbol;
  if (const CUresult r = load(*it->second.fatbin); r != CUDA_SUCCESS) return from(r);
  return from(cuModuleGetGlobal(address, size, it->second.fatbin->module, it->second.name.c_str()));
}

}  // namespace drvrt

using namespace drvrt;

extern "C" {

void** __cudaRegisterFatBinary(void* fatCubin) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.fatbins.push_back(Fatbin{fatCubin, nullptr});
  return reinterpret_cast<void**>(&s.fatbins.back());
}

void __cudaRegisterFatBinaryEnd(void** /*handle*/) {}

// The driver unloads the modules with the context at exit.
void __cudaUnregisterFatBinary(void** /*handle*/) {}

// Referenced by nvcc's host code (crt/host_runtime.h's __nv_init_managed_rt_with_module) in every
// translation unit built without optimisation; called only for __managed__ variables, whose
// registration (__cudaRegisterManagedVar) drvrt does not cover. Loads the module: 1 when loaded.
char __cudaInitModule(void** handle) {
  if (ensure_context() != cudaSuccess) return 0;
  std::lock_guard lock(state().mutex);
  return load(*reinterpret_cast<Fatbin*>(handle)) == CUDA_SUCCESS ? 1 : 0;
}

void __cudaRegisterFunction(void** handle, const char* hostFun, char* /*deviceFun*/, const char* deviceName,
                            int /*thread_limit*/, uint3* /*tid*/, uint3* /*bid*/, dim3* /*bDim*/, dim3* /*gDim*/,
                            int* /*wSize*/) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.kernels[hostFun] = Kernel{reinterpret_cast<Fatbin*>(handle), deviceName, nullptr};
}

void __cudaRegisterVar(void** handle, char* hostVar, char* /*deviceAddress*/, const char* deviceName, int /*ext*/,
                       size_t size, int /*constant*/, int /*global*/) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.variables[hostVar] = Variable{reinterpret_cast<Fatbin*>(handle), deviceName, size};
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, CUstream_st* stream) {
  configurations.push_back(Configuration{gridDim, blockDim, sharedMem, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
  if (configurations.empty()) return note(cudaErrorMissingConfiguration);
  const Configuration c = configurations.back();
  configurations.pop_back();
  *gridDim = c.grid;
  *blockDim = c.block;
  *sharedMem = c.shared;
  *static_cast<CUstream*>(stream) = c.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* hostFun) {
  Kernel* k = find_kernel(hostFun);
  if (k == nullptr) return note(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(k);
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                               cudaStream_t stream) {
  return launch(reinterpret_cast<Kernel*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                             cudaStream_t stream) {
  return launch(find_kernel(func), gridDim, blockDim, args, sharedMem, stream);
}

// The kernel's attributes, each from cuFuncGetAttribute (CUfunction_attribute names the fields of
// cudaFuncAttributes); the occupancy templates of cuda_runtime.h (cudaOccupancyMaxPotentialBlockSize
// and its VariableSMem form) call it and the call below.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  if (attr == nullptr) return note(cudaErrorInvalidValue);
  Kernel* k = find_kernel(func);
  if (k == nullptr) return note(cudaErrorInvalidDeviceFunction);
  CUfunction f = nullptr;
  if (const cudaError_t e = function_of(*k, &f); e != cudaSuccess) return note(e);
  *attr = cudaFuncAttributes{};
  CUresult r = CUDA_SUCCESS;
  const auto get = [&](auto& field, CUfunction_attribute a) {
    int v = 0;
    if (r == CUDA_SUCCESS) r = cuFuncGetAttribute(&v, a, f);
    field = static_cast<std::remove_reference_t<decltype(field)>>(v);
  };
  get(attr->sharedSizeBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  get(attr->constSizeBytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
  get(attr->localSizeBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  get(attr->maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  get(attr->numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS);
  get(attr->ptxVersion, CU_FUNC_ATTRIBUTE_PTX_VERSION);
  get(attr->binaryVersion, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  get(attr->cacheModeCA, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA);
  get(attr->maxDynamicSharedSizeBytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  get(attr->preferredShmemCarveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
  get(attr->clusterDimMustBeSet, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET);
  get(attr->requiredClusterWidth, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);
  get(attr->requiredClusterHeight, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT);
  get(attr->requiredClusterDepth, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH);
  get(attr->nonPortableClusterSizeAllowed, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
  get(attr->clusterSchedulingPolicyPreference, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE);
  return note(from(r));
}

// cudaOccupancyDefault 0 and cudaOccupancyDisableCachingOverride 1 are CU_OCCUPANCY_*'s.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  Kernel* k = find_kernel(func);
  if (k == nullptr) return note(cudaErrorInvalidDeviceFunction);
  CUfunction f = nullptr;
  if (const cudaError_t e = function_of(*k, &f); e != cudaSuccess) return note(e);
  return note(from(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, f, blockSize, dynamicSMemSize,
                                                                       flags)));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaGetLastError() {
  const cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}

const char* cudaGetErrorString(cudaError_t error) {
  const char* s = nullptr;
  if (cuGetErrorString(static_cast<CUresult>(error), &s) != CUDA_SUCCESS || s == nullptr)
    return "unrecognized error code";
  return s;
}

/// The runtime's names (driver_types.h) of the errors a driver call returns here; any other is
/// named by the driver (cuGetErrorName: "CUDA_ERROR_...").
const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorCudartUnloading: return "cudaErrorCudartUnloading";
    case cudaErrorMissingConfiguration: return "cudaErrorMissingConfiguration";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorDeviceUninitialized: return "cudaErrorDeviceUninitialized";
    case cudaErrorNoKernelImageForDevice: return "cudaErrorNoKernelImageForDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorSymbolNotFound: return "cudaErrorSymbolNotFound";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorUnknown: return "cudaErrorUnknown";
    default: break;
  }
  const char* s = nullptr;
  if (cuGetErrorName(static_cast<CUresult>(error), &s) != CUDA_SUCCESS || s == nullptr) return "unrecognized error code";
  return s;
}

cudaError_t cudaProfilerStart() {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  return note(from(cuProfilerStart()));
}

cudaError_t cudaProfilerStop() {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  return note(from(cuProfilerStop()));
}

}  // extern "C"
