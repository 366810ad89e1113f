// The driver API's stream queries, attributes, callbacks and memory operations (cuStreamWaitValue,
// cuStreamWriteValue, cuStreamBatchMemOp), and the context's events (drv.hpp). The runtime's entry
// points do the work (api_stream.cpp, api_attr.cpp): CUstreamAttrID and CUstreamAttrValue are
// cudaStreamAttrID and cudaStreamAttrValue, CUstreamCallback is cudaStreamCallback_t. Every
// operation runs to completion when issued (docs/runtime.md), so a write happens at once and a
// wait must already be satisfied when it is issued; one that is not would never end, and is refused.
#include <cstring>

#include <fmt/format.h>

#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

extern "C" {
using warpscope::cudart::cudaError_t;
using StreamCallback = void (*)(void*, cudaError_t, void*);
cudaError_t cudaStreamGetId(void* stream, unsigned long long* id);
cudaError_t cudaStreamGetDevice(void* stream, int* device);
cudaError_t cudaStreamAddCallback(void* stream, StreamCallback cb, void* data, unsigned flags);
cudaError_t cudaStreamSetAttribute(void* stream, int id, const void* value);
cudaError_t cudaStreamGetAttribute(void* stream, int id, void* value);
cudaError_t cudaStreamCopyAttributes(void* dst, void* src);
cudaError_t cudaStreamAttachMemAsync(void* stream, void* ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaCtxResetPersistingL2Cache();
}

namespace warpscope::cudart::drv {
namespace {

template <typename F>
CUresult ctx_call(F&& f) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime(std::forward<F>(f));
}

void* per_thread(void* s) { return const_cast<void*>(canonical_stream(s, true)); }

/// cuStreamWriteValue32/64: `width` bytes of `value` at `addr` (device memory, or host memory the
/// device reaches), after the stream's earlier work, which is done.
CUresult write_value(void* stream, std::uint64_t addr, std::uint64_t value, std::size_t width, unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (flags > 1 || addr % width != 0) return kCuInvalidValue;  // CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER 1
  if (CUresult e = via_runtime([&] { return cudaStreamQuery(stream); }); e != kCuSuccess) return e;
  return via_runtime([&] { return cudaMemcpy(reinterpret_cast<void*>(addr), &value, width, kDefault); });
}

/// cuStreamWaitValue32/64 (CUstreamWaitValue_flags: GEQ 0, EQ 1, AND 2, NOR 3).
CUresult wait_value(const char* api, void* stream, std::uint64_t addr, std::uint64_t value, std::size_t width,
                    unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  constexpr unsigned kFlush = 1u << 30;
  if ((flags & ~kFlush) > 3 || addr % width != 0) return kCuInvalidValue;
  if ((flags & kFlush) != 0) {
    // CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0 on the H100.
    Runtime::get().note(fmt::format("{}: CU_STREAM_WAIT_VALUE_FLUSH: the device cannot flush remote writes", api));
    return kCuNotSupported;
  }
  if (CUresult e = via_runtime([&] { return cudaStreamQuery(stream); }); e != kCuSuccess) return e;
  std::uint64_t now = 0;
  if (CUresult e = via_runtime([&] { return cudaMemcpy(&now, reinterpret_cast<void*>(addr), width, kDefault); });
      e != kCuSuccess)
    return e;
  const std::uint64_t mask = width == 4 ? 0xffffffffull : ~0ull;
  now &= mask;
  value &= mask;
  bool met = false;
  switch (flags & 3) {
    case 0: met = width == 4 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(now - value)) >= 0
                             : static_cast<std::int64_t>(now - value) >= 0;
      break;
    case 1: met = now == value; break;
    case 2: met = (now & value) != 0; break;
    default: met = (~(now | value) & mask) != 0; break;
  }
  if (met) return kCuSuccess;
  Runtime::get().note(fmt::format("{}: the value at {:#x} is {:#x}, which does not meet the wait (value {:#x}, "
                                  "flags {}); warpscope runs every operation when it is issued, so nothing could "
                                  "change it later and the wait would never end",
                                  api, addr, now, value, flags));
  return kCuNotSupported;
}

/// CUstreamBatchMemOpParams (48 bytes).
struct MemOp {
  int operation;  // CUstreamBatchMemOpType
  std::uint64_t address;
  std::uint64_t value;  // value (32-bit) or value64
  unsigned flags;
  std::uint64_t alias;
};
static_assert(sizeof(MemOp) == 40);
union MemOpParams {
  MemOp op;
  std::uint64_t pad[6];
};
static_assert(sizeof(MemOpParams) == 48);

CUresult batch(void* stream, unsigned count, const MemOpParams* ops, unsigned flags) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (flags != 0 || (count != 0 && ops == nullptr) || count > 256) return kCuInvalidValue;
  for (unsigned i = 0; i < count; ++i) {
    const MemOp& o = ops[i].op;
    CUresult e = kCuSuccess;
    switch (o.operation) {
      case 1: e = wait_value("cuStreamBatchMemOp", stream, o.address, o.value & 0xffffffffu, 4, o.flags); break;
      case 2: e = write_value(stream, o.address, o.value & 0xffffffffu, 4, o.flags); break;
      case 4: e = wait_value("cuStreamBatchMemOp", stream, o.address, o.value, 8, o.flags); break;
      case 5: e = write_value(stream, o.address, o.value, 8, o.flags); break;
      case 6: e = o.flags <= 1 ? kCuSuccess : kCuInvalidValue; break;  // a barrier: every write is done
      case 3:  // CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES: CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0
        Runtime::get().note("cuStreamBatchMemOp: CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES: the device cannot flush remote writes");
        e = kCuNotSupported;
        break;
      default: e = kCuInvalidValue;
    }
    if (e != kCuSuccess) return e;
  }
  return kCuSuccess;
}

}  // namespace

}  // namespace warpscope::cudart::drv

