// Stream capture: cudaStreamBeginCapture ... cudaStreamEndCapture turn the work issued to the
// capturing stream (and to the streams it forks into the capture through events) into a graph;
// the capture rules of the CUDA Runtime API documentation (modes, prohibited calls, invalidation,
// joins) and the hooks the other entry points call (graph.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {

constexpr unsigned kStreamNonBlocking = 0x1;
constexpr unsigned kEventRecordExternal = 0x1;  // cudaEventRecordExternal
constexpr unsigned kEventWaitExternal = 0x1;    // cudaEventWaitExternal

int& thread_mode() {
  thread_local int mode = kModeGlobal;
  return mode;
}

bool is_legacy(const void* stream) {
  const auto v = reinterpret_cast<std::uintptr_t>(stream);
  return v == 0 || v == kStreamLegacy;
}

/// A stream that synchronises with the legacy default stream (created without cudaStreamNonBlocking).
bool blocking(const Runtime& rt, const void* stream) {
  if (reinterpret_cast<std::uintptr_t>(stream) == kStreamPerThread) return true;
  auto* s = static_cast<Stream*>(const_cast<void*>(stream));
  return rt.streams.count(s) != 0 && (s->flags & kStreamNonBlocking) == 0;
}

const char* mode_name(int mode) {
  return mode == kModeGlobal ? "cudaStreamCaptureModeGlobal"
         : mode == kModeThreadLocal ? "cudaStreamCaptureModeThreadLocal"
                                    : "cudaStreamCaptureModeRelaxed";
}

void invalidate(const Runtime& rt, Capture* c, const std::string& why) {
  if (c->invalidated) return;
  c->invalidated = true;
  c->why_invalidated = why;
  rt.note(fmt::format("stream capture {} invalidated: {}", c->id, why));
}

/// Ends capture `c` on every stream taking part in it and forgets the events recorded in it.
void end_capture(Capture* c) {
  Graphs& gs = Graphs::get();
  for (auto it = gs.capturing.begin(); it != gs.capturing.end();) {
    it = it->second.capture == c ? gs.capturing.erase(it) : std::next(it);
  }
  for (auto it = gs.event_captures.begin(); it != gs.event_captures.end();) {
    it = it->second.capture == c ? gs.event_captures.erase(it) : std::next(it);
  }
  gs.captures.erase(std::find_if(gs.captures.begin(), gs.captures.end(), [&](const auto& p) { return p.get() == c; }));
}

void merge_deps(StreamCapture& into, const StreamCapture& from) {
  for (std::size_t i = 0; i < from.deps.size(); ++i) {
    if (std::find(into.deps.begin(), into.deps.end(), from.deps[i]) != into.deps.end()) continue;
    into.deps.push_back(from.deps[i]);
    into.dep_data.push_back(i < from.dep_data.size() ? from.dep_data[i] : GraphEdgeData{});
  }
}

/// The status of `stream` for cudaStreamIsCapturing / cudaStreamGetCaptureInfo.
cudaError_t status_of(Runtime& rt, const void* stream, int* status, StreamCapture** sc) {
  if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
  Graphs& gs = Graphs::get();
  *sc = capture_of(stream);
  if (*sc == nullptr && is_legacy(stream)) {
    // The legacy stream cannot be asked while a blocking stream captures (documented).
    for (const auto& [s, c] : gs.capturing)
      if (blocking(rt, s)) return kErrCaptureImplicit;
  }
  *status = *sc == nullptr ? kCaptureNone : (*sc)->capture->invalidated ? kCaptureInvalidated : kCaptureActive;
  return kSuccess;
}

