// The CUDA driver API (cuda.h) over the runtime's one device (docs/runtime.md, "The driver API").
// The same shared object as libcudart.so.13 exports the cu* functions; build/lib/warpscope/
// libcuda.so.1 is a symbolic link to it, so a program that links -lcuda, or dlopens libcuda.so.1,
// gets the very object the runtime lives in (the dynamic loader keeps one object per file
// identity): runtime and driver calls share the device, modules, allocations and the report.
//
// Every definition of an exported driver function starts a line with WS_DRV: gen_stubs.cmake
// reads those lines and generates a stub returning CUDA_ERROR_NOT_SUPPORTED for every other name
// of cuda_exports.txt.
//
// Contexts. There is one device and one state: the primary context is the runtime's, and a
// context made by cuCtxCreate is another handle onto the same state (its allocations are not
// freed by cuCtxDestroy). Each thread has a stack of current contexts, as the driver keeps; a
// runtime call on a thread with none makes the primary context current, as cudaSetDevice does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/cudart/api.hpp"

#define WS_DRV extern "C" __attribute__((visibility("default")))

// The runtime's entry points the driver's calls go through (api_*.cpp).
extern "C" {
using warpscope::cudart::cudaError_t;
cudaError_t cudaDeviceReset();
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceSetLimit(int limit, std::size_t value);
cudaError_t cudaDeviceGetLimit(std::size_t* value, int limit);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** dptr, void* hptr, unsigned flags);
cudaError_t cudaHostGetFlags(unsigned* flags, void* hptr);
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, int kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, int kind, void* stream);
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, int kind);
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, int kind, void* stream);
cudaError_t cudaPointerGetAttributes(warpscope::cudart::PointerAttributes* attr, const void* ptr);
cudaError_t cudaStreamCreateWithPriority(void** stream, unsigned flags, int priority);
cudaError_t cudaStreamDestroy(void* stream);
cudaError_t cudaStreamSynchronize(void* stream);
cudaError_t cudaStreamQuery(void* stream);
cudaError_t cudaStreamWaitEvent(void* stream, void* event, unsigned flags);
cudaError_t cudaStreamGetFlags(void* stream, unsigned* flags);
cudaError_t cudaStreamGetPriority(void* stream, int* priority);
cudaError_t cudaEventCreateWithFlags(void** event, unsigned flags);
cudaError_t cudaEventRecordWithFlags(void* event, void* stream, unsigned flags);
cudaError_t cudaEventSynchronize(void* event);
cudaError_t cudaEventQuery(void* event);
cudaError_t cudaEventElapsedTime(float* ms, void* start, void* end);
cudaError_t cudaEventDestroy(void* event);
cudaError_t cudaFuncGetAttributes(warpscope::cudart::FuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetAttribute(const void* func, int attr, int value);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, const void* func, int block_size,
                                                                   std::size_t shmem, unsigned flags);
cudaError_t cudaLaunchKernelExC(const warpscope::cudart::LaunchConfig* config, const void* func, void** args);
}

