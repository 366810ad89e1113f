// CUDA graphs: instantiation, update of instantiated graphs, launch, user objects and graph
// memory attributes (graph.hpp; docs/runtime.md "Graphs and stream capture").
#include <functional>

#include <fmt/format.h>

#include "runtime/cudart/api.hpp"
#include "runtime/cudart/graph.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {

Graph* as_graph(void* g) { return static_cast<Graph*>(g); }
Node* as_node(void* n) { return static_cast<Node*>(n); }
GraphExec* as_exec(void* e) { return static_cast<GraphExec*>(e); }

/// A node of `exec` that the program names by the node it was instantiated from.
Node* exec_node(void* exec, void* node) {
  Graphs& gs = Graphs::get();
  if (!gs.valid(as_exec(exec)) || !gs.valid(as_node(node))) return nullptr;
  const auto& m = as_exec(exec)->from_original;
  auto it = m.find(as_node(node));
  if (it == m.end() || it->second.first != as_node(node)->serial) return nullptr;
  return it->second.second;
}

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

}  // namespace

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

cudaError_t warpscope::cudart::exec_set_batch_mem_op_node(void* exec, void* node, const void* ops, unsigned count,
                                                          unsigned flags) {
  return exec_set("cuGraphExecBatchMemOpNodeSetParams", exec, node, NodeType::kBatchMemOp, [&](Runtime&, Node& n) {
    if ((count != 0 && ops == nullptr) || count > 256 || flags != 0) return kErrInvalidValue;
    const auto* words = static_cast<const std::array<std::uint64_t, 6>*>(ops);
    n.mem_ops.assign(words, words + count);
    n.mem_op_flags = flags;
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
    if (captured) {
      // The H100 with CUDA 13 refuses a graph launch into a capturing stream and invalidates the
      // capture (tests/hw/data/h100/runtime_gt/checks/capture_test.out); add the graph with
      // cudaGraphAddChildGraphNode instead.
      return capture_refuse(rt, stream, "cudaGraphLaunch on a capturing stream (add the graph as a child graph node "
                                        "with cudaGraphAddChildGraphNode instead)");
    }
    reset_conditions(rt, *as_exec(exec)->graph);
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
