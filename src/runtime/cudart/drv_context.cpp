// The driver API's initialisation, errors, devices and contexts (drv.hpp). The device is the
// runtime's (device_properties, device_attribute); contexts are handles onto the one state.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/cudart/drv.hpp"

namespace warpscope::cudart {
namespace drv {
namespace {

std::atomic<bool> g_initialized{false};

struct PrimaryState {
  unsigned flags = 0;
  int retained = 0;  // cuDevicePrimaryCtxRetain minus Release; the runtime's own use counts as one
  bool runtime_active = false;
};
PrimaryState& primary_state() {
  static PrimaryState s;
  return s;
}
std::mutex& ctx_mutex() {
  static std::mutex m;
  return m;
}

std::vector<Context*>& ctx_stack() {
  // Never destroyed: driver calls from atexit handlers come after thread_local destructors.
  thread_local std::vector<Context*>& s = *new std::vector<Context*>;
  return s;
}

struct ErrorEntry {
  int code;
  const char* name;
};
constexpr ErrorEntry kErrors[] = {
#define X(n, name) {n, name},
#include "runtime/cudart/drv_error_table.inc"
#undef X
};

const ErrorEntry* find_error(int code) {
  for (const ErrorEntry& e : kErrors)
    if (e.code == code) return &e;
  return nullptr;
}

bool valid_device(int dev) { return dev == 0; }

}  // namespace

Context* primary_context() {
  static Context* c = [] {
    auto* p = new Context();
    p->primary = true;
    return p;
  }();
  return c;
}

Context*& current_context() {
  thread_local Context* dummy = nullptr;
  std::vector<Context*>& s = ctx_stack();
  if (s.empty()) {
    dummy = nullptr;
    return dummy;
  }
  return s.back();
}

CUresult from_runtime(cudaError_t e) {
  switch (e) {
    case kErrInvalidConfiguration:
    case kErrInvalidPitchValue:
    case kErrInvalidDevicePointer:
    case kErrInvalidMemcpyDirection:
    case kErrMissingConfiguration:
    case kErrInvalidChannelDescriptor: return kCuInvalidValue;
    case kErrInvalidSymbol: return kCuNotFound;
    case kErrInvalidDeviceFunction: return kCuInvalidHandle;
    default: return e;  // the runtime's numbers are the driver's for every other code
  }
}

CUresult need_init() { return g_initialized.load() ? kCuSuccess : kCuNotInitialized; }

CUresult need_context() {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  Context* c = current_context();
  if (c == nullptr || c->destroyed) return kCuInvalidContext;
  return kCuSuccess;
}

CUresult not_supported(const char* name) {
  static std::mutex mu;
  static std::set<std::string>& said = *new std::set<std::string>;  // never destroyed
  {
    std::lock_guard lock(mu);
    if (said.insert(name).second) std::fprintf(stderr, "warpscope: %s is not supported by warpscope's CUDA driver\n", name);
  }
  return kCuNotSupported;
}

}  // namespace drv

void runtime_entered() {
  // A runtime call initialises the driver and makes the primary context current on its thread, as
  // cudaSetDevice and the runtime's implicit initialisation do.
  drv::g_initialized.store(true);
  auto& s = drv::ctx_stack();
  if (s.empty()) {
    s.push_back(drv::primary_context());
    std::lock_guard lock(drv::ctx_mutex());
    drv::primary_state().runtime_active = true;
  }
}

}  // namespace warpscope::cudart

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Errors -------------------------------------------------------------------------------------

WS_DRV CUresult cuGetErrorName(CUresult error, const char** str) {
  if (str == nullptr) return kCuInvalidValue;
  const ErrorEntry* e = find_error(error);
  *str = e != nullptr ? e->name : nullptr;
  return e != nullptr ? kCuSuccess : kCuInvalidValue;
}

WS_DRV CUresult cuGetErrorString(CUresult error, const char** str) {
  if (str == nullptr) return kCuInvalidValue;
  const ErrorEntry* e = find_error(error);
  if (e == nullptr) {
    *str = nullptr;
    return kCuInvalidValue;
  }
  // The runtime's description of the same number (its codes are the driver's), except where the
  // runtime's name for the number describes something else.
  switch (error) {
    case kCuInvalidContext: *str = "invalid device context"; break;
    case 202: *str = "context already current"; break;
    case 916: *str = "key rotation"; break;
    default: *str = error_string(error); break;
  }
  return kCuSuccess;
}

