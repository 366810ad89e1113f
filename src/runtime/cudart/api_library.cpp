// Libraries and kernels of the runtime (cudaLibrary*, cudaKernel_t; docs/runtime.md "Libraries").
// A cudaLibrary_t is the driver's CUlibrary (drv_module.cpp: a module loaded from PTX text, a
// fatbinary or a file) and a cudaKernel_t its CUkernel (the kernel's record, which the runtime's
// launches take as they take a host stub): each call here is the driver's, its CUresult read as
// the runtime's code (the same numbers, but for a handle that names no kernel:
// cudaErrorInvalidDeviceFunction, and no library: cudaErrorInvalidResourceHandle).
#include "runtime/cudart/api.hpp"
#include "runtime/cudart/drv.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

extern "C" {
using warpscope::cudart::drv::CUresult;
CUresult cuLibraryLoadData(void** library, const void* code, void* jit_options, void** jit_values, unsigned n_jit,
                           void* lib_options, void** lib_values, unsigned n_lib);
CUresult cuLibraryLoadFromFile(void** library, const char* file, void* jit_options, void** jit_values, unsigned n_jit,
                               void* lib_options, void** lib_values, unsigned n_lib);
CUresult cuLibraryUnload(void* library);
CUresult cuLibraryGetKernel(void** kernel, void* library, const char* name);
CUresult cuLibraryGetGlobal(std::uint64_t* dptr, std::size_t* bytes, void* library, const char* name);
CUresult cuLibraryGetKernelCount(unsigned* count, void* library);
CUresult cuLibraryEnumerateKernels(void** kernels, unsigned n, void* library);
CUresult cuFuncGetParamInfo(void* fn, std::size_t index, std::size_t* offset, std::size_t* size);
}

namespace {

/// Runs a driver call as the runtime call `api`: its error is the runtime's last error.
/// `kernel_handle`: CUDA_ERROR_INVALID_HANDLE means the kernel handle is not one.
template <typename F>
cudaError_t via_driver(const char* api, bool kernel_handle, F&& f) {
  return call(api, [&](Runtime&) -> cudaError_t {
    const CUresult r = f();
    if (r == drv::kCuInvalidHandle && kernel_handle) return kErrInvalidDeviceFunction;
    return r;
  });
}

}  // namespace

WS_API cudaError_t cudaLibraryLoadData(void** library, const void* code, void* jit_options, void** jit_values,
                                       unsigned n_jit, void* lib_options, void** lib_values, unsigned n_lib) {
  return via_driver("cudaLibraryLoadData", false, [&] {
    return cuLibraryLoadData(library, code, jit_options, jit_values, n_jit, lib_options, lib_values, n_lib);
  });
}

WS_API cudaError_t cudaLibraryLoadFromFile(void** library, const char* file, void* jit_options, void** jit_values,
                                           unsigned n_jit, void* lib_options, void** lib_values, unsigned n_lib) {
  return via_driver("cudaLibraryLoadFromFile", false, [&] {
    return cuLibraryLoadFromFile(library, file, jit_options, jit_values, n_jit, lib_options, lib_values, n_lib);
  });
}

WS_API cudaError_t cudaLibraryUnload(void* library) {
  return via_driver("cudaLibraryUnload", false, [&] { return cuLibraryUnload(library); });
}

WS_API cudaError_t cudaLibraryGetKernel(void** kernel, void* library, const char* name) {
  return via_driver("cudaLibraryGetKernel", false, [&] { return cuLibraryGetKernel(kernel, library, name); });
}

WS_API cudaError_t cudaLibraryGetGlobal(void** dptr, std::size_t* bytes, void* library, const char* name) {
  return via_driver("cudaLibraryGetGlobal", false, [&] {
    return cuLibraryGetGlobal(reinterpret_cast<std::uint64_t*>(dptr), bytes, library, name);
  });
}

// caveat: the variable is found as cudaLibraryGetGlobal finds it; a library's __managed__ variable is device memory here (the host must copy it)
WS_API cudaError_t cudaLibraryGetManaged(void** dptr, std::size_t* bytes, void* library, const char* name) {
  return via_driver("cudaLibraryGetManaged", false, [&] {
    return cuLibraryGetGlobal(reinterpret_cast<std::uint64_t*>(dptr), bytes, library, name);
  });
}

// caveat: cudaErrorSymbolNotFound for every name: libraries loaded from PTX have no unified functions
WS_API cudaError_t cudaLibraryGetUnifiedFunction(void** fptr, void* library, const char* name) {
  return via_driver("cudaLibraryGetUnifiedFunction", false, [&]() -> CUresult {
    if (fptr == nullptr || name == nullptr) return drv::kCuInvalidValue;
    unsigned count = 0;
    if (CUresult r = cuLibraryGetKernelCount(&count, library); r != drv::kCuSuccess) return r;  // the handle's check
    return drv::kCuNotFound;
  });
}

WS_API cudaError_t cudaLibraryGetKernelCount(unsigned* count, void* library) {
  return via_driver("cudaLibraryGetKernelCount", false, [&] { return cuLibraryGetKernelCount(count, library); });
}

WS_API cudaError_t cudaLibraryEnumerateKernels(void** kernels, unsigned n, void* library) {
  return via_driver("cudaLibraryEnumerateKernels", false, [&] { return cuLibraryEnumerateKernels(kernels, n, library); });
}

WS_API cudaError_t cudaKernelSetAttributeForDevice(void* kernel, int attr, int value, int device) {
  if (device != 0) return call("cudaKernelSetAttributeForDevice", [](Runtime&) { return kErrInvalidDevice; });
  return cudaFuncSetAttribute(kernel, attr, value);
}

WS_API cudaError_t cudaFuncGetParamInfo(const void* func, std::size_t index, std::size_t* offset, std::size_t* size) {
  return via_driver("cudaFuncGetParamInfo", true,
                    [&] { return cuFuncGetParamInfo(const_cast<void*>(func), index, offset, size); });
}
