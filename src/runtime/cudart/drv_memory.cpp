// The driver API's memory, streams and events (drv.hpp): the runtime's own entry points do the
// work (CUdeviceptr, CUstream and CUevent are the runtime's pointers and handles), so both APIs
// see the same allocations and the same checks. The _ptds/_ptsz forms are the same functions:
// every operation runs to completion when issued, in any stream.
#include <cstring>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

extern "C" {
using warpscope::cudart::cudaError_t;
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes);
cudaError_t cudaLaunchHostFunc(void* stream, void (*fn)(void*), void* data);
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void* ptr);
}

namespace warpscope::cudart::drv {
namespace {

void* ptr(std::uint64_t p) { return reinterpret_cast<void*>(p); }

template <typename F>
CUresult ctx_call(F&& f) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime(std::forward<F>(f));
}

/// cuMemsetD16/D32: `count` elements of `value` (`width` bytes each) at a `width`-aligned address.
CUresult fill(std::uint64_t dst, std::uint32_t value, std::size_t width, std::size_t count) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (dst % width != 0) return kCuInvalidValue;
  unsigned char bytes[4];
  std::memcpy(bytes, &value, 4);
  bool same = true;
  for (std::size_t i = 1; i < width; ++i) same = same && bytes[i] == bytes[0];
  if (same) return via_runtime([&] { return cudaMemset(ptr(dst), bytes[0], count * width); });
  std::vector<unsigned char> pattern(count * width);
  for (std::size_t i = 0; i < count; ++i) std::memcpy(pattern.data() + i * width, bytes, width);
  return via_runtime([&] { return cudaMemcpy(ptr(dst), pattern.data(), pattern.size(), kHostToDevice); });
}

/// cuMemsetD2D8/16/32: `height` rows of `width` elements, `pitch` bytes apart.
CUresult fill_2d(std::uint64_t dst, std::size_t pitch, std::uint32_t value, std::size_t elem, std::size_t width,
                 std::size_t height) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (height > 1 && pitch < width * elem) return kCuInvalidValue;
  for (std::size_t r = 0; r < height; ++r)
    if (CUresult e = fill(dst + r * pitch, value, elem, width); e != kCuSuccess) return e;
  return kCuSuccess;
}

/// cuMemsetD*Async and cuMemsetD2D*Async: on a capturing stream a memset node of the capture with
/// the element size (the runtime's check of the stream first), else the synchronous set.
CUresult fill_async(const char* api, std::uint64_t dst, std::size_t pitch, std::uint32_t value, std::size_t elem,
                    std::size_t width, std::size_t height, void* stream) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (dst % elem != 0 || (height > 1 && pitch < width * elem)) return kCuInvalidValue;
  bool captured = false;
  const CUresult e = via_runtime([&] {
    return call(api, [&](Runtime& rt) {
      if (cudaError_t err = async_check(rt, stream, &captured); err != kSuccess || !captured) return err;
      const std::uint32_t mask = elem == 1 ? 0xffu : elem == 2 ? 0xffffu : 0xffffffffu;
      return capture_memset(rt, stream, MemsetParams{ptr(dst), height > 1 ? pitch : width * elem, value & mask,
                                                      static_cast<unsigned>(elem), width, height});
    });
  });
  if (e != kCuSuccess || captured) return e;
  return fill_2d(dst, pitch, value, elem, width, height);
}

/// CUDA_MEMCPY2D.
struct Memcpy2D {
  std::size_t src_x, src_y;
  int src_type;
  const void* src_host;
  std::uint64_t src_device;
  void* src_array;
  std::size_t src_pitch;
  std::size_t dst_x, dst_y;
  int dst_type;
  void* dst_host;
  std::uint64_t dst_device;
  void* dst_array;
  std::size_t dst_pitch;
  std::size_t width, height;
};
static_assert(sizeof(Memcpy2D) == 128);

