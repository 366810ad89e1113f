// CUDA graphs: building (nodes, edges, queries, clone), instantiation, update and launch
// (graph.hpp; docs/runtime.md "Graphs and stream capture").
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
GraphExec* as_exec(void* e) { return static_cast<GraphExec*>(e); }

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

cudaError_t symbol_range(Runtime& rt, const void* symbol, std::size_t count, std::size_t offset, char** addr) {
  VarRec* v = rt.find_var(symbol);
  if (v == nullptr) return kErrInvalidSymbol;
  if (cudaError_t e = rt.ensure_loaded(*v->module); e != kSuccess) return e;
  const std::size_t size = rt.device().symbol_size(*v->module->module, v->name);
  if (offset > size || count > size - offset) return kErrInvalidValue;
  *addr = reinterpret_cast<char*>(rt.device().symbol_address(*v->module->module, v->name)) + offset;
  return kSuccess;
}

cudaError_t to_symbol(Runtime& rt, const void* symbol, const void* src, std::size_t count, std::size_t offset, int kind,
                      Memcpy3DParms* p) {
  if (kind != kHostToDevice && kind != kDeviceToDevice && kind != kDefault) return kErrInvalidMemcpyDirection;
  char* addr = nullptr;
  if (cudaError_t e = symbol_range(rt, symbol, count, offset, &addr); e != kSuccess) return e;
  *p = linear_copy(addr, src, count, kind);
  return kSuccess;
}

cudaError_t from_symbol(Runtime& rt, void* dst, const void* symbol, std::size_t count, std::size_t offset, int kind,
                        Memcpy3DParms* p) {
  if (kind != kDeviceToHost && kind != kDeviceToDevice && kind != kDefault) return kErrInvalidMemcpyDirection;
  char* addr = nullptr;
  if (cudaError_t e = symbol_range(rt, symbol, count, offset, &addr); e != kSuccess) return e;
  *p = linear_copy(dst, addr, count, kind);
  return kSuccess;
}

/// A node of `exec` that the program names by the node it was instantiated from.
Node* exec_node(void* exec, void* node) {
  Graphs& gs = Graphs::get();
  if (!gs.valid(as_exec(exec)) || !gs.valid(as_node(node))) return nullptr;
  const auto& m = as_exec(exec)->from_original;
  auto it = m.find(as_node(node));
  if (it == m.end() || it->second.first != as_node(node)->serial) return nullptr;
  return it->second.second;
}

/// Fills a node of `type` from the generic cudaGraphNodeParams.
cudaError_t node_from_params(Runtime& rt, const GraphNodeParams& p, Node* n) {
  n->type = static_cast<NodeType>(p.type);
  switch (n->type) {
    case NodeType::kKernel: return make_kernel_call(rt, p.kernel, &n->kernel);
    case NodeType::kMemcpy:
      if (cudaError_t e = check_copy_params(rt, p.memcpy.copyParams); e != kSuccess) return e;
      n->copy = p.memcpy.copyParams;
      return kSuccess;
    case NodeType::kMemset:
      if (cudaError_t e = check_memset_params(rt, p.memset); e != kSuccess) return e;
      n->memset = p.memset;
      return kSuccess;
    case NodeType::kHost:
      if (p.host.fn == nullptr) return kErrInvalidValue;
      n->host = p.host;
      return kSuccess;
    case NodeType::kEmpty: return kSuccess;
    case NodeType::kWaitEvent:
    case NodeType::kEventRecord: {
      void* ev = n->type == NodeType::kWaitEvent ? p.eventWait.event : p.eventRecord.event;
      if (!rt.events.count(static_cast<Event*>(ev))) return kErrInvalidResourceHandle;
      n->event = ev;
      return kSuccess;
    }
    case NodeType::kGraph: {
      Graphs& gs = Graphs::get();
      Graph* child = as_graph(p.graph.graph);
      if (!gs.valid(child) || child->owner != nullptr) return kErrInvalidValue;
      if (p.graph.ownership == 1) {  // cudaGraphChildGraphOwnershipMove: the node takes the graph
        n->child.reset(child);
      } else if (p.graph.ownership == 0) {
        n->child = gs.copy_graph(*child, true, nullptr);
      } else {
        return kErrInvalidValue;
      }
      return kSuccess;
    }
    default:
      rt.note(fmt::format("graph nodes of type {} ({}) are not supported by warpscope's runtime", p.type,
                          node_type_name(n->type)));
      return kErrNotSupported;
  }
}

