// The driver API's legacy launch calls (drv.hpp): cuFuncSetBlockShape, cuFuncSetSharedSize and
// cuParamSet* keep a function's block shape, dynamic shared memory and parameter buffer, which
// cuLaunch, cuLaunchGrid and cuLaunchGridAsync launch through cuLaunchKernel with that buffer
// (CU_LAUNCH_PARAM_BUFFER_POINTER: its parameters checked against the kernel's as there). Also
// cuFuncLoad and cuFuncIsLoaded: a module's functions are loaded with it.
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "runtime/cudart/drv.hpp"

extern "C" {
using warpscope::cudart::drv::CUresult;
CUresult cuFuncGetName(const char** name, void* fn);
CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shmem, void* stream, void** params, void** extra);
}

namespace warpscope::cudart::drv {
namespace {

struct LegacyLaunch {
  int block[3] = {0, 0, 0};  // cuFuncSetBlockShape's; 0: not set
  unsigned shared = 0;
  std::vector<unsigned char> params;  // cuParamSetSize's size, cuParamSet*'s bytes
};

std::mutex& legacy_mu() {
  static std::mutex& m = *new std::mutex;
  return m;
}
std::map<void*, LegacyLaunch>& legacy() {
  static std::map<void*, LegacyLaunch>& m = *new std::map<void*, LegacyLaunch>;  // never destroyed
  return m;
}

/// Runs `body` on the function's legacy state, after the checks: a current context and a kernel.
template <typename F>
CUresult with_state(void* fn, F&& body) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  const char* name = nullptr;
  if (CUresult e = cuFuncGetName(&name, fn); e != kCuSuccess) return e;
  std::lock_guard lock(legacy_mu());
  return body(legacy()[fn]);
}

/// cuParamSet*: `bytes` at `offset` of the buffer, which must hold them (cuParamSetSize).
CUresult set_param(void* fn, int offset, const void* data, std::size_t bytes) {
  return with_state(fn, [&](LegacyLaunch& l) -> CUresult {
    if (offset < 0 || static_cast<std::size_t>(offset) + bytes > l.params.size()) return kCuInvalidValue;
    std::memcpy(l.params.data() + offset, data, bytes);
    return kCuSuccess;
  });
}

CUresult launch_grid(void* fn, int gx, int gy, void* stream) {
  if (gx <= 0 || gy <= 0) return kCuInvalidValue;
  LegacyLaunch l;
  if (CUresult e = with_state(fn, [&](LegacyLaunch& s) -> CUresult {
        l = s;
        return kCuSuccess;
      });
      e != kCuSuccess)
    return e;
  if (l.block[0] <= 0 || l.block[1] <= 0 || l.block[2] <= 0) return kCuInvalidValue;  // no cuFuncSetBlockShape
  std::size_t size = l.params.size();
  void* extra[] = {reinterpret_cast<void*>(1), l.params.data(), reinterpret_cast<void*>(2), &size, nullptr};
  return cuLaunchKernel(fn, static_cast<unsigned>(gx), static_cast<unsigned>(gy), 1, static_cast<unsigned>(l.block[0]),
                        static_cast<unsigned>(l.block[1]), static_cast<unsigned>(l.block[2]), l.shared, stream, nullptr,
                        extra);
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart::drv;  // NOLINT: the C entry points below

WS_DRV CUresult cuFuncSetBlockShape(void* fn, int x, int y, int z) {
  if (x <= 0 || y <= 0 || z <= 0) return kCuInvalidValue;
  return with_state(fn, [&](LegacyLaunch& l) -> CUresult {
    l.block[0] = x;
    l.block[1] = y;
    l.block[2] = z;
    return kCuSuccess;
  });
}
WS_DRV CUresult cuFuncSetSharedSize(void* fn, unsigned bytes) {
  return with_state(fn, [&](LegacyLaunch& l) -> CUresult {
    l.shared = bytes;
    return kCuSuccess;
  });
}
WS_DRV CUresult cuParamSetSize(void* fn, unsigned bytes) {
  return with_state(fn, [&](LegacyLaunch& l) -> CUresult {
    l.params.resize(bytes);
    return kCuSuccess;
  });
}
WS_DRV CUresult cuParamSeti(void* fn, int offset, unsigned value) { return set_param(fn, offset, &value, sizeof value); }
WS_DRV CUresult cuParamSetf(void* fn, int offset, float value) { return set_param(fn, offset, &value, sizeof value); }
WS_DRV CUresult cuParamSetv(void* fn, int offset, void* data, unsigned bytes) {
  if (data == nullptr && bytes != 0) return kCuInvalidValue;
  return set_param(fn, offset, data, bytes);
}
WS_DRV CUresult cuLaunch(void* fn) { return launch_grid(fn, 1, 1, nullptr); }
WS_DRV CUresult cuLaunchGrid(void* fn, int gx, int gy) { return launch_grid(fn, gx, gy, nullptr); }
WS_DRV CUresult cuLaunchGridAsync(void* fn, int gx, int gy, void* stream) { return launch_grid(fn, gx, gy, stream); }

// A module's functions are loaded with it (cuModuleGetLoadingMode: eager).
WS_DRV CUresult cuFuncLoad(void* fn) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  const char* name = nullptr;
  return cuFuncGetName(&name, fn);
}
WS_DRV CUresult cuFuncIsLoaded(int* state, void* fn) {
  if (state == nullptr) return kCuInvalidValue;
  if (CUresult e = cuFuncLoad(fn); e != kCuSuccess) return e;
  *state = 1;  // CU_FUNCTION_LOADING_STATE_LOADED
  return kCuSuccess;
}