CUresult copy_2d(const Memcpy2D* c, void* stream, bool async) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (c == nullptr) return kCuInvalidValue;
  // CUmemorytype: 1 host, 2 device, 3 array, 4 unified.
  auto side = [](int type, const void* host, std::uint64_t device, std::size_t x, std::size_t y, std::size_t pitch,
                 const char** bad) -> char* {
    if (type < 1 || type > 4) *bad = "an unknown memory type";
    const char* base = type == 1 ? static_cast<const char*>(host) : reinterpret_cast<const char*>(device);
    return const_cast<char*>(base) + y * pitch + x;
  };
  const char* bad = nullptr;
  char* src = side(c->src_type, c->src_host, c->src_device, c->src_x, c->src_y, c->src_pitch, &bad);
  char* dst = side(c->dst_type, c->dst_host, c->dst_device, c->dst_x, c->dst_y, c->dst_pitch, &bad);
  if (c->src_type == 3 || c->dst_type == 3) {  // a CUDA array: the 3-D copy of depth 1
    Memcpy3D d{};
    d.src = Memcpy3D::Side{c->src_x, c->src_y, 0, 0, c->src_type, c->src_host, c->src_device, c->src_array, nullptr,
                           c->src_pitch, 0};
    d.dst = Memcpy3D::Side{c->dst_x, c->dst_y, 0, 0, c->dst_type, c->dst_host, c->dst_device, c->dst_array, nullptr,
                           c->dst_pitch, 0};
    d.width_bytes = c->width;
    d.height = c->height;
    d.depth = 1;
    return copy_3d(&d, stream, async);
  }
  if (bad != nullptr) return kCuInvalidValue;
  const bool dev_src = c->src_type == 2, dev_dst = c->dst_type == 2;
  const int kind = c->src_type == 4 || c->dst_type == 4 ? kDefault
                   : dev_src && dev_dst                 ? kDeviceToDevice
                   : dev_src                            ? kDeviceToHost
                   : dev_dst                            ? kHostToDevice
                                                        : kHostToHost;
  return via_runtime([&] {
    return async ? cudaMemcpy2DAsync(dst, c->dst_pitch, src, c->src_pitch, c->width, c->height, kind, stream)
                 : cudaMemcpy2D(dst, c->dst_pitch, src, c->src_pitch, c->width, c->height, kind);
  });
}

/// The allocation holding `p`: base and size (plain device, managed or pinned memory).
bool allocation_of(Runtime& rt, std::uintptr_t p, std::uintptr_t* base, std::size_t* size) {
  auto d = rt.allocations.upper_bound(p);
  if (d != rt.allocations.begin()) {
    --d;
    if (p - d->first < std::max<std::size_t>(d->second, 1)) {
      *base = d->first;
      *size = d->second;
      return true;
    }
  }
  auto h = rt.host_allocs.upper_bound(p);
  if (h != rt.host_allocs.begin()) {
    --h;
    if (p - h->first < std::max<std::size_t>(h->second.bytes, 1)) {
      *base = h->first;
      *size = h->second.bytes;
      return true;
    }
  }
  return false;
}

