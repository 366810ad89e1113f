// Memory: device, pinned and managed allocations, copies (1-D, 2-D, to and from symbols), memset,
// pointer attributes and memory information.
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"
#include "runtime/cudart/mem_pools.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below
using warpscope::DevicePtr;

namespace {

cudaError_t symbol_address(Runtime& rt, const void* symbol, DevicePtr* addr, std::size_t* size) {
  VarRec* v = rt.find_var(symbol);
  if (v == nullptr) return kErrInvalidSymbol;
  if (cudaError_t e = rt.ensure_loaded(*v->module); e != kSuccess) return e;
  *addr = rt.device().symbol_address(*v->module->module, v->name);
  *size = rt.device().symbol_size(*v->module->module, v->name);
  return kSuccess;
}

cudaError_t copy_2d(Runtime& rt, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                    std::size_t width, std::size_t height, int kind) {
  if (width == 0 || height == 0) return kSuccess;
  if (width > dpitch || width > spitch) return kErrInvalidPitchValue;
  for (std::size_t row = 0; row < height; ++row) {
    auto* d = static_cast<char*>(dst) + row * dpitch;
    const auto* s = static_cast<const char*>(src) + row * spitch;
    if (cudaError_t e = rt.copy(d, s, width, kind); e != kSuccess) return e;
  }
  return kSuccess;
}

cudaError_t copy_to_symbol(Runtime& rt, const void* symbol, const void* src, std::size_t bytes, std::size_t offset,
                           int kind, const void* stream) {
  if (kind != kHostToDevice && kind != kDeviceToDevice && kind != kDefault) return kErrInvalidMemcpyDirection;
  DevicePtr addr = 0;
  std::size_t size = 0;
  if (cudaError_t e = symbol_address(rt, symbol, &addr, &size); e != kSuccess) return e;
  if (offset > size || bytes > size - offset) return kErrInvalidValue;
  if (stream != nullptr) return capture_copy(rt, stream, linear_copy(reinterpret_cast<void*>(addr + offset), src, bytes, kind));
  return rt.copy(reinterpret_cast<void*>(addr + offset), src, bytes, kind);
}

cudaError_t copy_from_symbol(Runtime& rt, void* dst, const void* symbol, std::size_t bytes, std::size_t offset,
                             int kind, const void* stream) {
  if (kind != kDeviceToHost && kind != kDeviceToDevice && kind != kDefault) return kErrInvalidMemcpyDirection;
  DevicePtr addr = 0;
  std::size_t size = 0;
  if (cudaError_t e = symbol_address(rt, symbol, &addr, &size); e != kSuccess) return e;
  if (offset > size || bytes > size - offset) return kErrInvalidValue;
  if (stream != nullptr) return capture_copy(rt, stream, linear_copy(dst, reinterpret_cast<const void*>(addr + offset), bytes, kind));
  return rt.copy(dst, reinterpret_cast<const void*>(addr + offset), bytes, kind);
}

cudaError_t set_2d(Runtime& rt, void* dst, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  if (width == 0 || height == 0) return kSuccess;
  if (width > pitch) return kErrInvalidValue;
  for (std::size_t row = 0; row < height; ++row) {
    if (cudaError_t e = rt.set(static_cast<char*>(dst) + row * pitch, value, width); e != kSuccess) return e;
  }
  return kSuccess;
}

}  // namespace

WS_API cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  return call("cudaMalloc", [&](Runtime& rt) {
    if (ptr == nullptr) return kErrInvalidValue;
    if (cudaError_t e = unsafe_call(rt, "cudaMalloc"); e != kSuccess) return e;
    if (bytes == 0) {
      *ptr = nullptr;
      return kSuccess;
    }
    try {
      const DevicePtr p = rt.device().malloc(bytes);
      rt.allocations[p] = bytes;
      rt.note_allocation(p);
      *ptr = reinterpret_cast<void*>(p);
    } catch (const warpscope::Error&) {
      *ptr = nullptr;
      return kErrMemoryAllocation;
    }
    return kSuccess;
  });
}

