// The runtime's batch copies and batch managed-memory hints (batch.hpp): the checks and copies
// the driver's batch calls share (drv_batch.cpp).
#include "runtime/cudart/batch.hpp"

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

extern "C" {
using warpscope::cudart::cudaError_t;
cudaError_t cudaMemcpy3DAsync(const warpscope::cudart::Memcpy3DParms* p, void* stream);
cudaError_t cudaArrayGetInfo(warpscope::cudart::ChannelFormatDesc* desc, warpscope::cudart::Extent* extent,
                             unsigned* flags, void* array);
}

namespace warpscope::cudart {
namespace {

/// The legacy default stream, which the batch calls refuse (cuda.h, cuda_runtime_api.h: "Must not
/// be legacy NULL stream"; the H200 answers CUDA_ERROR_INVALID_VALUE).
bool legacy_stream(const void* stream) {
  return stream == nullptr || reinterpret_cast<std::uintptr_t>(stream) == kStreamLegacy;
}

/// cudaMemcpySrcAccessOrder Stream 1, DuringApiCall 2, Any 3; flags: PreferOverlapWithCompute 1.
bool valid_order(int order, unsigned flags) { return order >= 1 && order <= 3 && (flags & ~1u) == 0; }

cudaError_t fail(const char* api, cudaError_t e) {
  return call(api, [&](Runtime&) { return e; });
}

/// The bytes of one element of a 3-D batch op: the array operand's element (then the extent and a
/// pointer's row length count elements), else 1 (they count bytes).
std::size_t element_bytes(const Memcpy3DBatchOp& op) {
  void* array = op.src.type == 2 ? op.src.op.array.array : op.dst.type == 2 ? op.dst.op.array.array : nullptr;
  if (array == nullptr) return 1;
  ChannelFormatDesc d{};
  Extent e{};
  unsigned flags = 0;
  if (cudaArrayGetInfo(&d, &e, &flags, array) != kSuccess) return 1;  // the copy refuses the handle
  return static_cast<std::size_t>(d.x + d.y + d.z + d.w) / 8;
}

/// A 3-D batch operand as cudaMemcpy3DParms's array and position, or pitched pointer (its row
/// length in elements of `elem` bytes).
cudaError_t operand(const Memcpy3DOperand& o, const Extent& e, std::size_t elem, void** array, Pos* pos,
                    PitchedPtr* ptr) {
  if (o.type == 1) {
    const std::size_t row = o.op.ptr.rowLength != 0 ? o.op.ptr.rowLength : e.width;
    const std::size_t layer = o.op.ptr.layerHeight != 0 ? o.op.ptr.layerHeight : e.height;
    if (row < e.width || layer < e.height) return kErrInvalidValue;
    *ptr = PitchedPtr{o.op.ptr.ptr, row * elem, row * elem, layer};
    return kSuccess;
  }
  if (o.type == 2) {
    *array = o.op.array.array;
    *pos = Pos{o.op.array.x, o.op.array.y, o.op.array.z};
    return kSuccess;
  }
  return kErrInvalidValue;
}

constexpr int kCopyDefault = 4;  // cudaMemcpyDefault

}  // namespace

cudaError_t memcpy_batch(const char* api, void* const* dsts, const void* const* srcs, const std::size_t* sizes,
                         std::size_t count, const MemcpyAttributes* attrs, const std::size_t* idxs,
                         std::size_t n_attrs, void* stream, std::size_t* fail_idx) {
  if (fail_idx != nullptr) *fail_idx = kNoFailIndex;
  if (count == 0 || dsts == nullptr || srcs == nullptr || sizes == nullptr || attrs == nullptr || idxs == nullptr ||
      n_attrs == 0 || n_attrs > count || idxs[0] != 0 || legacy_stream(stream)) {
    return fail(api, kErrInvalidValue);
  }
  for (std::size_t a = 0; a < n_attrs; ++a) {
    if ((a > 0 && idxs[a] <= idxs[a - 1]) || idxs[a] >= count) return fail(api, kErrInvalidValue);
    if (!valid_order(attrs[a].srcAccessOrder, attrs[a].flags)) return fail(api, kErrInvalidValue);
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (cudaError_t e = cudaMemcpyAsync(dsts[i], srcs[i], sizes[i], kCopyDefault, stream); e != kSuccess) {
      if (fail_idx != nullptr) *fail_idx = i;
      return e;
    }
  }
  return kSuccess;
}

cudaError_t memcpy_3d_batch(const char* api, std::size_t n, const Memcpy3DBatchOp* ops, unsigned long long flags,
                            void* stream, std::size_t* fail_idx) {
  if (fail_idx != nullptr) *fail_idx = kNoFailIndex;
  if (n == 0 || ops == nullptr || flags != 0 || legacy_stream(stream)) return fail(api, kErrInvalidValue);
  for (std::size_t i = 0; i < n; ++i) {
    Memcpy3DParms p{};
    p.extent = ops[i].extent;
    p.kind = kCopyDefault;
    cudaError_t e = valid_order(ops[i].srcAccessOrder, ops[i].flags) && p.extent.width != 0 &&
                            p.extent.height != 0 && p.extent.depth != 0
                        ? kSuccess
                        : kErrInvalidValue;
    const std::size_t elem = element_bytes(ops[i]);
    if (e == kSuccess) e = operand(ops[i].src, p.extent, elem, &p.srcArray, &p.srcPos, &p.srcPtr);
    if (e == kSuccess) e = operand(ops[i].dst, p.extent, elem, &p.dstArray, &p.dstPos, &p.dstPtr);
    if (e != kSuccess) e = fail(api, e);
    if (e == kSuccess) e = cudaMemcpy3DAsync(&p, stream);
    if (e != kSuccess) {
      if (fail_idx != nullptr) *fail_idx = i;
      return e;
    }
  }
  return kSuccess;
}

cudaError_t memory_batch_hint(const char* api, void* const* ptrs, const std::size_t* sizes, std::size_t count,
                              unsigned long long flags, void* stream) {
  return call(api, [&](Runtime& rt) {
    if (count == 0 || ptrs == nullptr || sizes == nullptr || flags != 0 || legacy_stream(stream)) {
      return kErrInvalidValue;
    }
    for (std::size_t i = 0; i < count; ++i) {
      const auto p = reinterpret_cast<std::uintptr_t>(ptrs[i]);
      auto h = rt.host_allocs.upper_bound(p);
      if (h == rt.host_allocs.begin()) return kErrInvalidValue;
      --h;
      if (!h->second.managed || p - h->first >= h->second.bytes || sizes[i] > h->second.bytes - (p - h->first)) {
        return kErrInvalidValue;  // not managed memory (the H200 refuses cuMemAlloc's), or past its end
      }
    }
    return rt.check_stream(stream);
  });
}

}  // namespace warpscope::cudart