namespace warpscope::cudart::drv {

using CUresult = int;  // enum cudaError_enum (cuda.h)

// CUresult values used here (cuda.h, CUDA 13.0).
inline constexpr CUresult kCuSuccess = 0;
inline constexpr CUresult kCuInvalidValue = 1;
inline constexpr CUresult kCuOutOfMemory = 2;
inline constexpr CUresult kCuNotInitialized = 3;
inline constexpr CUresult kCuDeinitialized = 4;
inline constexpr CUresult kCuNoDevice = 100;
inline constexpr CUresult kCuInvalidDevice = 101;
inline constexpr CUresult kCuInvalidImage = 200;
inline constexpr CUresult kCuInvalidContext = 201;
inline constexpr CUresult kCuNoBinaryForGpu = 209;
inline constexpr CUresult kCuInvalidPtx = 218;
inline constexpr CUresult kCuFileNotFound = 301;
inline constexpr CUresult kCuInvalidHandle = 400;
inline constexpr CUresult kCuNotFound = 500;
inline constexpr CUresult kCuPrimaryContextActive = 708;
inline constexpr CUresult kCuNotSupported = 801;

/// The runtime's error code as the driver's: the same number where cuda.h has it, else the
/// driver's code for the same failure (an invalid configuration or pitch is CUDA_ERROR_INVALID_VALUE,
/// a function that is not a kernel CUDA_ERROR_INVALID_HANDLE, a symbol CUDA_ERROR_NOT_FOUND).
CUresult from_runtime(cudaError_t e);

/// Runs a runtime entry point for a driver call: the runtime's per-thread last error
/// (cudaGetLastError) is left as it was, as a driver call does not touch it.
template <typename F>
CUresult via_runtime(F&& f) {
  const cudaError_t saved = last_error();
  const cudaError_t e = f();
  last_error() = saved;
  return from_runtime(e);
}

/// The calls that need cuInit and a current context: CUDA_ERROR_NOT_INITIALIZED before cuInit (or a
/// runtime call), CUDA_ERROR_INVALID_CONTEXT when the thread has no current context.
CUresult need_init();
CUresult need_context();

/// A context handle (CUcontext): the primary context, or one cuCtxCreate made. Both reach the same
/// device state; `flags` are the creation flags.
struct Context {
  unsigned flags = 0;
  bool primary = false;
  bool destroyed = false;
};
Context* primary_context();
/// The calling thread's current context (top of its stack), or nullptr.
Context*& current_context();

/// The function and name a driver symbol has (cuGetProcAddress), from the generated list of every
/// name in cuda_exports.txt (gen_stubs.cmake).
struct DriverSymbol {
  const char* name;
  void* fn;
};
extern const DriverSymbol kDriverSymbols[];
extern const std::size_t kDriverSymbolCount;

/// cuGetProcAddress's answer: the function cuda.h's macros give `symbol` (e.g. "cuMemAlloc" ->
/// cuMemAlloc_v2) at `version`, and with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM (flags 2)
/// its _ptds/_ptsz form; nullptr when there is none. cudaGetDriverEntryPoint uses it too.
void* proc_address(const std::string& symbol, int version, std::uint64_t flags, bool* version_too_low);

/// The highest CUDA version a cuGetProcAddress call asked for (0 before any): the CUDA version of
/// the runtime that calls, for messages about NVIDIA's static runtime (drv_export.cpp).
int asked_driver_version();

/// WARPSCOPE_DRIVER_TRACE=1: one line on stderr per cuGetProcAddress lookup, export table asked
/// for and export table entry called (drv_export.cpp; docs/runtime.md "The static CUDA runtime").
bool driver_tracing();
void driver_trace(const std::string& line);

/// Runs and forgets the context-local storage of `ctx` (cuGetExportTable's table, which NVIDIA's
/// static runtime keeps its per-context state in): each entry's destructor is called, as when
/// the context is reset or destroyed.
void context_storage_release(Context* ctx);

/// CUDA_MEMCPY3D (cuda.h, CUDA 13.0): each side's position in bytes, memory type (CUmemorytype:
/// HOST 1, DEVICE 2, ARRAY 3, UNIFIED 4) and memory; the box's width in bytes.
struct Memcpy3D {
  struct Side {
    std::size_t x_bytes, y, z, lod;
    int type;
    const void* host;
    std::uint64_t device;
    void* array;
    void* reserved;
    std::size_t pitch, height;
  };
  Side src, dst;
  std::size_t width_bytes, height, depth;
};
static_assert(sizeof(Memcpy3D) == 200);

/// cuMemcpy3D(Async) (drv_array.cpp), which cuMemcpy2D's copies with an array use too.
CUresult copy_3d(const Memcpy3D* c, void* stream, bool async);

/// Whether `image` is one cuLinkComplete made (drv_link.cpp): then its PTX modules, to be linked
/// as a device link's translation units are (cuModuleLoadData of it, drv_module.cpp).
bool link_image_parts(const void* image, std::vector<PtxPart>* parts);

/// Prints "warpscope: NAME is not supported by warpscope's CUDA driver" once per name and returns
/// CUDA_ERROR_NOT_SUPPORTED (the generated stubs).
CUresult not_supported(const char* name);

}  // namespace warpscope::cudart::drv