namespace warpscope::cudart {
cudaError_t run_batch_mem_ops(const Node& n, const void* stream) {
  // CUresult and cudaError_t share these numbers (success, invalid value, not supported).
  return drv::batch(const_cast<void*>(stream), static_cast<unsigned>(n.mem_ops.size()),
                    reinterpret_cast<const drv::MemOpParams*>(n.mem_ops.data()), n.mem_op_flags);
}
}  // namespace warpscope::cudart

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Queries and attributes ---------------------------------------------------------------------

WS_DRV CUresult cuStreamGetId(void* s, unsigned long long* id) {
  return ctx_call([&] { return cudaStreamGetId(s, id); });
}
WS_DRV CUresult cuStreamGetId_ptsz(void* s, unsigned long long* id) { return cuStreamGetId(per_thread(s), id); }
WS_DRV CUresult cuStreamGetDevice(void* s, int* device) {
  return ctx_call([&] { return cudaStreamGetDevice(s, device); });
}
WS_DRV CUresult cuStreamGetDevice_ptsz(void* s, int* device) { return cuStreamGetDevice(per_thread(s), device); }
// caveat: the calling thread's current context (every context is the one device's state)
WS_DRV CUresult cuStreamGetCtx(void* s, void** ctx) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  if (ctx == nullptr) return kCuInvalidValue;
  unsigned flags = 0;
  if (CUresult e = via_runtime([&] { return cudaStreamGetFlags(s, &flags); }); e != kCuSuccess) return e;
  *ctx = current_context();
  return kCuSuccess;
}
WS_DRV CUresult cuStreamGetCtx_ptsz(void* s, void** ctx) { return cuStreamGetCtx(per_thread(s), ctx); }
// caveat: the calling thread's current context, and no green context
WS_DRV CUresult cuStreamGetCtx_v2(void* s, void** ctx, void** green) {
  if (ctx == nullptr || green == nullptr) return kCuInvalidValue;
  *green = nullptr;
  return cuStreamGetCtx(s, ctx);
}
WS_DRV CUresult cuStreamGetCtx_v2_ptsz(void* s, void** ctx, void** green) { return cuStreamGetCtx_v2(per_thread(s), ctx, green); }

WS_DRV CUresult cuStreamSetAttribute(void* s, int attr, const void* value) {
  return ctx_call([&] { return cudaStreamSetAttribute(s, attr, value); });
}
WS_DRV CUresult cuStreamSetAttribute_ptsz(void* s, int attr, const void* value) {
  return cuStreamSetAttribute(per_thread(s), attr, value);
}
WS_DRV CUresult cuStreamGetAttribute(void* s, int attr, void* value) {
  return ctx_call([&] { return cudaStreamGetAttribute(s, attr, value); });
}
WS_DRV CUresult cuStreamGetAttribute_ptsz(void* s, int attr, void* value) {
  return cuStreamGetAttribute(per_thread(s), attr, value);
}
WS_DRV CUresult cuStreamCopyAttributes(void* dst, void* src) {
  return ctx_call([&] { return cudaStreamCopyAttributes(dst, src); });
}
WS_DRV CUresult cuStreamCopyAttributes_ptsz(void* dst, void* src) {
  return cuStreamCopyAttributes(per_thread(dst), per_thread(src));
}

