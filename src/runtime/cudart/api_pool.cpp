// Memory pools and the device's graph memory (mem_pools.hpp; docs/runtime.md "Memory pools and
// graph memory"). cudaMallocAsync / cudaFreeAsync themselves are in api_memory.cpp.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"
#include "runtime/cudart/mem_pools.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace warpscope::cudart {

void MemPool::note_high() {
  used_high = std::max(used_high, used);
  reserved_high = std::max(reserved_high, reserved());
}

Pools& Pools::get() {
  static Pools& p = *[] {
    auto* ps = new Pools;  // never destroyed: the report is written at exit after static destructors may run
    ps->default_pool.is_default = true;
    ps->default_pool.props.allocType = kAllocPinned;
    ps->default_pool.props.location = {kLocationDevice, 0};
    return ps;
  }();
  return p;
}

cudaError_t pool_allocate(Runtime& rt, MemPool* pool, std::size_t bytes, void** out) {
  if (out == nullptr) return kErrInvalidValue;
  if (bytes == 0) {
    *out = nullptr;
    return kSuccess;
  }
  if (pool->props.maxSize != 0 && pool->used + bytes > pool->props.maxSize) return kErrMemoryAllocation;
  DevicePtr p = 0;
  try {
    p = rt.device().malloc(bytes);
  } catch (const warpscope::Error&) {
    *out = nullptr;
    return kErrMemoryAllocation;
  }
  rt.allocations[p] = bytes;
  rt.note_allocation(p);
  Pools::get().owner[p] = {pool, bytes};
  pool->used += bytes;
  pool->kept -= std::min<std::uint64_t>(pool->kept, bytes);  // freed memory is reused first
  pool->note_high();
  *out = reinterpret_cast<void*>(p);
  return kSuccess;
}

void pool_released(DevicePtr p, std::size_t bytes) {
  Pools& ps = Pools::get();
  auto it = ps.owner.find(p);
  if (it == ps.owner.end()) return;
  MemPool* pool = it->second.first;
  ps.owner.erase(it);
  if (!ps.valid(pool)) return;
  pool->used -= std::min<std::uint64_t>(pool->used, bytes);
  pool->kept += bytes;
}

namespace {
/// Gives back unused memory until the pool holds at most `keep` bytes (never memory in use).
void trim(MemPool& pool, std::uint64_t keep) { pool.kept = keep > pool.used ? std::min(pool.kept, keep - pool.used) : 0; }
}  // namespace

void pools_synchronized() {
  Pools& ps = Pools::get();
  trim(ps.default_pool, ps.default_pool.threshold);
  for (MemPool* p : ps.created) trim(*p, p->threshold);
}

void pools_reset() {
  Pools& ps = Pools::get();
  ps.owner.clear();
  for (MemPool* p : ps.created) delete p;
  ps.created.clear();
  ps.current = nullptr;
  MemPool fresh;
  fresh.is_default = true;
  fresh.props = ps.default_pool.props;
  ps.default_pool = fresh;
}

GraphAlloc::~GraphAlloc() {
  GraphMemory& gm = GraphMemory::get();
  gm.set_used(*this, false);
  if (reserved) gm.reserved -= bytes;
  gm.by_ptr.erase(ptr);
  Runtime& rt = Runtime::get();
  rt.graph_allocations.erase(ptr);
  if (ptr != 0 && rt.has_device()) {
    try {
      rt.device().free(ptr);
    } catch (const warpscope::Error&) {
      // The device was reset since: the memory is gone already.
    }
  }
}

GraphMemory& GraphMemory::get() {
  static GraphMemory& g = *new GraphMemory;  // never destroyed (nodes may outlive static destructors)
  return g;
}

std::shared_ptr<GraphAlloc> GraphMemory::find(const void* p) const {
  auto it = by_ptr.find(reinterpret_cast<DevicePtr>(p));
  return it == by_ptr.end() ? nullptr : it->second.lock();
}

void GraphMemory::set_used(GraphAlloc& a, bool now_used) {
  if (a.used == now_used) return;
  a.used = now_used;
  if (now_used) {
    used += a.bytes;
    if (!a.reserved) {
      a.reserved = true;
      reserved += a.bytes;
    }
  } else {
    used -= a.bytes;
  }
  used_high = std::max(used_high, used);
  reserved_high = std::max(reserved_high, reserved);
}

cudaError_t graph_allocate(Runtime& rt, const MemAllocNodeParams& p, std::shared_ptr<GraphAlloc>* out) {
  if (p.bytesize == 0 || p.poolProps.allocType != kAllocPinned || p.poolProps.location.type != kLocationDevice) {
    return kErrInvalidValue;
  }
  if (p.poolProps.location.id != 0) return kErrInvalidDevice;
  if (p.accessDescCount != 0 && p.accessDescs == nullptr) return kErrInvalidValue;
  auto a = std::make_shared<GraphAlloc>();
  try {
    a->ptr = rt.device().malloc(p.bytesize);
  } catch (const warpscope::Error&) {
    return kErrMemoryAllocation;
  }
  a->bytes = p.bytesize;
  a->props = p.poolProps;
  a->access.assign(p.accessDescs, p.accessDescs + p.accessDescCount);
  GraphMemory::get().by_ptr[a->ptr] = a;
  rt.graph_allocations[a->ptr] = a->bytes;
  *out = std::move(a);
  return kSuccess;
}

