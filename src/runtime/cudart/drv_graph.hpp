// The driver API's graphs (drv_graph.cpp, drv_graph_exec.cpp): CUgraph, CUgraphNode, CUgraphExec
// and CUuserObject are the runtime's handles (graph.hpp), so a graph built with cudaGraph* calls
// can be edited, instantiated and launched with cuGraph* calls and the other way round. Each driver
// call goes through the runtime's entry point (api_graph*.cpp, api_capture.cpp); where the driver's
// structures differ from the runtime's, they are translated here:
//   CUDA_KERNEL_NODE_PARAMS_v2/_v3  cudaKernelNodeParams + a CUkernel (used when func is NULL) and a
//                                   context (one device, one state: ignored); _v1 is the runtime's
//   CUDA_MEMCPY3D                   memory types (host, device, unified) instead of a copy kind
//   CUDA_MEMSET_NODE_PARAMS_v2, CUDA_CONDITIONAL_NODE_PARAMS, CUDA_MEMCPY_NODE_PARAMS
//                                   the runtime's with a context (ignored)
//   CUgraphNodeParams               the union of those
// Every other structure (host, child graph, event, memory allocation and free nodes, instantiate
// parameters, update result, launch attributes) has the runtime's layout, and every enum
// (CUgraphNodeType, CUstreamCaptureStatus/Mode, CUgraphInstantiateResult, ...) the runtime's values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/cudart/drv.hpp"
#include "runtime/cudart/graph.hpp"

// The runtime's graph entry points the driver's calls go through (api_graph*.cpp, api_capture.cpp,
// api_attr.cpp, api_pool.cpp).
extern "C" {
using warpscope::cudart::cudaError_t;
using warpscope::cudart::GraphEdgeData;
using warpscope::cudart::GraphNodeParams;
using warpscope::cudart::HostFn;
using warpscope::cudart::HostNodeParams;
using warpscope::cudart::KernelNodeParams;
using warpscope::cudart::Memcpy3DParms;
using warpscope::cudart::MemsetParams;
cudaError_t cudaGraphCreate(void** graph, unsigned flags);
cudaError_t cudaGraphDestroy(void* graph);
cudaError_t cudaGraphAddKernelNode(void** node, void* graph, void* const* deps, std::size_t n,
                                   const KernelNodeParams* params);
cudaError_t cudaGraphKernelNodeGetParams(void* node, KernelNodeParams* params);
cudaError_t cudaGraphKernelNodeSetParams(void* node, const KernelNodeParams* params);
cudaError_t cudaGraphAddMemcpyNode(void** node, void* graph, void* const* deps, std::size_t n,
                                   const Memcpy3DParms* params);
cudaError_t cudaGraphMemcpyNodeGetParams(void* node, Memcpy3DParms* params);
cudaError_t cudaGraphMemcpyNodeSetParams(void* node, const Memcpy3DParms* params);
cudaError_t cudaGraphAddMemsetNode(void** node, void* graph, void* const* deps, std::size_t n,
                                   const MemsetParams* params);
cudaError_t cudaGraphMemsetNodeGetParams(void* node, MemsetParams* params);
cudaError_t cudaGraphMemsetNodeSetParams(void* node, const MemsetParams* params);
cudaError_t cudaGraphAddHostNode(void** node, void* graph, void* const* deps, std::size_t n,
                                 const HostNodeParams* params);
cudaError_t cudaGraphHostNodeGetParams(void* node, HostNodeParams* params);
cudaError_t cudaGraphHostNodeSetParams(void* node, const HostNodeParams* params);
cudaError_t cudaGraphAddChildGraphNode(void** node, void* graph, void* const* deps, std::size_t n, void* child);
cudaError_t cudaGraphChildGraphNodeGetGraph(void* node, void** graph);
cudaError_t cudaGraphAddEmptyNode(void** node, void* graph, void* const* deps, std::size_t n);
cudaError_t cudaGraphAddEventRecordNode(void** node, void* graph, void* const* deps, std::size_t n, void* event);
cudaError_t cudaGraphEventRecordNodeGetEvent(void* node, void** event);
cudaError_t cudaGraphEventRecordNodeSetEvent(void* node, void* event);
cudaError_t cudaGraphAddEventWaitNode(void** node, void* graph, void* const* deps, std::size_t n, void* event);
cudaError_t cudaGraphEventWaitNodeGetEvent(void* node, void** event);
cudaError_t cudaGraphEventWaitNodeSetEvent(void* node, void* event);
cudaError_t cudaGraphAddNode(void** node, void* graph, void* const* deps, const GraphEdgeData* data, std::size_t n,
                             GraphNodeParams* params);
cudaError_t cudaGraphNodeSetParams(void* node, GraphNodeParams* params);
cudaError_t cudaGraphNodeGetType(void* node, int* type);
cudaError_t cudaGraphDestroyNode(void* node);
cudaError_t cudaGraphGetNodes(void* graph, void** nodes, std::size_t* count);
cudaError_t cudaGraphGetRootNodes(void* graph, void** nodes, std::size_t* count);
cudaError_t cudaGraphGetEdges(void* graph, void** from, void** to, GraphEdgeData* data, std::size_t* count);
cudaError_t cudaGraphNodeGetDependencies(void* node, void** deps, GraphEdgeData* data, std::size_t* count);
cudaError_t cudaGraphNodeGetDependentNodes(void* node, void** deps, GraphEdgeData* data, std::size_t* count);
cudaError_t cudaGraphAddDependencies(void* graph, void* const* from, void* const* to, const GraphEdgeData* data,
                                     std::size_t n);
cudaError_t cudaGraphRemoveDependencies(void* graph, void* const* from, void* const* to, const GraphEdgeData* data,
                                        std::size_t n);
cudaError_t cudaGraphClone(void** clone, void* graph);
cudaError_t cudaGraphNodeFindInClone(void** node, void* original, void* clone);
cudaError_t cudaGraphDebugDotPrint(void* graph, const char* path, unsigned flags);
cudaError_t cudaGraphAddMemAllocNode(void** node, void* graph, void* const* deps, std::size_t n,
                                     warpscope::cudart::MemAllocNodeParams* params);
cudaError_t cudaGraphAddMemFreeNode(void** node, void* graph, void* const* deps, std::size_t n, void* dptr);
cudaError_t cudaGraphMemAllocNodeGetParams(void* node, warpscope::cudart::MemAllocNodeParams* out);
cudaError_t cudaGraphMemFreeNodeGetParams(void* node, void** dptr);
cudaError_t cudaGraphConditionalHandleCreate(std::uint64_t* handle, void* graph, unsigned default_value,
                                             unsigned flags);
cudaError_t cudaGraphKernelNodeSetAttribute(void* node, int id, const void* value);
cudaError_t cudaGraphKernelNodeGetAttribute(void* node, int id, void* value);
cudaError_t cudaGraphKernelNodeCopyAttributes(void* dst, void* src);
cudaError_t cudaGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long flags);
cudaError_t cudaGraphInstantiateWithParams(void** exec, void* graph,
                                           warpscope::cudart::GraphInstantiateParams* params);