/// Sets the parameters of an existing node (of a graph or of an instantiated graph) to those of
/// `fresh`, a node of the same type made from the new parameters.
cudaError_t assign_params(Node* n, Node& fresh) {
  if (n->type != fresh.type) return kErrInvalidValue;
  switch (n->type) {
    case NodeType::kKernel: n->kernel = fresh.kernel; break;
    case NodeType::kMemcpy: n->copy = fresh.copy; break;
    case NodeType::kMemset: n->memset = fresh.memset; break;
    case NodeType::kHost: n->host = fresh.host; break;
    case NodeType::kWaitEvent:
    case NodeType::kEventRecord: n->event = fresh.event; break;
    default: return kErrInvalidValue;
  }
  return kSuccess;
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

/// Same number of nodes, same types, same edges, pairing nodes by creation order (child graphs
/// recursively); fills `info` as cudaGraphExecUpdate documents.
bool same_topology(const Graph& a, const Graph& b, GraphExecUpdateResultInfo* info) {
  if (a.nodes.size() != b.nodes.size()) {
    info->result = 2;  // cudaGraphExecUpdateErrorTopologyChanged
    return false;
  }
  std::map<const Node*, std::size_t> ia, ib;
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    ia[a.nodes[i].get()] = i;
    ib[b.nodes[i].get()] = i;
  }
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const Node& x = *a.nodes[i];
    const Node& y = *b.nodes[i];
    if (x.type != y.type) {
      *info = {3, const_cast<Node*>(&y), nullptr};  // cudaGraphExecUpdateErrorNodeTypeChanged
      return false;
    }
    if (x.deps.size() != y.deps.size()) {
      *info = {2, const_cast<Node*>(&y), nullptr};
      return false;
    }
    for (std::size_t d = 0; d < x.deps.size(); ++d) {
      if (ia[x.deps[d]] != ib[y.deps[d]]) {
        *info = {2, const_cast<Node*>(&y), y.deps[d]};
        return false;
      }
    }
    if (x.child && !same_topology(*x.child, *y.child, info)) return false;
  }
  return true;
}

/// What cudaGraphExecUpdate may not change in a node: memset and memcpy memory kinds.
bool update_allowed(Runtime& rt, const Node& old, const Node& fresh) {
  if (old.type == NodeType::kMemset) return (old.memset.height > 1) == (fresh.memset.height > 1);
  if (old.type == NodeType::kMemcpy) {
    return rt.classify(old.copy.srcPtr.ptr, 1) == rt.classify(fresh.copy.srcPtr.ptr, 1) &&
           rt.classify(old.copy.dstPtr.ptr, 1) == rt.classify(fresh.copy.dstPtr.ptr, 1);
  }
  return true;
}

cudaError_t check_update(Runtime& rt, const Graph& cur, const Graph& fresh, GraphExecUpdateResultInfo* info) {
  for (std::size_t i = 0; i < cur.nodes.size(); ++i) {
    const Node& o = *cur.nodes[i];
    const Node& f = *fresh.nodes[i];
    if (!update_allowed(rt, o, f)) {
      *info = {5, const_cast<Node*>(&f), nullptr};  // cudaGraphExecUpdateErrorParametersChanged
      return kErrGraphExecUpdateFailure;
    }
    if (o.child) {
      if (cudaError_t e = check_update(rt, *o.child, *f.child, info); e != kSuccess) return e;
    }
  }
  return kSuccess;
}

void apply_update(Graph& cur, const Graph& fresh) {
  for (std::size_t i = 0; i < cur.nodes.size(); ++i) {
    Node& o = *cur.nodes[i];
    const Node& f = *fresh.nodes[i];
    o.kernel = f.kernel;
    o.copy = f.copy;
    o.memset = f.memset;
    o.host = f.host;
    o.event = f.event;
    if (o.child) apply_update(*o.child, *f.child);
  }
}