/// The allocations (base -> size) cuPointerSetAttribute(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS) set to 1;
/// guarded by the runtime's lock. An entry counts only while an allocation of that base and size
/// exists.
std::map<std::uintptr_t, std::size_t>& sync_memops() {
  static auto& m = *new std::map<std::uintptr_t, std::size_t>;  // never destroyed
  return m;
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Allocation ---------------------------------------------------------------------------------

WS_DRV CUresult cuMemAlloc_v2(std::uint64_t* dptr, std::size_t bytes) {
  if (dptr == nullptr || bytes == 0) return kCuInvalidValue;  // "If bytesize is 0, returns CUDA_ERROR_INVALID_VALUE"
  return ctx_call([&] { return cudaMalloc(reinterpret_cast<void**>(dptr), bytes); });
}
WS_DRV CUresult cuMemFree_v2(std::uint64_t dptr) {
  return ctx_call([&] { return cudaFree(ptr(dptr)); });
}
WS_DRV CUresult cuMemAllocPitch_v2(std::uint64_t* dptr, std::size_t* pitch, std::size_t width, std::size_t height,
                                   unsigned element_bytes) {
  if (element_bytes != 4 && element_bytes != 8 && element_bytes != 16) return kCuInvalidValue;
  if (dptr == nullptr || pitch == nullptr || width == 0 || height == 0) return kCuInvalidValue;
  return ctx_call([&] { return cudaMallocPitch(reinterpret_cast<void**>(dptr), pitch, width, height); });
}
WS_DRV CUresult cuMemAllocManaged(std::uint64_t* dptr, std::size_t bytes, unsigned flags) {
  if (dptr == nullptr || bytes == 0) return kCuInvalidValue;
  return ctx_call([&] { return cudaMallocManaged(reinterpret_cast<void**>(dptr), bytes, flags); });
}
WS_DRV CUresult cuMemAllocHost_v2(void** p, std::size_t bytes) {
  return ctx_call([&] { return cudaHostAlloc(p, bytes, 0); });
}
WS_DRV CUresult cuMemHostAlloc(void** p, std::size_t bytes, unsigned flags) {
  return ctx_call([&] { return cudaHostAlloc(p, bytes, flags); });  // CU_MEMHOSTALLOC_* are cudaHostAlloc*'s
}
WS_DRV CUresult cuMemFreeHost(void* p) {
  return ctx_call([&] { return cudaFreeHost(p); });
}
WS_DRV CUresult cuMemHostGetDevicePointer_v2(std::uint64_t* dptr, void* p, unsigned flags) {
  return ctx_call([&] { return cudaHostGetDevicePointer(reinterpret_cast<void**>(dptr), p, flags); });
}
// CU_MEMHOSTREGISTER_PORTABLE 1, DEVICEMAP 2, IOMEMORY 4, READ_ONLY 8 are cudaHostRegister*'s.
WS_DRV CUresult cuMemHostRegister_v2(void* p, std::size_t bytes, unsigned flags) {
  return ctx_call([&] { return cudaHostRegister(p, bytes, flags); });
}
WS_DRV CUresult cuMemHostRegister(void* p, std::size_t bytes, unsigned flags) { return cuMemHostRegister_v2(p, bytes, flags); }
WS_DRV CUresult cuMemHostUnregister(void* p) {
  return ctx_call([&] { return cudaHostUnregister(p); });
}
WS_DRV CUresult cuMemHostGetFlags(unsigned* flags, void* p) {
  return ctx_call([&] { return cudaHostGetFlags(flags, p); });
}
WS_DRV CUresult cuMemGetInfo_v2(std::size_t* free_bytes, std::size_t* total) {
  return ctx_call([&] { return cudaMemGetInfo(free_bytes, total); });
}

WS_DRV CUresult cuMemGetAddressRange_v2(std::uint64_t* base, std::size_t* size, std::uint64_t dptr) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  std::uintptr_t b = 0;
  std::size_t s = 0;
  if (!allocation_of(rt, dptr, &b, &s)) return kCuNotFound;
  if (base != nullptr) *base = b;
  if (size != nullptr) *size = s;
  return kCuSuccess;
}