namespace {
/// cudaMallocAsync, cudaMallocFromPoolAsync: from the pool at once, or an allocation node of the
/// stream's capture.
cudaError_t malloc_async(const char* api, void** ptr, std::size_t bytes, MemPool* pool, void* stream) {
  return call(api, [&](Runtime& rt) {
    if (ptr == nullptr) return kErrInvalidValue;
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    if (pool == nullptr) pool = Pools::get().current_pool();
    if (!Pools::get().valid(pool)) return kErrInvalidValue;
    if (captured) return capture_alloc(rt, stream, *pool, bytes, ptr);
    return pool_allocate(rt, pool, bytes, ptr);
  });
}
}  // namespace

// caveat: allocates at once (every stream is idle); the pool counts it (docs/runtime.md "Memory pools and graph memory")
WS_API cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, void* stream) {
  return malloc_async("cudaMallocAsync", ptr, bytes, nullptr, stream);
}

// caveat: allocates at once (every stream is idle); the pool counts it
WS_API cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, void* pool, void* stream) {
  if (pool == nullptr) return call("cudaMallocFromPoolAsync", [](Runtime&) { return kErrInvalidValue; });
  return malloc_async("cudaMallocFromPoolAsync", ptr, bytes, static_cast<MemPool*>(pool), stream);
}

WS_API cudaError_t cudaMallocFromPoolAsync_ptsz(void** ptr, std::size_t bytes, void* pool, void* stream) {
  return cudaMallocFromPoolAsync(ptr, bytes, pool, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaMallocAsync_ptsz(void** ptr, std::size_t bytes, void* stream) {
  return cudaMallocAsync(ptr, bytes, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaFree(void* ptr) {
  return call("cudaFree", [&](Runtime& rt) {
    if (cudaError_t e = unsafe_call(rt, "cudaFree"); e != kSuccess) return e;
    if (ptr == nullptr) return kSuccess;
    const auto p = reinterpret_cast<std::uintptr_t>(ptr);
    auto it = rt.allocations.find(p);
    if (it != rt.allocations.end()) {
      pool_released(p, it->second);
      rt.note_unused(p, it->second);  // initcheck --track-unused-memory
      rt.device().free(p);
      rt.allocations.erase(it);
      return kSuccess;
    }
    auto h = rt.host_allocs.find(p);
    if (h != rt.host_allocs.end() && h->second.managed) return rt.free_host_visible(p);
    if (graph_free(ptr)) return kSuccess;  // a graph allocation, freed outside its graph
    return kErrInvalidValue;
  });
}

// caveat: frees at once (every stream is idle)
WS_API cudaError_t cudaFreeAsync(void* ptr, void* stream) {
  return call("cudaFreeAsync", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) return capture_free(rt, stream, ptr);
    if (graph_free(ptr)) return kSuccess;
    return cudaFree(ptr);
  });
}

WS_API cudaError_t cudaFreeAsync_ptsz(void* ptr, void* stream) { return cudaFreeAsync(ptr, const_cast<void*>(canonical_stream(stream, true))); }

// Pinned memory is mapped for kernels whatever the flags: with unified addressing (every 64-bit
// GPU) a kernel reads and writes it through its host pointer, as the H200 does
// (tests/hw/data/h200/runtime_gt/api_errors.txt, mode pinned).
WS_API cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags) {
  return call("cudaHostAlloc", [&](Runtime& rt) {
    if (ptr == nullptr || flags > 0xf) return kErrInvalidValue;
    if (cudaError_t e = unsafe_call(rt, "cudaHostAlloc"); e != kSuccess) return e;
    void* p = rt.allocate_host_visible(bytes, false, flags);
    if (p == nullptr) return kErrMemoryAllocation;
    *ptr = p;
    return kSuccess;
  });
}

WS_API cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) { return cudaHostAlloc(ptr, bytes, 0); }

