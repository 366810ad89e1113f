// The driver API's memory pools, stream-ordered allocation, managed-memory hints, the peer calls
// and peer copies of one device and its PCI address (drv.hpp): the runtime's entry points do the work (api_pool.cpp,
// api_memory.cpp, api_memory_extra.cpp). CUmemoryPool is the runtime's cudaMemPool_t, and
// CUmemPoolProps, CUmemLocation, CUmemAccessDesc, CUmemPool_attribute and CUmem_range_attribute
// are the runtime's types and numbers (cuda.h and driver_types.h, CUDA 13.0).
#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

extern "C" {
using warpscope::cudart::cudaError_t;
cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, void* stream);
cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, void* pool, void* stream);
cudaError_t cudaFreeAsync(void* ptr, void* stream);
cudaError_t cudaDeviceGetDefaultMemPool(void** pool, int device);
cudaError_t cudaDeviceGetMemPool(void** pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, void* pool);
cudaError_t cudaMemGetDefaultMemPool(void** pool, void* location, int type);
cudaError_t cudaMemGetMemPool(void** pool, void* location, int type);
cudaError_t cudaMemSetMemPool(void* location, int type, void* pool);
cudaError_t cudaMemPoolCreate(void** pool, const void* props);
cudaError_t cudaMemPoolDestroy(void* pool);
cudaError_t cudaMemPoolSetAttribute(void* pool, int attr, void* value);
cudaError_t cudaMemPoolGetAttribute(void* pool, int attr, void* value);
cudaError_t cudaMemPoolTrimTo(void* pool, std::size_t keep);
cudaError_t cudaMemPoolSetAccess(void* pool, const void* descs, std::size_t count);
cudaError_t cudaMemPoolGetAccess(int* flags, void* pool, void* location);
cudaError_t cudaMemRangeGetAttribute(void* data, std::size_t size, int attr, const void* ptr, std::size_t count);
cudaError_t cudaMemRangeGetAttributes(void** data, std::size_t* sizes, int* attrs, std::size_t n, const void* ptr,
                                      std::size_t count);
cudaError_t cudaDeviceGetP2PAttribute(int* value, int attr, int src, int dst);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer);
cudaError_t cudaDeviceGetPCIBusId(char* id, int len, int dev);
cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* id);
}