cudaError_t begin_capture(Runtime& rt, const void* stream, Graph* into, const void* const* deps,
                          const GraphEdgeData* data, std::size_t n, int mode) {
  if (mode < kModeGlobal || mode > kModeRelaxed) return kErrInvalidValue;
  if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
  if (is_legacy(stream)) {
    rt.note("cudaStreamBeginCapture: the legacy default stream cannot be captured; use a stream of your own");
    return kErrCaptureUnsupported;
  }
  Graphs& gs = Graphs::get();
  if (capture_of(stream) != nullptr) return kErrIllegalState;
  if (into != nullptr) {
    if (!gs.valid(into) || (n != 0 && deps == nullptr)) return kErrInvalidValue;
    for (std::size_t i = 0; i < n; ++i) {
      const auto* d = static_cast<const Node*>(deps[i]);
      if (!gs.valid(d) || d->graph != into) return kErrInvalidValue;
    }
  }
  auto c = std::make_unique<Capture>();
  c->id = gs.next_capture_id++;
  c->owns_graph = into == nullptr;
  c->graph = into != nullptr ? into : gs.new_graph();
  c->origin = stream;
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  StreamCapture sc;
  sc.capture = c.get();
  for (std::size_t i = 0; i < n; ++i) {
    sc.deps.push_back(static_cast<Node*>(const_cast<void*>(deps[i])));
    sc.dep_data.push_back(data != nullptr ? data[i] : GraphEdgeData{});
  }
  gs.capturing[stream] = sc;
  gs.captures.push_back(std::move(c));
  return kSuccess;
}

}  // namespace

