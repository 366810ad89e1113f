// Launches beyond <<<>>>: cooperative launches (cudaLaunchCooperativeKernel, and the cooperative
// attribute of cudaLaunchKernelExC, which cudaLaunchKernelEx calls). CUDA 13 has no
// cudaLaunchCooperativeKernelMultiDevice any more (removed from the runtime and its headers).
//
// cudaLaunchKernelExC's attributes:
//  - cooperative: a cooperative launch (docs/exec.md, "Cooperative launches");
//  - launch completion event and programmatic event: recorded when the kernel has completed (every
//    launch runs to completion when issued, so that is when it triggers or later);
//  - cluster dimension: thread-block clusters (docs/exec.md, "Clusters"); 0x0x0: none;
//  - hints that change no result, ignored: access policy window, synchronization policy, cluster
//    scheduling policy, programmatic stream serialization (launches are serial anyway), priority,
//    memory synchronization domain (map), preferred cluster dimension, preferred shared memory
//    carveout, NVLink-centric scheduling;
//  - device-updatable kernel node (graphs only): refused; an unknown id: cudaErrorInvalidValue.
#include <fmt/format.h>

#include "runtime/cudart/api.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

std::uint64_t Runtime::cooperative_limit(KernelRec& k, Dim3 block, std::size_t shmem) {
  const KernelResources& r = resources(k);
  const int threads = static_cast<int>(std::uint64_t{block.x} * block.y * block.z);
  const int per_sm = occupancy_blocks(profile(), threads, r.static_shared + shmem, r.registers >= 0 ? r.registers : 32);
  return std::uint64_t(per_sm > 0 ? per_sm : 0) * profile().sm_count;
}

WS_API cudaError_t cudaLaunchCooperativeKernel(const void* func, Dim3 grid, Dim3 block, void** args,
                                               std::size_t shmem, void* stream) {
  return call("cudaLaunchCooperativeKernel",
              [&](Runtime& rt) { return rt.launch(func, grid, block, args, shmem, stream, true); });
}

WS_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, Dim3 grid, Dim3 block, void** args,
                                                    std::size_t shmem, void* stream) {
  return cudaLaunchCooperativeKernel(func, grid, block, args, shmem, stream);
}

WS_API cudaError_t cudaLaunchKernelExC(const LaunchConfig* config, const void* func, void** args) {
  return call("cudaLaunchKernelExC", [&](Runtime& rt) {
    if (config == nullptr || (config->num_attrs != 0 && config->attrs == nullptr)) return kErrInvalidValue;
    bool cooperative = false;
    bool has_cluster = false;
    Dim3 cluster{1, 1, 1};
    std::vector<Event*> completion;  // recorded after the kernel
    for (unsigned i = 0; i < config->num_attrs; ++i) {
      const LaunchAttribute& a = config->attrs[i];
      switch (a.id) {
        case kLaunchAttrCooperative: cooperative = a.val.i != 0; break;
        case kLaunchAttrClusterDimension: {
          const auto& d = a.val.dim;
          if (d.x == 0 && d.y == 0 && d.z == 0) break;  // no cluster
          has_cluster = true;
          cluster = Dim3{d.x, d.y, d.z};
          break;
        }
        case kLaunchAttrProgrammaticEvent:
        case kLaunchAttrLaunchCompletionEvent: {
          auto* e = static_cast<Event*>(a.val.event.event);
          if (!rt.events.count(e)) return kErrInvalidResourceHandle;
          completion.push_back(e);
          break;
        }
        case kLaunchAttrIgnore:
        case kLaunchAttrAccessPolicyWindow:
        case kLaunchAttrSynchronizationPolicy:
        case kLaunchAttrClusterSchedulingPolicyPreference:
        case kLaunchAttrProgrammaticStreamSerialization:
        case kLaunchAttrPriority:
        case kLaunchAttrMemSyncDomainMap:
        case kLaunchAttrMemSyncDomain:
        case kLaunchAttrPreferredClusterDimension:
        case kLaunchAttrPreferredSharedMemoryCarveout:
        case kLaunchAttrNvlinkUtilCentricScheduling: break;  // hints: no effect on results
        case kLaunchAttrDeviceUpdatableKernelNode:
          rt.note("cudaLaunchKernelEx: the device-updatable kernel node attribute is for CUDA graphs, which "
                  "warpscope does not support");
          return kErrNotSupported;
        default:
          rt.note(fmt::format("cudaLaunchKernelEx: unknown launch attribute {}", a.id));
          return kErrInvalidValue;
      }
    }
    const cudaError_t e = rt.launch(func, config->grid, config->block, args, config->dynamic_smem, config->stream,
                                    cooperative, has_cluster ? &cluster : nullptr);
    if (e == kSuccess) {
      for (Event* ev : completion) {
        ev->recorded = true;
        ev->when = std::chrono::steady_clock::now();
        ev->gpu_ns = rt.gpu_ns;
      }
    }
    return e;
  });
}

WS_API cudaError_t cudaLaunchKernelExC_ptsz(const LaunchConfig* config, const void* func, void** args) {
  return cudaLaunchKernelExC(config, func, args);
}

// cudaOccupancyMaxPotentialClusterSize: the H100 answers 8 (the portable limit) for small kernels
// (ncu's launch__cluster_max_potential_size, tests/hw/data/h100/cluster), 16 when the kernel
// allows non-portable sizes. How many clusters fit at once depends on the GPCs' SM counts, which
// warpscope does not model: cudaOccupancyMaxActiveClusters is refused with a note.
WS_API cudaError_t cudaOccupancyMaxPotentialClusterSize(int* size, const void* func, const LaunchConfig* config) {
  return call("cudaOccupancyMaxPotentialClusterSize", [&](Runtime& rt) {
    if (size == nullptr || config == nullptr) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidDeviceFunction;
    *size = k->non_portable_cluster ? 16 : 8;
    return kSuccess;
  });
}

WS_API cudaError_t cudaOccupancyMaxActiveClusters(int* count, const void* func, const LaunchConfig* config) {
  return call("cudaOccupancyMaxActiveClusters", [&](Runtime& rt) {
    if (count == nullptr || config == nullptr) return kErrInvalidValue;
    if (rt.find_kernel(func) == nullptr) return kErrInvalidDeviceFunction;
    rt.note("cudaOccupancyMaxActiveClusters: how many clusters fit on the GPU at once depends on its GPCs, which "
            "warpscope does not model");
    return kErrNotSupported;
  });
}
