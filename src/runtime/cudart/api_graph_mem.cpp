// Graph memory nodes and conditional nodes (graph.hpp, mem_pools.hpp; docs/runtime.md "Memory
// pools and graph memory", "Conditional nodes").
//
// A conditional handle is the device address of a 32-bit condition: cudaGraphSetConditional, a
// device function of CUDA's device runtime (an `.extern .func` in the kernel's PTX), is a
// built-in of the interpreter that stores the value there (src/exec/warp.cpp), and the node reads
// it when it runs: an if node runs its first body when it is non-zero (its second, if any, when
// zero), a while node runs its body as long as it is non-zero (read before each iteration), a
// switch node runs body n when it equals n.
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"
#include "runtime/cudart/mem_pools.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {

struct CondHandle {
  const Graph* graph = nullptr;
  unsigned default_value = 0;
  unsigned flags = 0;  // cudaGraphCondAssignDefault 1
};

/// Every conditional handle made, by address (they live as long as the process: a handle is 4 bytes).
std::map<std::uint64_t, CondHandle>& handles() {
  static auto& h = *new std::map<std::uint64_t, CondHandle>;
  return h;
}

void write_condition(Runtime& rt, std::uint64_t handle, unsigned value) {
  rt.device().copy_to_device(handle, &value, sizeof value);
}

void reset_in(Runtime& rt, const Graph& g) {
  for (const auto& n : g.nodes) {
    if (n->type == NodeType::kConditional) {
      auto it = handles().find(n->cond.handle);
      if (it != handles().end() && (it->second.flags & 1) != 0) write_condition(rt, it->first, it->second.default_value);
      for (const auto& b : n->bodies) reset_in(rt, *b);
    }
    if (n->child) reset_in(rt, *n->child);
  }
}

cudaError_t run_body(Runtime& rt, Graph& body, const void* stream) {
  std::vector<Node*> order;
  if (!topological_order(body, &order)) return kErrInvalidValue;
  return run_graph(rt, order, stream);
}

}  // namespace

namespace warpscope::cudart {

cudaError_t mem_alloc_node(Runtime& rt, MemAllocNodeParams& p, Node* n) {
  if (cudaError_t e = graph_allocate(rt, p, &n->alloc); e != kSuccess) return e;
  p.dptr = reinterpret_cast<void*>(n->alloc->ptr);
  return kSuccess;
}

cudaError_t mem_free_node(Runtime&, void* dptr, Node* n) {
  if (GraphMemory::get().find(dptr) == nullptr) return kErrInvalidValue;  // not a graph allocation
  n->free_ptr = reinterpret_cast<DevicePtr>(dptr);
  return kSuccess;
}

cudaError_t conditional_node(Runtime&, ConditionalNodeParams& p, Node* n) {
  if (!handles().count(p.handle)) return kErrInvalidValue;
  const bool size_ok = (p.type == 0 && (p.size == 1 || p.size == 2)) || (p.type == 1 && p.size == 1) ||
                       (p.type == 2 && p.size >= 1);
  if (!size_ok) return kErrInvalidValue;
  Graphs& gs = Graphs::get();
  n->cond = p;
  n->cond.phGraph_out = nullptr;
  for (unsigned i = 0; i < p.size; ++i) {
    Graph* body = gs.new_graph();
    body->owner = n;
    n->bodies.emplace_back(body);
    n->body_handles.push_back(body);
  }
  p.phGraph_out = n->body_handles.data();
  return kSuccess;
}

void copy_special(Graphs& gs, const Node& from, Node* to, bool registered) {
  to->alloc = from.alloc;
  to->free_ptr = from.free_ptr;
  to->cond = from.cond;
  to->attributes = from.attributes;
  for (const auto& b : from.bodies) {
    to->bodies.push_back(gs.copy_graph(*b, registered, nullptr));
    to->bodies.back()->owner = to;
    to->body_handles.push_back(to->bodies.back().get());
  }
}

cudaError_t run_special(Runtime& rt, Node* n, const void* stream) {
  GraphMemory& gm = GraphMemory::get();
  switch (n->type) {
    case NodeType::kMemAlloc: gm.set_used(*n->alloc, true); return kSuccess;
    case NodeType::kMemFree: {
      auto a = gm.find(reinterpret_cast<void*>(n->free_ptr));
      if (a == nullptr) return kErrInvalidValue;
      gm.set_used(*a, false);
      return kSuccess;
    }
    case NodeType::kConditional: {
      auto value = [&] {
        unsigned v = 0;
        rt.device().copy_to_host(&v, n->cond.handle, sizeof v);
        return v;
      };
      if (n->cond.type == 1) {  // while
        while (value() != 0) {
          if (cudaError_t e = run_body(rt, *n->bodies[0], stream); e != kSuccess) return e;
          if (rt.sticky != kSuccess) return rt.sticky;
        }
        return kSuccess;
      }
      const unsigned v = value();
      if (n->cond.type == 0) {  // if (, else)
        if (v != 0) return run_body(rt, *n->bodies[0], stream);
        return n->bodies.size() == 2 ? run_body(rt, *n->bodies[1], stream) : kSuccess;
      }
      return v < n->bodies.size() ? run_body(rt, *n->bodies[v], stream) : kSuccess;  // switch
    }
    default: return kErrInvalidValue;
  }
}

void reset_conditions(Runtime& rt, const Graph& g) { reset_in(rt, g); }

cudaError_t capture_alloc(Runtime& rt, const void* stream, const MemPool& pool, std::size_t bytes, void** ptr) {
  if (ptr == nullptr) return kErrInvalidValue;
  MemAllocNodeParams p{};
  p.poolProps = pool.props;
  p.bytesize = bytes;
  auto n = std::make_unique<Node>();
  n->type = NodeType::kMemAlloc;
  if (cudaError_t e = mem_alloc_node(rt, p, n.get()); e != kSuccess) return e;
  *ptr = p.dptr;
  return capture_node(rt, stream, std::move(n));
}

cudaError_t capture_free(Runtime& rt, const void* stream, void* ptr) {
  auto n = std::make_unique<Node>();
  n->type = NodeType::kMemFree;
  if (cudaError_t e = mem_free_node(rt, ptr, n.get()); e != kSuccess) return e;
  return capture_node(rt, stream, std::move(n));
}

}  // namespace warpscope::cudart