cudaError_t instantiate_call(void** out, void* graph, unsigned long long flags, GraphInstantiateParams* params) {
  return call("cudaGraphInstantiate", [&](Runtime& rt) {
    Graphs& gs = Graphs::get();
    if (params != nullptr) params->result_out = 1;  // cudaGraphInstantiateError
    if (out == nullptr || !gs.valid(as_graph(graph)) || as_graph(graph)->owner != nullptr) return kErrInvalidValue;
    if ((flags & ~0xfull) != 0) return kErrInvalidValue;
    if (params != nullptr && (flags & 2) != 0) {  // cudaGraphInstantiateFlagUpload
      if (cudaError_t e = rt.check_stream(params->uploadStream); e != kSuccess) return e;
    }
    GraphExec* exec = nullptr;
    Node* err_node = nullptr;
    const cudaError_t e = instantiate(rt, *as_graph(graph), flags, &exec, &err_node);
    if (params != nullptr) {
      params->errNode_out = err_node;
      params->result_out = e == kSuccess ? 0 : 2;  // cudaGraphInstantiateInvalidStructure: a cycle
    }
    if (e != kSuccess) {
      rt.note("cudaGraphInstantiate: the graph's dependencies form a cycle");
      return e;
    }
    *out = exec;
    return kSuccess;
  });
}

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

// ---- Instantiation, update, launch ------------------------------------------------------------

WS_API cudaError_t cudaGraphInstantiate(void** exec, void* graph, unsigned long long flags) {
  return instantiate_call(exec, graph, flags, nullptr);
}

WS_API cudaError_t cudaGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long flags) {
  return instantiate_call(exec, graph, flags, nullptr);
}

// caveat: cudaGraphInstantiateFlagDeviceLaunch is accepted, but kernels cannot launch graphs
WS_API cudaError_t cudaGraphInstantiateWithParams(void** exec, void* graph, GraphInstantiateParams* params) {
  if (params == nullptr) return call("cudaGraphInstantiateWithParams", [](Runtime&) { return kErrInvalidValue; });
  return instantiate_call(exec, graph, params->flags, params);
}

WS_API cudaError_t cudaGraphInstantiateWithParams_ptsz(void** exec, void* graph, GraphInstantiateParams* params) {
  return cudaGraphInstantiateWithParams(exec, graph, params);
}