namespace warpscope::cudart::drv {
namespace {

void* ptr(std::uint64_t p) { return reinterpret_cast<void*>(p); }

template <typename F>
CUresult ctx_call(F&& f) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime(std::forward<F>(f));
}

/// Whether the n bytes at p are managed memory, which the hints are for: "the memory range must refer to
/// managed memory allocated via cuMemAllocManaged or declared via __managed__ variables".
bool managed_range(std::uint64_t p, std::size_t n) {
  PointerAttributes a{};
  if (cudaPointerGetAttributes(&a, ptr(p)) != kSuccess || a.type != kManaged) return false;
  PointerAttributes b{};
  return n != 0 && cudaPointerGetAttributes(&b, ptr(p + n - 1)) == kSuccess && b.type == kManaged;
}

/// The contexts of a peer copy: both valid (one device: every context is on it).
bool valid_contexts(const void* a, const void* b) {
  for (const void* p : {a, b}) {
    const auto* c = static_cast<const Context*>(p);
    if (c == nullptr || c->destroyed) return false;
  }
  return true;
}

/// cuMemPrefetchAsync and cuMemAdvise: checked, then nothing to do (caveat below).
CUresult managed_hint(std::uint64_t p, std::size_t n, bool location_ok) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (!location_ok) return kCuInvalidDevice;
  return via_runtime([&] { return managed_range(p, n) ? kSuccess : kErrInvalidValue; });
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Pools --------------------------------------------------------------------------------------

WS_DRV CUresult cuDeviceGetDefaultMemPool(void** pool, int dev) {
  return ctx_call([&] { return cudaDeviceGetDefaultMemPool(pool, dev); });
}
WS_DRV CUresult cuDeviceGetMemPool(void** pool, int dev) {
  return ctx_call([&] { return cudaDeviceGetMemPool(pool, dev); });
}
WS_DRV CUresult cuDeviceSetMemPool(int dev, void* pool) {
  return ctx_call([&] { return cudaDeviceSetMemPool(dev, pool); });
}
WS_DRV CUresult cuMemGetDefaultMemPool(void** pool, void* location, int type) {
  return ctx_call([&] { return cudaMemGetDefaultMemPool(pool, location, type); });
}
WS_DRV CUresult cuMemGetMemPool(void** pool, void* location, int type) {
  return ctx_call([&] { return cudaMemGetMemPool(pool, location, type); });
}
WS_DRV CUresult cuMemSetMemPool(void* location, int type, void* pool) {
  return ctx_call([&] { return cudaMemSetMemPool(location, type, pool); });
}
WS_DRV CUresult cuMemPoolCreate(void** pool, const void* props) {
  return ctx_call([&] { return cudaMemPoolCreate(pool, props); });
}
WS_DRV CUresult cuMemPoolDestroy(void* pool) {
  return ctx_call([&] { return cudaMemPoolDestroy(pool); });
}
WS_DRV CUresult cuMemPoolSetAttribute(void* pool, int attr, void* value) {
  return ctx_call([&] { return cudaMemPoolSetAttribute(pool, attr, value); });
}
WS_DRV CUresult cuMemPoolGetAttribute(void* pool, int attr, void* value) {
  return ctx_call([&] { return cudaMemPoolGetAttribute(pool, attr, value); });
}
WS_DRV CUresult cuMemPoolTrimTo(void* pool, std::size_t keep) {
  return ctx_call([&] { return cudaMemPoolTrimTo(pool, keep); });
}
WS_DRV CUresult cuMemPoolSetAccess(void* pool, const void* descs, std::size_t count) {
  return ctx_call([&] { return cudaMemPoolSetAccess(pool, descs, count); });
}
WS_DRV CUresult cuMemPoolGetAccess(int* flags, void* pool, void* location) {
  return ctx_call([&] { return cudaMemPoolGetAccess(flags, pool, location); });
}

// caveat: allocates at once (every stream is idle); the pool counts it
WS_DRV CUresult cuMemAllocAsync(std::uint64_t* dptr, std::size_t bytes, void* stream) {
  return ctx_call([&] { return cudaMallocAsync(reinterpret_cast<void**>(dptr), bytes, stream); });
}
WS_DRV CUresult cuMemAllocAsync_ptsz(std::uint64_t* dptr, std::size_t bytes, void* stream) {
  return cuMemAllocAsync(dptr, bytes, const_cast<void*>(canonical_stream(stream, true)));
}
// caveat: allocates at once (every stream is idle); the pool counts it
WS_DRV CUresult cuMemAllocFromPoolAsync(std::uint64_t* dptr, std::size_t bytes, void* pool, void* stream) {
  return ctx_call([&] { return cudaMallocFromPoolAsync(reinterpret_cast<void**>(dptr), bytes, pool, stream); });
}
WS_DRV CUresult cuMemAllocFromPoolAsync_ptsz(std::uint64_t* dptr, std::size_t bytes, void* pool, void* stream) {
  return cuMemAllocFromPoolAsync(dptr, bytes, pool, const_cast<void*>(canonical_stream(stream, true)));
}
// caveat: frees at once (every stream is idle)
WS_DRV CUresult cuMemFreeAsync(std::uint64_t dptr, void* stream) {
  return ctx_call([&] { return cudaFreeAsync(ptr(dptr), stream); });
}
WS_DRV CUresult cuMemFreeAsync_ptsz(std::uint64_t dptr, void* stream) {
  return cuMemFreeAsync(dptr, const_cast<void*>(canonical_stream(stream, true)));
}

// ---- Managed memory -----------------------------------------------------------------------------

// caveat: checked (managed memory, device 0 or the host), then nothing to do: managed memory is
//   copied in before and out after every launch
WS_DRV CUresult cuMemPrefetchAsync_v2(std::uint64_t p, std::size_t n, MemLocation loc, unsigned, void*) {
  return managed_hint(p, n, loc.type != 1 || loc.id == 0);  // CU_MEM_LOCATION_TYPE_DEVICE 1
}
WS_DRV CUresult cuMemPrefetchAsync_v2_ptsz(std::uint64_t p, std::size_t n, MemLocation loc, unsigned flags, void* s) {
  return cuMemPrefetchAsync_v2(p, n, loc, flags, s);
}
// caveat: checked (managed memory, device 0 or CU_DEVICE_CPU), then nothing to do
WS_DRV CUresult cuMemPrefetchAsync(std::uint64_t p, std::size_t n, int dev, void*) {
  return managed_hint(p, n, dev == 0 || dev == -1);  // CU_DEVICE_CPU is -1
}
WS_DRV CUresult cuMemPrefetchAsync_ptsz(std::uint64_t p, std::size_t n, int dev, void* s) {
  return cuMemPrefetchAsync(p, n, dev, s);
}
// caveat: checked (managed memory, device 0 or the host), then nothing to do: the advice changes
//   no answer of cuMemRangeGetAttribute
WS_DRV CUresult cuMemAdvise_v2(std::uint64_t p, std::size_t n, int advice, MemLocation loc) {
  if (advice < 1 || advice > 6) return kCuInvalidValue;  // CU_MEM_ADVISE_SET_READ_MOSTLY .. UNSET_ACCESSED_BY
  return managed_hint(p, n, loc.type != 1 || loc.id == 0);
}
// caveat: checked (managed memory, device 0 or CU_DEVICE_CPU), then nothing to do
WS_DRV CUresult cuMemAdvise(std::uint64_t p, std::size_t n, int advice, int dev) {
  if (advice < 1 || advice > 6) return kCuInvalidValue;
  return managed_hint(p, n, dev == 0 || dev == -1);
}

WS_DRV CUresult cuMemRangeGetAttribute(void* data, std::size_t size, int attr, std::uint64_t p, std::size_t count) {
  return ctx_call([&] { return cudaMemRangeGetAttribute(data, size, attr, ptr(p), count); });
}
WS_DRV CUresult cuMemRangeGetAttributes(void** data, std::size_t* sizes, int* attrs, std::size_t n, std::uint64_t p,
                                        std::size_t count) {
  return ctx_call([&] { return cudaMemRangeGetAttributes(data, sizes, attrs, n, ptr(p), count); });
}

// ---- Peers (one device: no peer) ----------------------------------------------------------------

WS_DRV CUresult cuDeviceCanAccessPeer(int* can, int dev, int peer) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (can == nullptr) return kCuInvalidValue;
  if (dev != 0 || peer != 0) return kCuInvalidDevice;
  *can = 0;  // a device is not its own peer
  return kCuSuccess;
}
WS_DRV CUresult cuDeviceGetP2PAttribute(int* value, int attr, int src, int dst) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceGetP2PAttribute(value, attr, src, dst); });
}
// Every context is on the one device, which cuDeviceCanAccessPeer says is not its own peer:
// CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (the current context itself: CUDA_ERROR_INVALID_CONTEXT).
WS_DRV CUresult cuCtxEnablePeerAccess(void* peer, unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (flags != 0) return kCuInvalidValue;
  auto* c = static_cast<Context*>(peer);
  if (c == nullptr || c->destroyed || c == current_context()) return kCuInvalidContext;
  return 217;  // CUDA_ERROR_PEER_ACCESS_UNSUPPORTED
}
WS_DRV CUresult cuCtxDisablePeerAccess(void* peer) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  auto* c = static_cast<Context*>(peer);
  if (c == nullptr || c->destroyed) return kCuInvalidContext;
  return 705;  // CUDA_ERROR_PEER_ACCESS_NOT_ENABLED
}

