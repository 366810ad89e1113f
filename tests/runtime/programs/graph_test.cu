// CUDA graphs built by hand: every node kind, dependency order, queries, instantiate, update,
// clone, child graphs, user objects. Built by nvcc (-cudart shared) and run under warpscope's
// libcudart.so.13 by runtime_tests (graph_test.cpp); prints one "ok NAME" or "not ok NAME: ..."
// line per check, the expected values being CUDA's documented behaviour and plain arithmetic,
// so the program gives 0 failures on a GPU too.
#include <cstdio>
#include <cstring>

#include "expect.cuh"

__device__ int d_table[8];

// out[0] = in[0] * mul + add: one thread, so the order of dependent nodes decides the result.
__global__ void affine(const int* in, int* out, int mul, int add) { out[0] = in[0] * mul + add; }
__global__ void sum2(const int* a, const int* b, int* out) { out[0] = a[0] + b[0]; }
__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
__global__ void table_to(int* out) { out[threadIdx.x] = d_table[threadIdx.x] * 10; }

static void host_add(void* p) { *static_cast<int*>(p) += 1; }
static int destroyed = 0;
static void on_destroy(void* p) { destroyed += *static_cast<int*>(p); }

static cudaGraphNode_t kernel_node(cudaGraph_t g, const cudaGraphNode_t* deps, size_t n, void* func, void** args,
                                   unsigned blocks = 1, unsigned threads = 1) {
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3(blocks);
  p.blockDim = dim3(threads);
  p.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  cudaGraphAddKernelNode(&node, g, deps, n, &p);
  return node;
}

static int read_int(const int* d) {
  int v = -1;
  cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
  return v;
}