// ---- Initialisation and version -----------------------------------------------------------------

WS_DRV CUresult cuInit(unsigned flags) {
  if (flags != 0) return kCuInvalidValue;  // "Flags: Initialization flag for CUDA; must be 0"
  g_initialized.store(true);
  // The device now, as the runtime's first call makes it: its address range is reserved in the
  // process before the program maps memory of its own there (a driver-API program that mmaps and
  // then registers the memory would otherwise find its pages inside the device's range).
  try {
    (void)Runtime::get().device();
  } catch (const warpscope::Error&) {
    return kCuNotInitialized;
  }
  return kCuSuccess;
}

WS_DRV CUresult cuDriverGetVersion(int* version) {
  if (version == nullptr) return kCuInvalidValue;
  *version = 13000;  // as cudaDriverGetVersion: the CUDA 13.0 driver API
  return kCuSuccess;
}

// ---- Devices ------------------------------------------------------------------------------------

WS_DRV CUresult cuDeviceGet(int* device, int ordinal) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (device == nullptr) return kCuInvalidValue;
  if (!valid_device(ordinal)) return kCuInvalidDevice;
  *device = ordinal;
  return kCuSuccess;
}

WS_DRV CUresult cuDeviceGetCount(int* count) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (count == nullptr) return kCuInvalidValue;
  *count = 1;
  return kCuSuccess;
}

WS_DRV CUresult cuDeviceGetName(char* name, int len, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (name == nullptr || len <= 0) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  const DeviceProp p = device_properties(Runtime::get().profile());
  std::strncpy(name, p.name, static_cast<std::size_t>(len) - 1);
  name[len - 1] = '\0';
  return kCuSuccess;
}