WS_API cudaError_t cudaFreeHost(void* ptr) {
  return call("cudaFreeHost", [&](Runtime& rt) {
    if (cudaError_t e = unsafe_call(rt, "cudaFreeHost"); e != kSuccess) return e;
    if (ptr == nullptr) return kSuccess;
    auto h = rt.host_allocs.find(reinterpret_cast<std::uintptr_t>(ptr));
    if (h == rt.host_allocs.end() || h->second.managed) return kErrInvalidValue;
    return rt.free_host_visible(h->first);
  });
}

WS_API cudaError_t cudaHostGetDevicePointer(void** dptr, void* hptr, unsigned flags) {
  return call("cudaHostGetDevicePointer", [&](Runtime& rt) {
    if (dptr == nullptr || flags != 0) return kErrInvalidValue;
    const auto p = reinterpret_cast<std::uintptr_t>(hptr);
    auto h = rt.host_allocs.upper_bound(p);
    // Registered memory: kernels use it at its own address (cudaHostRegister below).
    if (auto r = rt.registered.upper_bound(p); r != rt.registered.begin() && p - std::prev(r)->first < std::prev(r)->second) {
      *dptr = hptr;
      return kSuccess;
    }
    if (h == rt.host_allocs.begin()) return kErrInvalidValue;
    --h;
    if (p - h->first >= std::max<std::size_t>(h->second.bytes, 1) || h->second.device_base == 0) {
      rt.note("cudaHostGetDevicePointer: only memory from cudaHostAlloc(..., cudaHostAllocMapped) or "
              "cudaMallocManaged is visible to kernels under warpscope");
      return kErrInvalidValue;
    }
    *dptr = hptr;  // same address on both sides
    return kSuccess;
  });
}

WS_API cudaError_t cudaHostGetFlags(unsigned* flags, void* hptr) {
  return call("cudaHostGetFlags", [&](Runtime& rt) {
    if (flags == nullptr) return kErrInvalidValue;
    auto h = rt.host_allocs.find(reinterpret_cast<std::uintptr_t>(hptr));
    if (h == rt.host_allocs.end() || h->second.managed) return kErrInvalidValue;
    *flags = h->second.flags;
    return kSuccess;
  });
}

// Registered host memory is read and written by kernels at its own address, as on a GPU with
// unified addressing (the kernels use the program's memory itself; tests/hw/data/h200/runtime_gt:
// a kernel's increments are seen by the host after cudaDeviceSynchronize).
// caveat: memory at or above 0x7ffd00000000 (a thread's stack) cannot be registered: warpscope's generic windows
//   are there (cudaErrorInvalidValue, with a note)
WS_API cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags) {
  return call("cudaHostRegister", [&](Runtime& rt) {
    // cudaHostRegisterDefault 0, Portable 1, Mapped 2, IoMemory 4, ReadOnly 8.
    if (ptr == nullptr || bytes == 0 || (flags & ~0xfu) != 0) return kErrInvalidValue;
    const auto p = reinterpret_cast<std::uintptr_t>(ptr);
    auto next = rt.registered.lower_bound(p);
    if (next != rt.registered.end() && next->first < p + bytes) return kErrHostMemoryAlreadyRegistered;
    if (next != rt.registered.begin() && std::prev(next)->first + std::prev(next)->second > p)
      return kErrHostMemoryAlreadyRegistered;
    if (rt.classify(ptr, bytes) != Runtime::Where::kHost) return kErrInvalidValue;
    rt.device().map_host_memory(ptr, bytes);  // throws (a note, cudaErrorInvalidValue) where it cannot
    rt.registered[p] = bytes;
    return kSuccess;
  });
}

WS_API cudaError_t cudaHostUnregister(void* ptr) {
  return call("cudaHostUnregister", [&](Runtime& rt) {
    auto it = rt.registered.find(reinterpret_cast<std::uintptr_t>(ptr));
    // Pinned memory of cudaMallocHost/cudaHostAlloc is no registration: cudaErrorInvalidValue, as
    // the H200 answers (tests/hw/data/h200/runtime_gt/api_errors.txt).
    if (rt.classify(ptr, 1) != Runtime::Where::kHost) return kErrInvalidValue;
    if (ptr == nullptr || it == rt.registered.end()) return kErrHostMemoryNotRegistered;
    rt.device().unmap_host_memory(ptr);
    rt.registered.erase(it);
    return kSuccess;
  });
}