WS_API cudaError_t cudaGraphExecGetFlags(void* exec, unsigned long long* flags) {
  return call("cudaGraphExecGetFlags", [&](Runtime&) {
    if (flags == nullptr || !Graphs::get().valid(as_exec(exec))) return kErrInvalidValue;
    *flags = as_exec(exec)->flags;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphExecDestroy(void* exec) {
  return call("cudaGraphExecDestroy", true, [&](Runtime&) {
    Graphs& gs = Graphs::get();
    if (!gs.valid(as_exec(exec))) return kErrInvalidValue;
    gs.destroy_exec(as_exec(exec));
    return kSuccess;
  });
}

namespace {
/// cudaGraphExec*SetParams: the parameters of `node` (of the graph the exec came from), made
/// into a fresh node by `make`, replace those of its instantiated copy.
cudaError_t exec_set(const char* api, void* exec, void* node, NodeType t,
                     const std::function<cudaError_t(Runtime&, Node&)>& make) {
  return call(api, [&](Runtime& rt) {
    Node* target = exec_node(exec, node);
    if (target == nullptr || target->type != t) return kErrInvalidValue;
    Node fresh;
    fresh.type = t;
    if (cudaError_t e = make(rt, fresh); e != kSuccess) return e;
    if (!update_allowed(rt, *target, fresh)) return kErrInvalidValue;
    return assign_params(target, fresh);
  });
}
}  // namespace

WS_API cudaError_t cudaGraphExecKernelNodeSetParams(void* exec, void* node, const KernelNodeParams* params) {
  return exec_set("cudaGraphExecKernelNodeSetParams", exec, node, NodeType::kKernel, [&](Runtime& rt, Node& n) {
    return params == nullptr ? kErrInvalidValue : make_kernel_call(rt, *params, &n.kernel);
  });
}

WS_API cudaError_t cudaGraphExecMemcpyNodeSetParams(void* exec, void* node, const Memcpy3DParms* params) {
  return exec_set("cudaGraphExecMemcpyNodeSetParams", exec, node, NodeType::kMemcpy, [&](Runtime& rt, Node& n) {
    if (params == nullptr) return kErrInvalidValue;
    n.copy = *params;
    return check_copy_params(rt, *params);
  });
}

WS_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(void* exec, void* node, void* dst, const void* src,
                                                      std::size_t count, int kind) {
  const Memcpy3DParms p = linear_copy(dst, src, count, kind);
  return cudaGraphExecMemcpyNodeSetParams(exec, node, &p);
}

WS_API cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(void* exec, void* node, const void* symbol,
                                                            const void* src, std::size_t count, std::size_t offset,
                                                            int kind) {
  return exec_set("cudaGraphExecMemcpyNodeSetParamsToSymbol", exec, node, NodeType::kMemcpy,
                  [&](Runtime& rt, Node& n) { return to_symbol(rt, symbol, src, count, offset, kind, &n.copy); });
}

WS_API cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(void* exec, void* node, void* dst, const void* symbol,
                                                              std::size_t count, std::size_t offset, int kind) {
  return exec_set("cudaGraphExecMemcpyNodeSetParamsFromSymbol", exec, node, NodeType::kMemcpy,
                  [&](Runtime& rt, Node& n) { return from_symbol(rt, dst, symbol, count, offset, kind, &n.copy); });
}

WS_API cudaError_t cudaGraphExecMemsetNodeSetParams(void* exec, void* node, const MemsetParams* params) {
  return exec_set("cudaGraphExecMemsetNodeSetParams", exec, node, NodeType::kMemset, [&](Runtime& rt, Node& n) {
    if (params == nullptr) return kErrInvalidValue;
    n.memset = *params;
    return check_memset_params(rt, *params);
  });
}

WS_API cudaError_t cudaGraphExecHostNodeSetParams(void* exec, void* node, const HostNodeParams* params) {
  return exec_set("cudaGraphExecHostNodeSetParams", exec, node, NodeType::kHost, [&](Runtime&, Node& n) {
    if (params == nullptr || params->fn == nullptr) return kErrInvalidValue;
    n.host = *params;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphExecEventRecordNodeSetEvent(void* exec, void* node, void* event) {
  return exec_set("cudaGraphExecEventRecordNodeSetEvent", exec, node, NodeType::kEventRecord, [&](Runtime& rt, Node& n) {
    n.event = event;
    return rt.events.count(static_cast<Event*>(event)) ? kSuccess : kErrInvalidResourceHandle;
  });
}

WS_API cudaError_t cudaGraphExecEventWaitNodeSetEvent(void* exec, void* node, void* event) {
  return exec_set("cudaGraphExecEventWaitNodeSetEvent", exec, node, NodeType::kWaitEvent, [&](Runtime& rt, Node& n) {
    n.event = event;
    return rt.events.count(static_cast<Event*>(event)) ? kSuccess : kErrInvalidResourceHandle;
  });
}

WS_API cudaError_t cudaGraphExecChildGraphNodeSetParams(void* exec, void* node, void* child) {
  return call("cudaGraphExecChildGraphNodeSetParams", [&](Runtime& rt) {
    Node* target = exec_node(exec, node);
    if (target == nullptr || target->type != NodeType::kGraph || !Graphs::get().valid(as_graph(child))) {
      return kErrInvalidValue;
    }
    GraphExecUpdateResultInfo info{};
    if (!same_topology(*target->child, *as_graph(child), &info)) return kErrInvalidValue;
    if (check_update(rt, *target->child, *as_graph(child), &info) != kSuccess) return kErrInvalidValue;
    apply_update(*target->child, *as_graph(child));
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphExecNodeSetParams(void* exec, void* node, GraphNodeParams* params) {
  if (params != nullptr && params->type == static_cast<int>(NodeType::kGraph)) {
    return cudaGraphExecChildGraphNodeSetParams(exec, node, params->graph.graph);
  }
  return call("cudaGraphExecNodeSetParams", [&](Runtime& rt) {
    Node* target = exec_node(exec, node);
    if (params == nullptr || target == nullptr || params->type != static_cast<int>(target->type)) {
      return kErrInvalidValue;
    }
    Node fresh;
    if (cudaError_t e = node_from_params(rt, *params, &fresh); e != kSuccess) return e;
    if (!update_allowed(rt, *target, fresh)) return kErrInvalidValue;
    return assign_params(target, fresh);
  });
}

WS_API cudaError_t cudaGraphNodeSetEnabled(void* exec, void* node, unsigned enabled) {
  return call("cudaGraphNodeSetEnabled", [&](Runtime&) {
    Node* target = exec_node(exec, node);
    if (target == nullptr) return kErrInvalidValue;
    if (target->type != NodeType::kKernel && target->type != NodeType::kMemcpy && target->type != NodeType::kMemset) {
      return kErrInvalidValue;  // only kernel, memcpy and memset nodes can be disabled
    }
    target->enabled = enabled != 0;
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphNodeGetEnabled(void* exec, void* node, unsigned* enabled) {
  return call("cudaGraphNodeGetEnabled", [&](Runtime&) {
    Node* target = exec_node(exec, node);
    if (target == nullptr || enabled == nullptr) return kErrInvalidValue;
    if (target->type != NodeType::kKernel && target->type != NodeType::kMemcpy && target->type != NodeType::kMemset) {
      return kErrInvalidValue;
    }
    *enabled = target->enabled ? 1 : 0;
    return kSuccess;
  });
}

// caveat: pairs the nodes of the two graphs by creation order (the same graph built or captured again)
WS_API cudaError_t cudaGraphExecUpdate(void* exec, void* graph, GraphExecUpdateResultInfo* info) {
  return call("cudaGraphExecUpdate", [&](Runtime& rt) {
    Graphs& gs = Graphs::get();
    GraphExecUpdateResultInfo local{};
    GraphExecUpdateResultInfo* out = info != nullptr ? info : &local;
    *out = {1, nullptr, nullptr};  // cudaGraphExecUpdateError
    if (!gs.valid(as_exec(exec)) || !gs.valid(as_graph(graph))) return kErrInvalidValue;
    GraphExec& x = *as_exec(exec);
    if (!same_topology(*x.graph, *as_graph(graph), out)) return kErrGraphExecUpdateFailure;
    if (cudaError_t e = check_update(rt, *x.graph, *as_graph(graph), out); e != kSuccess) return e;
    apply_update(*x.graph, *as_graph(graph));
    // Later cudaGraphExec*SetParams calls may name the nodes of the graph given here too.
    const Graph& g = *as_graph(graph);
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      x.from_original[g.nodes[i].get()] = {g.nodes[i]->serial, x.graph->nodes[i].get()};
    }
    *out = {0, nullptr, nullptr};
    return kSuccess;
  });
}

// caveat: nothing to upload: the graph runs from host memory
WS_API cudaError_t cudaGraphUpload(void* exec, void* stream) {
  return call("cudaGraphUpload", [&](Runtime& rt) {
    if (!Graphs::get().valid(as_exec(exec))) return kErrInvalidValue;
    return rt.check_stream(stream);  // nothing to upload: the graph's work runs from host memory
  });
}

// caveat: nothing to upload: the graph runs from host memory
WS_API cudaError_t cudaGraphUpload_ptsz(void* exec, void* stream) {
  return cudaGraphUpload(exec, const_cast<void*>(canonical_stream(stream, true)));
}

// caveat: runs the nodes one at a time in a topological order (creation order among ready nodes)
WS_API cudaError_t cudaGraphLaunch(void* exec, void* stream) {
  return call("cudaGraphLaunch", [&](Runtime& rt) {
    Graphs& gs = Graphs::get();
    if (!gs.valid(as_exec(exec))) return kErrInvalidValue;
    if (cudaError_t e = rt.check_stream(stream); e != kSuccess) return e;
    bool captured = false;
    if (cudaError_t e = capture_check(rt, stream, &captured); e != kSuccess) return e;
    if (captured) {  // launching a graph into a capture adds it as a child graph node
      auto nd = new_node(NodeType::kGraph);
      nd->child = gs.copy_graph(*as_exec(exec)->graph, true, nullptr);
      return capture_node(rt, stream, std::move(nd));
    }
    return run_graph(rt, as_exec(exec)->order, stream);
  });
}

// caveat: runs the nodes one at a time in a topological order (creation order among ready nodes)
WS_API cudaError_t cudaGraphLaunch_ptsz(void* exec, void* stream) {
  return cudaGraphLaunch(exec, const_cast<void*>(canonical_stream(stream, true)));
}

// ---- User objects ------------------------------------------------------------------------------

WS_API cudaError_t cudaUserObjectCreate(void** object, void* ptr, HostFn destroy, unsigned initial, unsigned flags) {
  return call("cudaUserObjectCreate", [&](Runtime&) {
    // flags must be cudaUserObjectNoDestructorSync (1), as CUDA requires.
    if (object == nullptr || destroy == nullptr || initial == 0 || flags != 1) return kErrInvalidValue;
    auto* o = new UserObject{ptr, destroy, initial};
    Graphs::get().user_objects.insert(o);
    *object = o;
    return kSuccess;
  });
}

WS_API cudaError_t cudaUserObjectRetain(void* object, unsigned count) {
  return call("cudaUserObjectRetain", [&](Runtime&) {
    auto* o = static_cast<UserObject*>(object);
    if (!Graphs::get().user_objects.count(o) || count == 0) return kErrInvalidValue;
    o->refs += count;
    return kSuccess;
  });
}

// caveat: the destructor runs at once, on the calling thread, when the last reference goes
WS_API cudaError_t cudaUserObjectRelease(void* object, unsigned count) {
  return call("cudaUserObjectRelease", [&](Runtime&) {
    auto* o = static_cast<UserObject*>(object);
    Graphs& gs = Graphs::get();
    if (!gs.user_objects.count(o) || count == 0) return kErrInvalidValue;
    // The destructor runs when the last reference goes (synchronously here: nothing is in flight).
    gs.release_user_object(o, count);
    return kSuccess;
  });
}

WS_API cudaError_t cudaGraphRetainUserObject(void* graph, void* object, unsigned count, unsigned flags) {
  return call("cudaGraphRetainUserObject", [&](Runtime&) {
    Graphs& gs = Graphs::get();
    auto* o = static_cast<UserObject*>(object);
    if (!gs.valid(as_graph(graph)) || !gs.user_objects.count(o) || count == 0 || flags > 1) return kErrInvalidValue;
    if (flags == 0) o->refs += count;  // cudaGraphUserObjectMove (1) takes over the caller's references
    as_graph(graph)->user_objects[o] += count;
    return kSuccess;
  });
}

// caveat: the destructor runs at once, on the calling thread, when the last reference goes
WS_API cudaError_t cudaGraphReleaseUserObject(void* graph, void* object, unsigned count) {
  return call("cudaGraphReleaseUserObject", [&](Runtime&) {
    Graphs& gs = Graphs::get();
    auto* o = static_cast<UserObject*>(object);
    if (!gs.valid(as_graph(graph)) || !gs.user_objects.count(o) || count == 0) return kErrInvalidValue;
    auto it = as_graph(graph)->user_objects.find(o);
    if (it == as_graph(graph)->user_objects.end() || it->second < count) return kErrInvalidValue;
    if ((it->second -= count) == 0) as_graph(graph)->user_objects.erase(it);
    gs.release_user_object(o, count);
    return kSuccess;
  });
}

// ---- Graph memory: no graph allocates device memory here (memory nodes are not supported). ---

// caveat: always 0: graph memory nodes are not supported, so graphs own no memory
WS_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void* value) {
  return call("cudaDeviceGetGraphMemAttribute", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    if (value == nullptr || attr < 0 || attr > 3) return kErrInvalidValue;
    *static_cast<unsigned long long*>(value) = 0;  // used/reserved, current/high: none
    return kSuccess;
  });
}

WS_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void* value) {
  return call("cudaDeviceSetGraphMemAttribute", [&](Runtime&) {
    if (device != 0) return kErrInvalidDevice;
    // Only the high watermarks (UsedMemHigh 1, ReservedMemHigh 3) can be set, and only to 0.
    if (value == nullptr || (attr != 1 && attr != 3) || *static_cast<unsigned long long*>(value) != 0) {
      return kErrInvalidValue;
    }
    return kSuccess;
  });
}

// caveat: nothing to trim: graphs own no memory
WS_API cudaError_t cudaDeviceGraphMemTrim(int device) {
  return call("cudaDeviceGraphMemTrim", [&](Runtime&) { return device == 0 ? kSuccess : kErrInvalidDevice; });
}