WS_DRV CUresult cuDeviceGetAttribute(int* value, int attr, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (value == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  // CUdevice_attribute numbers are cudaDeviceAttr's.
  return device_attribute(Runtime::get().profile(), attr, value) ? kCuSuccess : kCuInvalidValue;
}

WS_DRV CUresult cuDeviceTotalMem_v2(std::size_t* bytes, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (bytes == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  *bytes = device_properties(Runtime::get().profile()).totalGlobalMem;
  return kCuSuccess;
}

WS_DRV CUresult cuDeviceGetUuid_v2(Uuid* uuid, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (uuid == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  *uuid = device_properties(Runtime::get().profile()).uuid;
  return kCuSuccess;
}
WS_DRV CUresult cuDeviceGetUuid(Uuid* uuid, int dev) { return cuDeviceGetUuid_v2(uuid, dev); }

WS_DRV CUresult cuDeviceComputeCapability(int* major, int* minor, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (major == nullptr || minor == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  *major = Runtime::get().profile().cc_major;
  *minor = Runtime::get().profile().cc_minor;
  return kCuSuccess;
}

/// CUdevprop (deprecated cuDeviceGetProperties).
struct DevProp {
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], sharedMemPerBlock, totalConstantMemory, SIMDWidth,
      memPitch, regsPerBlock, clockRate, textureAlign;
};
WS_DRV CUresult cuDeviceGetProperties(DevProp* prop, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (prop == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  const DeviceProp p = device_properties(Runtime::get().profile());
  int clock = 0;
  device_attribute(Runtime::get().profile(), 13, &clock);  // CU_DEVICE_ATTRIBUTE_CLOCK_RATE
  auto narrow = [](std::size_t v) { return v > 2147483647u ? 2147483647 : static_cast<int>(v); };
  *prop = DevProp{p.maxThreadsPerBlock, {p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]},
                  {p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]}, narrow(p.sharedMemPerBlock),
                  narrow(p.totalConstMem), p.warpSize, narrow(p.memPitch), p.regsPerBlock, clock,
                  narrow(p.textureAlignment)};
  return kCuSuccess;
}

// ---- The primary context ------------------------------------------------------------------------

WS_DRV CUresult cuDevicePrimaryCtxRetain(Context** ctx, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  std::lock_guard lock(ctx_mutex());
  ++primary_state().retained;
  *ctx = primary_context();
  return kCuSuccess;
}

WS_DRV CUresult cuDevicePrimaryCtxRelease_v2(int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (!valid_device(dev)) return kCuInvalidDevice;
  std::lock_guard lock(ctx_mutex());
  if (primary_state().retained <= 0) return kCuInvalidContext;
  --primary_state().retained;
  return kCuSuccess;
}
WS_DRV CUresult cuDevicePrimaryCtxRelease(int dev) { return cuDevicePrimaryCtxRelease_v2(dev); }

WS_DRV CUresult cuDevicePrimaryCtxGetState(int dev, unsigned* flags, int* active) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (flags == nullptr || active == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  std::lock_guard lock(ctx_mutex());
  *flags = primary_state().flags;
  *active = primary_state().retained > 0 || primary_state().runtime_active ? 1 : 0;
  return kCuSuccess;
}

WS_DRV CUresult cuDevicePrimaryCtxSetFlags_v2(int dev, unsigned flags) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (!valid_device(dev)) return kCuInvalidDevice;
  std::lock_guard lock(ctx_mutex());
  primary_state().flags = flags;
  return kCuSuccess;
}
WS_DRV CUresult cuDevicePrimaryCtxSetFlags(int dev, unsigned flags) { return cuDevicePrimaryCtxSetFlags_v2(dev, flags); }

// Destroys the device's state (allocations, modules' device copies, streams, events), as
// cudaDeviceReset does; the primary context may be retained again.
WS_DRV CUresult cuDevicePrimaryCtxReset_v2(int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (!valid_device(dev)) return kCuInvalidDevice;
  context_storage_release(primary_context());  // NVIDIA's static runtime forgets its state in it
  {
    std::lock_guard lock(ctx_mutex());
    primary_state().retained = 0;
    primary_state().runtime_active = false;
    primary_state().flags = 0;
  }
  return via_runtime([] { return cudaDeviceReset(); });
}
WS_DRV CUresult cuDevicePrimaryCtxReset(int dev) { return cuDevicePrimaryCtxReset_v2(dev); }

// ---- Contexts -----------------------------------------------------------------------------------

WS_DRV CUresult cuCtxCreate_v2(Context** ctx, unsigned flags, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr) return kCuInvalidValue;
  if (!valid_device(dev)) return kCuInvalidDevice;
  auto* c = new Context();  // never freed: a handle may outlive cuCtxDestroy in a buggy program
  c->flags = flags;
  ctx_stack().push_back(c);  // the new context is current
  *ctx = c;
  return kCuSuccess;
}
WS_DRV CUresult cuCtxCreate(Context** ctx, unsigned flags, int dev) { return cuCtxCreate_v2(ctx, flags, dev); }

WS_DRV CUresult cuCtxCreate_v3(Context** ctx, void* affinity, int num_affinity, unsigned flags, int dev) {
  // Execution affinity (SM counts) changes nothing in a model that runs every CTA.
  (void)affinity;
  (void)num_affinity;
  return cuCtxCreate_v2(ctx, flags, dev);
}

/// CUctxCreateParams: execution affinity and the CIG (shared graphics context) parameters.
struct CtxCreateParams {
  void* exec_affinity;
  int num_exec_affinity;
  void* cig;
};
WS_DRV CUresult cuCtxCreate_v4(Context** ctx, CtxCreateParams* params, unsigned flags, int dev) {
  if (params != nullptr && params->cig != nullptr) return drv::not_supported("cuCtxCreate with CIG parameters");
  return cuCtxCreate_v2(ctx, flags, dev);
}

WS_DRV CUresult cuCtxDestroy_v2(Context* ctx) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr || ctx->destroyed) return kCuInvalidValue;
  if (ctx->primary) return kCuInvalidContext;  // the primary context is released, not destroyed
  context_storage_release(ctx);
  ctx->destroyed = true;
  auto& s = ctx_stack();
  std::erase(s, ctx);
  return kCuSuccess;
}
WS_DRV CUresult cuCtxDestroy(Context* ctx) { return cuCtxDestroy_v2(ctx); }

WS_DRV CUresult cuCtxPushCurrent_v2(Context* ctx) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr || ctx->destroyed) return kCuInvalidContext;
  ctx_stack().push_back(ctx);
  return kCuSuccess;
}
WS_DRV CUresult cuCtxPushCurrent(Context* ctx) { return cuCtxPushCurrent_v2(ctx); }