// caveat: host pages at the device address, copied to the device before and back after every launch; allocations are
//   rounded to pages
WS_API cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags) {
  return call("cudaMallocManaged", [&](Runtime& rt) {
    if (ptr == nullptr || (flags != 1 && flags != 2)) return kErrInvalidValue;
    if (cudaError_t e = unsafe_call(rt, "cudaMallocManaged"); e != kSuccess) return e;
    if (bytes == 0) {  // success and a null pointer, as on an H100 (measured)
      *ptr = nullptr;
      return kSuccess;
    }
    void* p = rt.allocate_host_visible(bytes, true, flags);
    if (p == nullptr) return kErrMemoryAllocation;
    *ptr = p;
    return kSuccess;
  });
}

// caveat: a hint with nothing to do: managed memory is copied in before and out after every launch
WS_API cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int, unsigned, void*) { return kSuccess; }
// caveat: a hint with nothing to do: managed memory is copied in before and out after every launch
WS_API cudaError_t cudaMemAdvise(const void*, std::size_t, int, int) { return kSuccess; }
// caveat: accepted: managed memory is visible to every stream
WS_API cudaError_t cudaStreamAttachMemAsync(void*, void*, std::size_t, unsigned) { return kSuccess; }

WS_API cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  return call("cudaMallocPitch", [&](Runtime& rt) {
    if (ptr == nullptr || pitch == nullptr) return kErrInvalidValue;
    if (cudaError_t e = unsafe_call(rt, "cudaMallocPitch"); e != kSuccess) return e;
    const std::size_t p = pitch_for(width);
    *pitch = p;
    if (width == 0 || height == 0) {
      *ptr = nullptr;
      return kSuccess;
    }
    try {
      const DevicePtr d = rt.device().malloc(p * height);
      rt.allocations[d] = p * height;
      rt.note_allocation(d);
      *ptr = reinterpret_cast<void*>(d);
    } catch (const warpscope::Error&) {
      return kErrMemoryAllocation;
    }
    return kSuccess;
  });
}

// caveat: free memory is the H100's total minus 527 MiB of context minus warpscope's allocations
WS_API cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total) {
  return call("cudaMemGetInfo", [&](Runtime& rt) {
    if (free_bytes == nullptr || total == nullptr) return kErrInvalidValue;
    const std::size_t capacity = rt.profile().name == "hopper" ? 85017493504ull : rt.profile().dram_bytes;
    // An idle H100 reports 552,402,944 bytes (527 MiB) in use by the context (runtime_probe.csv).
    constexpr std::size_t kContext = 85017493504ull - 84465090560ull;
    std::size_t used = kContext;
    for (const auto& [base, bytes] : rt.allocations) used += (bytes + 511) / 512 * 512;
    used += rt.vmm_physical_bytes;  // cuMemCreate's handles (drv_vmm.cpp)
    for (const auto& [key, h] : rt.host_allocs)
      if (h.device_base != 0) used += h.map_bytes;
    *total = capacity;
    *free_bytes = used < capacity ? capacity - used : 0;
    return kSuccess;
  });
}

// ---- Copies ---------------------------------------------------------------------------------

WS_API cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, int kind) {
  return call("cudaMemcpy", [&](Runtime& rt) {
    if (cudaError_t e = sync_check(rt, "cudaMemcpy"); e != kSuccess) return e;
    return rt.copy(dst, src, bytes, kind);
  });
}

WS_API cudaError_t cudaMemcpy_ptds(void* dst, const void* src, std::size_t bytes, int kind) {
  return cudaMemcpy(dst, src, bytes, kind);
}