// Copies between the contexts of the one device: device-to-device copies.
WS_DRV CUresult cuMemcpyPeer(std::uint64_t dst, void* dst_ctx, std::uint64_t src, void* src_ctx, std::size_t n) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (!valid_contexts(dst_ctx, src_ctx)) return kCuInvalidContext;
  return via_runtime([&] { return cudaMemcpy(ptr(dst), ptr(src), n, kDeviceToDevice); });
}
WS_DRV CUresult cuMemcpyPeer_ptds(std::uint64_t dst, void* dst_ctx, std::uint64_t src, void* src_ctx, std::size_t n) {
  return cuMemcpyPeer(dst, dst_ctx, src, src_ctx, n);
}
WS_DRV CUresult cuMemcpyPeerAsync(std::uint64_t dst, void* dst_ctx, std::uint64_t src, void* src_ctx, std::size_t n,
                                  void* s) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (!valid_contexts(dst_ctx, src_ctx)) return kCuInvalidContext;
  return via_runtime([&] { return cudaMemcpyAsync(ptr(dst), ptr(src), n, kDeviceToDevice, s); });
}
WS_DRV CUresult cuMemcpyPeerAsync_ptsz(std::uint64_t dst, void* dst_ctx, std::uint64_t src, void* src_ctx,
                                       std::size_t n, void* s) {
  return cuMemcpyPeerAsync(dst, dst_ctx, src, src_ctx, n, const_cast<void*>(canonical_stream(s, true)));
}
// CUDA_MEMCPY3D_PEER is CUDA_MEMCPY3D with each side's context where CUDA_MEMCPY3D has reserved0/1.
WS_DRV CUresult cuMemcpy3DPeer(const Memcpy3D* c) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (c == nullptr) return kCuInvalidValue;
  if (!valid_contexts(c->src.reserved, c->dst.reserved)) return kCuInvalidContext;
  return copy_3d(c, nullptr, false);
}
WS_DRV CUresult cuMemcpy3DPeer_ptds(const Memcpy3D* c) { return cuMemcpy3DPeer(c); }
WS_DRV CUresult cuMemcpy3DPeerAsync(const Memcpy3D* c, void* s) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (c == nullptr) return kCuInvalidValue;
  if (!valid_contexts(c->src.reserved, c->dst.reserved)) return kCuInvalidContext;
  return copy_3d(c, s, true);
}
WS_DRV CUresult cuMemcpy3DPeerAsync_ptsz(const Memcpy3D* c, void* s) {
  return cuMemcpy3DPeerAsync(c, const_cast<void*>(canonical_stream(s, true)));
}

// ---- The device's PCI address (the runtime's) ---------------------------------------------------

WS_DRV CUresult cuDeviceGetPCIBusId(char* id, int len, int dev) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceGetPCIBusId(id, len, dev); });
}
WS_DRV CUresult cuDeviceGetByPCIBusId(int* dev, const char* id) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaDeviceGetByPCIBusId(dev, id); });
}