cudaError_t cudaGraphExecGetFlags(void* exec, unsigned long long* flags);
cudaError_t cudaGraphExecDestroy(void* exec);
cudaError_t cudaGraphExecKernelNodeSetParams(void* exec, void* node, const KernelNodeParams* params);
cudaError_t cudaGraphExecMemcpyNodeSetParams(void* exec, void* node, const Memcpy3DParms* params);
cudaError_t cudaGraphExecMemsetNodeSetParams(void* exec, void* node, const MemsetParams* params);
cudaError_t cudaGraphExecHostNodeSetParams(void* exec, void* node, const HostNodeParams* params);
cudaError_t cudaGraphExecEventRecordNodeSetEvent(void* exec, void* node, void* event);
cudaError_t cudaGraphExecEventWaitNodeSetEvent(void* exec, void* node, void* event);
cudaError_t cudaGraphExecChildGraphNodeSetParams(void* exec, void* node, void* child);
cudaError_t cudaGraphExecNodeSetParams(void* exec, void* node, GraphNodeParams* params);
cudaError_t cudaGraphNodeSetEnabled(void* exec, void* node, unsigned enabled);
cudaError_t cudaGraphNodeGetEnabled(void* exec, void* node, unsigned* enabled);
cudaError_t cudaGraphExecUpdate(void* exec, void* graph, warpscope::cudart::GraphExecUpdateResultInfo* info);
cudaError_t cudaGraphUpload(void* exec, void* stream);
cudaError_t cudaGraphLaunch(void* exec, void* stream);
cudaError_t cudaUserObjectCreate(void** object, void* ptr, HostFn destroy, unsigned initial, unsigned flags);
cudaError_t cudaUserObjectRetain(void* object, unsigned count);
cudaError_t cudaUserObjectRelease(void* object, unsigned count);
cudaError_t cudaGraphRetainUserObject(void* graph, void* object, unsigned count, unsigned flags);
cudaError_t cudaGraphReleaseUserObject(void* graph, void* object, unsigned count);
cudaError_t cudaStreamBeginCapture(void* stream, int mode);
cudaError_t cudaStreamBeginCaptureToGraph(void* stream, void* graph, const void* const* deps, const GraphEdgeData* data,
                                          std::size_t n, int mode);