int main() {
  int* buf = nullptr;  // [0] x, [1] y, [2] z, [3] w
  cudaMalloc(&buf, 64 * sizeof(int));
  cudaMemset(buf, 0, 64 * sizeof(int));
  int *x = buf, *y = buf + 1, *z = buf + 2, *w = buf + 3;

  // ---- A diamond created in reverse order: D, C, B, A, then the edges A->B, A->C, B->D, C->D.
  cudaGraph_t g = nullptr;
  EXPECT_ERR("create", cudaGraphCreate(&g, 0), cudaSuccess);
  EXPECT_ERR("create_bad_flags", cudaGraphCreate(&g, 1), cudaErrorInvalidValue);
  cudaGetLastError();
  int two = 2, three = 3, zero = 0, one = 1, five = 5;
  void* args_d[] = {&y, &z, &w};
  void* args_c[] = {&x, &z, &one, &three};  // z = x + 3
  void* args_b[] = {&x, &y, &two, &zero};   // y = 2x
  cudaGraphNode_t d = kernel_node(g, nullptr, 0, (void*)sum2, args_d);
  cudaGraphNode_t c = kernel_node(g, nullptr, 0, (void*)affine, args_c);
  cudaGraphNode_t b = kernel_node(g, nullptr, 0, (void*)affine, args_b);
  cudaMemsetParams ms = {};
  ms.dst = x;
  ms.value = 5;  // x = 5 (element size 4)
  ms.elementSize = 4;
  ms.width = 1;
  ms.height = 1;
  cudaGraphNode_t a = nullptr;
  EXPECT_ERR("add_memset", cudaGraphAddMemsetNode(&a, g, nullptr, 0, &ms), cudaSuccess);
  cudaGraphNode_t from[] = {a, a, b, c}, to[] = {b, c, d, d};
  EXPECT_ERR("add_dependencies", cudaGraphAddDependencies(g, from, to, nullptr, 4), cudaSuccess);
  EXPECT_ERR("duplicate_edge", cudaGraphAddDependencies(g, from, to, nullptr, 1), cudaErrorInvalidValue);
  cudaGetLastError();

  size_t n = 0;
  EXPECT_ERR("get_nodes_count", cudaGraphGetNodes(g, nullptr, &n), cudaSuccess);
  EXPECT("four_nodes", n == 4);
  cudaGraphNode_t roots[4] = {};
  n = 4;
  EXPECT_ERR("get_roots", cudaGraphGetRootNodes(g, roots, &n), cudaSuccess);
  EXPECT("one_root_the_memset", n == 1 && roots[0] == a && roots[1] == nullptr);
  cudaGraphNode_t ef[8], et[8];
  n = 0;
  EXPECT_ERR("get_edges_count", cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n), cudaSuccess);
  EXPECT("four_edges", n == 4);
  n = 8;
  EXPECT_ERR("get_edges", cudaGraphGetEdges(g, ef, et, nullptr, &n), cudaSuccess);
  int into_d = 0;
  for (size_t i = 0; i < n; ++i) into_d += et[i] == d && (ef[i] == b || ef[i] == c);
  EXPECT("edges_into_d", n == 4 && into_d == 2);
  cudaGraphNode_t deps[4];
  n = 4;
  EXPECT_ERR("get_dependencies", cudaGraphNodeGetDependencies(d, deps, nullptr, &n), cudaSuccess);
  EXPECT("d_has_two_dependencies", n == 2);
  n = 0;
  EXPECT_ERR("get_dependents", cudaGraphNodeGetDependentNodes(a, nullptr, nullptr, &n), cudaSuccess);
  EXPECT("a_has_two_dependents", n == 2);
  cudaGraphNodeType type;
  EXPECT_ERR("node_type", cudaGraphNodeGetType(a, &type), cudaSuccess);
  EXPECT("node_type_memset", type == cudaGraphNodeTypeMemset);
  cudaKernelNodeParams kp = {};
  EXPECT_ERR("kernel_params", cudaGraphKernelNodeGetParams(b, &kp), cudaSuccess);
  EXPECT("kernel_params_values", kp.func == (void*)affine && kp.gridDim.x == 1 && kp.kernelParams != nullptr &&
                                     *static_cast<int*>(kp.kernelParams[2]) == 2);
  two = 1000;  // the node copied the arguments when it was added

  cudaGraphExec_t exec = nullptr;
  EXPECT_ERR("instantiate", cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  EXPECT_ERR("launch", cudaGraphLaunch(exec, 0), cudaSuccess);
  EXPECT_ERR("sync", cudaStreamSynchronize(0), cudaSuccess);
  // x = 5, y = 10, z = 8, w = 18: only the dependency order gives 18.
  EXPECT("diamond_order", read_int(x) == 5 && read_int(y) == 10 && read_int(z) == 8 && read_int(w) == 18);

  // ---- Exec updates: one kernel node's arguments, then a whole graph of the same shape.
  void* args_b2[] = {&x, &y, &three, &zero};  // y = 3x
  cudaKernelNodeParams nb = {};
  nb.func = (void*)affine;
  nb.gridDim = dim3(1);
  nb.blockDim = dim3(1);
  nb.kernelParams = args_b2;
  EXPECT_ERR("exec_kernel_set_params", cudaGraphExecKernelNodeSetParams(exec, b, &nb), cudaSuccess);
  cudaGraphLaunch(exec, 0);
  cudaStreamSynchronize(0);
  EXPECT("exec_set_params_took", read_int(w) == 23);  // 15 + 8
  EXPECT_ERR("graph_node_unchanged", cudaGraphKernelNodeGetParams(b, &kp), cudaSuccess);
  EXPECT("graph_keeps_old_params", *static_cast<int*>(kp.kernelParams[2]) == 2);

  cudaGraph_t g2 = nullptr;
  EXPECT_ERR("clone", cudaGraphClone(&g2, g), cudaSuccess);
  cudaGraphNode_t a2 = nullptr;
  EXPECT_ERR("find_in_clone", cudaGraphNodeFindInClone(&a2, a, g2), cudaSuccess);
  ms.value = 7;
  EXPECT_ERR("clone_memset_set", cudaGraphMemsetNodeSetParams(a2, &ms), cudaSuccess);
  cudaMemsetParams check = {};
  cudaGraphMemsetNodeGetParams(a, &check);
  EXPECT("original_untouched_by_clone", check.value == 5);
  cudaGraphExecUpdateResultInfo info = {};
  EXPECT_ERR("exec_update", cudaGraphExecUpdate(exec, g2, &info), cudaSuccess);
  EXPECT("exec_update_result", info.result == cudaGraphExecUpdateSuccess);
  cudaGraphLaunch(exec, 0);
  cudaStreamSynchronize(0);
  EXPECT("exec_update_took", read_int(w) == 24);  // x 7: y 14, z 10
  cudaGraphNode_t extra = nullptr;
  cudaGraphAddEmptyNode(&extra, g2, nullptr, 0);
  EXPECT_ERR("exec_update_topology", cudaGraphExecUpdate(exec, g2, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT("exec_update_topology_result", info.result == cudaGraphExecUpdateErrorTopologyChanged);
  cudaGetLastError();
  EXPECT_ERR("exec_destroy", cudaGraphExecDestroy(exec), cudaSuccess);

  // ---- Copies (3-D, 1-D, to and from a symbol), host, empty, event and child-graph nodes.
  cudaGraph_t h = nullptr;
  cudaGraphCreate(&h, 0);
  int *host_in = nullptr, *host_out = nullptr, *sym_back = nullptr;  // pinned host memory
  cudaMallocHost(&host_in, 8 * sizeof(int));
  cudaMallocHost(&host_out, 8 * sizeof(int));
  cudaMallocHost(&sym_back, 8 * sizeof(int));
  for (int i = 0; i < 8; ++i) {
    host_in[i] = i + 1;
    host_out[i] = sym_back[i] = -1;
  }
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(host_in, 8 * sizeof(int), 8, 1);
  cp.dstPtr = make_cudaPitchedPtr(buf + 8, 8 * sizeof(int), 8, 1);
  cp.extent = make_cudaExtent(8 * sizeof(int), 1, 1);
  cp.kind = cudaMemcpyHostToDevice;
  cudaGraphNode_t n_in = nullptr, n_sym = nullptr, n_tab = nullptr, n_out = nullptr, n_host = nullptr;
  EXPECT_ERR("add_memcpy_3d", cudaGraphAddMemcpyNode(&n_in, h, nullptr, 0, &cp), cudaSuccess);
  EXPECT_ERR("add_memcpy_to_symbol",
             cudaGraphAddMemcpyNodeToSymbol(&n_sym, h, &n_in, 1, d_table, buf + 8, 8 * sizeof(int), 0,
                                            cudaMemcpyDeviceToDevice),
             cudaSuccess);
  int* tab = buf + 16;
  void* args_t[] = {&tab};
  n_tab = kernel_node(h, &n_sym, 1, (void*)table_to, args_t, 1, 8);
  EXPECT_ERR("add_memcpy_1d",
             cudaGraphAddMemcpyNode1D(&n_out, h, &n_tab, 1, host_out, tab, 8 * sizeof(int), cudaMemcpyDefault),
             cudaSuccess);
  int counter = 0;
  cudaHostNodeParams hp = {host_add, &counter};
  EXPECT_ERR("add_host", cudaGraphAddHostNode(&n_host, h, &n_out, 1, &hp), cudaSuccess);
  cudaGraphNode_t n_from = nullptr;
  EXPECT_ERR("add_memcpy_from_symbol",
             cudaGraphAddMemcpyNodeFromSymbol(&n_from, h, &n_sym, 1, sym_back, d_table, 8 * sizeof(int), 0,
                                              cudaMemcpyDeviceToHost),
             cudaSuccess);
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaGraphNode_t n_rec = nullptr, n_wait = nullptr;
  EXPECT_ERR("add_event_record", cudaGraphAddEventRecordNode(&n_rec, h, &n_host, 1, ev), cudaSuccess);
  EXPECT_ERR("add_event_wait", cudaGraphAddEventWaitNode(&n_wait, h, &n_rec, 1, ev), cudaSuccess);
  cudaEvent_t got = nullptr;
  cudaGraphEventRecordNodeGetEvent(n_rec, &got);
  EXPECT("event_record_node_event", got == ev);

  // A child graph: fill 4 ints with 100.., then add 1 twice through the host node's counter.
  cudaGraph_t child = nullptr;
  cudaGraphCreate(&child, 0);
  int* cbuf = buf + 32;
  int hundred = 100, four = 4;
  void* args_f[] = {&cbuf, &hundred, &four};
  cudaGraphNode_t cf = kernel_node(child, nullptr, 0, (void*)fill, args_f, 1, 32);
  cudaGraphNode_t ch = nullptr;
  cudaGraphAddHostNode(&ch, child, &cf, 1, &hp);
  cudaGraphNode_t n_child = nullptr;
  EXPECT_ERR("add_child_graph", cudaGraphAddChildGraphNode(&n_child, h, &n_wait, 1, child), cudaSuccess);
  cudaGraph_t embedded = nullptr;
  EXPECT_ERR("child_get_graph", cudaGraphChildGraphNodeGetGraph(n_child, &embedded), cudaSuccess);
  EXPECT("child_is_a_clone", embedded != nullptr && embedded != child);
  EXPECT_ERR("child_graph_node_type", cudaGraphNodeGetType(n_child, &type), cudaSuccess);
  EXPECT("child_type_graph", type == cudaGraphNodeTypeGraph);

  cudaGraphExec_t hx = nullptr;
  EXPECT_ERR("instantiate_with_flags", cudaGraphInstantiateWithFlags(&hx, h, 0), cudaSuccess);
  cudaStream_t s;
  cudaStreamCreate(&s);
  EXPECT_ERR("launch_on_stream", cudaGraphLaunch(hx, s), cudaSuccess);
  cudaStreamSynchronize(s);
  bool copies_ok = true;
  for (int i = 0; i < 8; ++i) copies_ok = copies_ok && host_out[i] == (i + 1) * 10 && sym_back[i] == i + 1;
  EXPECT("copies_and_symbol", copies_ok);
  EXPECT("host_nodes_ran", counter == 2);
  int cres[4] = {};
  cudaMemcpy(cres, cbuf, sizeof cres, cudaMemcpyDeviceToHost);
  EXPECT("child_graph_ran", cres[0] == 100 && cres[3] == 103);
  EXPECT_ERR("event_recorded_by_graph", cudaEventQuery(ev), cudaSuccess);

  // Disabling a node in the instantiated graph: the 1-D copy no longer runs.
  EXPECT_ERR("node_set_enabled", cudaGraphNodeSetEnabled(hx, n_out, 0), cudaSuccess);
  unsigned enabled = 1;
  cudaGraphNodeGetEnabled(hx, n_out, &enabled);
  EXPECT("node_disabled", enabled == 0);
  for (int i = 0; i < 8; ++i) host_out[i] = -1;
  cudaGraphLaunch(hx, s);
  cudaStreamSynchronize(s);
  EXPECT("disabled_node_skipped", host_out[0] == -1 && counter == 4);
  EXPECT_ERR("host_node_cannot_be_disabled", cudaGraphNodeSetEnabled(hx, n_host, 0), cudaErrorInvalidValue);
  cudaGetLastError();

  // cudaGraphInstantiateWithParams and the generic cudaGraphAddNode.
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeMemset;
  np.memset.dst = buf + 40;
  np.memset.value = 0xabcd;
  np.memset.elementSize = 2;
  np.memset.width = 4;
  np.memset.height = 1;
  cudaGraph_t gen = nullptr;
  cudaGraphCreate(&gen, 0);
  cudaGraphNode_t gn = nullptr;
  EXPECT_ERR("add_node_generic", cudaGraphAddNode(&gn, gen, nullptr, nullptr, 0, &np), cudaSuccess);
  cudaGraphInstantiateParams ip = {};
  cudaGraphExec_t gx = nullptr;
  EXPECT_ERR("instantiate_with_params", cudaGraphInstantiateWithParams(&gx, gen, &ip), cudaSuccess);
  EXPECT("instantiate_result", ip.result_out == cudaGraphInstantiateSuccess);
  cudaGraphLaunch(gx, s);
  unsigned short halves[4] = {};
  cudaMemcpy(halves, buf + 40, sizeof halves, cudaMemcpyDeviceToHost);
  EXPECT("memset_2_byte_elements", halves[0] == 0xabcd && halves[3] == 0xabcd);

  // A cycle cannot be instantiated.
  cudaGraph_t cyc = nullptr;
  cudaGraphCreate(&cyc, 0);
  cudaGraphNode_t e1 = nullptr, e2 = nullptr;
  cudaGraphAddEmptyNode(&e1, cyc, nullptr, 0);
  cudaGraphAddEmptyNode(&e2, cyc, &e1, 1);
  cudaGraphAddDependencies(cyc, &e2, &e1, nullptr, 1);
  cudaGraphExec_t cx = nullptr;
  EXPECT("cycle_refused", cudaGraphInstantiate(&cx, cyc, 0) != cudaSuccess);
  cudaGetLastError();

  // User objects: the destructor runs once the last reference (the graph's) goes.
  int payload = 7;
  cudaUserObject_t obj;
  EXPECT_ERR("user_object_create", cudaUserObjectCreate(&obj, &payload, on_destroy, 1, cudaUserObjectNoDestructorSync),
             cudaSuccess);
  EXPECT_ERR("graph_retain_user_object", cudaGraphRetainUserObject(gen, obj, 1, cudaGraphUserObjectMove), cudaSuccess);
  EXPECT("not_destroyed_yet", destroyed == 0);
  cudaGraphExecDestroy(gx);
  EXPECT_ERR("destroy_generic", cudaGraphDestroy(gen), cudaSuccess);
  cudaDeviceSynchronize();
  EXPECT("user_object_destroyed", destroyed == 7);

  // Removing an edge and destroying a node.
  EXPECT_ERR("remove_dependencies", cudaGraphRemoveDependencies(cyc, &e2, &e1, nullptr, 1), cudaSuccess);
  EXPECT_ERR("instantiate_after_removal", cudaGraphInstantiate(&cx, cyc, 0), cudaSuccess);
  EXPECT_ERR("destroy_node", cudaGraphDestroyNode(e2), cudaSuccess);
  cudaGraphGetNodes(cyc, nullptr, &n);
  EXPECT("one_node_left", n == 1);

  cudaGraphExecDestroy(cx);
  cudaGraphExecDestroy(hx);
  cudaGraphDestroy(cyc);
  cudaGraphDestroy(child);
  cudaGraphDestroy(h);
  cudaGraphDestroy(g2);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  cudaEventDestroy(ev);
  cudaFreeHost(host_in);
  cudaFreeHost(host_out);
  cudaFreeHost(sym_back);
  cudaFree(buf);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