WS_API cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, int kind, void* stream) {
  return call("cudaMemcpyAsync", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) return capture_copy(rt, stream, linear_copy(dst, src, bytes, kind));
    return rt.copy(dst, src, bytes, kind);
  });
}

WS_API cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, std::size_t bytes, int kind, void* stream) {
  return cudaMemcpyAsync(dst, src, bytes, kind, const_cast<void*>(canonical_stream(stream, true)));
}

// caveat: one device: both must be device 0
WS_API cudaError_t cudaMemcpyPeer(void* dst, int dst_dev, const void* src, int src_dev, std::size_t bytes) {
  return call("cudaMemcpyPeer", [&](Runtime& rt) {
    if (dst_dev != 0 || src_dev != 0) return kErrInvalidDevice;
    if (cudaError_t e = sync_check(rt, "cudaMemcpyPeer"); e != kSuccess) return e;
    return rt.copy(dst, src, bytes, kDeviceToDevice);
  });
}

WS_API cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                                std::size_t width, std::size_t height, int kind) {
  return call("cudaMemcpy2D", [&](Runtime& rt) {
    if (cudaError_t e = sync_check(rt, "cudaMemcpy2D"); e != kSuccess) return e;
    return copy_2d(rt, dst, dpitch, src, spitch, width, height, kind);
  });
}

WS_API cudaError_t cudaMemcpy2D_ptds(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                                     std::size_t width, std::size_t height, int kind) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

WS_API cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                                     std::size_t width, std::size_t height, int kind, void* stream) {
  return call("cudaMemcpy2DAsync", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) return capture_copy(rt, stream, pitched_copy(dst, dpitch, src, spitch, width, height, kind));
    return copy_2d(rt, dst, dpitch, src, spitch, width, height, kind);
  });
}

WS_API cudaError_t cudaMemcpy2DAsync_ptsz(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                                          std::size_t width, std::size_t height, int kind, void* stream) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, std::size_t bytes, std::size_t offset,
                                      int kind) {
  return call("cudaMemcpyToSymbol", [&](Runtime& rt) {
    if (cudaError_t e = sync_check(rt, "cudaMemcpyToSymbol"); e != kSuccess) return e;
    return copy_to_symbol(rt, symbol, src, bytes, offset, kind, nullptr);
  });
}

WS_API cudaError_t cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, std::size_t bytes,
                                           std::size_t offset, int kind) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}

WS_API cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, std::size_t bytes,
                                           std::size_t offset, int kind, void* stream) {
  return call("cudaMemcpyToSymbolAsync", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    return copy_to_symbol(rt, symbol, src, bytes, offset, kind, captured ? stream : nullptr);
  });
}

WS_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, std::size_t bytes,
                                                std::size_t offset, int kind, void* stream) {
  return cudaMemcpyToSymbolAsync(symbol, src, bytes, offset, kind, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, std::size_t bytes, std::size_t offset,
                                        int kind) {
  return call("cudaMemcpyFromSymbol", [&](Runtime& rt) {
    if (cudaError_t e = sync_check(rt, "cudaMemcpyFromSymbol"); e != kSuccess) return e;
    return copy_from_symbol(rt, dst, symbol, bytes, offset, kind, nullptr);
  });
}

WS_API cudaError_t cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, std::size_t bytes,
                                             std::size_t offset, int kind) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}

WS_API cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, std::size_t bytes,
                                             std::size_t offset, int kind, void* stream) {
  return call("cudaMemcpyFromSymbolAsync", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    return copy_from_symbol(rt, dst, symbol, bytes, offset, kind, captured ? stream : nullptr);
  });
}