bool graph_free(const void* p) {
  std::shared_ptr<GraphAlloc> a = GraphMemory::get().find(p);
  if (a == nullptr) return false;
  GraphMemory::get().set_used(*a, false);
  return true;
}

}  // namespace warpscope::cudart

namespace {

MemPool* as_pool(void* p) { return static_cast<MemPool*>(p); }

/// The device pool a cudaMemLocation and allocation type name, or an error.
cudaError_t location_ok(const char* api, const MemLocation* loc, int type) {
  if (loc == nullptr || type != kAllocPinned) return kErrInvalidValue;
  if (loc->type == 2 || loc->type == 3 || loc->type == 4) {
    return refuse_once(api, "memory pools of host memory (cudaMemLocationTypeHost*) are not modelled: warpscope's "
                       "runtime has the device's pools only", kErrNotSupported);
  }
  if (loc->type != kLocationDevice) return kErrInvalidValue;
  return loc->id == 0 ? kSuccess : kErrInvalidDevice;
}

}  // namespace

WS_API cudaError_t cudaDeviceGetDefaultMemPool(void** pool, int device) {
  return call("cudaDeviceGetDefaultMemPool", [&](Runtime&) {
    if (pool == nullptr) return kErrInvalidValue;
    if (device != 0) return kErrInvalidDevice;
    *pool = &Pools::get().default_pool;
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceGetMemPool(void** pool, int device) {
  return call("cudaDeviceGetMemPool", [&](Runtime&) {
    if (pool == nullptr) return kErrInvalidValue;
    if (device != 0) return kErrInvalidDevice;
    *pool = Pools::get().current_pool();
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceSetMemPool(int device, void* pool) {
  return call("cudaDeviceSetMemPool", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    Pools& ps = Pools::get();
    if (!ps.valid(as_pool(pool))) return kErrInvalidValue;
    ps.current = as_pool(pool);
    return kSuccess;
  });
}

WS_API cudaError_t cudaMemGetDefaultMemPool(void** pool, MemLocation* location, int type) {
  return call("cudaMemGetDefaultMemPool", [&](Runtime&) {
    if (pool == nullptr) return kErrInvalidValue;
    if (cudaError_t e = location_ok("cudaMemGetDefaultMemPool", location, type); e != kSuccess) return e;
    *pool = &Pools::get().default_pool;
    return kSuccess;
  });
}

WS_API cudaError_t cudaMemGetMemPool(void** pool, MemLocation* location, int type) {
  return call("cudaMemGetMemPool", [&](Runtime&) {
    if (pool == nullptr) return kErrInvalidValue;
    if (cudaError_t e = location_ok("cudaMemGetMemPool", location, type); e != kSuccess) return e;
    *pool = Pools::get().current_pool();
    return kSuccess;
  });
}

WS_API cudaError_t cudaMemSetMemPool(MemLocation* location, int type, void* pool) {
  return call("cudaMemSetMemPool", [&](Runtime&) {
    if (cudaError_t e = location_ok("cudaMemSetMemPool", location, type); e != kSuccess) return e;
    Pools& ps = Pools::get();
    if (!ps.valid(as_pool(pool))) return kErrInvalidValue;
    ps.current = as_pool(pool);
    return kSuccess;
  });
}

WS_API cudaError_t cudaMemPoolCreate(void** pool, const MemPoolProps* props) {
  return call("cudaMemPoolCreate", [&](Runtime&) {
    if (pool == nullptr || props == nullptr || props->allocType != kAllocPinned) return kErrInvalidValue;
    if (props->location.type != kLocationDevice) {
      if (props->location.type >= 2 && props->location.type <= 4) {
        return refuse_once("cudaMemPoolCreate", "memory pools of host memory are not modelled", kErrNotSupported);
      }
      return kErrInvalidValue;
    }
    if (props->location.id != 0) return kErrInvalidDevice;
    auto* p = new MemPool;
    p->props = *props;
    Pools::get().created.insert(p);
    *pool = p;
    return kSuccess;
  });
}

WS_API cudaError_t cudaMemPoolDestroy(void* pool) {
  return call("cudaMemPoolDestroy", [&](Runtime&) {
    Pools& ps = Pools::get();
    MemPool* p = as_pool(pool);
    if (p == nullptr || p->is_default || !ps.created.count(p)) return kErrInvalidValue;
    // Live allocations stay valid until freed (CUDA defers the pool's destruction to then): they
    // are no longer counted by a pool.
    for (auto& [ptr, owner] : ps.owner)
      if (owner.first == p) owner.first = nullptr;
    if (ps.current == p) ps.current = nullptr;
    ps.created.erase(p);
    delete p;
    return kSuccess;
  });
}

WS_API cudaError_t cudaMemPoolSetAttribute(void* pool, int attr, void* value) {
  return call("cudaMemPoolSetAttribute", [&](Runtime&) {
    MemPool* p = as_pool(pool);
    if (!Pools::get().valid(p) || value == nullptr) return kErrInvalidValue;
    const auto u64 = *static_cast<const std::uint64_t*>(value);
    switch (attr) {
      case 1: case 2: case 3: p->reuse[attr - 1] = *static_cast<const int*>(value) != 0 ? 1 : 0; return kSuccess;
      case 4: p->threshold = u64; return kSuccess;
      case 6:  // ReservedMemHigh: only a reset to 0 (to the current value)
        if (u64 != 0) return kErrInvalidValue;
        p->reserved_high = p->reserved();
        return kSuccess;
      case 8:  // UsedMemHigh
        if (u64 != 0) return kErrInvalidValue;
        p->used_high = p->used;
        return kSuccess;
      default: return kErrInvalidValue;  // the current values are read-only
    }
  });
}

WS_API cudaError_t cudaMemPoolGetAttribute(void* pool, int attr, void* value) {
  return call("cudaMemPoolGetAttribute", [&](Runtime&) {
    MemPool* p = as_pool(pool);
    if (!Pools::get().valid(p) || value == nullptr) return kErrInvalidValue;
    auto* u64 = static_cast<std::uint64_t*>(value);
    switch (attr) {
      case 1: case 2: case 3: *static_cast<int*>(value) = p->reuse[attr - 1]; return kSuccess;
      case 4: *u64 = p->threshold; return kSuccess;
      case 5: *u64 = p->reserved(); return kSuccess;
      case 6: *u64 = p->reserved_high; return kSuccess;
      case 7: *u64 = p->used; return kSuccess;
      case 8: *u64 = p->used_high; return kSuccess;
      default: return kErrInvalidValue;
    }
  });
}

WS_API cudaError_t cudaMemPoolTrimTo(void* pool, std::size_t keep) {
  return call("cudaMemPoolTrimTo", [&](Runtime&) {
    MemPool* p = as_pool(pool);
    if (!Pools::get().valid(p)) return kErrInvalidValue;
    trim(*p, keep);
    return kSuccess;
  });
}

// caveat: one device: its own access is always read-write; a peer's is cudaErrorInvalidDevice
WS_API cudaError_t cudaMemPoolSetAccess(void* pool, const MemAccessDesc* descs, std::size_t count) {
  return call("cudaMemPoolSetAccess", [&](Runtime&) {
    if (!Pools::get().valid(as_pool(pool)) || (count != 0 && descs == nullptr)) return kErrInvalidValue;
    for (std::size_t i = 0; i < count; ++i) {
      if (descs[i].location.type != kLocationDevice) return kErrInvalidValue;
      if (descs[i].location.id != 0) return kErrInvalidDevice;
      if (descs[i].flags != 3) return kErrInvalidValue;  // the owning device keeps read-write access
    }
    return kSuccess;
  });
}

WS_API cudaError_t cudaMemPoolGetAccess(int* flags, void* pool, MemLocation* location) {
  return call("cudaMemPoolGetAccess", [&](Runtime&) {
    if (flags == nullptr || location == nullptr || !Pools::get().valid(as_pool(pool))) return kErrInvalidValue;
    if (location->type != kLocationDevice) return kErrInvalidValue;
    if (location->id != 0) return kErrInvalidDevice;
    *flags = 3;  // cudaMemAccessFlagsProtReadWrite
    return kSuccess;
  });
}

// ---- The device's graph memory ----------------------------------------------------------------

WS_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void* value) {
  return call("cudaDeviceGetGraphMemAttribute", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    if (value == nullptr) return kErrInvalidValue;
    const GraphMemory& gm = GraphMemory::get();
    auto* v = static_cast<unsigned long long*>(value);
    switch (attr) {  // cudaGraphMemAttrUsedMemCurrent 0, UsedMemHigh 1, ReservedMemCurrent 2, ReservedMemHigh 3
      case 0: *v = gm.used; return kSuccess;
      case 1: *v = gm.used_high; return kSuccess;
      case 2: *v = gm.reserved; return kSuccess;
      case 3: *v = gm.reserved_high; return kSuccess;
      default: return kErrInvalidValue;
    }
  });
}

WS_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void* value) {
  return call("cudaDeviceSetGraphMemAttribute", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    // Only the high watermarks (UsedMemHigh 1, ReservedMemHigh 3) can be set, and only to 0.
    if (value == nullptr || (attr != 1 && attr != 3) || *static_cast<unsigned long long*>(value) != 0) {
      return kErrInvalidValue;
    }
    GraphMemory& gm = GraphMemory::get();
    if (attr == 1) gm.used_high = gm.used;
    if (attr == 3) gm.reserved_high = gm.reserved;
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceGraphMemTrim(int device) {
  return call("cudaDeviceGraphMemTrim", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    GraphMemory& gm = GraphMemory::get();
    for (auto& [ptr, weak] : gm.by_ptr) {
      if (auto a = weak.lock(); a != nullptr && a->reserved && !a->used) {
        a->reserved = false;
        gm.reserved -= a->bytes;
      }
    }
    return kSuccess;
  });
}
