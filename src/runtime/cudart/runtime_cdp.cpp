// Dynamic parallelism on the runtime's side: the grids a kernel's threads launched
// (LaunchStats::device_launches, src/exec/cdp.cpp) run after their parent grid, each as a launch
// of its own in the report (`launched_from_device`: the parent launch and the launching thread).
//
// CUDA's rules that decide the order (CUDA Programming Guide, "CUDA Dynamic Parallelism", CDP2):
// a child grid may run at any time after its launch and completes before its parent is complete;
// grids a thread block launches into one stream run in launch order; cudaStreamTailLaunch grids
// run after the parent grid and all its other work. Running every non-tail child in the order made
// (each child's own children right after it), then the tail launches, is one order a GPU may
// choose. Nesting stops at 24 levels (the device runtime's maximum depth).
#include <algorithm>

#include <fmt/format.h>

#include "runtime/cudart/runtime.hpp"

namespace warpscope::cudart {

namespace {
constexpr int kMaxDepth = 24;
constexpr cudaError_t kErrLaunchMaxDepthExceeded = 65;  // cudaErrorLaunchMaxDepthExceeded
}  // namespace

void Runtime::run_device_launches(KernelRec& parent, std::size_t parent_index, std::vector<DeviceLaunch> children,
                                  const void* stream) {
  if (device_depth >= kMaxDepth) {
    note(fmt::format("kernel {} (launch #{}) launched {} grid(s) from the device at nesting depth {}: the device "
                     "runtime's maximum is {}; they do not run",
                     demangle(parent.name), parent_index, children.size(), device_depth + 1, kMaxDepth));
    if (sticky == kSuccess) sticky = kErrLaunchMaxDepthExceeded;
    return;
  }
  std::stable_partition(children.begin(), children.end(), [](const DeviceLaunch& d) { return !d.tail; });
  ++device_depth;
  for (DeviceLaunch& d : children) {
    if (sticky != kSuccess) break;  // a child faulted: the parent's grid has failed
    KernelRec* child = nullptr;
    for (KernelRec* k : parent.module->kernels)
      if (k->name == d.kernel) child = k;
    if (child == nullptr) {
      note(fmt::format("kernel {} launched {} from the device, which is not a kernel of its module {}",
                       demangle(parent.name), d.kernel, parent.module->origin));
      continue;
    }
    if (cudaError_t e = ensure_loaded(*child->module); e != kSuccess) break;
    // The parameter buffer holds the child's parameters in their natural layout.
    std::vector<void*> args;
    std::size_t off = 0;
    for (const ParamInfo& p : child->params) {
      off = (off + std::max<std::size_t>(p.align, 1) - 1) / std::max<std::size_t>(p.align, 1) * std::max<std::size_t>(p.align, 1);
      if (off + p.size > d.params.size()) {
        note(fmt::format("kernel {}: its device-side launch of {} gave {} parameter bytes, fewer than the kernel's",
                         demangle(parent.name), demangle(child->name), d.params.size()));
        args.clear();
        break;
      }
      args.push_back(d.params.data() + off);
      off += p.size;
    }
    if (args.size() != child->params.size()) continue;
    device_parent = nlohmann::json{{"parent_launch", parent_index}, {"parent_kernel", demangle(parent.name)},
                                   {"cta", d.cta}, {"thread", d.thread}, {"tail", d.tail}};
    const Dim3 grid{d.grid.x, d.grid.y, d.grid.z}, block{d.block.x, d.block.y, d.block.z};
    if (cudaError_t e = launch(child, grid, block, args.data(), d.shared_bytes, stream); e != kSuccess) {
      // On a GPU the launching thread's cudaLaunchDevice returns this error; here the launch is
      // already recorded as made, so the note says what the thread would have seen.
      note(fmt::format("kernel {}: its device-side launch of {} failed: {} (on a GPU the launching thread's "
                       "cudaLaunchDevice returns it)",
                       demangle(parent.name), demangle(child->name), error_name(e)));
    }
    device_parent = nullptr;
  }
  --device_depth;
}

}  // namespace warpscope::cudart