namespace warpscope::cudart {

const void* canonical_stream(const void* stream, bool per_thread) {
  if (per_thread && stream == nullptr) return reinterpret_cast<const void*>(kStreamPerThread);
  return stream;
}

StreamCapture* capture_of(const void* stream) {
  auto& m = Graphs::get().capturing;
  auto it = m.find(stream);
  return it == m.end() ? nullptr : &it->second;
}

cudaError_t capture_check(Runtime& rt, const void* stream, bool* captured) {
  *captured = false;
  Graphs& gs = Graphs::get();
  if (StreamCapture* sc = capture_of(stream)) {
    if (sc->capture->invalidated) return kErrCaptureInvalidated;
    *captured = true;
    return kSuccess;
  }
  if (!is_legacy(stream) || gs.capturing.empty()) return kSuccess;
  // Work on the legacy stream waits for every blocking stream: a capturing one cannot be waited
  // for, so the capture is invalidated (cudaErrorStreamCaptureImplicit).
  cudaError_t e = kSuccess;
  for (auto& [s, sc] : gs.capturing) {
    if (!blocking(rt, s)) continue;
    invalidate(rt, sc.capture, "work was issued to the legacy default stream, which would wait for the capturing "
                               "stream (create the capturing stream with cudaStreamNonBlocking, or use another one)");
    e = kErrCaptureImplicit;
  }
  return e;
}

cudaError_t capture_refuse(Runtime& rt, const void* stream, const std::string& why) {
  if (StreamCapture* sc = capture_of(stream)) invalidate(rt, sc->capture, why);
  return kErrCaptureUnsupported;
}

cudaError_t capture_node(Runtime&, const void* stream, std::unique_ptr<Node> node) {
  StreamCapture* sc = capture_of(stream);
  Node* added = Graphs::get().add_node(*sc->capture->graph, std::move(node));
  for (std::size_t i = 0; i < sc->deps.size(); ++i) add_edge(sc->deps[i], added, sc->dep_data[i]);
  sc->deps = {added};
  sc->dep_data = {GraphEdgeData{}};
  return kSuccess;
}

cudaError_t unsafe_call(Runtime& rt, const char* api) {
  const int mode = thread_mode();
  Graphs& gs = Graphs::get();
  if (mode == kModeRelaxed || gs.captures.empty()) return kSuccess;
  const auto me = std::this_thread::get_id();
  bool prohibited = false;
  for (auto& c : gs.captures) {
    if (c->mode == kModeRelaxed) continue;
    if (c->thread == me || (mode == kModeGlobal && c->mode == kModeGlobal)) {
      prohibited = true;
      invalidate(rt, c.get(), fmt::format("{} is not permitted while a stream is capturing in {} (this thread's "
                                          "mode is {}; see cudaThreadExchangeStreamCaptureMode)",
                                          api, mode_name(c->mode), mode_name(mode)));
    }
  }
  return prohibited ? kErrCaptureUnsupported : kSuccess;
}

cudaError_t capture_event_record(Runtime& rt, const void* stream, void* event) {
  StreamCapture* sc = capture_of(stream);
  if (sc->capture->invalidated) return kErrCaptureInvalidated;
  (void)rt;
  Graphs::get().event_captures[event] = *sc;
  return kSuccess;
}

cudaError_t capture_event_wait(Runtime& rt, const void* stream, void* event, unsigned flags, bool* handled) {
  Graphs& gs = Graphs::get();
  *handled = false;
  StreamCapture* sc = capture_of(stream);
  auto ev = gs.event_captures.find(event);
  if (ev == gs.event_captures.end()) {
    if (sc == nullptr) return kSuccess;
    *handled = true;
    if (sc->capture->invalidated) return kErrCaptureInvalidated;
    if (flags & kEventWaitExternal) {  // an event wait node
      auto n = std::make_unique<Node>();
      n->type = NodeType::kWaitEvent;
      n->event = event;
      return capture_node(rt, stream, std::move(n));
    }
    auto* e = static_cast<Event*>(event);
    if (!e->recorded) return kSuccess;  // waiting for an event never recorded waits for nothing
    invalidate(rt, sc->capture, "cudaStreamWaitEvent on an event recorded outside the capture (pass "
                                "cudaEventWaitExternal to make it an event wait node)");
    return kErrCaptureIsolation;
  }
  *handled = true;
  StreamCapture from = ev->second;
  if (from.capture->invalidated) return kErrCaptureInvalidated;
  if (sc == nullptr) {
    // A fork: the stream joins the capture, after what the event saw.
    if (is_legacy(stream)) {
      invalidate(rt, from.capture, "the legacy default stream cannot join a capture");
      return kErrCaptureImplicit;
    }
    gs.capturing[stream] = from;
    return kSuccess;
  }
  if (sc->capture != from.capture) {
    invalidate(rt, sc->capture, "cudaStreamWaitEvent on an event recorded in another capture");
    invalidate(rt, from.capture, "cudaStreamWaitEvent on an event recorded in another capture");
    return kErrCaptureMerge;
  }
  if (sc->capture->invalidated) return kErrCaptureInvalidated;
  merge_deps(*sc, from);  // a join
  return kSuccess;
}

cudaError_t async_check(Runtime& rt, const void* stream, bool* captured) {
  *captured = false;
  if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
  return capture_check(rt, stream, captured);
}

cudaError_t sync_check(Runtime& rt, const char* api) {
  if (cudaError_t e = unsafe_call(rt, api); e != kSuccess) return e;
  bool captured = false;
  return capture_check(rt, nullptr, &captured);
}

cudaError_t device_sync_check(Runtime& rt) {
  Graphs& gs = Graphs::get();
  if (gs.captures.empty()) return kSuccess;
  for (auto& c : gs.captures) invalidate(rt, c.get(), "cudaDeviceSynchronize while a stream is capturing");
  return kErrCaptureUnsupported;
}

cudaError_t capture_copy(Runtime& rt, const void* stream, const Memcpy3DParms& p) {
  if (cudaError_t e = check_copy_params(rt, p); e != kSuccess) return e;
  auto n = std::make_unique<Node>();
  n->type = NodeType::kMemcpy;
  n->copy = p;
  return capture_node(rt, stream, std::move(n));
}

cudaError_t capture_memset(Runtime& rt, const void* stream, const MemsetParams& p) {
  if (cudaError_t e = check_memset_params(rt, p); e != kSuccess) return e;
  auto n = std::make_unique<Node>();
  n->type = NodeType::kMemset;
  n->memset = p;
  return capture_node(rt, stream, std::move(n));
}

cudaError_t capture_launch(Runtime& rt, const void* stream, const void* func, Dim3 grid, Dim3 block, void** args,
                           std::size_t shmem) {
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 || threads > 1024 || block.z > 64 || grid.y > 65535 ||
      grid.z > 65535) {
    return kErrInvalidValue;
  }
  auto n = std::make_unique<Node>();
  n->type = NodeType::kKernel;
  const KernelNodeParams p{func, grid, block, static_cast<unsigned>(shmem), args, nullptr};
  if (cudaError_t e = make_kernel_call(rt, p, &n->kernel); e != kSuccess) return e;
  return capture_node(rt, stream, std::move(n));
}

bool event_captured(const void* event) { return Graphs::get().event_captures.count(event) != 0; }

