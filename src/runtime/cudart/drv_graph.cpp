// The driver API's graphs: building them (nodes, parameters, edges, queries, clone, DOT). Every
// call is the runtime's (api_graph.cpp, api_graph_mem.cpp, api_attr.cpp) on the same handles, with
// the driver's structures translated (drv_graph.hpp). Instantiation, launch, update and stream
// capture are in drv_graph_exec.cpp.
#include <cstring>

#include "runtime/cudart/drv_graph.hpp"

namespace warpscope::cudart::drv {

CUresult to_runtime(const CuMemcpy3D& c, Memcpy3DParms* p) {
  if (c.src_type == 3 || c.dst_type == 3) return not_supported("a graph memcpy node with a CUDA array");
  if (c.src_type < 1 || c.src_type > 4 || c.dst_type < 1 || c.dst_type > 4) return kCuInvalidValue;
  auto at = [](int type, const void* host, std::uint64_t device) {
    return type == 1 ? const_cast<void*>(host) : reinterpret_cast<void*>(device);
  };
  *p = Memcpy3DParms{};
  p->srcPos = Pos{c.src_x, c.src_y, c.src_z};
  p->srcPtr = PitchedPtr{at(c.src_type, c.src_host, c.src_device), c.src_pitch, c.src_pitch, c.src_height};
  p->dstPos = Pos{c.dst_x, c.dst_y, c.dst_z};
  p->dstPtr = PitchedPtr{at(c.dst_type, c.dst_host, c.dst_device), c.dst_pitch, c.dst_pitch, c.dst_height};
  p->extent = Extent{c.width, c.height, c.depth};
  const bool dev_src = c.src_type == 2, dev_dst = c.dst_type == 2;
  p->kind = c.src_type == 4 || c.dst_type == 4 ? kDefault
            : dev_src && dev_dst               ? kDeviceToDevice
            : dev_src                          ? kDeviceToHost
            : dev_dst                          ? kHostToDevice
                                               : kHostToHost;
  return kCuSuccess;
}

CuMemcpy3D to_driver(const Memcpy3DParms& p) {
  CuMemcpy3D c{};
  const bool src_dev = p.kind == kDeviceToHost || p.kind == kDeviceToDevice;
  const bool dst_dev = p.kind == kHostToDevice || p.kind == kDeviceToDevice;
  c.src_type = p.kind == kDefault ? 4 : src_dev ? 2 : 1;
  c.dst_type = p.kind == kDefault ? 4 : dst_dev ? 2 : 1;
  if (c.src_type == 1) c.src_host = p.srcPtr.ptr;
  else c.src_device = reinterpret_cast<std::uintptr_t>(p.srcPtr.ptr);
  if (c.dst_type == 1) c.dst_host = p.dstPtr.ptr;
  else c.dst_device = reinterpret_cast<std::uintptr_t>(p.dstPtr.ptr);
  c.src_x = p.srcPos.x;
  c.src_y = p.srcPos.y;
  c.src_z = p.srcPos.z;
  c.src_pitch = p.srcPtr.pitch;
  c.src_height = p.srcPtr.ysize;
  c.dst_x = p.dstPos.x;
  c.dst_y = p.dstPos.y;
  c.dst_z = p.dstPos.z;
  c.dst_pitch = p.dstPtr.pitch;
  c.dst_height = p.dstPtr.ysize;
  c.width = p.extent.width;
  c.height = p.extent.height;
  c.depth = p.extent.depth;
  return c;
}

CUresult to_runtime(const CuGraphNodeParams& d, GraphNodeParams* r) {
  // Every member but the kernel's and the copy's has the runtime's layout (contexts sit past it).
  std::memcpy(static_cast<void*>(r), &d, sizeof(GraphNodeParams));
  if (d.type == static_cast<int>(NodeType::kKernel)) {
    r->kernel = d.kernel.base;
    if (r->kernel.func == nullptr) r->kernel.func = d.kernel.kern;
    if (r->kernel.func == nullptr) return kCuInvalidValue;
  } else if (d.type == static_cast<int>(NodeType::kMemcpy)) {
    r->memcpy = MemcpyNodeParams{};
    r->memcpy.flags = d.memcpy.flags;
    return to_runtime(d.memcpy.copy, &r->memcpy.copyParams);
  }
  return kCuSuccess;
}

namespace {

/// A kernel node's function: a CUfunction, else the CUkernel (CUDA_ERROR_INVALID_VALUE for neither).
CUresult kernel_params(const CuKernelNodeParams* p, KernelNodeParams* out) {
  if (p == nullptr) return kCuInvalidValue;
  *out = p->base;
  if (out->func == nullptr) out->func = p->kern;
  return out->func == nullptr ? kCuInvalidValue : kCuSuccess;
}

/// The runtime's "not a kernel" (CUDA_ERROR_INVALID_HANDLE from from_runtime) is the invalid
/// value the driver's graph calls document.
CUresult kernel_result(CUresult e) { return e == kCuInvalidHandle ? kCuInvalidValue : e; }

CUresult kernel_get(void* node, KernelNodeParams* base) {
  return graph_call([&] { return cudaGraphKernelNodeGetParams(node, base); });
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Graphs and nodes -----------------------------------------------------------------------------

WS_DRV CUresult cuGraphCreate(void** graph, unsigned flags) {
  return graph_call([&] { return cudaGraphCreate(graph, flags); });
}
WS_DRV CUresult cuGraphDestroy(void* graph) {
  return graph_call([&] { return cudaGraphDestroy(graph); });
}

WS_DRV CUresult cuGraphAddKernelNode_v2(void** node, void* graph, void* const* deps, std::size_t n,
                                        const CuKernelNodeParams* params) {
  KernelNodeParams p{};
  if (CUresult e = kernel_params(params, &p); e != kCuSuccess) return e;
  return kernel_result(graph_call([&] { return cudaGraphAddKernelNode(node, graph, deps, n, &p); }));
}
WS_DRV CUresult cuGraphAddKernelNode(void** node, void* graph, void* const* deps, std::size_t n,
                                     const KernelNodeParams* params) {
  if (params == nullptr || params->func == nullptr) return kCuInvalidValue;
  return kernel_result(graph_call([&] { return cudaGraphAddKernelNode(node, graph, deps, n, params); }));
}
WS_DRV CUresult cuGraphKernelNodeGetParams_v2(void* node, CuKernelNodeParams* params) {
  if (params == nullptr) return kCuInvalidValue;
  KernelNodeParams p{};
  if (CUresult e = kernel_get(node, &p); e != kCuSuccess) return e;
  *params = CuKernelNodeParams{p, nullptr, primary_context()};
  return kCuSuccess;
}
WS_DRV CUresult cuGraphKernelNodeGetParams(void* node, KernelNodeParams* params) {
  if (params == nullptr) return kCuInvalidValue;
  return kernel_get(node, params);
}
WS_DRV CUresult cuGraphKernelNodeSetParams_v2(void* node, const CuKernelNodeParams* params) {
  KernelNodeParams p{};
  if (CUresult e = kernel_params(params, &p); e != kCuSuccess) return e;
  return kernel_result(graph_call([&] { return cudaGraphKernelNodeSetParams(node, &p); }));
}
WS_DRV CUresult cuGraphKernelNodeSetParams(void* node, const KernelNodeParams* params) {
  if (params == nullptr || params->func == nullptr) return kCuInvalidValue;
  return kernel_result(graph_call([&] { return cudaGraphKernelNodeSetParams(node, params); }));
}

WS_DRV CUresult cuGraphAddMemcpyNode(void** node, void* graph, void* const* deps, std::size_t n,
                                     const CuMemcpy3D* params, void*) {
  if (params == nullptr) return kCuInvalidValue;
  Memcpy3DParms p{};
  if (CUresult e = to_runtime(*params, &p); e != kCuSuccess) return e;
  return graph_call([&] { return cudaGraphAddMemcpyNode(node, graph, deps, n, &p); });
}
WS_DRV CUresult cuGraphMemcpyNodeGetParams(void* node, CuMemcpy3D* params) {
  if (params == nullptr) return kCuInvalidValue;
  Memcpy3DParms p{};
  if (CUresult e = graph_call([&] { return cudaGraphMemcpyNodeGetParams(node, &p); }); e != kCuSuccess) return e;
  *params = to_driver(p);
  return kCuSuccess;
}
WS_DRV CUresult cuGraphMemcpyNodeSetParams(void* node, const CuMemcpy3D* params) {
  if (params == nullptr) return kCuInvalidValue;
  Memcpy3DParms p{};
  if (CUresult e = to_runtime(*params, &p); e != kCuSuccess) return e;
  return graph_call([&] { return cudaGraphMemcpyNodeSetParams(node, &p); });
}

// CUDA_MEMSET_NODE_PARAMS is cudaMemsetParams (a CUdeviceptr for the pointer).
WS_DRV CUresult cuGraphAddMemsetNode(void** node, void* graph, void* const* deps, std::size_t n,
                                     const MemsetParams* params, void*) {
  return graph_call([&] { return cudaGraphAddMemsetNode(node, graph, deps, n, params); });
}
WS_DRV CUresult cuGraphMemsetNodeGetParams(void* node, MemsetParams* params) {
  return graph_call([&] { return cudaGraphMemsetNodeGetParams(node, params); });
}
WS_DRV CUresult cuGraphMemsetNodeSetParams(void* node, const MemsetParams* params) {
  return graph_call([&] { return cudaGraphMemsetNodeSetParams(node, params); });
}

WS_DRV CUresult cuGraphAddHostNode(void** node, void* graph, void* const* deps, std::size_t n,
                                   const HostNodeParams* params) {
  return graph_call([&] { return cudaGraphAddHostNode(node, graph, deps, n, params); });
}
WS_DRV CUresult cuGraphHostNodeGetParams(void* node, HostNodeParams* params) {
  return graph_call([&] { return cudaGraphHostNodeGetParams(node, params); });
}
WS_DRV CUresult cuGraphHostNodeSetParams(void* node, const HostNodeParams* params) {
  return graph_call([&] { return cudaGraphHostNodeSetParams(node, params); });
}

WS_DRV CUresult cuGraphAddChildGraphNode(void** node, void* graph, void* const* deps, std::size_t n, void* child) {
  return graph_call([&] { return cudaGraphAddChildGraphNode(node, graph, deps, n, child); });
}
WS_DRV CUresult cuGraphChildGraphNodeGetGraph(void* node, void** graph) {
  return graph_call([&] { return cudaGraphChildGraphNodeGetGraph(node, graph); });
}
WS_DRV CUresult cuGraphAddEmptyNode(void** node, void* graph, void* const* deps, std::size_t n) {
  return graph_call([&] { return cudaGraphAddEmptyNode(node, graph, deps, n); });
}

WS_DRV CUresult cuGraphAddEventRecordNode(void** node, void* graph, void* const* deps, std::size_t n, void* event) {
  return graph_call([&] { return cudaGraphAddEventRecordNode(node, graph, deps, n, event); });
}
WS_DRV CUresult cuGraphEventRecordNodeGetEvent(void* node, void** event) {
  return graph_call([&] { return cudaGraphEventRecordNodeGetEvent(node, event); });
}
WS_DRV CUresult cuGraphEventRecordNodeSetEvent(void* node, void* event) {
  return graph_call([&] { return cudaGraphEventRecordNodeSetEvent(node, event); });
}
WS_DRV CUresult cuGraphAddEventWaitNode(void** node, void* graph, void* const* deps, std::size_t n, void* event) {
  return graph_call([&] { return cudaGraphAddEventWaitNode(node, graph, deps, n, event); });
}
WS_DRV CUresult cuGraphEventWaitNodeGetEvent(void* node, void** event) {
  return graph_call([&] { return cudaGraphEventWaitNodeGetEvent(node, event); });
}
WS_DRV CUresult cuGraphEventWaitNodeSetEvent(void* node, void* event) {
  return graph_call([&] { return cudaGraphEventWaitNodeSetEvent(node, event); });
}

// CUDA_MEM_ALLOC_NODE_PARAMS is cudaMemAllocNodeParams (CUmemPoolProps is cudaMemPoolProps).
WS_DRV CUresult cuGraphAddMemAllocNode(void** node, void* graph, void* const* deps, std::size_t n,
                                       MemAllocNodeParams* params) {
  return graph_call([&] { return cudaGraphAddMemAllocNode(node, graph, deps, n, params); });
}
WS_DRV CUresult cuGraphMemAllocNodeGetParams(void* node, MemAllocNodeParams* params) {
  return graph_call([&] { return cudaGraphMemAllocNodeGetParams(node, params); });
}
WS_DRV CUresult cuGraphAddMemFreeNode(void** node, void* graph, void* const* deps, std::size_t n,
                                      std::uint64_t dptr) {
  return graph_call(
      [&] { return cudaGraphAddMemFreeNode(node, graph, deps, n, reinterpret_cast<void*>(dptr)); });
}
WS_DRV CUresult cuGraphMemFreeNodeGetParams(void* node, std::uint64_t* dptr) {
  return graph_call([&] { return cudaGraphMemFreeNodeGetParams(node, reinterpret_cast<void**>(dptr)); });
}
WS_DRV CUresult cuDeviceGetGraphMemAttribute(int device, int attr, void* value) {
  return graph_call([&] { return cudaDeviceGetGraphMemAttribute(device, attr, value); });
}
WS_DRV CUresult cuDeviceSetGraphMemAttribute(int device, int attr, void* value) {
  return graph_call([&] { return cudaDeviceSetGraphMemAttribute(device, attr, value); });
}
WS_DRV CUresult cuDeviceGraphMemTrim(int device) {
  return graph_call([&] { return cudaDeviceGraphMemTrim(device); });
}

WS_DRV CUresult cuGraphConditionalHandleCreate(std::uint64_t* handle, void* graph, void*, unsigned default_value,
                                               unsigned flags) {
  return graph_call([&] { return cudaGraphConditionalHandleCreate(handle, graph, default_value, flags); });
}

// cuGraphAddNode_v2 (cuda.h's cuGraphAddNode) takes edge data; the plain name is CUDA 12.2's form.
WS_DRV CUresult cuGraphAddNode_v2(void** node, void* graph, void* const* deps, const GraphEdgeData* data,
                                  std::size_t n, CuGraphNodeParams* params) {
  if (params == nullptr) return kCuInvalidValue;
  GraphNodeParams p{};
  if (CUresult e = to_runtime(*params, &p); e != kCuSuccess) return e;
  const CUresult e = graph_call([&] { return cudaGraphAddNode(node, graph, deps, data, n, &p); });
  if (e == kCuSuccess && params->type == static_cast<int>(NodeType::kMemAlloc)) params->alloc.dptr = p.alloc.dptr;
  return params->type == static_cast<int>(NodeType::kKernel) ? kernel_result(e) : e;
}
WS_DRV CUresult cuGraphAddNode(void** node, void* graph, void* const* deps, std::size_t n, CuGraphNodeParams* params) {
  return cuGraphAddNode_v2(node, graph, deps, nullptr, n, params);
}
WS_DRV CUresult cuGraphNodeSetParams(void* node, CuGraphNodeParams* params) {
  if (params == nullptr) return kCuInvalidValue;
  GraphNodeParams p{};
  if (CUresult e = to_runtime(*params, &p); e != kCuSuccess) return e;
  return graph_call([&] { return cudaGraphNodeSetParams(node, &p); });
}

WS_DRV CUresult cuGraphNodeGetType(void* node, int* type) {
  return graph_call([&] { return cudaGraphNodeGetType(node, type); });
}
WS_DRV CUresult cuGraphDestroyNode(void* node) {
  return graph_call([&] { return cudaGraphDestroyNode(node); });
}

// CUlaunchAttributeID and CUlaunchAttributeValue are cudaLaunchAttributeID and cudaLaunchAttributeValue.
WS_DRV CUresult cuGraphKernelNodeSetAttribute(void* node, int id, const void* value) {
  return graph_call([&] { return cudaGraphKernelNodeSetAttribute(node, id, value); });
}
WS_DRV CUresult cuGraphKernelNodeGetAttribute(void* node, int id, void* value) {
  return graph_call([&] { return cudaGraphKernelNodeGetAttribute(node, id, value); });
}
WS_DRV CUresult cuGraphKernelNodeCopyAttributes(void* dst, void* src) {
  return graph_call([&] { return cudaGraphKernelNodeCopyAttributes(dst, src); });
}

// ---- Queries and edges ------------------------------------------------------------------------------

WS_DRV CUresult cuGraphGetNodes(void* graph, void** nodes, std::size_t* count) {
  return graph_call([&] { return cudaGraphGetNodes(graph, nodes, count); });
}
WS_DRV CUresult cuGraphGetRootNodes(void* graph, void** nodes, std::size_t* count) {
  return graph_call([&] { return cudaGraphGetRootNodes(graph, nodes, count); });
}
// The _v2 forms (cuda.h's plain names) carry edge data; the plain names are CUDA 12.2's forms.
WS_DRV CUresult cuGraphGetEdges_v2(void* graph, void** from, void** to, GraphEdgeData* data, std::size_t* count) {
  return graph_call([&] { return cudaGraphGetEdges(graph, from, to, data, count); });
}
WS_DRV CUresult cuGraphGetEdges(void* graph, void** from, void** to, std::size_t* count) {
  return cuGraphGetEdges_v2(graph, from, to, nullptr, count);
}
WS_DRV CUresult cuGraphNodeGetDependencies_v2(void* node, void** deps, GraphEdgeData* data, std::size_t* count) {
  return graph_call([&] { return cudaGraphNodeGetDependencies(node, deps, data, count); });
}
WS_DRV CUresult cuGraphNodeGetDependencies(void* node, void** deps, std::size_t* count) {
  return cuGraphNodeGetDependencies_v2(node, deps, nullptr, count);
}
WS_DRV CUresult cuGraphNodeGetDependentNodes_v2(void* node, void** deps, GraphEdgeData* data, std::size_t* count) {
  return graph_call([&] { return cudaGraphNodeGetDependentNodes(node, deps, data, count); });
}
WS_DRV CUresult cuGraphNodeGetDependentNodes(void* node, void** deps, std::size_t* count) {
  return cuGraphNodeGetDependentNodes_v2(node, deps, nullptr, count);
}
WS_DRV CUresult cuGraphAddDependencies_v2(void* graph, void* const* from, void* const* to, const GraphEdgeData* data,
                                          std::size_t n) {
  return graph_call([&] { return cudaGraphAddDependencies(graph, from, to, data, n); });
}
WS_DRV CUresult cuGraphAddDependencies(void* graph, void* const* from, void* const* to, std::size_t n) {
  return cuGraphAddDependencies_v2(graph, from, to, nullptr, n);
}
WS_DRV CUresult cuGraphRemoveDependencies_v2(void* graph, void* const* from, void* const* to,
                                             const GraphEdgeData* data, std::size_t n) {
  return graph_call([&] { return cudaGraphRemoveDependencies(graph, from, to, data, n); });
}
WS_DRV CUresult cuGraphRemoveDependencies(void* graph, void* const* from, void* const* to, std::size_t n) {
  return cuGraphRemoveDependencies_v2(graph, from, to, nullptr, n);
}

WS_DRV CUresult cuGraphClone(void** clone, void* graph) {
  return graph_call([&] { return cudaGraphClone(clone, graph); });
}
WS_DRV CUresult cuGraphNodeFindInClone(void** node, void* original, void* clone) {
  return graph_call([&] { return cudaGraphNodeFindInClone(node, original, clone); });
}
WS_DRV CUresult cuGraphDebugDotPrint(void* graph, const char* path, unsigned flags) {
  return graph_call([&] { return cudaGraphDebugDotPrint(graph, path, flags); });
}

// ---- Batch memory operation nodes: cuStreamBatchMemOp_v2's operations, run when the node runs.

namespace {
/// CUDA_BATCH_MEM_OP_NODE_PARAMS (v1 and v2 alike).
struct BatchMemOpNodeParams {
  Context* ctx;
  unsigned count;
  void* ops;  // CUstreamBatchMemOpParams[count]
  unsigned flags;
};
static_assert(sizeof(BatchMemOpNodeParams) == 32);
}  // namespace

WS_DRV CUresult cuGraphAddBatchMemOpNode(void** node, void* graph, void* const* deps, std::size_t n,
                                         const BatchMemOpNodeParams* p) {
  if (p == nullptr) return kCuInvalidValue;
  return graph_call([&] { return add_batch_mem_op_node(node, graph, deps, n, p->ops, p->count, p->flags); });
}
// caveat: the context reads back as the calling thread's current one (one device, one state: a node's context is not kept)
WS_DRV CUresult cuGraphBatchMemOpNodeGetParams(void* node, BatchMemOpNodeParams* p) {
  if (p == nullptr) return kCuInvalidValue;
  const void* ops = nullptr;
  if (CUresult e = graph_call([&] { return batch_mem_op_node_params(node, &ops, &p->count, &p->flags); });
      e != kCuSuccess)
    return e;
  p->ops = const_cast<void*>(ops);  // the node's copy, as the H200 hands back
  p->ctx = current_context();
  return kCuSuccess;
}
WS_DRV CUresult cuGraphBatchMemOpNodeSetParams(void* node, const BatchMemOpNodeParams* p) {
  if (p == nullptr) return kCuInvalidValue;
  return graph_call([&] { return set_batch_mem_op_node(node, p->ops, p->count, p->flags); });
}
WS_DRV CUresult cuGraphExecBatchMemOpNodeSetParams(void* exec, void* node, const BatchMemOpNodeParams* p) {
  if (p == nullptr) return kCuInvalidValue;
  return graph_call([&] { return exec_set_batch_mem_op_node(exec, node, p->ops, p->count, p->flags); });
}
