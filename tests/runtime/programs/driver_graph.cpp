// Graphs and stream capture through the driver API (cuGraph*, cuStreamBeginCapture, ...), as a
// program linked with -lcuda uses them: nodes of every kind a program on one device builds, their
// parameters read back, edges, clones, instantiation, per-node and whole-graph updates, launches,
// and a captured stream. Expected values come from cuda.h's enums, the CUDA Driver API reference
// (return codes, counts, edges: "Specifying an existing dependency will return an error") and a
// CPU reference for the results (y = a * x + 1 with x[i] = i), never from warpscope.
// Usage: driver_graph KERNELS.ptx
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "expect_cu.h"

namespace {

constexpr int n = 1000;
constexpr unsigned kOne = 0x3f800000u;  // 1.0f

void count_call(void* p) { ++*static_cast<int*>(p); }

/// y[i] == a * i + 1 for every i.
bool result_is(const std::vector<float>& y, float a) {
  for (int i = 0; i < n; ++i)
    if (y[i] != a * static_cast<float>(i) + 1.0f) return false;
  return true;
}

CUgraphNodeType type_of(CUgraphNode node) {
  CUgraphNodeType t = CU_GRAPH_NODE_TYPE_EMPTY;
  cuGraphNodeGetType(node, &t);
  return t;
}

size_t node_count(CUgraph g) {
  size_t count = 0;
  cuGraphGetNodes(g, nullptr, &count);
  return count;
}

size_t root_count(CUgraph g) {
  size_t count = 0;
  cuGraphGetRootNodes(g, nullptr, &count);
  return count;
}

size_t edge_count(CUgraph g) {
  size_t count = 0;
  cuGraphGetEdges(g, nullptr, nullptr, nullptr, &count);
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: driver_graph KERNELS.ptx\n");
    return 2;
  }
  CUgraph g = nullptr;
  EXPECT_CU("create before cuInit", cuGraphCreate(&g, 0), CUDA_ERROR_NOT_INITIALIZED);
  EXPECT_CU("cuInit", cuInit(0), CUDA_SUCCESS);
  CUdevice dev = 0;
  cuDeviceGet(&dev, 0);
  CUcontext ctx = nullptr;
  EXPECT_CU("primary context", cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
  cuCtxSetCurrent(ctx);
  std::ifstream in(argv[1], std::ios::binary);
  const std::string ptx((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CUmodule mod = nullptr;
  EXPECT_CU("module", cuModuleLoadData(&mod, ptx.c_str()), CUDA_SUCCESS);
  CUfunction fn = nullptr;
  cuModuleGetFunction(&fn, mod, "scale_add");

  std::vector<float> x(n), y(n, -1.0f);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  CUdeviceptr dx = 0, dy = 0;
  cuMemAlloc(&dx, n * sizeof(float));
  cuMemAlloc(&dy, n * sizeof(float));
  CUstream s = nullptr;
  cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);

  // ---- A graph built node by node: x in, y = 1, y = a*x + y, y out, a host call; an empty node.
  EXPECT_CU("create flags must be 0", cuGraphCreate(&g, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("create", cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUDA_MEMCPY3D cin{};
  cin.srcMemoryType = CU_MEMORYTYPE_HOST;
  cin.srcHost = x.data();
  cin.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  cin.dstDevice = dx;
  cin.WidthInBytes = n * sizeof(float);
  cin.Height = 1;
  cin.Depth = 1;
  CUgraphNode copy_in = nullptr, set = nullptr, kern = nullptr, copy_out = nullptr, host = nullptr, empty = nullptr;
  EXPECT_CU("memcpy node", cuGraphAddMemcpyNode(&copy_in, g, nullptr, 0, &cin, ctx), CUDA_SUCCESS);
  CUDA_MEMSET_NODE_PARAMS ms{};
  ms.dst = dy;
  ms.value = kOne;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  EXPECT_CU("memset node", cuGraphAddMemsetNode(&set, g, nullptr, 0, &ms, ctx), CUDA_SUCCESS);
  float a = 2.0f;
  int nn = n;
  void* params[] = {&dy, &dx, &a, &nn};
  CUDA_KERNEL_NODE_PARAMS kp{};
  kp.gridDimX = (n + 127) / 128;
  kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = 128;
  kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = params;
  CUgraphNode both[] = {copy_in, set};
  EXPECT_CU("kernel node without a function", cuGraphAddKernelNode(&kern, g, both, 2, &kp), CUDA_ERROR_INVALID_VALUE);
  kp.func = fn;
  EXPECT_CU("kernel node", cuGraphAddKernelNode(&kern, g, both, 2, &kp), CUDA_SUCCESS);
  CUDA_MEMCPY3D cout{};
  cout.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  cout.srcDevice = dy;
  cout.dstMemoryType = CU_MEMORYTYPE_HOST;
  cout.dstHost = y.data();
  cout.WidthInBytes = n * sizeof(float);
  cout.Height = 1;
  cout.Depth = 1;
  EXPECT_CU("memcpy out node", cuGraphAddMemcpyNode(&copy_out, g, &kern, 1, &cout, ctx), CUDA_SUCCESS);
  int calls = 0;
  CUDA_HOST_NODE_PARAMS hp{count_call, &calls};
  EXPECT_CU("host node", cuGraphAddHostNode(&host, g, &copy_out, 1, &hp), CUDA_SUCCESS);
  EXPECT_CU("empty node", cuGraphAddEmptyNode(&empty, g, nullptr, 0), CUDA_SUCCESS);

  // Counts, types, edges.
  EXPECT("6 nodes", node_count(g) == 6);
  EXPECT("3 roots", root_count(g) == 3);
  EXPECT("4 edges", edge_count(g) == 4);
  EXPECT("types", type_of(copy_in) == CU_GRAPH_NODE_TYPE_MEMCPY && type_of(set) == CU_GRAPH_NODE_TYPE_MEMSET &&
                      type_of(kern) == CU_GRAPH_NODE_TYPE_KERNEL && type_of(host) == CU_GRAPH_NODE_TYPE_HOST &&
                      type_of(empty) == CU_GRAPH_NODE_TYPE_EMPTY);
  CUgraphNode got[4] = {};
  size_t count = 4;
  EXPECT_CU("dependencies", cuGraphNodeGetDependencies(kern, got, nullptr, &count), CUDA_SUCCESS);
  EXPECT("kernel after the copy and the memset",
         count == 2 && ((got[0] == copy_in && got[1] == set) || (got[0] == set && got[1] == copy_in)));
  count = 4;
  EXPECT_CU("dependents", cuGraphNodeGetDependentNodes(kern, got, nullptr, &count), CUDA_SUCCESS);
  EXPECT("copy out after the kernel", count == 1 && got[0] == copy_out);
  CUgraphNode from[4] = {}, to[4] = {};
  count = 4;
  EXPECT_CU("edges", cuGraphGetEdges(g, from, to, nullptr, &count), CUDA_SUCCESS);
  int kernel_edges = 0;
  for (size_t i = 0; i < count; ++i) kernel_edges += to[i] == kern;
  EXPECT("two edges into the kernel", count == 4 && kernel_edges == 2);
  EXPECT_CU("type of no node", cuGraphNodeGetType(nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("nodes of no graph", cuGraphGetNodes(nullptr, nullptr, &count), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("an existing dependency", cuGraphAddDependencies(g, &copy_in, &kern, nullptr, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("a missing dependency", cuGraphRemoveDependencies(g, &empty, &host, nullptr, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("remove an edge", cuGraphRemoveDependencies(g, &copy_out, &host, nullptr, 1), CUDA_SUCCESS);
  EXPECT("3 edges, 4 roots", edge_count(g) == 3 && root_count(g) == 4);
  EXPECT_CU("add it back", cuGraphAddDependencies(g, &copy_out, &host, nullptr, 1), CUDA_SUCCESS);
  EXPECT("4 edges, 3 roots again", edge_count(g) == 4 && root_count(g) == 3);

  // Parameters read back as given.
  CUDA_KERNEL_NODE_PARAMS kb{};
  EXPECT_CU("kernel params", cuGraphKernelNodeGetParams(kern, &kb), CUDA_SUCCESS);
  EXPECT("kernel params values", kb.func == fn && kb.gridDimX == 8 && kb.blockDimX == 128 && kb.sharedMemBytes == 0);
  CUDA_MEMCPY3D cb{};
  EXPECT_CU("memcpy params", cuGraphMemcpyNodeGetParams(copy_in, &cb), CUDA_SUCCESS);
  EXPECT("memcpy params values", cb.srcMemoryType == CU_MEMORYTYPE_HOST && cb.srcHost == x.data() &&
                                     cb.dstMemoryType == CU_MEMORYTYPE_DEVICE && cb.dstDevice == dx &&
                                     cb.WidthInBytes == n * sizeof(float) && cb.Height == 1 && cb.Depth == 1);
  CUDA_MEMSET_NODE_PARAMS mb{};
  EXPECT_CU("memset params", cuGraphMemsetNodeGetParams(set, &mb), CUDA_SUCCESS);
  EXPECT("memset params values", mb.dst == dy && mb.value == kOne && mb.elementSize == 4 && mb.width == n);
  CUDA_HOST_NODE_PARAMS hb{};
  EXPECT_CU("host params", cuGraphHostNodeGetParams(host, &hb), CUDA_SUCCESS);
  EXPECT("host params values", hb.fn == count_call && hb.userData == &calls);
  EXPECT_CU("kernel params of a memset node", cuGraphKernelNodeGetParams(set, &kb), CUDA_ERROR_INVALID_VALUE);

  // Instantiate and launch: nothing runs before the launch.
  CUgraphExec exec = nullptr;
  EXPECT_CU("instantiate", cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
  EXPECT("nothing ran", y[0] == -1.0f && calls == 0);
  EXPECT_CU("launch", cuGraphLaunch(exec, s), CUDA_SUCCESS);
  EXPECT_CU("sync", cuStreamSynchronize(s), CUDA_SUCCESS);
  EXPECT("launch result", result_is(y, 2.0f) && calls == 1);
  EXPECT_CU("launch again", cuGraphLaunch(exec, s), CUDA_SUCCESS);
  cuStreamSynchronize(s);
  EXPECT("host node ran twice", calls == 2);
  EXPECT_CU("launch of no graph", cuGraphLaunch(nullptr, s), CUDA_ERROR_INVALID_VALUE);

  // Per-node updates of the instantiated graph; a disabled node does not run.
  float a3 = 3.0f;
  void* params3[] = {&dy, &dx, &a3, &nn};
  CUDA_KERNEL_NODE_PARAMS kp3 = kp;
  kp3.kernelParams = params3;
  EXPECT_CU("exec kernel params", cuGraphExecKernelNodeSetParams(exec, kern, &kp3), CUDA_SUCCESS);
  // "Currently only kernel, memset and memcpy nodes are supported" (cuGraphNodeSetEnabled).
  EXPECT_CU("a host node cannot be disabled", cuGraphNodeSetEnabled(exec, host, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("disable the memset node", cuGraphNodeSetEnabled(exec, set, 0), CUDA_SUCCESS);
  unsigned enabled = 1;
  EXPECT_CU("enabled?", cuGraphNodeGetEnabled(exec, set, &enabled), CUDA_SUCCESS);
  EXPECT("disabled", enabled == 0);
  cuGraphLaunch(exec, s);
  cuStreamSynchronize(s);
  // y still holds 2i + 1 from the last launch: 3i + (2i + 1).
  EXPECT("updated kernel, no memset", result_is(y, 5.0f) && calls == 3);
  cuGraphNodeSetEnabled(exec, set, 1);
  cuGraphKernelNodeGetParams(kern, &kb);
  EXPECT("the graph's own node keeps its parameters", *static_cast<float*>(kb.kernelParams[2]) == 2.0f);

  // A clone; whole-graph update from it (same topology) and from a changed graph.
  CUgraph clone = nullptr;
  EXPECT_CU("clone", cuGraphClone(&clone, g), CUDA_SUCCESS);
  EXPECT("clone has 6 nodes and 4 edges", node_count(clone) == 6 && edge_count(clone) == 4);
  CUgraphNode ckern = nullptr;
  EXPECT_CU("find in clone", cuGraphNodeFindInClone(&ckern, kern, clone), CUDA_SUCCESS);
  EXPECT("found the kernel", ckern != nullptr && ckern != kern && type_of(ckern) == CU_GRAPH_NODE_TYPE_KERNEL);
  EXPECT_CU("find a node of another graph", cuGraphNodeFindInClone(&ckern, ckern, g), CUDA_ERROR_INVALID_VALUE);
  float a4 = 4.0f;
  void* params4[] = {&dy, &dx, &a4, &nn};
  CUDA_KERNEL_NODE_PARAMS kp4 = kp;
  kp4.kernelParams = params4;
  EXPECT_CU("clone kernel params", cuGraphKernelNodeSetParams(ckern, &kp4), CUDA_SUCCESS);
  CUgraphExecUpdateResultInfo info{};
  EXPECT_CU("update", cuGraphExecUpdate(exec, clone, &info), CUDA_SUCCESS);
  EXPECT("update result", info.result == CU_GRAPH_EXEC_UPDATE_SUCCESS);
  cuGraphLaunch(exec, s);
  cuStreamSynchronize(s);
  EXPECT("updated from the clone", result_is(y, 4.0f));
  EXPECT_CU("destroy a node", cuGraphDestroyNode(empty), CUDA_SUCCESS);
  EXPECT("5 nodes, 2 roots", node_count(g) == 5 && root_count(g) == 2);
  EXPECT_CU("update from another topology", cuGraphExecUpdate(exec, g, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
  EXPECT("topology changed", info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);

  // cuGraphAddNode with a CUkernel (func NULL) and a memset, from CUgraphNodeParams.
  CUlibrary lib = nullptr;
  cuLibraryLoadData(&lib, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  CUkernel ck = nullptr;
  cuLibraryGetKernel(&ck, lib, "scale_add");
  CUgraph g2 = nullptr;
  cuGraphCreate(&g2, 0);
  CUgraphNodeParams np{};
  np.type = CU_GRAPH_NODE_TYPE_MEMSET;
  np.memset.dst = dy;
  np.memset.value = kOne;
  np.memset.elementSize = 4;
  np.memset.width = n;
  np.memset.height = 1;
  CUgraphNode gset = nullptr, gkern = nullptr;
  EXPECT_CU("add memset node", cuGraphAddNode(&gset, g2, nullptr, nullptr, 0, &np), CUDA_SUCCESS);
  CUgraphNodeParams kn{};
  kn.type = CU_GRAPH_NODE_TYPE_KERNEL;
  kn.kernel.kern = ck;
  kn.kernel.gridDimX = 8;
  kn.kernel.gridDimY = kn.kernel.gridDimZ = 1;
  kn.kernel.blockDimX = 128;
  kn.kernel.blockDimY = kn.kernel.blockDimZ = 1;
  kn.kernel.kernelParams = params;
  EXPECT_CU("add kernel node (CUkernel)", cuGraphAddNode(&gkern, g2, &gset, nullptr, 1, &kn), CUDA_SUCCESS);
  EXPECT("generic node types", type_of(gset) == CU_GRAPH_NODE_TYPE_MEMSET && type_of(gkern) == CU_GRAPH_NODE_TYPE_KERNEL);
  CUgraphExec exec2 = nullptr;
  EXPECT_CU("instantiate with flags", cuGraphInstantiateWithFlags(&exec2, g2, 0), CUDA_SUCCESS);
  cuGraphLaunch(exec2, s);
  cuStreamSynchronize(s);
  cuMemcpyDtoH(y.data(), dy, n * sizeof(float));
  EXPECT("generic nodes result", result_is(y, 2.0f));

  // A child graph, a conditional handle, the DOT file.
  CUgraph parent = nullptr;
  cuGraphCreate(&parent, 0);
  CUgraphNode child = nullptr;
  EXPECT_CU("child graph node", cuGraphAddChildGraphNode(&child, parent, nullptr, 0, g2), CUDA_SUCCESS);
  CUgraph inner = nullptr;
  EXPECT_CU("child graph", cuGraphChildGraphNodeGetGraph(child, &inner), CUDA_SUCCESS);
  EXPECT("child holds a copy of 2 nodes", type_of(child) == CU_GRAPH_NODE_TYPE_GRAPH && inner != g2 &&
                                              node_count(inner) == 2);
  CUgraphConditionalHandle cond = 0;
  EXPECT_CU("conditional handle", cuGraphConditionalHandleCreate(&cond, parent, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT),
            CUDA_SUCCESS);
  EXPECT_CU("conditional handle of no graph", cuGraphConditionalHandleCreate(&cond, nullptr, ctx, 1, 0),
            CUDA_ERROR_INVALID_VALUE);
  const std::string dot = "/tmp/driver_graph_" + std::to_string(getpid()) + ".dot";
  EXPECT_CU("dot", cuGraphDebugDotPrint(g, dot.c_str(), 0), CUDA_SUCCESS);
  std::ifstream dot_in(dot);
  const std::string dot_text((std::istreambuf_iterator<char>(dot_in)), std::istreambuf_iterator<char>());
  EXPECT("dot file", dot_text.rfind("digraph", 0) == 0);
  std::remove(dot.c_str());

  // ---- Stream capture: the same work issued to a stream becomes a graph of 4 nodes in a chain.
  std::fill(y.begin(), y.end(), -1.0f);
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  EXPECT_CU("is capturing", cuStreamIsCapturing(s, &status), CUDA_SUCCESS);
  EXPECT("not capturing", status == CU_STREAM_CAPTURE_STATUS_NONE);
  EXPECT_CU("begin capture", cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
  cuStreamIsCapturing(s, &status);
  EXPECT("capturing", status == CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_CU("captured copy in", cuMemcpyHtoDAsync(dx, x.data(), n * sizeof(float), s), CUDA_SUCCESS);
  EXPECT_CU("captured memset", cuMemsetD32Async(dy, kOne, n, s), CUDA_SUCCESS);
  EXPECT_CU("captured launch", cuLaunchKernel(fn, 8, 1, 1, 128, 1, 1, 0, s, params, nullptr), CUDA_SUCCESS);
  EXPECT_CU("captured copy out", cuMemcpyDtoHAsync(y.data(), dy, n * sizeof(float), s), CUDA_SUCCESS);
  cuuint64_t id = 0;
  CUgraph cg = nullptr;
  const CUgraphNode* cdeps = nullptr;
  size_t ndeps = 0;
  EXPECT_CU("capture info", cuStreamGetCaptureInfo(s, &status, &id, &cg, &cdeps, nullptr, &ndeps), CUDA_SUCCESS);
  EXPECT("capture info values", status == CU_STREAM_CAPTURE_STATUS_ACTIVE && cg != nullptr && ndeps == 1 &&
                                    type_of(cdeps[0]) == CU_GRAPH_NODE_TYPE_MEMCPY);
  EXPECT("captured, not run", y[0] == -1.0f);
  CUgraph captured = nullptr;
  EXPECT_CU("end capture", cuStreamEndCapture(s, &captured), CUDA_SUCCESS);
  cuStreamIsCapturing(s, &status);
  EXPECT("capture ended", status == CU_STREAM_CAPTURE_STATUS_NONE);
  EXPECT("4 nodes, 3 edges, 1 root", node_count(captured) == 4 && edge_count(captured) == 3 && root_count(captured) == 1);
  CUgraphNode chain = nullptr;
  count = 1;
  cuGraphGetRootNodes(captured, &chain, &count);
  const CUgraphNodeType want_types[] = {CU_GRAPH_NODE_TYPE_MEMCPY, CU_GRAPH_NODE_TYPE_MEMSET, CU_GRAPH_NODE_TYPE_KERNEL,
                                        CU_GRAPH_NODE_TYPE_MEMCPY};
  bool chain_ok = true;
  for (int i = 0; i < 4; ++i) {
    chain_ok = chain_ok && chain != nullptr && type_of(chain) == want_types[i];
    CUgraphNode next = nullptr;
    count = 1;
    cuGraphNodeGetDependentNodes(chain, &next, nullptr, &count);
    chain = count == 1 ? next : nullptr;
  }
  EXPECT("copy, memset, kernel, copy", chain_ok);
  CUgraphExec exec3 = nullptr;
  EXPECT_CU("instantiate the capture", cuGraphInstantiate(&exec3, captured, 0), CUDA_SUCCESS);
  EXPECT_CU("launch the capture", cuGraphLaunch(exec3, s), CUDA_SUCCESS);
  cuStreamSynchronize(s);
  EXPECT("capture result", result_is(y, 2.0f));

  EXPECT_CU("exec destroy", cuGraphExecDestroy(exec), CUDA_SUCCESS);
  cuGraphExecDestroy(exec2);
  cuGraphExecDestroy(exec3);
  EXPECT_CU("graph destroy", cuGraphDestroy(g), CUDA_SUCCESS);
  for (CUgraph x_ : {clone, g2, parent, captured}) cuGraphDestroy(x_);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