// CUpointer_attribute: the ones a program on one device can ask.
WS_DRV CUresult cuPointerGetAttribute(void* data, int attr, std::uint64_t p) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (data == nullptr) return kCuInvalidValue;
  PointerAttributes a{};
  if (CUresult e = via_runtime([&] { return cudaPointerGetAttributes(&a, ptr(p)); }); e != kCuSuccess) return e;
  const bool known = a.type != kUnregistered;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  std::uintptr_t base = 0;
  std::size_t size = 0;
  const bool in_alloc = allocation_of(rt, p, &base, &size);
  switch (attr) {
    case 1:  // CONTEXT
      if (!known) return kCuInvalidValue;
      *static_cast<Context**>(data) = primary_context();
      return kCuSuccess;
    case 2:  // MEMORY_TYPE: CU_MEMORYTYPE_HOST 1, DEVICE 2 (managed memory is device memory)
      if (!known) return kCuInvalidValue;
      *static_cast<unsigned*>(data) = a.type == kHost ? 1u : 2u;
      return kCuSuccess;
    case 3:  // DEVICE_POINTER
      if (!known || a.devicePointer == nullptr) return kCuInvalidValue;
      *static_cast<std::uint64_t*>(data) = reinterpret_cast<std::uintptr_t>(a.devicePointer);
      return kCuSuccess;
    case 4:  // HOST_POINTER
      if (!known || a.hostPointer == nullptr) return kCuInvalidValue;
      *static_cast<void**>(data) = a.hostPointer;
      return kCuSuccess;
    case 6:  // SYNC_MEMOPS: cuPointerSetAttribute's, for the allocation that holds p
      if (!in_alloc) return kCuInvalidValue;
      *static_cast<bool*>(data) = sync_memops().count(base) != 0 && sync_memops()[base] == size;
      return kCuSuccess;
    case 8:  // IS_MANAGED
      if (!known) return kCuInvalidValue;
      *static_cast<bool*>(data) = a.type == kManaged;
      return kCuSuccess;
    case 9:  // DEVICE_ORDINAL
      if (!known) return kCuInvalidValue;
      *static_cast<int*>(data) = 0;
      return kCuSuccess;
    case 11:  // RANGE_START_ADDR
      if (!in_alloc) return kCuInvalidValue;
      *static_cast<std::uint64_t*>(data) = base;
      return kCuSuccess;
    case 12:  // RANGE_SIZE
      if (!in_alloc) return kCuInvalidValue;
      *static_cast<std::size_t*>(data) = size;
      return kCuSuccess;
    case 13:  // MAPPED
      *static_cast<bool*>(data) = known;
      return kCuSuccess;
    default: return drv::not_supported(fmt::format("cuPointerGetAttribute({})", attr).c_str());
  }
}

// CU_POINTER_ATTRIBUTE_SYNC_MEMOPS is the one attribute a program sets (the H200 refuses the others
// with CUDA_ERROR_INVALID_VALUE): a flag of device or pinned memory, which cuPointerGetAttribute
// reads back. Every synchronous memory operation is synchronous here already.
// caveat: an allocation freed and made again at the same address with the same size keeps the flag
WS_DRV CUresult cuPointerSetAttribute(const void* value, int attr, std::uint64_t p) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (value == nullptr || attr != 6) return kCuInvalidValue;
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  std::uintptr_t base = 0;
  std::size_t size = 0;
  if (!allocation_of(rt, p, &base, &size)) return kCuInvalidValue;  // pageable host memory, or none
  if (*static_cast<const unsigned char*>(value) != 0) sync_memops()[base] = size;  // 2 reads back as 1 (H200)
  else sync_memops().erase(base);
  return kCuSuccess;
}

// Every attribute of `attributes`, into data[i]: what cuPointerGetAttribute answers, or, for a
// pointer CUDA does not know (where cuPointerGetAttribute fails with CUDA_ERROR_INVALID_VALUE), the
// attribute's zero value: "Unlike cuPointerGetAttribute, this function will not return an error when
// the ptr encountered is not a valid CUDA pointer" (the driver API reference). NVIDIA's static
// runtime builds cudaPointerGetAttributes on it.
WS_DRV CUresult cuPointerGetAttributes(unsigned count, const int* attributes, void** data, std::uint64_t p) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  if (count != 0 && (attributes == nullptr || data == nullptr)) return kCuInvalidValue;
  for (unsigned i = 0; i < count; ++i) {
    if (data[i] == nullptr) return kCuInvalidValue;
    const int attr = attributes[i];
    // CUpointer_attribute's value sizes: pointers and 64-bit values, 4-byte ints, 1-byte bools.
    // IS_MANAGED (8) is read as a 4-byte value by NVIDIA's static runtime (its other 3 bytes are
    // not initialised), so it is written as one here.
    std::size_t size = 8;
    if (attr == 2 || attr == 8 || attr == 9) size = 4;  // MEMORY_TYPE, IS_MANAGED, DEVICE_ORDINAL
    if (attr == 6 || attr == 10 || attr == 13 || attr == 15) size = 1;  // the booleans
    if (attr == 5) size = 16;                                           // P2P_TOKENS
    std::memset(data[i], 0, size);
    const CUresult e = cuPointerGetAttribute(data[i], attr, p);
    if (e != kCuSuccess && e != kCuInvalidValue) return e;
  }
  return kCuSuccess;
}

