// Stream and kernel-node attributes (cudaLaunchAttributeValue, 64 bytes each), and the persisting
// L2 lines (docs/runtime.md "Stream and kernel-node attributes").
//
// Attributes are stored and reported as set. What they change here: a kernel node's cluster
// dimension and cooperative attributes apply to its launches, a stream's priority attribute is
// its priority. An access policy window is checked (its size against
// cudaDevAttrMaxAccessPolicyWindowSize, its hit ratio and properties) and kept, but the L2 model
// has no persisting lines: accesses in the window are cached as any other (src/mem).
#include <algorithm>
#include <cstring>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {

/// cudaAccessPolicyWindow.
struct AccessPolicyWindow {
  void* base_ptr;
  std::size_t num_bytes;
  float hitRatio;
  int hitProp;   // cudaAccessPropertyNormal 0, Streaming 1, Persisting 2
  int missProp;  // Normal or Streaming
};
static_assert(sizeof(AccessPolicyWindow) == 32);

constexpr int kAttrAccessPolicyWindow = 1, kAttrCooperative = 2, kAttrSyncPolicy = 3, kAttrClusterDim = 4,
              kAttrPriority = 8, kAttrMemSyncDomainMap = 9, kAttrMemSyncDomain = 10;

/// Checks a value of attribute `id`; kErrInvalidValue when CUDA refuses it.
cudaError_t check_value(Runtime& rt, int id, const void* value) {
  if (id != kAttrAccessPolicyWindow) return kSuccess;
  AccessPolicyWindow w;
  std::memcpy(&w, value, sizeof w);
  int max_window = 0;
  device_attribute(rt.profile(), 109, &max_window);  // cudaDevAttrMaxAccessPolicyWindowSize
  if (w.num_bytes > static_cast<std::size_t>(max_window) || !(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f) ||
      w.hitProp < 0 || w.hitProp > 2 || w.missProp < 0 || w.missProp > 1) {
    return kErrInvalidValue;
  }
  return kSuccess;
}

/// The attributes of the legacy and per-thread default streams (keyed by handle).
std::map<std::uintptr_t, std::map<int, LaunchAttrValue>>& default_stream_attrs() {
  static auto& m = *new std::map<std::uintptr_t, std::map<int, LaunchAttrValue>>;
  return m;
}

std::map<int, LaunchAttrValue>* stream_attrs(Runtime& rt, const void* stream) {
  if (rt.check_stream(stream) != kSuccess) return nullptr;
  const auto v = reinterpret_cast<std::uintptr_t>(stream);
  if (v == 0 || v == kStreamLegacy || v == kStreamPerThread) return &default_stream_attrs()[v == 0 ? kStreamLegacy : v];
  return &static_cast<Stream*>(const_cast<void*>(stream))->attributes;
}

bool stream_attribute(int id) {
  return id == kAttrAccessPolicyWindow || id == kAttrSyncPolicy || id == kAttrPriority ||
         id == kAttrMemSyncDomainMap || id == kAttrMemSyncDomain;
}

/// Attributes a kernel node takes: not the stream-only ones (synchronization policy,
/// programmatic stream serialization and event, launch completion event).
bool node_attribute(int id) { return id >= 1 && id <= 16 && id != 3 && id != 6 && id != 7 && id != 12 && id != 15; }

Node* kernel_node(void* node) {
  auto* n = static_cast<Node*>(node);
  return Graphs::get().valid(n) && n->type == NodeType::kKernel ? n : nullptr;
}

}  // namespace

namespace warpscope::cudart {

const Dim3* node_cluster(const Node& n) {
  auto it = n.attributes.find(kAttrClusterDim);
  if (it == n.attributes.end()) return nullptr;
  const auto* d = reinterpret_cast<const Dim3*>(it->second.data());
  return d->x == 0 && d->y == 0 && d->z == 0 ? nullptr : d;
}

bool node_cooperative(const Node& n) {
  auto it = n.attributes.find(kAttrCooperative);
  int v = 0;
  if (it != n.attributes.end()) std::memcpy(&v, it->second.data(), sizeof v);
  return v != 0;
}

}  // namespace warpscope::cudart

