// The driver API's virtual memory management (drv.hpp; docs/runtime.md "The driver API"):
// cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess and the calls around them, as modern
// allocators use them. A reservation is a range of the process's address space (mmap PROT_NONE,
// outside the device's own range), an allocation handle a memory file (memfd) of its size, a
// mapping that file mapped at the reserved address (two mappings of one handle share their bytes,
// as on a GPU). cuMemSetAccess makes a mapped range device memory: kernels reach it at its
// address (Device::map_host_memory) and copies and pointer attributes call it device memory
// (Runtime::vmm_ranges); before it, and after cuMemUnmap, a kernel's access is outside every
// allocation (memcheck reports it, docs/exec.md "Out-of-bounds accesses").
#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <set>

#include <fmt/format.h>

#include "runtime/cudart/drv.hpp"

namespace warpscope::cudart::drv {
namespace {

// CUmemAllocationProp, CUmemLocation, CUmemAccessDesc (cuda.h, CUDA 13.0).
struct MemLocation {
  int type;  // CU_MEM_LOCATION_TYPE_DEVICE 1, HOST 2, HOST_NUMA 3, HOST_NUMA_CURRENT 4
  int id;
};
struct AllocationProp {
  int type;                   // CU_MEM_ALLOCATION_TYPE_PINNED 1
  int requested_handle_types; // CUmemAllocationHandleType
  MemLocation location;
  void* win32_metadata;
  unsigned char compression_type, rdma_capable;
  unsigned short usage;
  unsigned char reserved[4];
};
static_assert(sizeof(AllocationProp) == 32);
struct AccessDesc {
  MemLocation location;
  int flags;  // CU_MEM_ACCESS_FLAGS_PROT_NONE 0, READ 1, READWRITE 3
};

/// The H100's and H200's granularity of cuMemCreate and cuMemMap, minimum and recommended: 2 MiB
/// (the GPU's large page).
constexpr std::size_t kGranularity = std::size_t{2} << 20;

struct Handle {
  int fd = -1;
  std::size_t bytes = 0;
  AllocationProp prop{};
  int refs = 1;      // cuMemCreate's, and one per cuMemRetainAllocationHandle
  int mappings = 0;  // live cuMemMap's
};

struct Mapping {
  std::size_t bytes = 0;
  Handle* handle = nullptr;
  int access = 0;  // the device's CUmemAccess_flags
};

struct Vmm {
  std::map<std::uintptr_t, std::size_t> reservations;  // by start
  std::set<Handle*> handles;
  std::map<std::uintptr_t, Mapping> mappings;  // by start
};
Vmm& vmm() {
  static Vmm& v = *new Vmm;  // never destroyed (calls from atexit)
  return v;
}

Handle* handle_of(std::uint64_t h) {
  auto* p = reinterpret_cast<Handle*>(h);
  return vmm().handles.count(p) != 0 ? p : nullptr;
}

/// Frees the handle's memory when nothing holds it: no reference and no mapping.
void release_if_unused(Runtime& rt, Handle* h) {
  if (h->refs > 0 || h->mappings > 0) return;
  close(h->fd);
  rt.vmm_physical_bytes -= h->bytes;
  vmm().handles.erase(h);
  delete h;
}

/// The reservation that holds the bytes from p to p + bytes, or end().
std::map<std::uintptr_t, std::size_t>::iterator reservation_of(std::uintptr_t p, std::size_t bytes) {
  auto& r = vmm().reservations;
  auto it = r.upper_bound(p);
  if (it == r.begin()) return r.end();
  --it;
  if (p - it->first >= it->second || bytes > it->second - (p - it->first)) return r.end();
  return it;
}

/// The mapping that holds address p, or end().
std::map<std::uintptr_t, Mapping>::iterator mapping_at(std::uintptr_t p) {
  auto& m = vmm().mappings;
  auto it = m.upper_bound(p);
  if (it == m.begin()) return m.end();
  --it;
  return p - it->first < it->second.bytes ? it : m.end();
}

/// Shows the device the accessible mappings: each run of adjacent ones as one range (a copy or an
/// access may cross from one mapping into the next, as on a GPU), in Runtime::vmm_ranges and as
/// host memory the device maps at its address.
void refresh(Runtime& rt) {
  if (rt.has_device())
    for (const auto& [at, bytes] : rt.vmm_ranges) rt.device().unmap_host_memory(reinterpret_cast<void*>(at));
  rt.vmm_ranges.clear();
  std::uintptr_t run = 0;
  std::size_t length = 0;
  for (const auto& [at, m] : vmm().mappings) {
    if (m.access == 0) continue;
    if (length != 0 && run + length == at) {
      length += m.bytes;
      continue;
    }
    if (length != 0) rt.vmm_ranges[run] = length;
    run = at;
    length = m.bytes;
  }
  if (length != 0) rt.vmm_ranges[run] = length;
  for (const auto& [at, bytes] : rt.vmm_ranges) rt.device().map_host_memory(reinterpret_cast<void*>(at), bytes);
}

template <typename F>
CUresult locked(F&& body) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  return body(rt);
}

bool valid_prop(const AllocationProp* p) {
  // CU_MEM_HANDLE_TYPE_NONE, POSIX_FILE_DESCRIPTOR, FABRIC: a handle asked to be exportable is made
  // (its export, IPC, is refused: cuMemExportToShareableHandle).
  return p != nullptr && p->type == 1 && p->location.type == 1 && (p->requested_handle_types & ~0x9) == 0;
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

WS_DRV CUresult cuMemGetAllocationGranularity(std::size_t* granularity, const AllocationProp* prop, int option) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (granularity == nullptr || !valid_prop(prop) || (option != 0 && option != 1)) return kCuInvalidValue;
  if (prop->location.id != 0) return kCuInvalidDevice;
  *granularity = kGranularity;
  return kCuSuccess;
}

// caveat: the reservation is host address space outside the device's own range; its addresses
//   are device pointers only where mapped and made accessible
WS_DRV CUresult cuMemAddressReserve(std::uint64_t* ptr, std::size_t size, std::size_t alignment, std::uint64_t addr,
                                    unsigned long long flags) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  if (ptr == nullptr || size == 0 || size % page != 0 || addr % page != 0 || flags != 0 ||
      (alignment & (alignment - 1)) != 0)
    return kCuInvalidValue;
  return locked([&](Runtime&) -> CUresult {
    const std::size_t align = std::max(alignment, kGranularity);
    const std::size_t span = size + align;
    // The hint is only a hint (the driver API reference): a range at it when it is free and aligned.
    void* at = MAP_FAILED;
    if (addr != 0 && addr % align == 0) {
      at = mmap(reinterpret_cast<void*>(addr), size, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    }
    std::uintptr_t start = 0;
    if (at != MAP_FAILED) {
      start = reinterpret_cast<std::uintptr_t>(at);
    } else {
      void* raw = mmap(nullptr, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (raw == MAP_FAILED) return kCuOutOfMemory;
      const auto r = reinterpret_cast<std::uintptr_t>(raw);
      start = (r + align - 1) / align * align;
      if (start > r) munmap(raw, start - r);
      if (r + span > start + size) munmap(reinterpret_cast<void*>(start + size), r + span - (start + size));
    }
    vmm().reservations[start] = size;
    *ptr = start;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuMemAddressFree(std::uint64_t ptr, std::size_t size) {
  return locked([&](Runtime&) -> CUresult {
    auto it = vmm().reservations.find(ptr);
    if (it == vmm().reservations.end() || it->second != size) return kCuInvalidValue;
    auto m = vmm().mappings.lower_bound(ptr);
    if (m != vmm().mappings.end() && m->first < ptr + size) return kCuInvalidValue;  // still mapped
    munmap(reinterpret_cast<void*>(ptr), size);
    vmm().reservations.erase(it);
    return kCuSuccess;
  });
}

// caveat: device memory of the H100/H200's granularity, counted by cuMemGetInfo; the handle types
//   a process would export it with are kept, but exporting it is refused (IPC)
WS_DRV CUresult cuMemCreate(std::uint64_t* handle, std::size_t size, const AllocationProp* prop, unsigned long long flags) {
  if (handle == nullptr || !valid_prop(prop) || flags != 0 || size == 0 || size % kGranularity != 0)
    return kCuInvalidValue;
  if (prop->location.id != 0) return kCuInvalidDevice;
  return locked([&](Runtime& rt) -> CUresult {
    std::size_t free_bytes = 0, total = 0;
    if (CUresult e = via_runtime([&] { return cudaMemGetInfo(&free_bytes, &total); }); e != kCuSuccess) return e;
    if (size > free_bytes) return kCuOutOfMemory;
    const int fd = memfd_create("warpscope cuMemCreate", MFD_CLOEXEC);
    if (fd < 0) return kCuOutOfMemory;
    if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
      close(fd);
      return kCuOutOfMemory;
    }
    auto* h = new Handle;
    h->fd = fd;
    h->bytes = size;
    h->prop = *prop;
    vmm().handles.insert(h);
    rt.vmm_physical_bytes += size;
    *handle = reinterpret_cast<std::uintptr_t>(h);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuMemRelease(std::uint64_t handle) {
  return locked([&](Runtime& rt) -> CUresult {
    Handle* h = handle_of(handle);
    if (h == nullptr || h->refs == 0) return kCuInvalidValue;
    --h->refs;
    release_if_unused(rt, h);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuMemMap(std::uint64_t ptr, std::size_t size, std::size_t offset, std::uint64_t handle,
                         unsigned long long flags) {
  if (flags != 0 || offset != 0 || size == 0 || ptr % kGranularity != 0 || size % kGranularity != 0)
    return kCuInvalidValue;  // "offset ... currently must be zero"
  return locked([&](Runtime&) -> CUresult {
    Handle* h = handle_of(handle);
    if (h == nullptr || size > h->bytes) return kCuInvalidValue;
    if (reservation_of(ptr, size) == vmm().reservations.end()) return kCuInvalidValue;
    // "cuMemMap can only create mappings on VA range reservations that are not currently mapped."
    auto next = vmm().mappings.lower_bound(ptr);
    if (mapping_at(ptr) != vmm().mappings.end() || (next != vmm().mappings.end() && next->first < ptr + size))
      return kCuInvalidValue;
    void* at = mmap(reinterpret_cast<void*>(ptr), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, h->fd, 0);
    if (at == MAP_FAILED) return kCuOutOfMemory;
    vmm().mappings[ptr] = Mapping{size, h, 0};
    ++h->mappings;
    return kCuSuccess;
  });
}

WS_DRV CUresult cuMemUnmap(std::uint64_t ptr, std::size_t size) {
  return locked([&](Runtime& rt) -> CUresult {
    // "The range must be the entire contiguous address range that was mapped to."
    auto it = vmm().mappings.find(ptr);
    if (it == vmm().mappings.end() || it->second.bytes != size) return kCuInvalidValue;
    const bool shown = it->second.access != 0;
    it->second.access = 0;
    if (shown) refresh(rt);
    mmap(reinterpret_cast<void*>(ptr), size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    Handle* h = it->second.handle;
    vmm().mappings.erase(it);
    --h->mappings;
    release_if_unused(rt, h);
    return kCuSuccess;
  });
}

// caveat: read-only access (CU_MEM_ACCESS_FLAGS_PROT_READ) is kept and reported, but a kernel's
//   store there is not a fault
WS_DRV CUresult cuMemSetAccess(std::uint64_t ptr, std::size_t size, const AccessDesc* desc, std::size_t count) {
  if (desc == nullptr || count == 0 || size == 0) return kCuInvalidValue;
  return locked([&](Runtime& rt) -> CUresult {
    int access = -1;
    for (std::size_t i = 0; i < count; ++i) {
      if (desc[i].location.type != 1) return kCuInvalidValue;  // the host cannot reach device memory
      if (desc[i].location.id != 0) return kCuInvalidDevice;
      if (desc[i].flags != 0 && desc[i].flags != 1 && desc[i].flags != 3) return kCuInvalidValue;
      access = desc[i].flags;
    }
    // "The range must be a fully mapped address range containing all allocations created by cuMemMap."
    std::vector<std::uintptr_t> covered;
    for (std::uintptr_t at = ptr; at < ptr + size;) {
      auto m = vmm().mappings.find(at);
      if (m == vmm().mappings.end() || m->second.bytes > ptr + size - at) return kCuInvalidValue;
      covered.push_back(at);
      at += m->second.bytes;
    }
    for (std::uintptr_t at : covered) vmm().mappings[at].access = access;
    refresh(rt);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuMemGetAccess(unsigned long long* flags, const MemLocation* location, std::uint64_t ptr) {
  if (flags == nullptr || location == nullptr) return kCuInvalidValue;
  return locked([&](Runtime&) -> CUresult {
    auto m = mapping_at(ptr);
    if (m == vmm().mappings.end()) return kCuInvalidValue;
    if (location->type != 1) {
      *flags = 0;
      return kCuSuccess;
    }
    if (location->id != 0) return kCuInvalidDevice;
    *flags = static_cast<unsigned long long>(m->second.access);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuMemRetainAllocationHandle(std::uint64_t* handle, void* addr) {
  if (handle == nullptr) return kCuInvalidValue;
  return locked([&](Runtime&) -> CUresult {
    auto m = mapping_at(reinterpret_cast<std::uintptr_t>(addr));
    if (m == vmm().mappings.end()) return kCuInvalidValue;
    ++m->second.handle->refs;
    *handle = reinterpret_cast<std::uintptr_t>(m->second.handle);
    return kCuSuccess;
  });
}

WS_DRV CUresult cuMemGetAllocationPropertiesFromHandle(AllocationProp* prop, std::uint64_t handle) {
  if (prop == nullptr) return kCuInvalidValue;
  return locked([&](Runtime&) -> CUresult {
    Handle* h = handle_of(handle);
    if (h == nullptr) return kCuInvalidValue;
    *prop = h->prop;
    return kCuSuccess;
  });
}