// ---- Copies and sets ----------------------------------------------------------------------------

WS_DRV CUresult cuMemcpyHtoD_v2(std::uint64_t dst, const void* src, std::size_t n) {
  return ctx_call([&] { return cudaMemcpy(ptr(dst), src, n, kHostToDevice); });
}
WS_DRV CUresult cuMemcpyDtoH_v2(void* dst, std::uint64_t src, std::size_t n) {
  return ctx_call([&] { return cudaMemcpy(dst, ptr(src), n, kDeviceToHost); });
}
WS_DRV CUresult cuMemcpyDtoD_v2(std::uint64_t dst, std::uint64_t src, std::size_t n) {
  return ctx_call([&] { return cudaMemcpy(ptr(dst), ptr(src), n, kDeviceToDevice); });
}
WS_DRV CUresult cuMemcpy(std::uint64_t dst, std::uint64_t src, std::size_t n) {
  return ctx_call([&] { return cudaMemcpy(ptr(dst), ptr(src), n, kDefault); });
}
WS_DRV CUresult cuMemcpyHtoDAsync_v2(std::uint64_t dst, const void* src, std::size_t n, void* s) {
  return ctx_call([&] { return cudaMemcpyAsync(ptr(dst), src, n, kHostToDevice, s); });
}
WS_DRV CUresult cuMemcpyDtoHAsync_v2(void* dst, std::uint64_t src, std::size_t n, void* s) {
  return ctx_call([&] { return cudaMemcpyAsync(dst, ptr(src), n, kDeviceToHost, s); });
}
WS_DRV CUresult cuMemcpyDtoDAsync_v2(std::uint64_t dst, std::uint64_t src, std::size_t n, void* s) {
  return ctx_call([&] { return cudaMemcpyAsync(ptr(dst), ptr(src), n, kDeviceToDevice, s); });
}
WS_DRV CUresult cuMemcpyAsync(std::uint64_t dst, std::uint64_t src, std::size_t n, void* s) {
  return ctx_call([&] { return cudaMemcpyAsync(ptr(dst), ptr(src), n, kDefault, s); });
}
WS_DRV CUresult cuMemcpy2D_v2(const Memcpy2D* c) { return copy_2d(c, nullptr, false); }
WS_DRV CUresult cuMemcpy2DUnaligned_v2(const Memcpy2D* c) { return copy_2d(c, nullptr, false); }
WS_DRV CUresult cuMemcpy2DAsync_v2(const Memcpy2D* c, void* s) { return copy_2d(c, s, true); }

