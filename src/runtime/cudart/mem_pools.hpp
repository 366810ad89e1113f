// Stream-ordered memory (docs/runtime.md "Memory pools and graph memory"): memory pools
// (cudaMemPool*, cudaMallocAsync, cudaMallocFromPoolAsync) and the memory of graph allocation
// nodes (cudaGraphAddMemAllocNode, cudaMallocAsync under stream capture).
//
// Every operation completes when issued (streams are always idle), so a stream-ordered allocation
// is a device allocation made at once and a free releases it at once. What a pool adds is its
// bookkeeping, with the documented meanings of cudaMemPoolAttr:
//  - used memory: the bytes of the pool's live allocations, as requested;
//  - reserved memory: what the pool holds from the device: its used memory plus the freed memory it
//    keeps, in 2 MiB units (the granularity of a pool's physical allocations on Hopper: an
//    assumption, see docs/runtime.md);
//  - freed memory is kept up to the release threshold: a synchronisation (cudaStreamSynchronize,
//    cudaDeviceSynchronize) gives back what exceeds it, cudaMemPoolTrimTo what exceeds its
//    argument (never memory in use).
// Everything here runs under Runtime::mu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "runtime/cudart/abi.hpp"
#include "runtime/cudart/runtime.hpp"

namespace warpscope::cudart {

/// cudaMemLocation.
struct MemLocation {
  int type;  // cudaMemLocationTypeDevice 1, Host 2, HostNuma 3, HostNumaCurrent 4
  int id;
};
/// cudaMemAccessDesc.
struct MemAccessDesc {
  MemLocation location;
  int flags;  // cudaMemAccessFlagsProtNone 0, Read 1, ReadWrite 3
};
static_assert(sizeof(MemAccessDesc) == 12);
/// cudaMemPoolProps.
struct MemPoolProps {
  int allocType;    // cudaMemAllocationTypePinned 1
  int handleTypes;  // cudaMemHandleTypeNone 0
  MemLocation location;
  void* win32SecurityAttributes;
  std::size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
static_assert(sizeof(MemPoolProps) == 88);
/// cudaMemAllocNodeParams (and V2: the same layout).
struct MemAllocNodeParams {
  MemPoolProps poolProps;
  const MemAccessDesc* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  void* dptr;
};
static_assert(sizeof(MemAllocNodeParams) == 120);

inline constexpr int kLocationDevice = 1;
inline constexpr int kAllocPinned = 1;
inline constexpr std::uint64_t kPoolGranule = 2u << 20;

struct MemPool {
  MemPoolProps props{};
  bool is_default = false;
  int reuse[3] = {1, 1, 1};  // cudaMemPoolReuse{FollowEventDependencies, AllowOpportunistic, AllowInternalDependencies}
  std::uint64_t threshold = 0;  // cudaMemPoolAttrReleaseThreshold
  std::uint64_t used = 0, used_high = 0;
  std::uint64_t kept = 0;  // freed bytes the pool still holds
  std::uint64_t reserved_high = 0;
  std::uint64_t reserved() const { return (used + kept + kPoolGranule - 1) / kPoolGranule * kPoolGranule; }
  void note_high();
};

struct Pools {
  MemPool default_pool;
  MemPool* current = nullptr;  // cudaDeviceSetMemPool's; the default pool when null
  std::set<MemPool*> created;
  std::map<DevicePtr, std::pair<MemPool*, std::size_t>> owner;  // live pool allocations

  static Pools& get();
  bool valid(const MemPool* p) const { return p == &default_pool || created.count(const_cast<MemPool*>(p)) != 0; }
  MemPool* current_pool() { return current != nullptr ? current : &default_pool; }
};

/// A stream-ordered allocation from `pool` (cudaMallocAsync, cudaMallocFromPoolAsync): a device
/// allocation (Runtime::allocations) that the pool counts. Under stream capture the caller makes
/// an allocation node instead.
cudaError_t pool_allocate(Runtime& rt, MemPool* pool, std::size_t bytes, void** out);
/// A device allocation at `p` of `bytes` is freed: its pool (if any) stops counting it.
void pool_released(DevicePtr p, std::size_t bytes);
/// A synchronisation: each pool gives back the freed memory above its release threshold.
void pools_synchronized();
/// cudaDeviceReset: the pools' allocations are gone.
void pools_reset();

/// The memory of one graph allocation node (shared by the node and its copies: clones and
/// instantiated graphs use the same address, as CUDA's do). The address is reserved when the
/// node is made; it is "used" between the node's run and its free (a free node, cudaFreeAsync or
/// cudaFree), and counts as reserved from its first run until cudaDeviceGraphMemTrim finds it
/// unused or the last node naming it goes.
struct GraphAlloc {
  DevicePtr ptr = 0;
  std::size_t bytes = 0;
  bool used = false;
  bool reserved = false;
  MemPoolProps props{};
  std::vector<MemAccessDesc> access;
  ~GraphAlloc();
};

struct GraphMemory {
  std::map<DevicePtr, std::weak_ptr<GraphAlloc>> by_ptr;
  std::uint64_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  static GraphMemory& get();
  std::shared_ptr<GraphAlloc> find(const void* p) const;
  void set_used(GraphAlloc& a, bool used);
};

/// A new graph allocation of `bytes` (an allocation node's), with its pool properties.
cudaError_t graph_allocate(Runtime& rt, const MemAllocNodeParams& p, std::shared_ptr<GraphAlloc>* out);
/// cudaFree / cudaFreeAsync of a graph allocation outside its graph: true when `p` is one (it
/// becomes unused; its address stays the node's).
bool graph_free(const void* p);

}  // namespace warpscope::cudart