cudaError_t cudaStreamEndCapture(void* stream, void** graph);
cudaError_t cudaStreamIsCapturing(void* stream, int* status);
cudaError_t cudaStreamGetCaptureInfo(void* stream, int* status, unsigned long long* id, void** graph,
                                     const void* const** deps, const GraphEdgeData** data, std::size_t* n);
cudaError_t cudaStreamUpdateCaptureDependencies(void* stream, void** deps, const GraphEdgeData* data, std::size_t n,
                                                unsigned flags);
cudaError_t cudaThreadExchangeStreamCaptureMode(int* mode);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void* value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void* value);
cudaError_t cudaDeviceGraphMemTrim(int device);
}

namespace warpscope::cudart::drv {

/// CUDA_KERNEL_NODE_PARAMS_v2 and _v3 (v1 is `base` alone: cudaKernelNodeParams's layout).
struct CuKernelNodeParams {
  KernelNodeParams base;
  void* kern;  // CUkernel: used when base.func is NULL
  void* ctx;
};
static_assert(sizeof(CuKernelNodeParams) == 72);

/// CUDA_MEMCPY3D (CUmemorytype: 1 host, 2 device, 3 array, 4 unified).
struct CuMemcpy3D {
  std::size_t src_x, src_y, src_z, src_lod;
  int src_type;
  const void* src_host;
  std::uint64_t src_device;
  void* src_array;
  void* reserved0;
  std::size_t src_pitch, src_height;
  std::size_t dst_x, dst_y, dst_z, dst_lod;
  int dst_type;
  void* dst_host;
  std::uint64_t dst_device;
  void* dst_array;
  void* reserved1;
  std::size_t dst_pitch, dst_height;
  std::size_t width, height, depth;
};
static_assert(sizeof(CuMemcpy3D) == 200);

/// CUDA_MEMCPY_NODE_PARAMS.
struct CuMemcpyNodeParams {
  int flags;
  int reserved;
  void* copy_ctx;
  CuMemcpy3D copy;
};

/// CUDA_MEMSET_NODE_PARAMS_v2.
struct CuMemsetParams {
  MemsetParams base;
  void* ctx;
};

/// CUDA_CONDITIONAL_NODE_PARAMS.
struct CuConditionalParams {
  ConditionalNodeParams base;
  void* ctx;
};

/// CUgraphNodeParams (256 bytes).
struct CuGraphNodeParams {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    CuKernelNodeParams kernel;
    CuMemcpyNodeParams memcpy;
    CuMemsetParams memset;
    CuConditionalParams conditional;
    MemAllocNodeParams alloc;
  };
  long long reserved2;
};
static_assert(sizeof(CuGraphNodeParams) == 256);
static_assert(sizeof(GraphNodeParams) == sizeof(CuGraphNodeParams));

/// CUDA_MEMCPY3D as cudaMemcpy3DParms: CUDA_ERROR_INVALID_VALUE for an unknown memory type,
/// CUDA_ERROR_NOT_SUPPORTED (said once) for a CUDA array.
CUresult to_runtime(const CuMemcpy3D& c, Memcpy3DParms* p);
/// The other way: the memory types follow the copy's kind (cudaMemcpyDefault: unified).
CuMemcpy3D to_driver(const Memcpy3DParms& p);
/// CUgraphNodeParams as cudaGraphNodeParams (a kernel's CUkernel, a copy's memory types).
CUresult to_runtime(const CuGraphNodeParams& d, GraphNodeParams* r);

/// Runs a runtime entry point after the context check (drv.hpp's via_runtime).
template <typename F>
CUresult graph_call(F&& f) {
  if (CUresult e = need_context(); e != kCuSuccess) return e;
  return via_runtime(std::forward<F>(f));
}

}  // namespace warpscope::cudart::drv