// caveat: an access policy window is kept and reported; the L2 model has no persisting lines
WS_API cudaError_t cudaStreamSetAttribute(void* stream, int id, const void* value) {
  return call("cudaStreamSetAttribute", [&](Runtime& rt) {
    auto* attrs = stream_attrs(rt, stream);
    if (attrs == nullptr) return kErrInvalidResourceHandle;
    if (value == nullptr || !stream_attribute(id)) return kErrInvalidValue;
    if (cudaError_t e = check_value(rt, id, value); e != kSuccess) return e;
    LaunchAttrValue v{};
    std::memcpy(v.data(), value, v.size());
    (*attrs)[id] = v;
    const auto h = reinterpret_cast<std::uintptr_t>(stream);
    if (id == kAttrPriority && h != 0 && h != kStreamLegacy && h != kStreamPerThread) {
      int least = 0, greatest = 0;
      cudaDeviceGetStreamPriorityRange(&least, &greatest);
      int p = 0;
      std::memcpy(&p, value, sizeof p);
      static_cast<Stream*>(stream)->priority = std::min(least, std::max(greatest, p));  // clamped, as CUDA does
    }
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamSetAttribute_ptsz(void* stream, int id, const void* value) {
  return cudaStreamSetAttribute(const_cast<void*>(canonical_stream(stream, true)), id, value);
}

WS_API cudaError_t cudaStreamGetAttribute(void* stream, int id, void* value) {
  return call("cudaStreamGetAttribute", [&](Runtime& rt) {
    auto* attrs = stream_attrs(rt, stream);
    if (attrs == nullptr) return kErrInvalidResourceHandle;
    if (value == nullptr || !stream_attribute(id)) return kErrInvalidValue;
    LaunchAttrValue v{};
    if (auto it = attrs->find(id); it != attrs->end()) v = it->second;
    const auto h = reinterpret_cast<std::uintptr_t>(stream);
    if (id == kAttrPriority && h != 0 && h != kStreamLegacy && h != kStreamPerThread) {
      const int p = static_cast<Stream*>(stream)->priority;
      std::memcpy(v.data(), &p, sizeof p);
    }
    std::memcpy(value, v.data(), v.size());
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamGetAttribute_ptsz(void* stream, int id, void* value) {
  return cudaStreamGetAttribute(const_cast<void*>(canonical_stream(stream, true)), id, value);
}

WS_API cudaError_t cudaStreamCopyAttributes(void* dst, void* src) {
  return call("cudaStreamCopyAttributes", [&](Runtime& rt) {
    auto* to = stream_attrs(rt, dst);
    auto* from = stream_attrs(rt, src);
    if (to == nullptr || from == nullptr) return kErrInvalidResourceHandle;
    *to = *from;
    const auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
    auto named = [](std::uintptr_t h) { return h != 0 && h != kStreamLegacy && h != kStreamPerThread; };
    if (named(d) && named(s)) static_cast<Stream*>(dst)->priority = static_cast<Stream*>(src)->priority;
    return kSuccess;
  });
}

WS_API cudaError_t cudaStreamCopyAttributes_ptsz(void* dst, void* src) {
  return cudaStreamCopyAttributes(const_cast<void*>(canonical_stream(dst, true)),
                                  const_cast<void*>(canonical_stream(src, true)));
}

// caveat: an access policy window is kept and reported; the L2 model has no persisting lines
WS_API cudaError_t cudaGraphKernelNodeSetAttribute(void* node, int id, const void* value) {
  return call("cudaGraphKernelNodeSetAttribute", [&](Runtime& rt) {
    Node* n = kernel_node(node);
    if (n == nullptr || value == nullptr || !node_attribute(id)) return kErrInvalidValue;
    if (cudaError_t e = check_value(rt, id, value); e != kSuccess) return e;
    LaunchAttrValue v{};
    std::memcpy(v.data(), value, v.size());
    n->attributes[id] = v;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphKernelNodeGetAttribute(void* node, int id, void* value) {
  return call("cudaGraphKernelNodeGetAttribute", [&](Runtime&) {
    Node* n = kernel_node(node);
    if (n == nullptr || value == nullptr || !node_attribute(id)) return kErrInvalidValue;
    LaunchAttrValue v{};
    if (auto it = n->attributes.find(id); it != n->attributes.end()) v = it->second;
    std::memcpy(value, v.data(), v.size());
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphKernelNodeCopyAttributes(void* dst, void* src) {
  return call("cudaGraphKernelNodeCopyAttributes", [&](Runtime&) {
    Node* to = kernel_node(dst);
    Node* from = kernel_node(src);
    if (to == nullptr || from == nullptr) return kErrInvalidValue;
    to->attributes = from->attributes;
    return kSuccess;
  });
}

// caveat: nothing to reset: the L2 model keeps no persisting lines
WS_API cudaError_t cudaCtxResetPersistingL2Cache() {
  return call("cudaCtxResetPersistingL2Cache", [&](Runtime&) { return kSuccess; });
}
