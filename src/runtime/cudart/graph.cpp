// The graph model: nodes, edges, copies, topological order, instantiation and execution
// (graph.hpp).
#include "runtime/cudart/graph.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

namespace warpscope::cudart {
namespace {

constexpr std::uintptr_t kParamBufferPointer = 0x1;  // CU_LAUNCH_PARAM_BUFFER_POINTER
constexpr std::uintptr_t kParamBufferSize = 0x2;     // CU_LAUNCH_PARAM_BUFFER_SIZE
constexpr std::uintptr_t kParamEnd = 0x0;            // CU_LAUNCH_PARAM_END

std::size_t round_up(std::size_t v, std::size_t a) { return a == 0 ? v : (v + a - 1) / a * a; }

/// Copies a 3-D region between pitched pointers, one row at a time.
cudaError_t run_copy(Runtime& rt, const Memcpy3DParms& p) {
  if (p.srcArray != nullptr || p.dstArray != nullptr) {
    rt.note("memcpy node with a CUDA array: arrays are not supported in graphs by warpscope's runtime");
    return kErrNotSupported;
  }
  const Extent e = p.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return kSuccess;
  // A copy of whole contiguous rows is one copy.
  const bool contiguous = p.srcPtr.pitch == e.width && p.dstPtr.pitch == e.width &&
                          (e.depth == 1 || (p.srcPtr.ysize == e.height && p.dstPtr.ysize == e.height)) &&
                          p.srcPos.x == 0 && p.dstPos.x == 0;
  if (contiguous) {
    auto* dst = static_cast<char*>(p.dstPtr.ptr) + (p.dstPos.z * p.dstPtr.ysize + p.dstPos.y) * p.dstPtr.pitch;
    const auto* src =
        static_cast<const char*>(p.srcPtr.ptr) + (p.srcPos.z * p.srcPtr.ysize + p.srcPos.y) * p.srcPtr.pitch;
    return rt.copy(dst, src, e.width * e.height * e.depth, p.kind);
  }
  for (std::size_t z = 0; z < e.depth; ++z) {
    for (std::size_t y = 0; y < e.height; ++y) {
      auto* dst = static_cast<char*>(p.dstPtr.ptr) +
                  ((p.dstPos.z + z) * p.dstPtr.ysize + p.dstPos.y + y) * p.dstPtr.pitch + p.dstPos.x;
      const auto* src = static_cast<const char*>(p.srcPtr.ptr) +
                        ((p.srcPos.z + z) * p.srcPtr.ysize + p.srcPos.y + y) * p.srcPtr.pitch + p.srcPos.x;
      if (cudaError_t err = rt.copy(dst, src, e.width, p.kind); err != kSuccess) return err;
    }
  }
  return kSuccess;
}

/// Sets `height` rows of `width` elements of 1, 2 or 4 bytes to `value`.
cudaError_t run_memset(Runtime& rt, const MemsetParams& p) {
  if (p.width == 0 || p.height == 0) return kSuccess;
  const std::size_t row_bytes = p.width * p.elementSize;
  if (p.elementSize == 1) {
    for (std::size_t y = 0; y < p.height; ++y) {
      if (cudaError_t e = rt.set(static_cast<char*>(p.dst) + y * p.pitch, static_cast<int>(p.value & 0xff), row_bytes);
          e != kSuccess) {
        return e;
      }
    }
    return kSuccess;
  }
  std::vector<std::uint8_t> row(row_bytes);
  for (std::size_t i = 0; i < p.width; ++i) std::memcpy(row.data() + i * p.elementSize, &p.value, p.elementSize);
  for (std::size_t y = 0; y < p.height; ++y) {
    if (cudaError_t e = rt.copy(static_cast<char*>(p.dst) + y * p.pitch, row.data(), row_bytes, kDefault);
        e != kSuccess) {
      return e;
    }
  }
  return kSuccess;
}

}  // namespace

Memcpy3DParms linear_copy(void* dst, const void* src, std::size_t bytes, int kind) {
  return pitched_copy(dst, bytes, src, bytes, bytes, 1, kind);
}

Memcpy3DParms pitched_copy(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                           std::size_t height, int kind) {
  Memcpy3DParms p{};
  p.srcPtr = PitchedPtr{const_cast<void*>(src), spitch, width, height};
  p.dstPtr = PitchedPtr{dst, dpitch, width, height};
  p.extent = Extent{width, height, 1};
  p.kind = kind;
  return p;
}

const char* node_type_name(NodeType t) {
  switch (t) {
    case NodeType::kKernel: return "kernel";
    case NodeType::kMemcpy: return "memcpy";
    case NodeType::kMemset: return "memset";
    case NodeType::kHost: return "host";
    case NodeType::kGraph: return "graph";
    case NodeType::kEmpty: return "empty";
    case NodeType::kWaitEvent: return "event wait";
    case NodeType::kEventRecord: return "event record";
    case NodeType::kExtSemSignal: return "external semaphore signal";
    case NodeType::kExtSemWait: return "external semaphore wait";
    case NodeType::kMemAlloc: return "memory allocation";
    case NodeType::kMemFree: return "memory free";
    case NodeType::kBatchMemOp: return "batch memory operation";
    case NodeType::kConditional: return "conditional";
  }
  return "unknown";
}

KernelCall& KernelCall::operator=(const KernelCall& o) {
  if (this == &o) return *this;
  kernel = o.kernel;
  func = o.func;
  grid = o.grid;
  block = o.block;
  shared = o.shared;
  args = o.args;
  arg_ptrs.clear();
  for (auto& a : args) arg_ptrs.push_back(a.data());
  return *this;
}

Graphs& Graphs::get() {
  static Graphs* g = new Graphs();  // never destroyed: programs destroy graphs from atexit handlers
  return *g;
}

Graph* Graphs::new_graph() {
  auto* g = new Graph();
  graphs.insert(g);
  return g;
}

void Graphs::destroy_graph(Graph* g) {
  for (auto& n : g->nodes) {
    nodes.erase(n.get());
    if (n->child) {
      destroy_graph(n->child.release());
    }
    for (auto& b : n->bodies) destroy_graph(b.release());
  }
  for (auto& [obj, count] : g->user_objects) release_user_object(static_cast<UserObject*>(obj), count);
  g->user_objects.clear();
  graphs.erase(g);
  delete g;
}

Node* Graphs::add_node(Graph& g, std::unique_ptr<Node> n) {
  n->graph = &g;
  n->serial = next_serial++;
  if (n->child) n->child->owner = n.get();
  nodes[n.get()] = n->serial;
  g.nodes.push_back(std::move(n));
  return g.nodes.back().get();
}

void Graphs::destroy_node(Node* n) {
  Graph& g = *n->graph;
  for (Node* d : n->deps) {
    auto& out = d->dependents;
    out.erase(std::remove(out.begin(), out.end(), n), out.end());
  }
  for (Node* t : n->dependents) {
    for (std::size_t i = 0; i < t->deps.size();) {
      if (t->deps[i] == n) {
        t->deps.erase(t->deps.begin() + static_cast<std::ptrdiff_t>(i));
        t->dep_data.erase(t->dep_data.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }
  if (n->child) destroy_graph(n->child.release());
  for (auto& b : n->bodies) destroy_graph(b.release());
  nodes.erase(n);
  for (auto it = g.clone_of.begin(); it != g.clone_of.end();) {
    it = it->second == n ? g.clone_of.erase(it) : std::next(it);
  }
  g.nodes.erase(std::find_if(g.nodes.begin(), g.nodes.end(), [&](const auto& p) { return p.get() == n; }));
}

std::unique_ptr<Graph> Graphs::copy_graph(const Graph& src, bool registered, std::map<const Node*, Node*>* map) {
  auto g = std::make_unique<Graph>();
  std::map<const Node*, Node*> local;
  for (const auto& n : src.nodes) {
    auto c = std::make_unique<Node>();
    c->type = n->type;
    c->kernel = n->kernel;
    c->copy = n->copy;
    c->memset = n->memset;
    c->host = n->host;
    c->mem_ops = n->mem_ops;
    c->mem_op_flags = n->mem_op_flags;
    c->event = n->event;
    c->enabled = n->enabled;
    if (n->child) c->child = copy_graph(*n->child, registered, nullptr);
    copy_special(*this, *n, c.get(), registered);
    Node* added = nullptr;
    if (registered) {
      added = add_node(*g, std::move(c));
    } else {
      c->graph = g.get();
      c->serial = next_serial++;
      if (c->child) c->child->owner = c.get();
      g->nodes.push_back(std::move(c));
      added = g->nodes.back().get();
    }
    local[n.get()] = added;
  }
  for (const auto& n : src.nodes) {
    Node* to = local[n.get()];
    for (std::size_t i = 0; i < n->deps.size(); ++i) {
      Node* from = local[n->deps[i]];
      to->deps.push_back(from);
      to->dep_data.push_back(n->dep_data[i]);
      from->dependents.push_back(to);
    }
  }
  for (const auto& [obj, count] : src.user_objects) {
    auto* o = static_cast<UserObject*>(obj);
    o->refs += count;
    g->user_objects[obj] += count;
  }
  if (registered) graphs.insert(g.get());
  if (map != nullptr) *map = std::move(local);
  return g;
}

void Graphs::release_user_object(UserObject* o, unsigned count) {
  if (!user_objects.count(o)) return;
  o->refs = count >= o->refs ? 0 : o->refs - count;
  if (o->refs == 0) {
    user_objects.erase(o);
    if (o->destroy != nullptr) o->destroy(o->ptr);
    delete o;
  }
}

void Graphs::release_objects_of(Graph& g) {
  for (auto& n : g.nodes)
    if (n->child) release_objects_of(*n->child);
  for (auto& [obj, count] : g.user_objects) release_user_object(static_cast<UserObject*>(obj), count);
  g.user_objects.clear();
}

void Graphs::destroy_exec(GraphExec* e) {
  execs.erase(e);
  release_objects_of(*e->graph);
  delete e;
}

cudaError_t add_edge(Node* from, Node* to, const GraphEdgeData& data) {
  if (from == nullptr || to == nullptr || from == to || from->graph != to->graph) return kErrInvalidValue;
  if (std::find(to->deps.begin(), to->deps.end(), from) != to->deps.end()) return kErrInvalidValue;
  to->deps.push_back(from);
  to->dep_data.push_back(data);
  from->dependents.push_back(to);
  return kSuccess;
}

bool topological_order(const Graph& g, std::vector<Node*>* order) {
  order->clear();
  std::unordered_map<const Node*, std::size_t> waiting;
  for (const auto& n : g.nodes) waiting[n.get()] = n->deps.size();
  // Kahn's algorithm over creation order: among nodes whose dependencies have run, the earliest
  // created runs first, so a chain built in order runs in that order.
  std::vector<bool> done(g.nodes.size(), false);
  std::unordered_map<const Node*, std::size_t> index;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) index[g.nodes[i].get()] = i;
  std::set<std::size_t> ready;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i]->deps.empty()) ready.insert(i);
  while (!ready.empty()) {
    const std::size_t i = *ready.begin();
    ready.erase(ready.begin());
    Node* n = g.nodes[i].get();
    order->push_back(n);
    for (Node* t : n->dependents)
      if (--waiting[t] == 0) ready.insert(index[t]);
  }
  return order->size() == g.nodes.size();
}

cudaError_t make_kernel_call(Runtime& rt, const KernelNodeParams& p, KernelCall* out) {
  KernelRec* k = rt.find_kernel(p.func);
  if (k == nullptr) return kErrInvalidDeviceFunction;
  if (cudaError_t e = rt.ensure_loaded(*k->module); e != kSuccess) return e;
  KernelCall c;
  c.kernel = k;
  c.func = p.func;
  c.grid = p.gridDim;
  c.block = p.blockDim;
  c.shared = p.sharedMemBytes;
  if (p.kernelParams != nullptr && p.extra != nullptr) return kErrInvalidValue;
  if (p.kernelParams != nullptr) {
    for (std::size_t i = 0; i < k->params.size(); ++i) {
      if (p.kernelParams[i] == nullptr) return kErrInvalidValue;
      const auto* b = static_cast<const std::uint8_t*>(p.kernelParams[i]);
      c.args.emplace_back(b, b + k->params[i].size);
    }
  } else if (p.extra != nullptr) {
    // {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}:
    // the parameters packed at their natural alignment.
    const std::uint8_t* buf = nullptr;
    std::size_t size = 0;
    bool have_size = false;
    for (std::size_t i = 0; i < 16 && reinterpret_cast<std::uintptr_t>(p.extra[i]) != kParamEnd; i += 2) {
      const auto key = reinterpret_cast<std::uintptr_t>(p.extra[i]);
      if (key == kParamBufferPointer) {
        buf = static_cast<const std::uint8_t*>(p.extra[i + 1]);
      } else if (key == kParamBufferSize) {
        size = *static_cast<const std::size_t*>(p.extra[i + 1]);
        have_size = true;
      } else {
        return kErrInvalidValue;
      }
    }
    if (buf == nullptr || !have_size) return kErrInvalidValue;
    std::size_t at = 0;
    for (const ParamInfo& param : k->params) {
      at = round_up(at, param.align);
      if (at + param.size > size) return kErrInvalidValue;
      c.args.emplace_back(buf + at, buf + at + param.size);
      at += param.size;
    }
  } else if (!k->params.empty()) {
    return kErrInvalidValue;
  }
  *out = c;  // the copy assignment points arg_ptrs at out's own copies
  return kSuccess;
}

cudaError_t check_copy_params(Runtime& rt, const Memcpy3DParms& p) {
  if (p.kind < kHostToHost || p.kind > kDefault) return kErrInvalidMemcpyDirection;
  if ((p.srcArray != nullptr) == (p.srcPtr.ptr != nullptr) || (p.dstArray != nullptr) == (p.dstPtr.ptr != nullptr)) {
    return kErrInvalidValue;
  }
  if (p.srcArray != nullptr || p.dstArray != nullptr) {
    rt.note("memcpy node with a CUDA array: arrays are not supported in graphs by warpscope's runtime");
    return kErrNotSupported;
  }
  const Extent e = p.extent;
  if (e.height > 1 || e.depth > 1) {
    if (p.srcPtr.pitch < p.srcPos.x + e.width || p.dstPtr.pitch < p.dstPos.x + e.width) return kErrInvalidPitchValue;
  }
  if (e.depth > 1 && (p.srcPtr.ysize < p.srcPos.y + e.height || p.dstPtr.ysize < p.dstPos.y + e.height)) {
    return kErrInvalidValue;
  }
  return kSuccess;
}

cudaError_t check_memset_params(Runtime& rt, const MemsetParams& p) {
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return kErrInvalidValue;
  if (p.dst == nullptr) return kErrInvalidValue;
  if (p.height > 1 && p.pitch < p.width * p.elementSize) return kErrInvalidValue;
  if (rt.classify(p.dst, 1) == Runtime::Where::kHost) return kErrInvalidValue;
  return kSuccess;
}

namespace {
cudaError_t symbol_range(Runtime& rt, const void* symbol, std::size_t count, std::size_t offset, char** addr) {
  VarRec* v = rt.find_var(symbol);
  if (v == nullptr) return kErrInvalidSymbol;
  if (cudaError_t e = rt.ensure_loaded(*v->module); e != kSuccess) return e;
  const std::size_t size = rt.device().symbol_size(*v->module->module, v->name);
  if (offset > size || count > size - offset) return kErrInvalidValue;
  *addr = reinterpret_cast<char*>(rt.device().symbol_address(*v->module->module, v->name)) + offset;
  return kSuccess;
}
}  // namespace

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
      Graph* child = static_cast<Graph*>(p.graph.graph);
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
    case NodeType::kMemAlloc: return mem_alloc_node(rt, const_cast<GraphNodeParams&>(p).alloc, n);
    case NodeType::kMemFree: return mem_free_node(rt, p.free.dptr, n);
    case NodeType::kConditional: return conditional_node(rt, const_cast<GraphNodeParams&>(p).conditional, n);
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
    case NodeType::kBatchMemOp:
      n->mem_ops = fresh.mem_ops;
      n->mem_op_flags = fresh.mem_op_flags;
      break;
    case NodeType::kWaitEvent:
    case NodeType::kEventRecord: n->event = fresh.event; break;
    default: return kErrInvalidValue;
  }
  return kSuccess;
}