// api_graph.cpp's: memory nodes are added as any node is.
extern "C" cudaError_t cudaGraphAddNode(void** node, void* graph, void* const* deps, const GraphEdgeData* data,
                                        std::size_t n, GraphNodeParams* params);

WS_API cudaError_t cudaGraphAddMemAllocNode(void** node, void* graph, void* const* deps, std::size_t n,
                                            MemAllocNodeParams* params) {
  if (params == nullptr) return call("cudaGraphAddMemAllocNode", [](Runtime&) { return kErrInvalidValue; });
  GraphNodeParams p{};
  p.type = static_cast<int>(NodeType::kMemAlloc);
  p.alloc = *params;
  const cudaError_t e = cudaGraphAddNode(node, graph, deps, nullptr, n, &p);
  if (e == kSuccess) params->dptr = p.alloc.dptr;
  return e;
}

WS_API cudaError_t cudaGraphAddMemFreeNode(void** node, void* graph, void* const* deps, std::size_t n,
                                           void* dptr) {
  GraphNodeParams p{};
  p.type = static_cast<int>(NodeType::kMemFree);
  p.free.dptr = dptr;
  return cudaGraphAddNode(node, graph, deps, nullptr, n, &p);
}

WS_API cudaError_t cudaGraphMemAllocNodeGetParams(void* node, MemAllocNodeParams* out) {
  return call("cudaGraphMemAllocNodeGetParams", [&](Runtime&) {
    auto* nd = static_cast<Node*>(node);
    if (out == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kMemAlloc) return kErrInvalidValue;
    out->poolProps = nd->alloc->props;
    out->accessDescs = nd->alloc->access.empty() ? nullptr : nd->alloc->access.data();
    out->accessDescCount = nd->alloc->access.size();
    out->bytesize = nd->alloc->bytes;
    out->dptr = reinterpret_cast<void*>(nd->alloc->ptr);
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphMemFreeNodeGetParams(void* node, void** dptr) {
  return call("cudaGraphMemFreeNodeGetParams", [&](Runtime&) {
    auto* nd = static_cast<Node*>(node);
    if (dptr == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kMemFree) return kErrInvalidValue;
    *dptr = reinterpret_cast<void*>(nd->free_ptr);
    return kSuccess;
  });
}

// caveat: the condition is a 4-byte device allocation of its own (not freed before the process ends)
WS_API cudaError_t cudaGraphConditionalHandleCreate(std::uint64_t* handle, void* graph, unsigned default_value,
                                                    unsigned flags) {
  return call("cudaGraphConditionalHandleCreate", [&](Runtime& rt) {
    if (handle == nullptr || !Graphs::get().valid(static_cast<Graph*>(graph)) || flags > 1) return kErrInvalidValue;
    const warpscope::DevicePtr at = rt.device().malloc(sizeof(unsigned));
    handles()[at] = CondHandle{static_cast<Graph*>(graph), default_value, flags};
    write_condition(rt, at, default_value);
    *handle = at;
    return kSuccess;
  });
}
