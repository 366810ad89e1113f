// Dynamic parallelism: the device runtime calls that `kernel<<<g, b, s, stream>>>(...)` in device
// code becomes (CUDA 12+: __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2; the CDP1
// pair GetParameterBuffer / LaunchDevice too), and the few others CUDA's device-launch code calls.
//
// A GPU runs a child grid at some time after its launch and before its parent grid is complete;
// the parent cannot wait for it (CUDA 12 removed device-side cudaDeviceSynchronize). warpscope
// records each launch here, in the order threads make them, and the launcher runs them after the
// parent grid has ended (src/runtime/cudart/runtime_cdp.cpp): a schedule the GPU may also choose.
// A program whose parent waits on memory a child writes would hang on a GPU only by chance; here
// the interpreter's deadlock rule names it. Parameter buffers are device-heap blocks (so kernels
// that launch use one host thread and hand out buffers in CTA order); a launch copies the buffer
// and frees it.
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/builtin_args.hpp"
#include "exec/fault.hpp"
#include "exec/heap.hpp"
#include "exec/machine.hpp"
#include "exec/memaccess.hpp"

namespace warpscope::exec {

namespace {

constexpr std::uint64_t kErrInvalidValue = 1;       // cudaErrorInvalidValue
constexpr std::uint64_t kErrLaunchFailure = 719;    // cudaErrorLaunchFailure
constexpr std::uint64_t kStreamTailLaunch = 0x3;    // cudaStreamTailLaunch
constexpr std::uint64_t kDeviceStreamBase = 0x100;  // handles cudaStreamCreateWithFlags hands out

Dim3 read_dim3(const std::uint8_t* p) {
  Dim3 d;
  std::memcpy(&d.x, p, 4);
  std::memcpy(&d.y, p + 4, 4);
  std::memcpy(&d.z, p + 8, 4);
  return d;
}

}  // namespace

bool is_cdp_builtin(CallInfo::Builtin b) {
  switch (b) {
    case CallInfo::Builtin::kCdpParamBuffer: case CallInfo::Builtin::kCdpParamBufferV1:
    case CallInfo::Builtin::kCdpLaunch: case CallInfo::Builtin::kCdpLaunchV1:
    case CallInfo::Builtin::kCdpNoError: case CallInfo::Builtin::kCdpStreamCreate:
    case CallInfo::Builtin::kCdpGetDevice: return true;
    default: return false;
  }
}

void CtaRunner::cdp_call(WarpState& w, const CallInfo& ci, std::uint32_t pc, std::uint32_t m) {
  auto arg = [&](unsigned l, std::size_t i) { return builtin_arg(ci, w, x_, l, i); };
  auto dim_arg = [&](unsigned l, std::size_t i) {
    std::uint8_t b[12];
    builtin_arg_bytes(ci, w, x_, l, i, b, sizeof b);
    return read_dim3(b);
  };
  auto set_result = [&](unsigned l, std::uint64_t v) { builtin_result(ci, w, x_, l, v); };
  // A pointer argument the call writes through (cudaStreamCreateWithFlags, cudaGetDevice).
  // A generic address (a local variable, usually): faults as a store there would.
  auto store_to = [&](unsigned l, std::uint64_t addr, const void* value, unsigned n) {
    Space space = Space::kGlobal;
    std::uint64_t space_addr = 0;
    std::uint8_t* p = translate<MemSpace::kGeneric>(x_, k_.code[pc], l, addr, n, Op::kStore, space, space_addr);
    if (p != nullptr) std::memcpy(p, value, n);
  };
  LaunchShared* const shared = cfg_.shared;
  if (shared == nullptr) fail(ErrorKind::kInternal, "a device-side launch outside a launch");
  const ptx::Module& mod = *k_.module;
  // The child kernel a function address names (decode.cpp: kFunctionAddressBase + 16 x index).
  auto entry_of = [&](std::uint64_t func) -> const ptx::Function* {
    if (func < kFunctionAddressBase || (func - kFunctionAddressBase) % 16 != 0) return nullptr;
    const std::uint64_t i = (func - kFunctionAddressBase) / 16;
    if (i >= mod.functions.size() || mod.functions[i].kind != ptx::FunctionKind::kEntry) return nullptr;
    return &mod.functions[i];
  };
  auto param_bytes = [](const ptx::Function& f) {
    std::uint64_t end = 0;
    for (const ptx::Param& p : f.params) end = std::max(end, p.offset + p.size);
    return end;
  };
  auto allocate = [&](std::uint64_t bytes) -> std::uint64_t {
    return x_.heap != nullptr ? x_.heap->allocate(std::max<std::uint64_t>(bytes, 1), 64) : 0;
  };
  // Records a launch from buffer `buf`, which the caller filled; frees the buffer.
  auto launch = [&](unsigned l, std::uint64_t buf, const LaunchShared::CdpBuffer& b, std::uint64_t stream) {
    DeviceLaunch d;
    d.kernel = b.kernel;
    d.grid = b.grid;
    d.block = b.block;
    d.shared_bytes = b.shared_bytes;
    d.tail = stream == kStreamTailLaunch;
    d.cta = x_.cta_linear;
    d.thread = x_.warp_index * kLanes + l;
    if (b.bytes != 0) {
      const std::uint8_t* p = x_.global->host_range(buf, b.bytes, "a parameter buffer");
      if (p == nullptr) return kErrLaunchFailure;
      d.params.assign(p, p + b.bytes);
    }
    if (x_.heap != nullptr) x_.heap->release(buf);
    std::lock_guard lock(shared->cdp_mutex);
    shared->device_launches.push_back(std::move(d));
    return std::uint64_t{0};
  };
  for_lanes(m, [&](unsigned l) {
    switch (ci.builtin) {
      case CallInfo::Builtin::kCdpParamBuffer: {  // (func, gridDim, blockDim, sharedMem) -> void*
        const ptx::Function* f = entry_of(arg(l, 0));
        if (f == nullptr) {
          set_result(l, 0);  // the device runtime returns NULL for what it cannot launch
          return;
        }
        LaunchShared::CdpBuffer b{f->name, dim_arg(l, 1), dim_arg(l, 2), static_cast<std::uint32_t>(arg(l, 3)),
                                  param_bytes(*f)};
        const std::uint64_t p = allocate(b.bytes);
        if (p != 0) {
          std::lock_guard lock(shared->cdp_mutex);
          shared->cdp_buffers[p] = std::move(b);
        }
        set_result(l, p);
        return;
      }
      case CallInfo::Builtin::kCdpParamBufferV1: {  // (alignment, size) -> void*
        const std::uint64_t p = allocate(arg(l, 1));
        if (p != 0) {
          std::lock_guard lock(shared->cdp_mutex);
          shared->cdp_buffers[p] = LaunchShared::CdpBuffer{{}, {}, {}, 0, arg(l, 1)};
        }
        set_result(l, p);
        return;
      }
      case CallInfo::Builtin::kCdpLaunch: {  // (parameterBuffer, stream) -> cudaError_t
        const std::uint64_t buf = arg(l, 0);
        LaunchShared::CdpBuffer b;
        {
          std::lock_guard lock(shared->cdp_mutex);
          auto it = shared->cdp_buffers.find(buf);
          if (it == shared->cdp_buffers.end() || it->second.kernel.empty()) {
            set_result(l, kErrInvalidValue);
            return;
          }
          b = std::move(it->second);
          shared->cdp_buffers.erase(it);
        }
        set_result(l, launch(l, buf, b, arg(l, 1)));
        return;
      }
      case CallInfo::Builtin::kCdpLaunchV1: {  // (func, parameterBuffer, gridDim, blockDim, sharedMem, stream)
        const ptx::Function* f = entry_of(arg(l, 0));
        const std::uint64_t buf = arg(l, 1);
        LaunchShared::CdpBuffer b;
        {
          std::lock_guard lock(shared->cdp_mutex);
          auto it = shared->cdp_buffers.find(buf);
          if (f == nullptr || it == shared->cdp_buffers.end() || it->second.bytes < param_bytes(*f)) {
            set_result(l, kErrInvalidValue);
            return;
          }
          b = LaunchShared::CdpBuffer{f->name, dim_arg(l, 2), dim_arg(l, 3), static_cast<std::uint32_t>(arg(l, 4)),
                                      param_bytes(*f)};
          shared->cdp_buffers.erase(it);
        }
        set_result(l, launch(l, buf, b, arg(l, 5)));
        return;
      }
      case CallInfo::Builtin::kCdpNoError:
        set_result(l, 0);
        return;
      case CallInfo::Builtin::kCdpStreamCreate: {  // (cudaStream_t* stream, unsigned flags)
        const std::uint64_t handle = kDeviceStreamBase + x_.cta_linear * 0x10000ull + x_.warp_index * kLanes + l;
        store_to(l, arg(l, 0), &handle, sizeof handle);
        set_result(l, 0);
        return;
      }
      case CallInfo::Builtin::kCdpGetDevice: {  // (int* device)
        const std::int32_t device = 0;
        store_to(l, arg(l, 0), &device, sizeof device);
        set_result(l, 0);
        return;
      }
      default: fail(ErrorKind::kInternal, "not a device runtime call");
    }
  });
}

}  // namespace warpscope::exec
