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

#include "analysis/cluster_occupancy.hpp"
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

cudaError_t Runtime::launch_cluster(KernelRec& k, Dim3 grid, const Dim3* cluster, bool query, Dim3* dims, bool* named) {
  const warpscope::Dim3 req = k.module->module->required_cluster(k.name);
  const bool has_req = req.x != 0;
  *named = cluster != nullptr || has_req;
  *dims = cluster != nullptr ? *cluster : has_req ? Dim3{req.x, req.y, req.z} : Dim3{1, 1, 1};
  if (!*named) return kSuccess;
  const Dim3 c = *dims;
  const std::uint64_t size = std::uint64_t{c.x} * c.y * c.z;
  const std::uint64_t limit = k.non_portable_cluster ? profile().cluster_max_size : profile().cluster_max_portable_size;
  std::string why;
  if (profile().cluster_gpc_sms.empty()) why = fmt::format("{} has no thread-block clusters", profile().gpu);
  else if (size == 0) why = "a cluster dimension is 0";
  else if (cluster != nullptr && has_req && (c.x != req.x || c.y != req.y || c.z != req.z))
    why = fmt::format("the kernel requires clusters of ({},{},{}) (__cluster_dims__)", req.x, req.y, req.z);
  else if (size > limit && (!query || !k.non_portable_cluster))
    why = fmt::format("a cluster has at most {} blocks{}", limit,
                      k.non_portable_cluster ? "" : " (16 with cudaFuncAttributeNonPortableClusterSizeAllowed)");
  else if (grid.x % c.x != 0 || grid.y % c.y != 0 || grid.z % c.z != 0)
    why = "the grid must be a multiple of the cluster in each dimension";
  if (why.empty()) return kSuccess;
  note(fmt::format("{} of {}: clusters of ({},{},{}) blocks in a grid of ({},{},{}): {}",
                   query ? "cudaOccupancyMaxActiveClusters" : "launch", demangle(k.name), c.x, c.y, c.z, grid.x, grid.y,
                   grid.z, why));
  return kErrInvalidClusterSize;
}

// The blocks one SM holds of `k` launched with `config` (the occupancy calculator), or -1 with the
// error in `*e`.
static int config_blocks_per_sm(Runtime& rt, KernelRec& k, const LaunchConfig& config, cudaError_t* e) {
  *e = rt.ensure_loaded(*k.module);
  if (*e != kSuccess) return -1;
  const std::uint64_t threads = std::uint64_t{config.block.x} * config.block.y * config.block.z;
  if (threads == 0 || threads > rt.profile().max_threads_per_block) return 0;
  const KernelResources& r = rt.resources(k);
  return occupancy_blocks(rt.profile(), static_cast<int>(threads), r.static_shared + config.dynamic_smem,
                          r.registers >= 0 ? r.registers : 32);
}

// The cluster attribute of a launch configuration (null: none; 0x0x0 is none).
static const Dim3* config_cluster(const LaunchConfig& config, Dim3* storage) {
  for (unsigned i = 0; i < config.num_attrs && config.attrs != nullptr; ++i) {
    const LaunchAttribute& a = config.attrs[i];
    if (a.id != kLaunchAttrClusterDimension) continue;
    if (a.val.dim.x == 0 && a.val.dim.y == 0 && a.val.dim.z == 0) return nullptr;
    *storage = Dim3{a.val.dim.x, a.val.dim.y, a.val.dim.z};
    return storage;
  }
  return nullptr;
}

// Both answer from the profile's GPCs (src/analysis/cluster_occupancy.hpp), equal to the H100's
// answers on every measured case (tests/hw/data/h100/cluster_sched): MaxPotentialClusterSize is
// 16 with non-portable sizes allowed and 8 without for every block and shared size that runs;
// MaxActiveClusters of a configuration without clusters (no attribute, no __cluster_dims__) is 0.
WS_API cudaError_t cudaOccupancyMaxPotentialClusterSize(int* size, const void* func, const LaunchConfig* config) {
  return call("cudaOccupancyMaxPotentialClusterSize", [&](Runtime& rt) {
    if (size == nullptr || config == nullptr) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidDeviceFunction;
    cudaError_t e = kSuccess;
    const int blocks = config_blocks_per_sm(rt, *k, *config, &e);
    if (e != kSuccess) return e;
    *size = static_cast<int>(
        warpscope::analysis::max_potential_cluster_size(rt.profile(), static_cast<std::uint32_t>(blocks), k->non_portable_cluster != 0));
    return kSuccess;
  });
}

WS_API cudaError_t cudaOccupancyMaxActiveClusters(int* count, const void* func, const LaunchConfig* config) {
  return call("cudaOccupancyMaxActiveClusters", [&](Runtime& rt) {
    if (count == nullptr || config == nullptr) return kErrInvalidValue;
    KernelRec* k = rt.find_kernel(func);
    if (k == nullptr) return kErrInvalidDeviceFunction;
    cudaError_t e = kSuccess;
    const int blocks = config_blocks_per_sm(rt, *k, *config, &e);
    if (e != kSuccess) return e;
    Dim3 storage{}, dims{};
    bool named = false;
    e = rt.launch_cluster(*k, config->grid, config_cluster(*config, &storage), true, &dims, &named);
    if (e != kSuccess) return e;
    *count = named ? static_cast<int>(warpscope::analysis::max_active_clusters(
                         rt.profile(), static_cast<std::uint32_t>(blocks), std::uint64_t{dims.x} * dims.y * dims.z))
                   : 0;
    return kSuccess;
  });
}