void forget_event(const void* event) { Graphs::get().event_captures.erase(event); }

void forget_stream(const void* stream) {
  Graphs& gs = Graphs::get();
  auto it = gs.capturing.find(stream);
  if (it == gs.capturing.end()) return;
  Capture* c = it->second.capture;
  if (c->origin == stream) {
    c->invalidated = true;
    if (c->owns_graph) gs.destroy_graph(c->graph);
    end_capture(c);
  } else {
    gs.capturing.erase(it);
  }
}

void reset_captures() {
  Graphs& gs = Graphs::get();
  for (auto& c : gs.captures)
    if (c->owns_graph) gs.destroy_graph(c->graph);
  gs.capturing.clear();
  gs.event_captures.clear();
  gs.captures.clear();
}

}  // namespace warpscope::cudart

WS_API cudaError_t cudaStreamBeginCapture(void* stream, int mode) {
  return call("cudaStreamBeginCapture",
              [&](Runtime& rt) { return begin_capture(rt, stream, nullptr, nullptr, nullptr, 0, mode); });
}

WS_API cudaError_t cudaStreamBeginCapture_ptsz(void* stream, int mode) {
  return cudaStreamBeginCapture(const_cast<void*>(canonical_stream(stream, true)), mode);
}

WS_API cudaError_t cudaStreamBeginCaptureToGraph(void* stream, void* graph, const void* const* deps,
                                                 const GraphEdgeData* data, std::size_t n, int mode) {
  return call("cudaStreamBeginCaptureToGraph", [&](Runtime& rt) {
    if (graph == nullptr) return kErrInvalidValue;
    return begin_capture(rt, stream, static_cast<Graph*>(graph), deps, data, n, mode);
  });
}

WS_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(void* stream, void* graph, const void* const* deps,
                                                      const GraphEdgeData* data, std::size_t n, int mode) {
  return cudaStreamBeginCaptureToGraph(const_cast<void*>(canonical_stream(stream, true)), graph, deps, data, n, mode);
}

