// CUDA graphs: building them (nodes, edges, parameters, queries, clone, DOT); instantiation,
// update and launch are in api_graph_exec.cpp (graph.hpp; docs/runtime.md "Graphs and stream
// capture").
#include <cstdio>
#include <fstream>
#include <functional>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {

Graph* as_graph(void* g) { return static_cast<Graph*>(g); }
Node* as_node(void* n) { return static_cast<Node*>(n); }

using NodeHandle = void*;

/// Whether a node may be added to `graph` after `deps`.
cudaError_t check_add(void** out, void* graph, const NodeHandle* deps, std::size_t n) {
  Graphs& gs = Graphs::get();
  if (out == nullptr || !gs.valid(as_graph(graph)) || (n != 0 && deps == nullptr)) return kErrInvalidValue;
  for (std::size_t i = 0; i < n; ++i) {
    Node* d = as_node(deps[i]);
    if (!gs.valid(d) || d->graph != as_graph(graph)) return kErrInvalidValue;
    for (std::size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i]) return kErrInvalidValue;
  }
  return kSuccess;
}

/// Adds `node` to `graph` after `deps` (with their edge data, or the default).
cudaError_t add_node(void** out, void* graph, const NodeHandle* deps, const GraphEdgeData* data, std::size_t n,
                     std::unique_ptr<Node> node) {
  if (cudaError_t e = check_add(out, graph, deps, n); e != kSuccess) return e;
  Node* added = Graphs::get().add_node(*as_graph(graph), std::move(node));
  for (std::size_t i = 0; i < n; ++i) add_edge(as_node(deps[i]), added, data != nullptr ? data[i] : GraphEdgeData{});
  *out = added;
  return kSuccess;
}

std::unique_ptr<Node> new_node(NodeType t) {
  auto n = std::make_unique<Node>();
  n->type = t;
  return n;
}

/// Writes up to *count handles (null-padding the rest) or, with `out` null, the count.
template <typename T>
cudaError_t fill(const std::vector<T>& items, T* out, std::size_t* count) {
  if (count == nullptr) return kErrInvalidValue;
  if (out == nullptr) {
    *count = items.size();
    return kSuccess;
  }
  for (std::size_t i = 0; i < *count; ++i) out[i] = i < items.size() ? items[i] : T{};
  *count = std::min(*count, items.size());
  return kSuccess;
}

bool default_edge(const GraphEdgeData& d) { return d.from_port == 0 && d.to_port == 0 && d.type == 0; }

void dot_graph(std::ofstream& out, const Graph& g, const std::string& prefix) {
  for (const auto& n : g.nodes) {
    std::string label = node_type_name(n->type);
    if (n->type == NodeType::kKernel) label += "\\n" + demangle(n->kernel.kernel->name);
    if (n->type == NodeType::kMemcpy) label += fmt::format("\\n{} bytes", n->copy.extent.width * n->copy.extent.height * n->copy.extent.depth);
    out << fmt::format("  \"{}{}\" [label=\"{}\"];\n", prefix, n->serial, label);
    for (const Node* d : n->deps) out << fmt::format("  \"{}{}\" -> \"{}{}\";\n", prefix, d->serial, prefix, n->serial);
    if (n->child) dot_graph(out, *n->child, fmt::format("{}{}.", prefix, n->serial));
  }
}

}  // namespace

// ---- Graphs and nodes ------------------------------------------------------------------------