WS_DRV CUresult cuMemsetD8_v2(std::uint64_t dst, unsigned char v, std::size_t n) { return fill(dst, v, 1, n); }
WS_DRV CUresult cuMemsetD16_v2(std::uint64_t dst, unsigned short v, std::size_t n) { return fill(dst, v, 2, n); }
WS_DRV CUresult cuMemsetD32_v2(std::uint64_t dst, unsigned v, std::size_t n) { return fill(dst, v, 4, n); }
WS_DRV CUresult cuMemsetD2D8_v2(std::uint64_t dst, std::size_t pitch, unsigned char v, std::size_t w, std::size_t h) {
  return fill_2d(dst, pitch, v, 1, w, h);
}
WS_DRV CUresult cuMemsetD2D16_v2(std::uint64_t dst, std::size_t pitch, unsigned short v, std::size_t w, std::size_t h) {
  return fill_2d(dst, pitch, v, 2, w, h);
}
WS_DRV CUresult cuMemsetD2D32_v2(std::uint64_t dst, std::size_t pitch, unsigned v, std::size_t w, std::size_t h) {
  return fill_2d(dst, pitch, v, 4, w, h);
}
WS_DRV CUresult cuMemsetD2D8Async(std::uint64_t dst, std::size_t pitch, unsigned char v, std::size_t w, std::size_t h,
                                  void* s) {
  return fill_async("cuMemsetD2D8Async", dst, pitch, v, 1, w, h, s);
}
WS_DRV CUresult cuMemsetD2D16Async(std::uint64_t dst, std::size_t pitch, unsigned short v, std::size_t w,
                                   std::size_t h, void* s) {
  return fill_async("cuMemsetD2D16Async", dst, pitch, v, 2, w, h, s);
}
WS_DRV CUresult cuMemsetD2D32Async(std::uint64_t dst, std::size_t pitch, unsigned v, std::size_t w, std::size_t h,
                                   void* s) {
  return fill_async("cuMemsetD2D32Async", dst, pitch, v, 4, w, h, s);
}
WS_DRV CUresult cuMemsetD8Async(std::uint64_t dst, unsigned char v, std::size_t n, void* s) {
  return fill_async("cuMemsetD8Async", dst, 0, v, 1, n, 1, s);
}
WS_DRV CUresult cuMemsetD16Async(std::uint64_t dst, unsigned short v, std::size_t n, void* s) {
  return fill_async("cuMemsetD16Async", dst, 0, v, 2, n, 1, s);
}
WS_DRV CUresult cuMemsetD32Async(std::uint64_t dst, unsigned v, std::size_t n, void* s) {
  return fill_async("cuMemsetD32Async", dst, 0, v, 4, n, 1, s);
}