cudaError_t run_graph(Runtime& rt, const std::vector<Node*>& order, const void* stream) {
  for (Node* n : order) {
    if (!n->enabled) continue;
    cudaError_t e = kSuccess;
    switch (n->type) {
      case NodeType::kKernel: {
        const KernelCall& k = n->kernel;
        // A kernel of a driver module has no host stub: its record is its handle (find_kernel).
        const void* func = k.kernel->stub != nullptr ? k.kernel->stub : static_cast<const void*>(k.kernel);
        e = rt.launch(func, k.grid, k.block, const_cast<void**>(k.arg_ptrs.data()), k.shared, stream,
                      node_cooperative(*n), node_cluster(*n));
        break;
      }
      case NodeType::kMemcpy: e = run_copy(rt, n->copy); break;
      case NodeType::kMemset: e = run_memset(rt, n->memset); break;
      case NodeType::kHost: n->host.fn(n->host.userData); break;
      case NodeType::kBatchMemOp: e = run_batch_mem_ops(*n, stream); break;
      case NodeType::kGraph: {
        std::vector<Node*> inner;
        if (!topological_order(*n->child, &inner)) return kErrInvalidValue;
        e = run_graph(rt, inner, stream);
        break;
      }
      case NodeType::kEventRecord: {
        auto* ev = static_cast<Event*>(n->event);
        if (!rt.events.count(ev)) return kErrInvalidResourceHandle;
        ev->recorded = true;
        ev->when = std::chrono::steady_clock::now();
        ev->gpu_ns = rt.gpu_ns;
        forget_event(ev);
        break;
      }
      case NodeType::kWaitEvent:
        // Everything before the wait has already completed: nothing to wait for.
        if (!rt.events.count(static_cast<Event*>(n->event))) return kErrInvalidResourceHandle;
        break;
      case NodeType::kEmpty: break;
      case NodeType::kMemAlloc:
      case NodeType::kMemFree:
      case NodeType::kConditional: e = run_special(rt, n, stream); break;
      default:
        rt.note(fmt::format("graph node of type {} is not supported by warpscope's runtime", node_type_name(n->type)));
        return kErrNotSupported;
    }
    if (e != kSuccess) return e;
    if (rt.sticky != kSuccess) return rt.sticky;  // a kernel faulted: the rest does not run
  }
  return kSuccess;
}

cudaError_t instantiate(Runtime& rt, Graph& g, unsigned long long flags, GraphExec** out, Node** err_node) {
  (void)rt;
  *err_node = nullptr;
  // Every node kind here can run; a child graph must itself have an order.
  std::vector<Node*> order;
  if (!topological_order(g, &order)) return kErrInvalidValue;
  std::vector<const Graph*> pending{&g};
  while (!pending.empty()) {
    const Graph* cur = pending.back();
    pending.pop_back();
    std::vector<Node*> inner;
    if (cur != &g && !topological_order(*cur, &inner)) {
      *err_node = cur->owner;
      return kErrInvalidValue;
    }
    for (const auto& n : cur->nodes) {
      if (n->child) pending.push_back(n->child.get());
    }
  }
  Graphs& gs = Graphs::get();
  auto exec = std::make_unique<GraphExec>();
  std::map<const Node*, Node*> map;
  exec->graph = gs.copy_graph(g, false, &map);
  for (const auto& [orig, copy] : map) exec->from_original[orig] = {orig->serial, copy};
  topological_order(*exec->graph, &exec->order);
  exec->flags = flags;
  *out = exec.release();
  gs.execs.insert(*out);
  return kSuccess;
}

}  // namespace warpscope::cudart
