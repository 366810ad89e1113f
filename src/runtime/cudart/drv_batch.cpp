// The driver's batch copies and batch managed-memory hints (drv.hpp), on the runtime's
// (batch.hpp). cuda.h maps cuMemcpyBatchAsync and cuMemcpy3DBatchAsync to their _v2 calls; the
// un-suffixed names are CUDA 12.8's, which also write a failIdx (the failing copy's index, or
// SIZE_MAX). As the H200 answers (tests/hw/data/h200/driver_stubs): the _v2 and _v2_ptsz names
// refuse stream 0 (the legacy stream), while the 12.8 _ptsz names take stream 0 as the per-thread
// stream.
#include "runtime/cudart/batch.hpp"
#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

namespace warpscope::cudart::drv {
namespace {

using Ptrs = void* const*;  // CUdeviceptr*: the runtime's pointers

void* per_thread(void* stream) { return const_cast<void*>(canonical_stream(stream, true)); }

template <typename F>
CUresult in_context(F&& f) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime(std::forward<F>(f));
}

CUresult copies(const char* api, Ptrs dsts, Ptrs srcs, const std::size_t* sizes, std::size_t count,
                const MemcpyAttributes* attrs, const std::size_t* idxs, std::size_t n_attrs, std::size_t* fail_idx,
                void* stream) {
  return in_context([&] { return memcpy_batch(api, dsts, srcs, sizes, count, attrs, idxs, n_attrs, stream, fail_idx); });
}
CUresult copies_3d(const char* api, std::size_t n, const Memcpy3DBatchOp* ops, std::size_t* fail_idx,
                   unsigned long long flags, void* stream) {
  return in_context([&] { return memcpy_3d_batch(api, n, ops, flags, stream, fail_idx); });
}
CUresult hint(const char* api, Ptrs ptrs, const std::size_t* sizes, std::size_t count, unsigned long long flags,
              void* stream) {
  return in_context([&] { return memory_batch_hint(api, ptrs, sizes, count, flags, stream); });
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// caveat: the copies run in order at once; access orders and location hints are checked, not followed
WS_DRV CUresult cuMemcpyBatchAsync_v2(Ptrs dsts, Ptrs srcs, std::size_t* sizes, std::size_t count,
                                      MemcpyAttributes* attrs, std::size_t* idxs, std::size_t n_attrs, void* s) {
  return copies("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idxs, n_attrs, nullptr, s);
}
// caveat: the copies run in order at once; access orders and location hints are checked, not followed
WS_DRV CUresult cuMemcpyBatchAsync_v2_ptsz(Ptrs dsts, Ptrs srcs, std::size_t* sizes, std::size_t count,
                                           MemcpyAttributes* attrs, std::size_t* idxs, std::size_t n_attrs, void* s) {
  return copies("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idxs, n_attrs, nullptr, s);
}
// caveat: the copies run in order at once; access orders and location hints are checked, not followed
WS_DRV CUresult cuMemcpyBatchAsync(Ptrs dsts, Ptrs srcs, std::size_t* sizes, std::size_t count, MemcpyAttributes* attrs,
                                   std::size_t* idxs, std::size_t n_attrs, std::size_t* fail_idx, void* s) {
  return copies("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idxs, n_attrs, fail_idx, s);
}
// caveat: the copies run in order at once; access orders and location hints are checked, not followed
WS_DRV CUresult cuMemcpyBatchAsync_ptsz(Ptrs dsts, Ptrs srcs, std::size_t* sizes, std::size_t count,
                                        MemcpyAttributes* attrs, std::size_t* idxs, std::size_t n_attrs,
                                        std::size_t* fail_idx, void* s) {
  return copies("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idxs, n_attrs, fail_idx, per_thread(s));
}

// caveat: the copies run in order at once
WS_DRV CUresult cuMemcpy3DBatchAsync_v2(std::size_t n, Memcpy3DBatchOp* ops, unsigned long long flags, void* s) {
  return copies_3d("cuMemcpy3DBatchAsync", n, ops, nullptr, flags, s);
}
// caveat: the copies run in order at once
WS_DRV CUresult cuMemcpy3DBatchAsync_v2_ptsz(std::size_t n, Memcpy3DBatchOp* ops, unsigned long long flags, void* s) {
  return copies_3d("cuMemcpy3DBatchAsync", n, ops, nullptr, flags, s);
}
// caveat: the copies run in order at once
WS_DRV CUresult cuMemcpy3DBatchAsync(std::size_t n, Memcpy3DBatchOp* ops, std::size_t* fail_idx,
                                     unsigned long long flags, void* s) {
  return copies_3d("cuMemcpy3DBatchAsync", n, ops, fail_idx, flags, s);
}
// caveat: the copies run in order at once
WS_DRV CUresult cuMemcpy3DBatchAsync_ptsz(std::size_t n, Memcpy3DBatchOp* ops, std::size_t* fail_idx,
                                          unsigned long long flags, void* s) {
  return copies_3d("cuMemcpy3DBatchAsync", n, ops, fail_idx, flags, per_thread(s));
}

// The hints' locations (CUmemLocation arrays) are not read: managed memory is where each side needs it.
WS_DRV CUresult cuMemPrefetchBatchAsync(Ptrs p, std::size_t* sizes, std::size_t count, void*, std::size_t*, std::size_t,
                                        unsigned long long flags, void* s) {
  return hint("cuMemPrefetchBatchAsync", p, sizes, count, flags, s);
}
WS_DRV CUresult cuMemPrefetchBatchAsync_ptsz(Ptrs p, std::size_t* sizes, std::size_t count, void*, std::size_t*,
                                             std::size_t, unsigned long long flags, void* s) {
  return hint("cuMemPrefetchBatchAsync", p, sizes, count, flags, per_thread(s));
}
WS_DRV CUresult cuMemDiscardBatchAsync(Ptrs p, std::size_t* sizes, std::size_t count, unsigned long long flags, void* s) {
  return hint("cuMemDiscardBatchAsync", p, sizes, count, flags, s);
}
WS_DRV CUresult cuMemDiscardBatchAsync_ptsz(Ptrs p, std::size_t* sizes, std::size_t count, unsigned long long flags,
                                            void* s) {
  return hint("cuMemDiscardBatchAsync", p, sizes, count, flags, per_thread(s));
}
WS_DRV CUresult cuMemDiscardAndPrefetchBatchAsync(Ptrs p, std::size_t* sizes, std::size_t count, void*, std::size_t*,
                                                  std::size_t, unsigned long long flags, void* s) {
  return hint("cuMemDiscardAndPrefetchBatchAsync", p, sizes, count, flags, s);
}
WS_DRV CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(Ptrs p, std::size_t* sizes, std::size_t count, void*,
                                                       std::size_t*, std::size_t, unsigned long long flags, void* s) {
  return hint("cuMemDiscardAndPrefetchBatchAsync", p, sizes, count, flags, per_thread(s));
}