WS_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, std::size_t bytes,
                                                  std::size_t offset, int kind, void* stream) {
  return cudaMemcpyFromSymbolAsync(dst, symbol, bytes, offset, kind, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol) {
  return call("cudaGetSymbolAddress", [&](Runtime& rt) {
    if (ptr == nullptr) return kErrInvalidValue;
    DevicePtr addr = 0;
    std::size_t size = 0;
    if (cudaError_t e = symbol_address(rt, symbol, &addr, &size); e != kSuccess) return e;
    *ptr = reinterpret_cast<void*>(addr);
    return kSuccess;
  });
}

WS_API cudaError_t cudaGetSymbolSize(std::size_t* size, const void* symbol) {
  return call("cudaGetSymbolSize", [&](Runtime& rt) {
    if (size == nullptr) return kErrInvalidValue;
    DevicePtr addr = 0;
    return symbol_address(rt, symbol, &addr, size);
  });
}

// ---- Memset ---------------------------------------------------------------------------------

WS_API cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
  return call("cudaMemset", [&](Runtime& rt) {
    if (cudaError_t e = sync_check(rt, "cudaMemset"); e != kSuccess) return e;
    return rt.set(dst, value, bytes);
  });
}

WS_API cudaError_t cudaMemset_ptds(void* dst, int value, std::size_t bytes) { return cudaMemset(dst, value, bytes); }

WS_API cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, void* stream) {
  return call("cudaMemsetAsync", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) return capture_memset(rt, stream, MemsetParams{dst, bytes, static_cast<unsigned>(value), 1, bytes, 1});
    return rt.set(dst, value, bytes);
  });
}

WS_API cudaError_t cudaMemsetAsync_ptsz(void* dst, int value, std::size_t bytes, void* stream) {
  return cudaMemsetAsync(dst, value, bytes, const_cast<void*>(canonical_stream(stream, true)));
}

WS_API cudaError_t cudaMemset2D(void* dst, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  return call("cudaMemset2D", [&](Runtime& rt) {
    if (cudaError_t e = sync_check(rt, "cudaMemset2D"); e != kSuccess) return e;
    return set_2d(rt, dst, pitch, value, width, height);
  });
}

WS_API cudaError_t cudaMemset2D_ptds(void* dst, std::size_t pitch, int value, std::size_t width,
                                     std::size_t height) {
  return cudaMemset2D(dst, pitch, value, width, height);
}

WS_API cudaError_t cudaMemset2DAsync(void* dst, std::size_t pitch, int value, std::size_t width,
                                     std::size_t height, void* stream) {
  return call("cudaMemset2DAsync", [&](Runtime& rt) {
    bool captured = false;
    if (cudaError_t e = async_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) {
      if (width > pitch && height > 1) return kErrInvalidValue;
      return capture_memset(rt, stream, MemsetParams{dst, pitch, static_cast<unsigned>(value), 1, width, height});
    }
    return set_2d(rt, dst, pitch, value, width, height);
  });
}

WS_API cudaError_t cudaMemset2DAsync_ptsz(void* dst, std::size_t pitch, int value, std::size_t width,
                                          std::size_t height, void* stream) {
  return cudaMemset2DAsync(dst, pitch, value, width, height, const_cast<void*>(canonical_stream(stream, true)));
}

// ---- Pointer attributes ---------------------------------------------------------------------

WS_API cudaError_t cudaPointerGetAttributes(PointerAttributes* attr, const void* ptr) {
  return call("cudaPointerGetAttributes", [&](Runtime& rt) {
    if (attr == nullptr) return kErrInvalidValue;
    PointerAttributes a{};
    a.device = 0;
    switch (rt.classify(ptr, 1)) {
      case Runtime::Where::kDevice:
        a.type = kDevice;
        a.devicePointer = const_cast<void*>(ptr);
        break;
      case Runtime::Where::kHostVisible: {
        auto h = rt.host_allocs.upper_bound(reinterpret_cast<std::uintptr_t>(ptr));
        --h;
        a.type = h->second.managed ? kManaged : kHost;
        a.hostPointer = const_cast<void*>(ptr);
        a.devicePointer = h->second.device_base != 0 ? const_cast<void*>(ptr) : nullptr;
        break;
      }
      case Runtime::Where::kHost:
        a.type = kUnregistered;
        a.device = -2;
        a.hostPointer = const_cast<void*>(ptr);
        break;
    }
    *attr = a;
    return kSuccess;
  });
}