WS_DRV CUresult cuCtxPopCurrent_v2(Context** ctx) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  auto& s = ctx_stack();
  if (s.empty()) return kCuInvalidContext;
  if (ctx != nullptr) *ctx = s.back();
  s.pop_back();
  return kCuSuccess;
}
WS_DRV CUresult cuCtxPopCurrent(Context** ctx) { return cuCtxPopCurrent_v2(ctx); }

WS_DRV CUresult cuCtxSetCurrent(Context* ctx) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  auto& s = ctx_stack();
  if (ctx == nullptr) {  // "If ctx is NULL, the current context is popped from the stack"
    if (!s.empty()) s.pop_back();
    return kCuSuccess;
  }
  if (ctx->destroyed) return kCuInvalidContext;
  if (s.empty()) s.push_back(ctx);
  else s.back() = ctx;
  return kCuSuccess;
}

WS_DRV CUresult cuCtxGetCurrent(Context** ctx) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr) return kCuInvalidValue;
  *ctx = current_context();
  return kCuSuccess;
}

WS_DRV CUresult cuCtxGetDevice(int* device) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (device == nullptr) return kCuInvalidValue;
  *device = 0;
  return kCuSuccess;
}
WS_DRV CUresult cuCtxGetDevice_v2(int* device, Context* ctx) {
  if (ctx == nullptr) return cuCtxGetDevice(device);
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (device == nullptr) return kCuInvalidValue;
  if (ctx->destroyed) return kCuInvalidContext;
  *device = 0;
  return kCuSuccess;
}

WS_DRV CUresult cuCtxGetFlags(unsigned* flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (flags == nullptr) return kCuInvalidValue;
  Context* c = current_context();
  std::lock_guard lock(ctx_mutex());
  *flags = c->primary ? primary_state().flags : c->flags;
  return kCuSuccess;
}
WS_DRV CUresult cuCtxSetFlags(unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  Context* c = current_context();
  std::lock_guard lock(ctx_mutex());
  (c->primary ? primary_state().flags : c->flags) = flags;
  return kCuSuccess;
}

WS_DRV CUresult cuCtxGetId(Context* ctx, unsigned long long* id) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr) ctx = current_context();
  if (ctx == nullptr || ctx->destroyed) return kCuInvalidContext;
  if (id == nullptr) return kCuInvalidValue;
  *id = reinterpret_cast<std::uintptr_t>(ctx);
  return kCuSuccess;
}

WS_DRV CUresult cuCtxSynchronize() {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([] { return cudaDeviceSynchronize(); });
}
WS_DRV CUresult cuCtxSynchronize_v2(Context* ctx) {
  if (ctx != nullptr && ctx->destroyed) return kCuInvalidContext;
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  return via_runtime([] { return cudaDeviceSynchronize(); });
}

WS_DRV CUresult cuCtxGetApiVersion(Context* ctx, unsigned* version) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (ctx == nullptr) ctx = current_context();
  if (ctx == nullptr || ctx->destroyed) return kCuInvalidContext;
  if (version == nullptr) return kCuInvalidValue;
  *version = 3020;  // the documented value for a context of the current (v2) API
  return kCuSuccess;
}

// CUlimit numbers are cudaLimit's.
WS_DRV CUresult cuCtxSetLimit(int limit, std::size_t value) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceSetLimit(limit, value); });
}
WS_DRV CUresult cuCtxGetLimit(std::size_t* value, int limit) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceGetLimit(value, limit); });
}

WS_DRV CUresult cuCtxGetCacheConfig(int* config) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (config == nullptr) return kCuInvalidValue;
  *config = 0;  // CU_FUNC_CACHE_PREFER_NONE
  return kCuSuccess;
}
WS_DRV CUresult cuCtxSetCacheConfig(int config) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return config >= 0 && config <= 3 ? kCuSuccess : kCuInvalidValue;  // a preference: changes nothing
}

WS_DRV CUresult cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceGetStreamPriorityRange(least, greatest); });
}

// Profiling markers: NVIDIA's static runtime makes cudaProfilerStart/Stop these calls. Accepted, as
// warpscope's runtime accepts cudaProfilerStart/Stop: every launch is profiled (the launch filter is
// warpscope run's -k/-s/-c).
WS_DRV CUresult cuProfilerStart() { return need_context(); }
WS_DRV CUresult cuProfilerStop() { return need_context(); }