// caveat: runs the callback at once (the stream's work is done when issued)
WS_DRV CUresult cuStreamAddCallback(void* s, StreamCallback cb, void* data, unsigned flags) {
  return ctx_call([&] { return cudaStreamAddCallback(s, cb, data, flags); });
}
WS_DRV CUresult cuStreamAddCallback_ptsz(void* s, StreamCallback cb, void* data, unsigned flags) {
  return cuStreamAddCallback(per_thread(s), cb, data, flags);
}
// caveat: accepted: managed memory is visible to every stream
WS_DRV CUresult cuStreamAttachMemAsync(void* s, std::uint64_t p, std::size_t bytes, unsigned flags) {
  return ctx_call([&] { return cudaStreamAttachMemAsync(s, reinterpret_cast<void*>(p), bytes, flags); });
}
WS_DRV CUresult cuStreamAttachMemAsync_ptsz(void* s, std::uint64_t p, std::size_t bytes, unsigned flags) {
  return cuStreamAttachMemAsync(per_thread(s), p, bytes, flags);
}

// ---- Memory operations --------------------------------------------------------------------------

// caveat: writes at once (the stream's earlier work is done when issued)
WS_DRV CUresult cuStreamWriteValue32_v2(void* s, std::uint64_t addr, std::uint32_t value, unsigned flags) {
  return write_value(s, addr, value, 4, flags);
}
WS_DRV CUresult cuStreamWriteValue32_v2_ptsz(void* s, std::uint64_t addr, std::uint32_t value, unsigned flags) {
  return write_value(per_thread(s), addr, value, 4, flags);
}
// caveat: writes at once (the stream's earlier work is done when issued)
WS_DRV CUresult cuStreamWriteValue64_v2(void* s, std::uint64_t addr, std::uint64_t value, unsigned flags) {
  return write_value(s, addr, value, 8, flags);
}
WS_DRV CUresult cuStreamWriteValue64_v2_ptsz(void* s, std::uint64_t addr, std::uint64_t value, unsigned flags) {
  return write_value(per_thread(s), addr, value, 8, flags);
}
// caveat: the condition must hold when the wait is issued; one that does not is refused
//   (CUDA_ERROR_NOT_SUPPORTED, said on stderr): nothing could change the value later
WS_DRV CUresult cuStreamWaitValue32_v2(void* s, std::uint64_t addr, std::uint32_t value, unsigned flags) {
  return wait_value("cuStreamWaitValue32", s, addr, value, 4, flags);
}
WS_DRV CUresult cuStreamWaitValue32_v2_ptsz(void* s, std::uint64_t addr, std::uint32_t value, unsigned flags) {
  return wait_value("cuStreamWaitValue32", per_thread(s), addr, value, 4, flags);
}
// caveat: the condition must hold when the wait is issued; one that does not is refused
//   (CUDA_ERROR_NOT_SUPPORTED, said on stderr): nothing could change the value later
WS_DRV CUresult cuStreamWaitValue64_v2(void* s, std::uint64_t addr, std::uint64_t value, unsigned flags) {
  return wait_value("cuStreamWaitValue64", s, addr, value, 8, flags);
}
WS_DRV CUresult cuStreamWaitValue64_v2_ptsz(void* s, std::uint64_t addr, std::uint64_t value, unsigned flags) {
  return wait_value("cuStreamWaitValue64", per_thread(s), addr, value, 8, flags);
}
// caveat: each operation as cuStreamWaitValue and cuStreamWriteValue do it, in order
WS_DRV CUresult cuStreamBatchMemOp_v2(void* s, unsigned count, const MemOpParams* ops, unsigned flags) {
  return batch(s, count, ops, flags);
}
WS_DRV CUresult cuStreamBatchMemOp_v2_ptsz(void* s, unsigned count, const MemOpParams* ops, unsigned flags) {
  return batch(per_thread(s), count, ops, flags);
}

// ---- The context's events and L2 ----------------------------------------------------------------

WS_DRV CUresult cuCtxRecordEvent(void* ctx, void* event) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  auto* c = static_cast<Context*>(ctx);
  if (c == nullptr || c->destroyed) return kCuInvalidContext;
  return via_runtime([&] { return cudaEventRecordWithFlags(event, nullptr, 0); });  // all its work is done
}
WS_DRV CUresult cuCtxWaitEvent(void* ctx, void* event) {
  if (CUresult e = need_init(); e != kCuSuccess) return e;
  auto* c = static_cast<Context*>(ctx);
  if (c == nullptr || c->destroyed) return kCuInvalidContext;
  return via_runtime([&] { return cudaStreamWaitEvent(nullptr, event, 0); });
}
// caveat: no L2 line is persisting (access policy windows change nothing)
WS_DRV CUresult cuCtxResetPersistingL2Cache() {
  return ctx_call([&] { return cudaCtxResetPersistingL2Cache(); });
}
