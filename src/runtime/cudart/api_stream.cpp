// Streams and events (those that stream capture changes are in api_capture.cpp). Every operation
// runs to completion when it is issued, so all streams are in order and always idle; events record
// the predicted GPU clock (the sum of the time model's launch durations so far, docs/time.md) and
// the emulator's wall-clock time; cudaEventElapsedTime returns the predicted GPU time between
// them, or with WARPSCOPE_EVENT_TIME=wall (--event-time wall) the wall time (the report says which).
#include <chrono>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {

Stream* as_stream(void* s) { return static_cast<Stream*>(s); }
Event* as_event(void* e) { return static_cast<Event*>(e); }

constexpr unsigned kEventDisableTiming = 0x02;

}  // namespace

// caveat: priorities are kept and reported, not scheduled (everything runs in issue order)
WS_API cudaError_t cudaStreamCreateWithPriority(void** stream, unsigned flags, int priority) {
  return call("cudaStreamCreate", [&](Runtime& rt) {
    if (stream == nullptr || flags > 1) return kErrInvalidValue;
    auto* s = new Stream{flags, priority, rt.next_stream_id++, {}};
    rt.streams.insert(s);
    *stream = s;
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamCreateWithFlags(void** stream, unsigned flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}

WS_API cudaError_t cudaStreamCreate(void** stream) { return cudaStreamCreateWithPriority(stream, 0, 0); }

WS_API cudaError_t cudaStreamDestroy(void* stream) {
  return call("cudaStreamDestroy", [&](Runtime& rt) {
    auto it = rt.streams.find(as_stream(stream));
    if (it == rt.streams.end()) return kErrInvalidResourceHandle;
    forget_stream(stream);
    delete *it;
    rt.streams.erase(it);
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamGetFlags(void* stream, unsigned* flags) {
  return call("cudaStreamGetFlags", [&](Runtime& rt) {
    if (flags == nullptr) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    *flags = rt.streams.count(as_stream(stream)) ? as_stream(stream)->flags : 0;
    return kSuccess;
  });
}
WS_API cudaError_t cudaStreamGetFlags_ptsz(void* stream, unsigned* flags) { return cudaStreamGetFlags(stream, flags); }

WS_API cudaError_t cudaStreamGetPriority(void* stream, int* priority) {
  return call("cudaStreamGetPriority", [&](Runtime& rt) {
    if (priority == nullptr) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    *priority = rt.streams.count(as_stream(stream)) ? as_stream(stream)->priority : 0;
    return kSuccess;
  });
}
WS_API cudaError_t cudaStreamGetPriority_ptsz(void* stream, int* priority) {
  return cudaStreamGetPriority(stream, priority);
}

WS_API cudaError_t cudaStreamGetId(void* stream, unsigned long long* id) {
  return call("cudaStreamGetId", [&](Runtime& rt) {
    if (id == nullptr) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    *id = rt.streams.count(as_stream(stream)) ? as_stream(stream)->id : 0;
    return kSuccess;
  });
}
WS_API cudaError_t cudaStreamGetId_ptsz(void* stream, unsigned long long* id) { return cudaStreamGetId(stream, id); }

WS_API cudaError_t cudaStreamGetDevice(void* stream, int* device) {
  return call("cudaStreamGetDevice", [&](Runtime& rt) {
    if (device == nullptr) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    *device = 0;
    return kSuccess;
  });
}
WS_API cudaError_t cudaStreamGetDevice_ptsz(void* stream, int* device) { return cudaStreamGetDevice(stream, device); }

using StreamCallback = void (*)(void*, cudaError_t, void*);

// caveat: the callback runs at once, on the calling thread; not capturable (as on CUDA: use cudaLaunchHostFunc)
WS_API cudaError_t cudaStreamAddCallback(void* stream, StreamCallback cb, void* data, unsigned flags) {
  return call("cudaStreamAddCallback", [&](Runtime& rt) {
    if (cb == nullptr || flags != 0) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    if (capture_of(stream) != nullptr) {
      rt.note("cudaStreamAddCallback cannot be captured into a graph; use cudaLaunchHostFunc");
      return kErrCaptureUnsupported;
    }
    cb(stream, kSuccess, data);
    return kSuccess;
  });
}
WS_API cudaError_t cudaStreamAddCallback_ptsz(void* stream, StreamCallback cb, void* data, unsigned flags) {
  return cudaStreamAddCallback(stream, cb, data, flags);
}

// ---- Events ---------------------------------------------------------------------------------

WS_API cudaError_t cudaEventCreateWithFlags(void** event, unsigned flags) {
  return call("cudaEventCreate", [&](Runtime& rt) {
    if (event == nullptr || flags > 0xf) return kErrInvalidValue;
    auto* e = new Event{flags, false, {}};
    rt.events.insert(e);
    *event = e;
    return kSuccess;
  });
}

WS_API cudaError_t cudaEventCreate(void** event) { return cudaEventCreateWithFlags(event, 0); }

WS_API cudaError_t cudaEventDestroy(void* event) {
  return call("cudaEventDestroy", [&](Runtime& rt) {
    auto it = rt.events.find(as_event(event));
    if (it == rt.events.end()) return kErrInvalidResourceHandle;
    forget_event(event);
    delete *it;
    rt.events.erase(it);
    return kSuccess;
  });
}

// caveat: returns at once: work runs to completion when issued
WS_API cudaError_t cudaEventSynchronize(void* event) {
  return call("cudaEventSynchronize", [&](Runtime& rt) {
    if (!rt.events.count(as_event(event))) return kErrInvalidResourceHandle;
    return event_captured(event) ? kErrCapturedEvent : kSuccess;  // recorded in a capture: nothing to wait for
  });
}

// caveat: cudaSuccess at once for a recorded event: work runs to completion when issued
WS_API cudaError_t cudaEventQuery(void* event) {
  return call("cudaEventQuery", [&](Runtime& rt) {
    if (!rt.events.count(as_event(event))) return kErrInvalidResourceHandle;
    return event_captured(event) ? kErrCapturedEvent : kSuccess;
  });
}

// Only kernels advance the predicted clock (copies and host work take 0 ns).
// caveat: the predicted GPU time of the launches between the records (docs/time.md), or the emulator's wall time with --event-time wall
WS_API cudaError_t cudaEventElapsedTime(float* ms, void* start, void* end) {
  return call("cudaEventElapsedTime", [&](Runtime& rt) {
    if (ms == nullptr) return kErrInvalidValue;
    if (!rt.events.count(as_event(start)) || !rt.events.count(as_event(end))) return kErrInvalidResourceHandle;
    const Event& a = *as_event(start);
    const Event& b = *as_event(end);
    if ((a.flags & kEventDisableTiming) || (b.flags & kEventDisableTiming)) return kErrInvalidResourceHandle;
    if (!a.recorded || !b.recorded) return kErrInvalidResourceHandle;
    *ms = rt.event_time_wall ? std::chrono::duration<float, std::milli>(b.when - a.when).count()
                             : static_cast<float>((b.gpu_ns - a.gpu_ns) / 1e6);
    return kSuccess;
  });
}