WS_API cudaError_t cudaGraphCreate(void** graph, unsigned flags) {
  return call("cudaGraphCreate", [&](Runtime&) {
    if (graph == nullptr || flags != 0) return kErrInvalidValue;
    *graph = Graphs::get().new_graph();
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphDestroy(void* graph) {
  return call("cudaGraphDestroy", true, [&](Runtime&) {
    Graphs& gs = Graphs::get();
    if (!gs.valid(as_graph(graph)) || as_graph(graph)->owner != nullptr) return kErrInvalidValue;
    gs.destroy_graph(as_graph(graph));
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphAddKernelNode(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                          const KernelNodeParams* params) {
  return call("cudaGraphAddKernelNode", [&](Runtime& rt) {
    if (params == nullptr) return kErrInvalidValue;
    auto nd = new_node(NodeType::kKernel);
    if (cudaError_t e = make_kernel_call(rt, *params, &nd->kernel); e != kSuccess) return e;
    return add_node(node, graph, deps, nullptr, n, std::move(nd));
  });
}

WS_API cudaError_t cudaGraphKernelNodeGetParams(void* node, KernelNodeParams* params) {
  return call("cudaGraphKernelNodeGetParams", [&](Runtime&) {
    Node* nd = as_node(node);
    if (params == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kKernel) return kErrInvalidValue;
    const KernelCall& k = nd->kernel;
    *params = KernelNodeParams{k.func, k.grid, k.block, k.shared, const_cast<void**>(k.arg_ptrs.data()), nullptr};
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphKernelNodeSetParams(void* node, const KernelNodeParams* params) {
  return call("cudaGraphKernelNodeSetParams", [&](Runtime& rt) {
    Node* nd = as_node(node);
    if (params == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kKernel) return kErrInvalidValue;
    return make_kernel_call(rt, *params, &nd->kernel);
  });
}

// caveat: pointers only: copies with CUDA arrays return cudaErrorNotSupported
WS_API cudaError_t cudaGraphAddMemcpyNode(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                          const Memcpy3DParms* params) {
  return call("cudaGraphAddMemcpyNode", [&](Runtime& rt) {
    if (params == nullptr) return kErrInvalidValue;
    if (cudaError_t e = check_copy_params(rt, *params); e != kSuccess) return e;
    auto nd = new_node(NodeType::kMemcpy);
    nd->copy = *params;
    return add_node(node, graph, deps, nullptr, n, std::move(nd));
  });
}

WS_API cudaError_t cudaGraphAddMemcpyNode1D(void** node, void* graph, const NodeHandle* deps, std::size_t n, void* dst,
                                            const void* src, std::size_t count, int kind) {
  const Memcpy3DParms p = linear_copy(dst, src, count, kind);
  return cudaGraphAddMemcpyNode(node, graph, deps, n, &p);
}

WS_API cudaError_t cudaGraphAddMemcpyNodeToSymbol(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                                  const void* symbol, const void* src, std::size_t count,
                                                  std::size_t offset, int kind) {
  return call("cudaGraphAddMemcpyNodeToSymbol", [&](Runtime& rt) {
    Memcpy3DParms p{};
    if (cudaError_t e = to_symbol(rt, symbol, src, count, offset, kind, &p); e != kSuccess) return e;
    return cudaGraphAddMemcpyNode(node, graph, deps, n, &p);
  });
}

WS_API cudaError_t cudaGraphAddMemcpyNodeFromSymbol(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                                    void* dst, const void* symbol, std::size_t count,
                                                    std::size_t offset, int kind) {
  return call("cudaGraphAddMemcpyNodeFromSymbol", [&](Runtime& rt) {
    Memcpy3DParms p{};
    if (cudaError_t e = from_symbol(rt, dst, symbol, count, offset, kind, &p); e != kSuccess) return e;
    return cudaGraphAddMemcpyNode(node, graph, deps, n, &p);
  });
}

WS_API cudaError_t cudaGraphMemcpyNodeGetParams(void* node, Memcpy3DParms* params) {
  return call("cudaGraphMemcpyNodeGetParams", [&](Runtime&) {
    Node* nd = as_node(node);
    if (params == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kMemcpy) return kErrInvalidValue;
    *params = nd->copy;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphMemcpyNodeSetParams(void* node, const Memcpy3DParms* params) {
  return call("cudaGraphMemcpyNodeSetParams", [&](Runtime& rt) {
    Node* nd = as_node(node);
    if (params == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kMemcpy) return kErrInvalidValue;
    if (cudaError_t e = check_copy_params(rt, *params); e != kSuccess) return e;
    nd->copy = *params;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphMemcpyNodeSetParams1D(void* node, void* dst, const void* src, std::size_t count, int kind) {
  const Memcpy3DParms p = linear_copy(dst, src, count, kind);
  return cudaGraphMemcpyNodeSetParams(node, &p);
}

WS_API cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(void* node, const void* symbol, const void* src,
                                                        std::size_t count, std::size_t offset, int kind) {
  return call("cudaGraphMemcpyNodeSetParamsToSymbol", [&](Runtime& rt) {
    Memcpy3DParms p{};
    if (cudaError_t e = to_symbol(rt, symbol, src, count, offset, kind, &p); e != kSuccess) return e;
    return cudaGraphMemcpyNodeSetParams(node, &p);
  });
}

WS_API cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(void* node, void* dst, const void* symbol,
                                                          std::size_t count, std::size_t offset, int kind) {
  return call("cudaGraphMemcpyNodeSetParamsFromSymbol", [&](Runtime& rt) {
    Memcpy3DParms p{};
    if (cudaError_t e = from_symbol(rt, dst, symbol, count, offset, kind, &p); e != kSuccess) return e;
    return cudaGraphMemcpyNodeSetParams(node, &p);
  });
}

WS_API cudaError_t cudaGraphAddMemsetNode(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                          const MemsetParams* params) {
  return call("cudaGraphAddMemsetNode", [&](Runtime& rt) {
    if (params == nullptr) return kErrInvalidValue;
    if (cudaError_t e = check_memset_params(rt, *params); e != kSuccess) return e;
    auto nd = new_node(NodeType::kMemset);
    nd->memset = *params;
    return add_node(node, graph, deps, nullptr, n, std::move(nd));
  });
}

WS_API cudaError_t cudaGraphMemsetNodeGetParams(void* node, MemsetParams* params) {
  return call("cudaGraphMemsetNodeGetParams", [&](Runtime&) {
    Node* nd = as_node(node);
    if (params == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kMemset) return kErrInvalidValue;
    *params = nd->memset;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphMemsetNodeSetParams(void* node, const MemsetParams* params) {
  return call("cudaGraphMemsetNodeSetParams", [&](Runtime& rt) {
    Node* nd = as_node(node);
    if (params == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kMemset) return kErrInvalidValue;
    if (cudaError_t e = check_memset_params(rt, *params); e != kSuccess) return e;
    nd->memset = *params;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphAddHostNode(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                        const HostNodeParams* params) {
  return call("cudaGraphAddHostNode", [&](Runtime&) {
    if (params == nullptr || params->fn == nullptr) return kErrInvalidValue;
    auto nd = new_node(NodeType::kHost);
    nd->host = *params;
    return add_node(node, graph, deps, nullptr, n, std::move(nd));
  });
}

WS_API cudaError_t cudaGraphHostNodeGetParams(void* node, HostNodeParams* params) {
  return call("cudaGraphHostNodeGetParams", [&](Runtime&) {
    Node* nd = as_node(node);
    if (params == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kHost) return kErrInvalidValue;
    *params = nd->host;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphHostNodeSetParams(void* node, const HostNodeParams* params) {
  return call("cudaGraphHostNodeSetParams", [&](Runtime&) {
    Node* nd = as_node(node);
    if (params == nullptr || params->fn == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kHost) {
      return kErrInvalidValue;
    }
    nd->host = *params;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphAddChildGraphNode(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                              void* child) {
  return call("cudaGraphAddChildGraphNode", [&](Runtime&) {
    Graphs& gs = Graphs::get();
    if (!gs.valid(as_graph(child)) || child == graph) return kErrInvalidValue;
    if (cudaError_t e = check_add(node, graph, deps, n); e != kSuccess) return e;
    auto nd = new_node(NodeType::kGraph);
    nd->child = gs.copy_graph(*as_graph(child), true, nullptr);  // the node holds a clone
    return add_node(node, graph, deps, nullptr, n, std::move(nd));
  });
}

WS_API cudaError_t cudaGraphChildGraphNodeGetGraph(void* node, void** graph) {
  return call("cudaGraphChildGraphNodeGetGraph", [&](Runtime&) {
    Node* nd = as_node(node);
    if (graph == nullptr || !Graphs::get().valid(nd) || nd->type != NodeType::kGraph) return kErrInvalidValue;
    *graph = nd->child.get();
    return kSuccess;
  });
}

namespace {
/// A batch memory operation node's parameters: up to 256 operations (cuStreamBatchMemOp's limit), flags 0.
cudaError_t fill_mem_ops(Node& n, const void* ops, unsigned count, unsigned flags) {
  if ((count != 0 && ops == nullptr) || count > 256 || flags != 0) return kErrInvalidValue;
  const auto* words = static_cast<const std::array<std::uint64_t, 6>*>(ops);
  n.mem_ops.assign(words, words + count);
  n.mem_op_flags = flags;
  return kSuccess;
}
}  // namespace

cudaError_t warpscope::cudart::add_batch_mem_op_node(void** out, void* graph, void* const* deps, std::size_t n,
                                                     const void* ops, unsigned count, unsigned flags) {
  return call("cuGraphAddBatchMemOpNode", [&](Runtime&) {
    auto nd = new_node(NodeType::kBatchMemOp);
    if (cudaError_t e = fill_mem_ops(*nd, ops, count, flags); e != kSuccess) return e;
    return add_node(out, graph, deps, nullptr, n, std::move(nd));
  });
}

cudaError_t warpscope::cudart::batch_mem_op_node_params(void* node, const void** ops, unsigned* count,
                                                        unsigned* flags) {
  return call("cuGraphBatchMemOpNodeGetParams", [&](Runtime&) {
    Node* nd = as_node(node);
    if (!Graphs::get().valid(nd) || nd->type != NodeType::kBatchMemOp) return kErrInvalidValue;
    *ops = nd->mem_ops.data();  // the node's copy, as the H200 hands back
    *count = static_cast<unsigned>(nd->mem_ops.size());
    *flags = nd->mem_op_flags;
    return kSuccess;
  });
}

cudaError_t warpscope::cudart::set_batch_mem_op_node(void* node, const void* ops, unsigned count,
                                                     unsigned flags) {
  return call("cuGraphBatchMemOpNodeSetParams", [&](Runtime&) {
    Node* nd = as_node(node);
    if (!Graphs::get().valid(nd) || nd->type != NodeType::kBatchMemOp) return kErrInvalidValue;
    return fill_mem_ops(*nd, ops, count, flags);
  });
}

WS_API cudaError_t cudaGraphAddEmptyNode(void** node, void* graph, const NodeHandle* deps, std::size_t n) {
  return call("cudaGraphAddEmptyNode",
              [&](Runtime&) { return add_node(node, graph, deps, nullptr, n, new_node(NodeType::kEmpty)); });
}

namespace {
cudaError_t add_event_node(const char* api, NodeType t, void** node, void* graph, const NodeHandle* deps,
                           std::size_t n, void* event) {
  return call(api, [&](Runtime& rt) {
    if (!rt.events.count(static_cast<Event*>(event))) return kErrInvalidResourceHandle;
    auto nd = new_node(t);
    nd->event = event;
    return add_node(node, graph, deps, nullptr, n, std::move(nd));
  });
}
cudaError_t event_of(const char* api, NodeType t, void* node, void** event) {
  return call(api, [&](Runtime&) {
    Node* nd = as_node(node);
    if (event == nullptr || !Graphs::get().valid(nd) || nd->type != t) return kErrInvalidValue;
    *event = nd->event;
    return kSuccess;
  });
}
cudaError_t set_event(const char* api, NodeType t, Node* nd, void* event) {
  return call(api, [&](Runtime& rt) {
    if (nd == nullptr || nd->type != t) return kErrInvalidValue;
    if (!rt.events.count(static_cast<Event*>(event))) return kErrInvalidResourceHandle;
    nd->event = event;
    return kSuccess;
  });
}
Node* live(void* node) { return Graphs::get().valid(as_node(node)) ? as_node(node) : nullptr; }
}  // namespace

WS_API cudaError_t cudaGraphAddEventRecordNode(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                               void* event) {
  return add_event_node("cudaGraphAddEventRecordNode", NodeType::kEventRecord, node, graph, deps, n, event);
}
WS_API cudaError_t cudaGraphEventRecordNodeGetEvent(void* node, void** event) {
  return event_of("cudaGraphEventRecordNodeGetEvent", NodeType::kEventRecord, node, event);
}
WS_API cudaError_t cudaGraphEventRecordNodeSetEvent(void* node, void* event) {
  return set_event("cudaGraphEventRecordNodeSetEvent", NodeType::kEventRecord, live(node), event);
}
WS_API cudaError_t cudaGraphAddEventWaitNode(void** node, void* graph, const NodeHandle* deps, std::size_t n,
                                             void* event) {
  return add_event_node("cudaGraphAddEventWaitNode", NodeType::kWaitEvent, node, graph, deps, n, event);
}
WS_API cudaError_t cudaGraphEventWaitNodeGetEvent(void* node, void** event) {
  return event_of("cudaGraphEventWaitNodeGetEvent", NodeType::kWaitEvent, node, event);
}
WS_API cudaError_t cudaGraphEventWaitNodeSetEvent(void* node, void* event) {
  return set_event("cudaGraphEventWaitNodeSetEvent", NodeType::kWaitEvent, live(node), event);
}

WS_API cudaError_t cudaGraphAddNode(void** node, void* graph, const NodeHandle* deps, const GraphEdgeData* data,
                                    std::size_t n, GraphNodeParams* params) {
  return call("cudaGraphAddNode", [&](Runtime& rt) {
    if (params == nullptr) return kErrInvalidValue;
    if (cudaError_t e = check_add(node, graph, deps, n); e != kSuccess) return e;
    auto nd = std::make_unique<Node>();
    if (cudaError_t e = node_from_params(rt, *params, nd.get()); e != kSuccess) return e;
    return add_node(node, graph, deps, data, n, std::move(nd));
  });
}

WS_API cudaError_t cudaGraphNodeSetParams(void* node, GraphNodeParams* params) {
  return call("cudaGraphNodeSetParams", [&](Runtime& rt) {
    Node* nd = live(node);
    if (params == nullptr || nd == nullptr || params->type != static_cast<int>(nd->type)) return kErrInvalidValue;
    if (nd->type == NodeType::kGraph) return kErrInvalidValue;  // a child graph is edited through its handle
    // Memory nodes cannot change; a conditional node's bodies are edited through their handles.
    if (nd->type == NodeType::kMemAlloc || nd->type == NodeType::kMemFree || nd->type == NodeType::kConditional) {
      return kErrInvalidValue;
    }
    Node fresh;
    if (cudaError_t e = node_from_params(rt, *params, &fresh); e != kSuccess) return e;
    return assign_params(nd, fresh);
  });
}

WS_API cudaError_t cudaGraphNodeGetType(void* node, int* type) {
  return call("cudaGraphNodeGetType", [&](Runtime&) {
    Node* nd = live(node);
    if (nd == nullptr || type == nullptr) return kErrInvalidValue;
    *type = static_cast<int>(nd->type);
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphDestroyNode(void* node) {
  return call("cudaGraphDestroyNode", [&](Runtime&) {
    Node* nd = live(node);
    if (nd == nullptr) return kErrInvalidValue;
    Graphs::get().destroy_node(nd);
    return kSuccess;
  });
}

// ---- Queries and edges -----------------------------------------------------------------------

WS_API cudaError_t cudaGraphGetNodes(void* graph, NodeHandle* nodes, std::size_t* count) {
  return call("cudaGraphGetNodes", [&](Runtime&) {
    if (!Graphs::get().valid(as_graph(graph))) return kErrInvalidValue;
    std::vector<NodeHandle> all;
    for (auto& n : as_graph(graph)->nodes) all.push_back(n.get());
    return fill(all, nodes, count);
  });
}

WS_API cudaError_t cudaGraphGetRootNodes(void* graph, NodeHandle* nodes, std::size_t* count) {
  return call("cudaGraphGetRootNodes", [&](Runtime&) {
    if (!Graphs::get().valid(as_graph(graph))) return kErrInvalidValue;
    std::vector<NodeHandle> roots;
    for (auto& n : as_graph(graph)->nodes)
      if (n->deps.empty()) roots.push_back(n.get());
    return fill(roots, nodes, count);
  });
}

WS_API cudaError_t cudaGraphGetEdges(void* graph, NodeHandle* from, NodeHandle* to, GraphEdgeData* data,
                                     std::size_t* count) {
  return call("cudaGraphGetEdges", [&](Runtime&) {
    if (!Graphs::get().valid(as_graph(graph)) || count == nullptr || ((from == nullptr) != (to == nullptr))) {
      return kErrInvalidValue;
    }
    if (data != nullptr && from == nullptr) return kErrInvalidValue;
    std::vector<NodeHandle> f, t;
    std::vector<GraphEdgeData> d;
    for (auto& n : as_graph(graph)->nodes) {
      for (std::size_t i = 0; i < n->deps.size(); ++i) {
        f.push_back(n->deps[i]);
        t.push_back(n.get());
        d.push_back(n->dep_data[i]);
      }
    }
    if (from == nullptr) return fill(f, from, count);
    std::size_t want = *count;
    fill(f, from, &want);
    want = *count;
    fill(t, to, &want);
    if (data != nullptr) {
      fill(d, data, count);
    } else {
      for (std::size_t i = 0; i < std::min(*count, d.size()); ++i)
        if (!default_edge(d[i])) return kErrLossyQuery;
      *count = want;
    }
    return kSuccess;
  });
}

namespace {
cudaError_t neighbours(const char* api, void* node, NodeHandle* out, GraphEdgeData* data, std::size_t* count,
                       bool incoming) {
  return call(api, [&](Runtime&) {
    Node* nd = live(node);
    if (nd == nullptr || count == nullptr || (data != nullptr && out == nullptr)) return kErrInvalidValue;
    std::vector<NodeHandle> list;
    std::vector<GraphEdgeData> d;
    if (incoming) {
      list.assign(nd->deps.begin(), nd->deps.end());
      d = nd->dep_data;
    } else {
      for (Node* t : nd->dependents) {
        list.push_back(t);
        const auto at = std::find(t->deps.begin(), t->deps.end(), nd) - t->deps.begin();
        d.push_back(t->dep_data[static_cast<std::size_t>(at)]);
      }
    }
    if (out == nullptr) return fill(list, out, count);
    std::size_t n = *count;
    fill(list, out, &n);
    if (data != nullptr) {
      fill(d, data, count);
    } else {
      for (std::size_t i = 0; i < n; ++i)
        if (!default_edge(d[i])) return kErrLossyQuery;
      *count = n;
    }
    return kSuccess;
  });
}
}  // namespace

WS_API cudaError_t cudaGraphNodeGetDependencies(void* node, NodeHandle* deps, GraphEdgeData* data, std::size_t* count) {
  return neighbours("cudaGraphNodeGetDependencies", node, deps, data, count, true);
}

WS_API cudaError_t cudaGraphNodeGetDependentNodes(void* node, NodeHandle* deps, GraphEdgeData* data,
                                                  std::size_t* count) {
  return neighbours("cudaGraphNodeGetDependentNodes", node, deps, data, count, false);
}

WS_API cudaError_t cudaGraphAddDependencies(void* graph, const NodeHandle* from, const NodeHandle* to,
                                            const GraphEdgeData* data, std::size_t n) {
  return call("cudaGraphAddDependencies", [&](Runtime&) {
    Graphs& gs = Graphs::get();
    if (!gs.valid(as_graph(graph)) || (n != 0 && (from == nullptr || to == nullptr))) return kErrInvalidValue;
    for (std::size_t i = 0; i < n; ++i) {
      Node* f = as_node(from[i]);
      Node* t = as_node(to[i]);
      if (!gs.valid(f) || !gs.valid(t) || f->graph != as_graph(graph) || t->graph != as_graph(graph)) {
        return kErrInvalidValue;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (cudaError_t e = add_edge(as_node(from[i]), as_node(to[i]), data != nullptr ? data[i] : GraphEdgeData{});
          e != kSuccess) {
        return e;
      }
    }
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphRemoveDependencies(void* graph, const NodeHandle* from, const NodeHandle* to,
                                               const GraphEdgeData* data, std::size_t n) {
  return call("cudaGraphRemoveDependencies", [&](Runtime&) {
    Graphs& gs = Graphs::get();
    if (!gs.valid(as_graph(graph)) || (n != 0 && (from == nullptr || to == nullptr))) return kErrInvalidValue;
    (void)data;
    for (std::size_t i = 0; i < n; ++i) {
      Node* f = as_node(from[i]);
      Node* t = as_node(to[i]);
      if (!gs.valid(f) || !gs.valid(t) || t->graph != as_graph(graph)) return kErrInvalidValue;
      auto at = std::find(t->deps.begin(), t->deps.end(), f);
      if (at == t->deps.end()) return kErrInvalidValue;
      t->dep_data.erase(t->dep_data.begin() + (at - t->deps.begin()));
      t->deps.erase(at);
      f->dependents.erase(std::find(f->dependents.begin(), f->dependents.end(), t));
    }
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphClone(void** clone, void* graph) {
  return call("cudaGraphClone", [&](Runtime&) {
    Graphs& gs = Graphs::get();
    if (clone == nullptr || !gs.valid(as_graph(graph))) return kErrInvalidValue;
    std::map<const Node*, Node*> map;
    std::unique_ptr<Graph> g = gs.copy_graph(*as_graph(graph), true, &map);
    g->clone_of = std::move(map);
    *clone = g.release();
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphNodeFindInClone(void** node, void* original, void* clone) {
  return call("cudaGraphNodeFindInClone", [&](Runtime&) {
    Graphs& gs = Graphs::get();
    if (node == nullptr || !gs.valid(as_graph(clone))) return kErrInvalidValue;
    const auto& m = as_graph(clone)->clone_of;
    auto it = m.find(as_node(original));
    if (it == m.end()) return kErrInvalidValue;
    *node = it->second;
    return kSuccess;
  });
}

// caveat: warpscope's own DOT (node kinds, kernel names, edges), not NVIDIA's layout
WS_API cudaError_t cudaGraphDebugDotPrint(void* graph, const char* path, unsigned) {
  return call("cudaGraphDebugDotPrint", [&](Runtime&) {
    if (!Graphs::get().valid(as_graph(graph)) || path == nullptr) return kErrInvalidValue;
    std::ofstream out(path);
    if (!out) return kErrInvalidValue;
    out << "digraph warpscope_graph {\n";
    dot_graph(out, *as_graph(graph), "");
    out << "}\n";
    return kSuccess;
  });
}

