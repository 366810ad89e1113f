// The registration interface nvcc's generated code calls (crt/host_runtime.h): fatbinaries,
// kernels (host stub -> device name) and variables (host shadow -> device symbol), and the
// launch paths of CUDA 12 (cudaLaunchKernel(stub, ...)) and CUDA 13 (__cudaGetKernel +
// __cudaLaunchKernel), with the <<<>>> configuration stack in between.
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {

struct CallConfig {
  Dim3 grid, block;
  std::size_t shmem;
  void* stream;
};

std::vector<CallConfig>& config_stack() {
  // Never destroyed: launches from atexit handlers come after thread_local destructors.
  thread_local std::vector<CallConfig>& s = *new std::vector<CallConfig>;
  return s;
}

ModuleRec* module_of(void** handle) {
  Runtime& rt = Runtime::get();
  auto it = rt.module_by_handle.find(handle);
  return it == rt.module_by_handle.end() ? nullptr : it->second;
}

}  // namespace

WS_API void** __cudaRegisterFatBinary(void* wrapper) {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  auto m = std::make_unique<ModuleRec>();
  m->wrapper = wrapper;
  m->origin = fmt::format("fatbinary {}", rt.modules.size());
  try {
    m->wrapper_version = static_cast<int>(warpscope::runtime::fatbin::read_wrapper(wrapper).version);
  } catch (const warpscope::Error& e) {
    m->state = ModuleRec::State::kFailed;
    m->load_error = kErrInvalidKernelImage;
    m->load_message = e.what();
    std::fprintf(stderr, "warpscope: %s: %s\n", m->origin.c_str(), e.what());
  }
  // The handle the program keeps is the address of our record's wrapper slot: unique and stable.
  void** handle = const_cast<void**>(&m->wrapper);
  rt.module_by_handle[handle] = m.get();
  rt.modules.push_back(std::move(m));
  return handle;
}

WS_API void __cudaRegisterFatBinaryEnd(void** handle) {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  (void)module_of(handle);  // modules load lazily, on first use of one of their kernels or variables
}

WS_API void __cudaUnregisterFatBinary(void** handle) {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  // The report is complete once the program's modules go away (this runs from atexit).
  if (ModuleRec* m = module_of(handle)) {
    bool last = true;
    for (auto& other : rt.modules)
      if (other.get() != m && rt.module_by_handle.count(const_cast<void**>(&other->wrapper))) last = false;
    rt.module_by_handle.erase(handle);
    if (last) rt.write_report();
  }
}

WS_API void __cudaRegisterFunction(void** handle, const char* host_fun, char* device_fun, const char* device_name,
                                   int, void*, void*, void*, void*, int*) {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  ModuleRec* m = module_of(handle);
  if (m == nullptr || host_fun == nullptr) return;
  auto k = std::make_unique<KernelRec>();
  k->module = m;
  k->name = device_name != nullptr ? device_name : (device_fun != nullptr ? device_fun : "");
  k->stub = host_fun;
  m->kernels.push_back(k.get());
  rt.kernel_by_stub[host_fun] = k.get();
  rt.kernels.push_back(std::move(k));
}

WS_API void __cudaRegisterVar(void** handle, char* host_var, char* device_address, const char* device_name, int,
                              std::size_t size, int constant, int) {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  ModuleRec* m = module_of(handle);
  if (m == nullptr || host_var == nullptr) return;
  auto v = std::make_unique<VarRec>();
  v->module = m;
  v->name = device_name != nullptr ? device_name : (device_address != nullptr ? device_address : "");
  v->size = size;
  v->constant = constant != 0;
  m->vars.push_back(v.get());
  rt.var_by_shadow[host_var] = v.get();
  rt.vars.push_back(std::move(v));
}

WS_API void __cudaRegisterManagedVar(void** handle, void** host_ptr_slot, char* device_address,
                                     const char* device_name, int ext, std::size_t size, int constant, int global) {
  // __managed__ variables: registered like __device__ ones; the program reaches them through
  // *host_ptr_slot, which __cudaInitModule points at the device copy. Not mirrored to the host:
  // host access to a __managed__ variable is unsupported (docs/runtime.md).
  __cudaRegisterVar(handle, reinterpret_cast<char*>(host_ptr_slot), device_address, device_name, ext, size,
                    constant, global);
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  if (VarRec* v = rt.find_var(host_ptr_slot)) {
    v->managed = true;
    v->managed_host_slot = host_ptr_slot;
  }
}

WS_API char __cudaInitModule(void** handle) {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  ModuleRec* m = module_of(handle);
  if (m == nullptr) return 0;
  return rt.ensure_loaded(*m) == kSuccess ? 1 : 0;
}

WS_API unsigned __cudaPushCallConfiguration(Dim3 grid, Dim3 block, std::size_t shmem, void* stream) {
  config_stack().push_back(CallConfig{grid, block, shmem, stream});
  return 0;
}

WS_API cudaError_t __cudaPopCallConfiguration(Dim3* grid, Dim3* block, std::size_t* shmem, void* stream) {
  auto& s = config_stack();
  if (s.empty()) return last_error() = kErrMissingConfiguration;
  const CallConfig c = s.back();
  s.pop_back();
  if (grid != nullptr) *grid = c.grid;
  if (block != nullptr) *block = c.block;
  if (shmem != nullptr) *shmem = c.shmem;
  if (stream != nullptr) *static_cast<void**>(stream) = c.stream;
  return kSuccess;
}

WS_API cudaError_t __cudaGetKernel(void** kernel, const void* stub) {
  return call("__cudaGetKernel", true, [&](Runtime& rt) {
    if (kernel == nullptr) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(stub);
    if (k == nullptr) return kErrInvalidDeviceFunction;
    *kernel = k;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetKernel(void** kernel, const void* entry) { return __cudaGetKernel(kernel, entry); }

WS_API cudaError_t cudaGetFuncBySymbol(void** func, const void* symbol) { return __cudaGetKernel(func, symbol); }

WS_API cudaError_t __cudaLaunchKernel(const void* kernel, Dim3 grid, Dim3 block, void** args, std::size_t shmem,
                                      void* stream) {
  return call("cudaLaunchKernel", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) return capture_launch(rt, stream, kernel, grid, block, args, shmem);
    return rt.launch(kernel, grid, block, args, shmem, stream);
  });
}

WS_API cudaError_t __cudaLaunchKernel_ptsz(const void* kernel, Dim3 grid, Dim3 block, void** args,
                                           std::size_t shmem, void* stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, shmem, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaLaunchKernel(const void* func, Dim3 grid, Dim3 block, void** args, std::size_t shmem,
                                    void* stream) {
  return __cudaLaunchKernel(func, grid, block, args, shmem, stream);
}

WS_API cudaError_t cudaLaunchKernel_ptsz(const void* func, Dim3 grid, Dim3 block, void** args, std::size_t shmem,
                                         void* stream) {
  return __cudaLaunchKernel(func, grid, block, args, shmem, const_cast<void*>(canonical_stream(stream, true)));
}