WS_API cudaError_t cudaStreamEndCapture(void* stream, void** graph) {
  return call("cudaStreamEndCapture", [&](Runtime& rt) {
    if (graph == nullptr) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    Graphs& gs = Graphs::get();
    StreamCapture* sc = capture_of(stream);
    if (sc == nullptr) return kErrIllegalState;
    Capture* c = sc->capture;
    if (c->origin != stream) {
      invalidate(rt, c, "cudaStreamEndCapture was called on a stream the capture was forked into, not on the "
                        "stream that began it");
      return kErrCaptureUnmatched;
    }
    if (c->mode != kModeRelaxed && c->thread != std::this_thread::get_id()) return kErrCaptureWrongThread;
    cudaError_t result = kSuccess;
    if (!c->invalidated) {
      // Every stream forked into the capture must have been joined back into this one.
      std::set<const Node*> joined;
      std::vector<const Node*> todo(sc->deps.begin(), sc->deps.end());
      while (!todo.empty()) {
        const Node* n = todo.back();
        todo.pop_back();
        if (joined.insert(n).second) todo.insert(todo.end(), n->deps.begin(), n->deps.end());
      }
      for (const auto& [s, other] : gs.capturing) {
        if (other.capture != c || s == stream) continue;
        for (const Node* n : other.deps) {
          if (joined.count(n) == 0) {
            invalidate(rt, c, "a stream forked into the capture was not joined back into the capturing stream "
                              "(record an event on it and make the capturing stream wait for it)");
            result = kErrCaptureUnjoined;
          }
        }
      }
    } else {
      result = kErrCaptureInvalidated;
    }
    Graph* g = c->graph;
    const bool owned = c->owns_graph;
    const bool ok = !c->invalidated;
    end_capture(c);
    if (!ok) {
      if (owned) gs.destroy_graph(g);
      *graph = nullptr;
      return result;
    }
    *graph = g;
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamEndCapture_ptsz(void* stream, void** graph) {
  return cudaStreamEndCapture(const_cast<void*>(canonical_stream(stream, true)), graph);
}

WS_API cudaError_t cudaStreamIsCapturing(void* stream, int* status) {
  return call("cudaStreamIsCapturing", [&](Runtime& rt) {
    if (status == nullptr) return kErrInvalidValue;
    StreamCapture* sc = nullptr;
    return status_of(rt, stream, status, &sc);
  });
}

WS_API cudaError_t cudaStreamIsCapturing_ptsz(void* stream, int* status) {
  return cudaStreamIsCapturing(const_cast<void*>(canonical_stream(stream, true)), status);
}

WS_API cudaError_t cudaStreamGetCaptureInfo(void* stream, int* status, unsigned long long* id, void** graph,
                                            const void* const** deps, const GraphEdgeData** data, std::size_t* n) {
  return call("cudaStreamGetCaptureInfo", [&](Runtime& rt) {
    if (status == nullptr) return kErrInvalidValue;
    StreamCapture* sc = nullptr;
    if (cudaError_t e = status_of(rt, stream, status, &sc); e != kSuccess) return e;
    if (sc == nullptr) return kSuccess;
    if (id != nullptr) *id = sc->capture->id;
    if (*status != kCaptureActive) return kSuccess;
    if (graph != nullptr) *graph = sc->capture->graph;
    if (deps != nullptr) *deps = reinterpret_cast<const void* const*>(sc->deps.data());
    if (data != nullptr) *data = sc->dep_data.data();
    if (n != nullptr) *n = sc->deps.size();
    if (data == nullptr && (deps != nullptr || n != nullptr)) {
      for (const GraphEdgeData& d : sc->dep_data)
        if (d.from_port != 0 || d.to_port != 0 || d.type != 0) return kErrLossyQuery;
    }
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamGetCaptureInfo_ptsz(void* stream, int* status, unsigned long long* id, void** graph,
                                                 const void* const** deps, const GraphEdgeData** data,
                                                 std::size_t* n) {
  return cudaStreamGetCaptureInfo(const_cast<void*>(canonical_stream(stream, true)), status, id, graph, deps, data, n);
}

WS_API cudaError_t cudaStreamUpdateCaptureDependencies(void* stream, void** deps, const GraphEdgeData* data,
                                                       std::size_t n, unsigned flags) {
  return call("cudaStreamUpdateCaptureDependencies", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    if (flags > 1 || (n != 0 && deps == nullptr)) return kErrInvalidValue;  // Add 0, Set 1
    StreamCapture* sc = capture_of(stream);
    if (sc == nullptr) return kErrIllegalState;
    if (sc->capture->invalidated) return kErrCaptureInvalidated;
    Graphs& gs = Graphs::get();
    StreamCapture next;
    next.capture = sc->capture;
    for (std::size_t i = 0; i < n; ++i) {
      auto* d = static_cast<Node*>(deps[i]);
      if (!gs.valid(d) || d->graph != sc->capture->graph) return kErrInvalidValue;
      next.deps.push_back(d);
      next.dep_data.push_back(data != nullptr ? data[i] : GraphEdgeData{});
    }
    if (flags == 0) {
      merge_deps(*sc, next);
    } else {
      sc->deps = next.deps;
      sc->dep_data = next.dep_data;
    }
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(void* stream, void** deps, const GraphEdgeData* data,
                                                            std::size_t n, unsigned flags) {
  return cudaStreamUpdateCaptureDependencies(const_cast<void*>(canonical_stream(stream, true)), deps, data, n, flags);
}

WS_API cudaError_t cudaThreadExchangeStreamCaptureMode(int* mode) {
  return call("cudaThreadExchangeStreamCaptureMode", [&](Runtime&) {
    if (mode == nullptr || *mode < kModeGlobal || *mode > kModeRelaxed) return kErrInvalidValue;
    std::swap(*mode, thread_mode());
    return kSuccess;
  });
}

// ---- The rest of the stream API, where capture changes what it does ----------------------------

// caveat: streams are always idle: every operation runs to completion when issued
WS_API cudaError_t cudaStreamSynchronize(void* stream) {
  return call("cudaStreamSynchronize", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    if (StreamCapture* sc = capture_of(stream)) {
      invalidate(rt, sc->capture, "cudaStreamSynchronize on a capturing stream");
      return kErrCaptureUnsupported;
    }
    bool captured = false;
    pools_synchronized();  // the pools give back what exceeds their release thresholds
    return capture_check(rt, stream, &captured);  // the legacy stream waits for capturing ones
  });
}
WS_API cudaError_t cudaStreamSynchronize_ptsz(void* stream) {
  return cudaStreamSynchronize(const_cast<void*>(canonical_stream(stream, true)));
}

// caveat: cudaSuccess: every operation runs to completion when issued
WS_API cudaError_t cudaStreamQuery(void* stream) {
  return call("cudaStreamQuery", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    if (StreamCapture* sc = capture_of(stream)) {
      invalidate(rt, sc->capture, "cudaStreamQuery on a capturing stream");
      return kErrCaptureUnsupported;
    }
    bool captured = false;
    return capture_check(rt, stream, &captured);
  });
}
WS_API cudaError_t cudaStreamQuery_ptsz(void* stream) {
  return cudaStreamQuery(const_cast<void*>(canonical_stream(stream, true)));
}

// caveat: nothing to wait for outside a capture (work has completed); forks and joins captures
WS_API cudaError_t cudaStreamWaitEvent(void* stream, void* event, unsigned flags) {
  return call("cudaStreamWaitEvent", [&](Runtime& rt) {
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    if (!rt.events.count(static_cast<Event*>(event))) return kErrInvalidResourceHandle;
    if (flags > kEventWaitExternal) return kErrInvalidValue;
    bool handled = false;
    return capture_event_wait(rt, stream, event, flags, &handled);  // else: everything has completed
  });
}
WS_API cudaError_t cudaStreamWaitEvent_ptsz(void* stream, void* event, unsigned flags) {
  return cudaStreamWaitEvent(const_cast<void*>(canonical_stream(stream, true)), event, flags);
}

// caveat: records the host's wall clock when issued (work before it has already run)
WS_API cudaError_t cudaEventRecordWithFlags(void* event, void* stream, unsigned flags) {
  return call("cudaEventRecord", [&](Runtime& rt) {
    auto* ev = static_cast<Event*>(event);
    if (!rt.events.count(ev)) return kErrInvalidResourceHandle;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    if (flags > kEventRecordExternal) return kErrInvalidValue;
    bool captured = false;
    if (cudaError_t e = capture_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) {
      if (flags & kEventRecordExternal) {  // an event record node
        auto n = std::make_unique<Node>();
        n->type = NodeType::kEventRecord;
        n->event = event;
        return capture_node(rt, stream, std::move(n));
      }
      return capture_event_record(rt, stream, event);
    }
    forget_event(event);
    ev->recorded = true;
    ev->when = std::chrono::steady_clock::now();
    ev->gpu_ns = rt.gpu_ns;
    return kSuccess;
  });
}

WS_API cudaError_t cudaEventRecord(void* event, void* stream) { return cudaEventRecordWithFlags(event, stream, 0); }
WS_API cudaError_t cudaEventRecord_ptsz(void* event, void* stream) {
  return cudaEventRecordWithFlags(event, const_cast<void*>(canonical_stream(stream, true)), 0);
}
WS_API cudaError_t cudaEventRecordWithFlags_ptsz(void* event, void* stream, unsigned flags) {
  return cudaEventRecordWithFlags(event, const_cast<void*>(canonical_stream(stream, true)), flags);
}

// caveat: the function runs at once, on the calling thread (during capture: a host node)
WS_API cudaError_t cudaLaunchHostFunc(void* stream, HostFn fn, void* data) {
  return call("cudaLaunchHostFunc", [&](Runtime& rt) {
    if (fn == nullptr) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    bool captured = false;
    if (cudaError_t e = capture_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) {
      auto n = std::make_unique<Node>();
      n->type = NodeType::kHost;
      n->host = HostNodeParams{fn, data};
      return capture_node(rt, stream, std::move(n));
    }
    fn(data);
    return kSuccess;
  });
}
WS_API cudaError_t cudaLaunchHostFunc_ptsz(void* stream, HostFn fn, void* data) {
  return cudaLaunchHostFunc(const_cast<void*>(canonical_stream(stream, true)), fn, data);
}