// The per-thread default stream forms.
WS_DRV CUresult cuMemcpyHtoD_v2_ptds(std::uint64_t d, const void* s, std::size_t n) { return cuMemcpyHtoD_v2(d, s, n); }
WS_DRV CUresult cuMemcpyDtoH_v2_ptds(void* d, std::uint64_t s, std::size_t n) { return cuMemcpyDtoH_v2(d, s, n); }
WS_DRV CUresult cuMemcpyDtoD_v2_ptds(std::uint64_t d, std::uint64_t s, std::size_t n) { return cuMemcpyDtoD_v2(d, s, n); }
WS_DRV CUresult cuMemcpy_ptds(std::uint64_t d, std::uint64_t s, std::size_t n) { return cuMemcpy(d, s, n); }
WS_DRV CUresult cuMemcpyHtoDAsync_v2_ptsz(std::uint64_t d, const void* s, std::size_t n, void* st) {
  return cuMemcpyHtoDAsync_v2(d, s, n, st);
}
WS_DRV CUresult cuMemcpyDtoHAsync_v2_ptsz(void* d, std::uint64_t s, std::size_t n, void* st) {
  return cuMemcpyDtoHAsync_v2(d, s, n, st);
}
WS_DRV CUresult cuMemcpyDtoDAsync_v2_ptsz(std::uint64_t d, std::uint64_t s, std::size_t n, void* st) {
  return cuMemcpyDtoDAsync_v2(d, s, n, st);
}
WS_DRV CUresult cuMemcpyAsync_ptsz(std::uint64_t d, std::uint64_t s, std::size_t n, void* st) {
  return cuMemcpyAsync(d, s, n, st);
}
WS_DRV CUresult cuMemcpy2D_v2_ptds(const Memcpy2D* c) { return copy_2d(c, nullptr, false); }
WS_DRV CUresult cuMemcpy2DUnaligned_v2_ptds(const Memcpy2D* c) { return copy_2d(c, nullptr, false); }
WS_DRV CUresult cuMemcpy2DAsync_v2_ptsz(const Memcpy2D* c, void* s) { return copy_2d(c, s, true); }
WS_DRV CUresult cuMemsetD8_v2_ptds(std::uint64_t dst, unsigned char v, std::size_t n) { return fill(dst, v, 1, n); }
WS_DRV CUresult cuMemsetD16_v2_ptds(std::uint64_t dst, unsigned short v, std::size_t n) { return fill(dst, v, 2, n); }
WS_DRV CUresult cuMemsetD32_v2_ptds(std::uint64_t dst, unsigned v, std::size_t n) { return fill(dst, v, 4, n); }
WS_DRV CUresult cuMemsetD2D8_v2_ptds(std::uint64_t d, std::size_t pitch, unsigned char v, std::size_t w,
                                     std::size_t h) {
  return fill_2d(d, pitch, v, 1, w, h);
}
WS_DRV CUresult cuMemsetD2D16_v2_ptds(std::uint64_t d, std::size_t pitch, unsigned short v, std::size_t w,
                                      std::size_t h) {
  return fill_2d(d, pitch, v, 2, w, h);
}
WS_DRV CUresult cuMemsetD2D32_v2_ptds(std::uint64_t d, std::size_t pitch, unsigned v, std::size_t w, std::size_t h) {
  return fill_2d(d, pitch, v, 4, w, h);
}
WS_DRV CUresult cuMemsetD2D8Async_ptsz(std::uint64_t d, std::size_t pitch, unsigned char v, std::size_t w,
                                       std::size_t h, void* s) {
  return fill_async("cuMemsetD2D8Async_ptsz", d, pitch, v, 1, w, h, const_cast<void*>(canonical_stream(s, true)));
}
WS_DRV CUresult cuMemsetD2D16Async_ptsz(std::uint64_t d, std::size_t pitch, unsigned short v, std::size_t w,
                                        std::size_t h, void* s) {
  return fill_async("cuMemsetD2D16Async_ptsz", d, pitch, v, 2, w, h, const_cast<void*>(canonical_stream(s, true)));
}
WS_DRV CUresult cuMemsetD2D32Async_ptsz(std::uint64_t d, std::size_t pitch, unsigned v, std::size_t w,
                                        std::size_t h, void* s) {
  return fill_async("cuMemsetD2D32Async_ptsz", d, pitch, v, 4, w, h, const_cast<void*>(canonical_stream(s, true)));
}
WS_DRV CUresult cuMemsetD8Async_ptsz(std::uint64_t dst, unsigned char v, std::size_t n, void* s) {
  return fill_async("cuMemsetD8Async_ptsz", dst, 0, v, 1, n, 1, const_cast<void*>(canonical_stream(s, true)));
}
WS_DRV CUresult cuMemsetD16Async_ptsz(std::uint64_t dst, unsigned short v, std::size_t n, void* s) {
  return fill_async("cuMemsetD16Async_ptsz", dst, 0, v, 2, n, 1, const_cast<void*>(canonical_stream(s, true)));
}
WS_DRV CUresult cuMemsetD32Async_ptsz(std::uint64_t dst, unsigned v, std::size_t n, void* s) {
  return fill_async("cuMemsetD32Async_ptsz", dst, 0, v, 4, n, 1, const_cast<void*>(canonical_stream(s, true)));
}

// ---- Streams ------------------------------------------------------------------------------------

