// The driver API's instantiated graphs (instantiate, per-node updates, whole-graph update, upload,
// launch), user objects and stream capture: the runtime's calls (api_graph_exec.cpp,
// api_capture.cpp) on the same handles (drv_graph.hpp). The _ptsz forms take the per-thread
// default stream for the NULL stream, as the runtime's do.
#include <cstdio>
#include <cstring>

#include "runtime/cudart/drv_graph.hpp"

namespace warpscope::cudart::drv {
namespace {

void* per_thread(void* stream) { return const_cast<void*>(canonical_stream(stream, true)); }

/// CUDA 11's cuGraphInstantiate(exec, graph, errNode, logBuffer, bufferSize): flags 0; on failure
/// the node to blame and a line of diagnostics in the log.
CUresult instantiate_v1(void** exec, void* graph, void** err_node, char* log, std::size_t size) {
  GraphInstantiateParams p{};
  const CUresult e = graph_call([&] { return cudaGraphInstantiateWithParams(exec, graph, &p); });
  if (err_node != nullptr) *err_node = p.errNode_out;
  if (log != nullptr && size > 0) {
    if (e == kCuSuccess) log[0] = '\0';
    else std::snprintf(log, size, "cuGraphInstantiate failed: CUresult %d, cudaGraphInstantiateResult %d", e, p.result_out);
  }
  return e;
}

CUresult exec_kernel(void* exec, void* node, const KernelNodeParams* p) {
  const CUresult e = graph_call([&] { return cudaGraphExecKernelNodeSetParams(exec, node, p); });
  return e == kCuInvalidHandle ? kCuInvalidValue : e;
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart;       // NOLINT: the C entry points below
using namespace warpscope::cudart::drv;  // NOLINT

// ---- Instantiation and launch -----------------------------------------------------------------------

// cuda.h's cuGraphInstantiate is cuGraphInstantiateWithFlags; the exported plain name and _v2 are
// CUDA 11's form with an error node and a log buffer.
WS_DRV CUresult cuGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long flags) {
  return graph_call([&] { return cudaGraphInstantiateWithFlags(exec, graph, flags); });
}
WS_DRV CUresult cuGraphInstantiate(void** exec, void* graph, void** err_node, char* log, std::size_t size) {
  return instantiate_v1(exec, graph, err_node, log, size);
}
WS_DRV CUresult cuGraphInstantiate_v2(void** exec, void* graph, void** err_node, char* log, std::size_t size) {
  return instantiate_v1(exec, graph, err_node, log, size);
}
// CUDA_GRAPH_INSTANTIATE_PARAMS is cudaGraphInstantiateParams (the upload stream is unused: every
// operation runs to completion when issued).
WS_DRV CUresult cuGraphInstantiateWithParams(void** exec, void* graph, GraphInstantiateParams* params) {
  return graph_call([&] { return cudaGraphInstantiateWithParams(exec, graph, params); });
}
WS_DRV CUresult cuGraphInstantiateWithParams_ptsz(void** exec, void* graph, GraphInstantiateParams* params) {
  return cuGraphInstantiateWithParams(exec, graph, params);
}
WS_DRV CUresult cuGraphExecGetFlags(void* exec, std::uint64_t* flags) {
  return graph_call([&] { return cudaGraphExecGetFlags(exec, reinterpret_cast<unsigned long long*>(flags)); });
}
WS_DRV CUresult cuGraphExecDestroy(void* exec) {
  return graph_call([&] { return cudaGraphExecDestroy(exec); });
}
WS_DRV CUresult cuGraphUpload(void* exec, void* stream) {
  return graph_call([&] { return cudaGraphUpload(exec, stream); });
}
WS_DRV CUresult cuGraphUpload_ptsz(void* exec, void* stream) { return cuGraphUpload(exec, per_thread(stream)); }
WS_DRV CUresult cuGraphLaunch(void* exec, void* stream) {
  return graph_call([&] { return cudaGraphLaunch(exec, stream); });
}
WS_DRV CUresult cuGraphLaunch_ptsz(void* exec, void* stream) { return cuGraphLaunch(exec, per_thread(stream)); }

// ---- Updates of an instantiated graph ---------------------------------------------------------------

WS_DRV CUresult cuGraphExecKernelNodeSetParams_v2(void* exec, void* node, const CuKernelNodeParams* params) {
  if (params == nullptr) return kCuInvalidValue;
  KernelNodeParams p = params->base;
  if (p.func == nullptr) p.func = params->kern;
  if (p.func == nullptr) return kCuInvalidValue;
  return exec_kernel(exec, node, &p);
}
WS_DRV CUresult cuGraphExecKernelNodeSetParams(void* exec, void* node, const KernelNodeParams* params) {
  if (params == nullptr || params->func == nullptr) return kCuInvalidValue;
  return exec_kernel(exec, node, params);
}
WS_DRV CUresult cuGraphExecMemcpyNodeSetParams(void* exec, void* node, const CuMemcpy3D* params, void*) {
  if (params == nullptr) return kCuInvalidValue;
  Memcpy3DParms p{};
  if (CUresult e = to_runtime(*params, &p); e != kCuSuccess) return e;
  return graph_call([&] { return cudaGraphExecMemcpyNodeSetParams(exec, node, &p); });
}
WS_DRV CUresult cuGraphExecMemsetNodeSetParams(void* exec, void* node, const MemsetParams* params, void*) {
  return graph_call([&] { return cudaGraphExecMemsetNodeSetParams(exec, node, params); });
}
WS_DRV CUresult cuGraphExecHostNodeSetParams(void* exec, void* node, const HostNodeParams* params) {
  return graph_call([&] { return cudaGraphExecHostNodeSetParams(exec, node, params); });
}
WS_DRV CUresult cuGraphExecEventRecordNodeSetEvent(void* exec, void* node, void* event) {
  return graph_call([&] { return cudaGraphExecEventRecordNodeSetEvent(exec, node, event); });
}
WS_DRV CUresult cuGraphExecEventWaitNodeSetEvent(void* exec, void* node, void* event) {
  return graph_call([&] { return cudaGraphExecEventWaitNodeSetEvent(exec, node, event); });
}
WS_DRV CUresult cuGraphExecChildGraphNodeSetParams(void* exec, void* node, void* child) {
  return graph_call([&] { return cudaGraphExecChildGraphNodeSetParams(exec, node, child); });
}
WS_DRV CUresult cuGraphExecNodeSetParams(void* exec, void* node, CuGraphNodeParams* params) {
  if (params == nullptr) return kCuInvalidValue;
  GraphNodeParams p{};
  if (CUresult e = to_runtime(*params, &p); e != kCuSuccess) return e;
  return graph_call([&] { return cudaGraphExecNodeSetParams(exec, node, &p); });
}
WS_DRV CUresult cuGraphNodeSetEnabled(void* exec, void* node, unsigned enabled) {
  return graph_call([&] { return cudaGraphNodeSetEnabled(exec, node, enabled); });
}
WS_DRV CUresult cuGraphNodeGetEnabled(void* exec, void* node, unsigned* enabled) {
  return graph_call([&] { return cudaGraphNodeGetEnabled(exec, node, enabled); });
}

// cuda.h's cuGraphExecUpdate is _v2 (CUgraphExecUpdateResultInfo, the runtime's layout); the plain
// name is CUDA 11's form with the node to blame and the result apart.
WS_DRV CUresult cuGraphExecUpdate_v2(void* exec, void* graph, GraphExecUpdateResultInfo* info) {
  return graph_call([&] { return cudaGraphExecUpdate(exec, graph, info); });
}
WS_DRV CUresult cuGraphExecUpdate(void* exec, void* graph, void** err_node, int* result) {
  GraphExecUpdateResultInfo info{};
  const CUresult e = cuGraphExecUpdate_v2(exec, graph, &info);
  if (err_node != nullptr) *err_node = info.errorNode;
  if (result != nullptr) *result = info.result;
  return e;
}

// ---- User objects ---------------------------------------------------------------------------------

WS_DRV CUresult cuUserObjectCreate(void** object, void* ptr, HostFn destroy, unsigned initial, unsigned flags) {
  return graph_call([&] { return cudaUserObjectCreate(object, ptr, destroy, initial, flags); });
}
WS_DRV CUresult cuUserObjectRetain(void* object, unsigned count) {
  return graph_call([&] { return cudaUserObjectRetain(object, count); });
}
WS_DRV CUresult cuUserObjectRelease(void* object, unsigned count) {
  return graph_call([&] { return cudaUserObjectRelease(object, count); });
}
WS_DRV CUresult cuGraphRetainUserObject(void* graph, void* object, unsigned count, unsigned flags) {
  return graph_call([&] { return cudaGraphRetainUserObject(graph, object, count, flags); });
}
WS_DRV CUresult cuGraphReleaseUserObject(void* graph, void* object, unsigned count) {
  return graph_call([&] { return cudaGraphReleaseUserObject(graph, object, count); });
}

// ---- Stream capture ---------------------------------------------------------------------------------

// cuda.h's cuStreamBeginCapture is _v2 (with a mode); the plain name is CUDA 10.0's form, which
// captures in CU_STREAM_CAPTURE_MODE_GLOBAL.
WS_DRV CUresult cuStreamBeginCapture_v2(void* stream, int mode) {
  return graph_call([&] { return cudaStreamBeginCapture(stream, mode); });
}
WS_DRV CUresult cuStreamBeginCapture(void* stream) { return cuStreamBeginCapture_v2(stream, kModeGlobal); }
WS_DRV CUresult cuStreamBeginCapture_v2_ptsz(void* stream, int mode) {
  return cuStreamBeginCapture_v2(per_thread(stream), mode);
}
WS_DRV CUresult cuStreamBeginCapture_ptsz(void* stream) { return cuStreamBeginCapture_v2(per_thread(stream), kModeGlobal); }
WS_DRV CUresult cuStreamBeginCaptureToGraph(void* stream, void* graph, const void* const* deps,
                                            const GraphEdgeData* data, std::size_t n, int mode) {
  return graph_call([&] { return cudaStreamBeginCaptureToGraph(stream, graph, deps, data, n, mode); });
}
WS_DRV CUresult cuStreamBeginCaptureToGraph_ptsz(void* stream, void* graph, const void* const* deps,
                                                 const GraphEdgeData* data, std::size_t n, int mode) {
  return cuStreamBeginCaptureToGraph(per_thread(stream), graph, deps, data, n, mode);
}
WS_DRV CUresult cuStreamEndCapture(void* stream, void** graph) {
  return graph_call([&] { return cudaStreamEndCapture(stream, graph); });
}
WS_DRV CUresult cuStreamEndCapture_ptsz(void* stream, void** graph) { return cuStreamEndCapture(per_thread(stream), graph); }
WS_DRV CUresult cuStreamIsCapturing(void* stream, int* status) {
  return graph_call([&] { return cudaStreamIsCapturing(stream, status); });
}
WS_DRV CUresult cuStreamIsCapturing_ptsz(void* stream, int* status) {
  return cuStreamIsCapturing(per_thread(stream), status);
}

// cuda.h's cuStreamGetCaptureInfo is _v3 (edge data); _v2 has none, the plain name (CUDA 11.0's)
// gives the status and the capture's id alone.
WS_DRV CUresult cuStreamGetCaptureInfo_v3(void* stream, int* status, std::uint64_t* id, void** graph,
                                          const void* const** deps, const GraphEdgeData** data, std::size_t* n) {
  return graph_call([&] {
    return cudaStreamGetCaptureInfo(stream, status, reinterpret_cast<unsigned long long*>(id), graph, deps, data, n);
  });
}
WS_DRV CUresult cuStreamGetCaptureInfo_v3_ptsz(void* stream, int* status, std::uint64_t* id, void** graph,
                                               const void* const** deps, const GraphEdgeData** data, std::size_t* n) {
  return cuStreamGetCaptureInfo_v3(per_thread(stream), status, id, graph, deps, data, n);
}
WS_DRV CUresult cuStreamGetCaptureInfo_v2(void* stream, int* status, std::uint64_t* id, void** graph,
                                          const void* const** deps, std::size_t* n) {
  return cuStreamGetCaptureInfo_v3(stream, status, id, graph, deps, nullptr, n);
}
WS_DRV CUresult cuStreamGetCaptureInfo_v2_ptsz(void* stream, int* status, std::uint64_t* id, void** graph,
                                               const void* const** deps, std::size_t* n) {
  return cuStreamGetCaptureInfo_v3(per_thread(stream), status, id, graph, deps, nullptr, n);
}
WS_DRV CUresult cuStreamGetCaptureInfo(void* stream, int* status, std::uint64_t* id) {
  return cuStreamGetCaptureInfo_v3(stream, status, id, nullptr, nullptr, nullptr, nullptr);
}
WS_DRV CUresult cuStreamGetCaptureInfo_ptsz(void* stream, int* status, std::uint64_t* id) {
  return cuStreamGetCaptureInfo_v3(per_thread(stream), status, id, nullptr, nullptr, nullptr, nullptr);
}

// cuda.h's cuStreamUpdateCaptureDependencies is _v2 (edge data); the plain name is CUDA 11.3's.
WS_DRV CUresult cuStreamUpdateCaptureDependencies_v2(void* stream, void** deps, const GraphEdgeData* data,
                                                     std::size_t n, unsigned flags) {
  return graph_call([&] { return cudaStreamUpdateCaptureDependencies(stream, deps, data, n, flags); });
}
WS_DRV CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(void* stream, void** deps, const GraphEdgeData* data,
                                                          std::size_t n, unsigned flags) {
  return cuStreamUpdateCaptureDependencies_v2(per_thread(stream), deps, data, n, flags);
}
WS_DRV CUresult cuStreamUpdateCaptureDependencies(void* stream, void** deps, std::size_t n, unsigned flags) {
  return cuStreamUpdateCaptureDependencies_v2(stream, deps, nullptr, n, flags);
}
WS_DRV CUresult cuStreamUpdateCaptureDependencies_ptsz(void* stream, void** deps, std::size_t n, unsigned flags) {
  return cuStreamUpdateCaptureDependencies_v2(per_thread(stream), deps, nullptr, n, flags);
}
WS_DRV CUresult cuThreadExchangeStreamCaptureMode(int* mode) {
  return graph_call([&] { return cudaThreadExchangeStreamCaptureMode(mode); });
}