using namespace warpscope::cudart;  // NOLINT: the C entry points below

WS_API cudaError_t cudaMemPrefetchBatchAsync(void** ptrs, std::size_t* sizes, std::size_t count, void*, std::size_t*,
                                             std::size_t, unsigned long long flags, void* stream) {
  return memory_batch_hint("cudaMemPrefetchBatchAsync", ptrs, sizes, count, flags, stream);
}
WS_API cudaError_t cudaMemPrefetchBatchAsync_ptsz(void** ptrs, std::size_t* sizes, std::size_t count, void* locs,
                                                  std::size_t* idx, std::size_t n, unsigned long long flags, void* s) {
  return cudaMemPrefetchBatchAsync(ptrs, sizes, count, locs, idx, n, flags, const_cast<void*>(canonical_stream(s, true)));
}
WS_API cudaError_t cudaMemDiscardBatchAsync(void** ptrs, std::size_t* sizes, std::size_t count, unsigned long long flags,
                                            void* stream) {
  return memory_batch_hint("cudaMemDiscardBatchAsync", ptrs, sizes, count, flags, stream);
}
WS_API cudaError_t cudaMemDiscardBatchAsync_ptsz(void** ptrs, std::size_t* sizes, std::size_t count,
                                                 unsigned long long flags, void* s) {
  return cudaMemDiscardBatchAsync(ptrs, sizes, count, flags, const_cast<void*>(canonical_stream(s, true)));
}
WS_API cudaError_t cudaMemDiscardAndPrefetchBatchAsync(void** ptrs, std::size_t* sizes, std::size_t count, void*,
                                                       std::size_t*, std::size_t, unsigned long long flags, void* s) {
  return memory_batch_hint("cudaMemDiscardAndPrefetchBatchAsync", ptrs, sizes, count, flags, s);
}
WS_API cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void** ptrs, std::size_t* sizes, std::size_t count,
                                                            void* locs, std::size_t* idx, std::size_t n,
                                                            unsigned long long flags, void* s) {
  return cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, count, locs, idx, n, flags,
                                             const_cast<void*>(canonical_stream(s, true)));
}

// caveat: the copies run in order at once; access orders and location hints are checked, not followed
WS_API cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const std::size_t* sizes,
                                        std::size_t count, MemcpyAttributes* attrs, std::size_t* idxs,
                                        std::size_t n_attrs, void* stream) {
  return memcpy_batch("cudaMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idxs, n_attrs, stream, nullptr);
}
WS_API cudaError_t cudaMemcpyBatchAsync_ptsz(void* const* dsts, const void* const* srcs, const std::size_t* sizes,
                                             std::size_t count, MemcpyAttributes* attrs, std::size_t* idxs,
                                             std::size_t n_attrs, void* s) {
  return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, idxs, n_attrs,
                              const_cast<void*>(canonical_stream(s, true)));
}

// caveat: the copies run in order at once
WS_API cudaError_t cudaMemcpy3DBatchAsync(std::size_t n, Memcpy3DBatchOp* ops, unsigned long long flags, void* stream) {
  return memcpy_3d_batch("cudaMemcpy3DBatchAsync", n, ops, flags, stream, nullptr);
}
WS_API cudaError_t cudaMemcpy3DBatchAsync_ptsz(std::size_t n, Memcpy3DBatchOp* ops, unsigned long long flags, void* s) {
  return cudaMemcpy3DBatchAsync(n, ops, flags, const_cast<void*>(canonical_stream(s, true)));
}