// CU_STREAM_NON_BLOCKING is cudaStreamNonBlocking.
WS_DRV CUresult cuStreamCreate(void** s, unsigned flags) {
  return ctx_call([&] { return cudaStreamCreateWithPriority(s, flags, 0); });
}
WS_DRV CUresult cuStreamCreateWithPriority(void** s, unsigned flags, int priority) {
  return ctx_call([&] { return cudaStreamCreateWithPriority(s, flags, priority); });
}
WS_DRV CUresult cuStreamDestroy_v2(void* s) {
  return ctx_call([&] { return cudaStreamDestroy(s); });
}
WS_DRV CUresult cuStreamDestroy(void* s) { return cuStreamDestroy_v2(s); }
WS_DRV CUresult cuStreamSynchronize(void* s) {
  return ctx_call([&] { return cudaStreamSynchronize(s); });
}
WS_DRV CUresult cuStreamQuery(void* s) {
  return ctx_call([&] { return cudaStreamQuery(s); });
}
WS_DRV CUresult cuStreamWaitEvent(void* s, void* e, unsigned flags) {
  return ctx_call([&] { return cudaStreamWaitEvent(s, e, flags); });
}
WS_DRV CUresult cuStreamGetFlags(void* s, unsigned* flags) {
  return ctx_call([&] { return cudaStreamGetFlags(s, flags); });
}
WS_DRV CUresult cuStreamGetPriority(void* s, int* priority) {
  return ctx_call([&] { return cudaStreamGetPriority(s, priority); });
}
WS_DRV CUresult cuLaunchHostFunc(void* s, void (*fn)(void*), void* data) {
  return ctx_call([&] { return cudaLaunchHostFunc(s, fn, data); });
}
WS_DRV CUresult cuStreamSynchronize_ptsz(void* s) { return cuStreamSynchronize(s); }
WS_DRV CUresult cuStreamQuery_ptsz(void* s) { return cuStreamQuery(s); }
WS_DRV CUresult cuStreamWaitEvent_ptsz(void* s, void* e, unsigned flags) { return cuStreamWaitEvent(s, e, flags); }
WS_DRV CUresult cuStreamGetFlags_ptsz(void* s, unsigned* flags) { return cuStreamGetFlags(s, flags); }
WS_DRV CUresult cuStreamGetPriority_ptsz(void* s, int* priority) { return cuStreamGetPriority(s, priority); }
WS_DRV CUresult cuLaunchHostFunc_ptsz(void* s, void (*fn)(void*), void* data) { return cuLaunchHostFunc(s, fn, data); }

// ---- Events -------------------------------------------------------------------------------------

// CU_EVENT_* flags are cudaEvent*'s.
WS_DRV CUresult cuEventCreate(void** e, unsigned flags) {
  return ctx_call([&] { return cudaEventCreateWithFlags(e, flags); });
}
WS_DRV CUresult cuEventRecord(void* e, void* s) {
  return ctx_call([&] { return cudaEventRecordWithFlags(e, s, 0); });
}
WS_DRV CUresult cuEventRecordWithFlags(void* e, void* s, unsigned flags) {
  return ctx_call([&] { return cudaEventRecordWithFlags(e, s, flags); });
}
WS_DRV CUresult cuEventSynchronize(void* e) {
  return ctx_call([&] { return cudaEventSynchronize(e); });
}
WS_DRV CUresult cuEventQuery(void* e) {
  return ctx_call([&] { return cudaEventQuery(e); });
}
WS_DRV CUresult cuEventElapsedTime_v2(float* ms, void* start, void* end) {
  return ctx_call([&] { return cudaEventElapsedTime(ms, start, end); });
}
WS_DRV CUresult cuEventElapsedTime(float* ms, void* start, void* end) { return cuEventElapsedTime_v2(ms, start, end); }
WS_DRV CUresult cuEventDestroy_v2(void* e) {
  return ctx_call([&] { return cudaEventDestroy(e); });
}
WS_DRV CUresult cuEventDestroy(void* e) { return cuEventDestroy_v2(e); }
WS_DRV CUresult cuEventRecord_ptsz(void* e, void* s) { return cuEventRecord(e, s); }
WS_DRV CUresult cuEventRecordWithFlags_ptsz(void* e, void* s, unsigned flags) { return cuEventRecordWithFlags(e, s, flags); }
