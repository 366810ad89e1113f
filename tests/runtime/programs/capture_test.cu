// Stream capture: a capture forked into two more streams by events and joined back, captured
// copies, memsets and host functions, the capture queries, and the calls CUDA forbids during a
// capture. Run under warpscope by runtime_tests (graph_test.cpp); prints "ok NAME" or
// "not ok NAME: ..." per check (CUDA's documented behaviour: 0 failures on a GPU too).
#include <cstdio>
#include <vector>

#include "expect.cuh"

__global__ void scale(int* p, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= mul;
}
__global__ void add_arrays(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

static void host_count(void* p) { *static_cast<int*>(p) += 1; }

int main() {
  const int n = 256;
  int *a = nullptr, *b = nullptr, *out = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  int *host = nullptr, *result = nullptr;  // pinned: copies from pageable memory are not captured
  cudaMallocHost(&host, n * sizeof(int));
  cudaMallocHost(&result, n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    host[i] = i;
    result[i] = 0;
  }
  cudaStream_t s0, s1, s2;
  cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t fork, join1, join2;
  cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join1, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join2, cudaEventDisableTiming);
  int host_calls = 0;

  // ---- s0: copy in, fork to s1 (a *= 2) and s2 (b = a copied, b *= 3), join, out = a + b,
  // copy out, host function.
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  EXPECT_ERR("not_capturing", cudaStreamIsCapturing(s0, &status), cudaSuccess);
  EXPECT("status_none", status == cudaStreamCaptureStatusNone);
  EXPECT_ERR("begin", cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal), cudaSuccess);
  EXPECT_ERR("begin_twice", cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
  cudaGetLastError();
  cudaStreamIsCapturing(s0, &status);
  EXPECT("status_active", status == cudaStreamCaptureStatusActive);
  EXPECT_ERR("memcpy_async", cudaMemcpyAsync(a, host, n * sizeof(int), cudaMemcpyHostToDevice, s0), cudaSuccess);
  EXPECT_ERR("record_fork", cudaEventRecord(fork, s0), cudaSuccess);
  cudaStreamIsCapturing(s1, &status);
  EXPECT("s1_not_yet", status == cudaStreamCaptureStatusNone);
  EXPECT_ERR("wait_fork_s1", cudaStreamWaitEvent(s1, fork, 0), cudaSuccess);
  EXPECT_ERR("wait_fork_s2", cudaStreamWaitEvent(s2, fork, 0), cudaSuccess);
  // The origin stream works on while the forks do (as in the CUDA Programming Guide's example).
  EXPECT_ERR("memset_async", cudaMemsetAsync(out, 0xff, n * sizeof(int), s0), cudaSuccess);
  cudaStreamIsCapturing(s1, &status);
  EXPECT("s1_joined_the_capture", status == cudaStreamCaptureStatusActive);
  unsigned long long id0 = 0, id1 = 1;
  cudaStreamGetCaptureInfo(s0, &status, &id0);
  cudaStreamGetCaptureInfo(s1, &status, &id1);
  EXPECT("same_capture_id", id0 == id1);
  scale<<<(n + 127) / 128, 128, 0, s1>>>(a, n, 2);
  EXPECT_ERR("copy_on_s2", cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s2), cudaSuccess);
  scale<<<(n + 127) / 128, 128, 0, s2>>>(b, n, 3);
  EXPECT_ERR("launch_captured", cudaGetLastError(), cudaSuccess);
  const cudaGraphNode_t* deps = nullptr;
  size_t ndeps = 0;
  cudaGraph_t capturing_graph = nullptr;
  EXPECT_ERR("capture_info", cudaStreamGetCaptureInfo(s2, &status, &id1, &capturing_graph, &deps, nullptr, &ndeps),
             cudaSuccess);
  EXPECT("capture_info_deps", ndeps == 1 && capturing_graph != nullptr);
  cudaEventRecord(join1, s1);
  cudaEventRecord(join2, s2);
  cudaStreamWaitEvent(s0, join1, 0);
  cudaStreamWaitEvent(s0, join2, 0);
  add_arrays<<<(n + 127) / 128, 128, 0, s0>>>(a, b, out, n);
  cudaMemcpyAsync(result, out, n * sizeof(int), cudaMemcpyDeviceToHost, s0);
  EXPECT_ERR("host_func", cudaLaunchHostFunc(s0, host_count, &host_calls), cudaSuccess);
  EXPECT("nothing_ran_during_capture", host_calls == 0 && result[5] == 0);
  cudaGraph_t graph = nullptr;
  EXPECT_ERR("end", cudaStreamEndCapture(s0, &graph), cudaSuccess);
  EXPECT("graph_returned", graph != nullptr);
  cudaStreamIsCapturing(s1, &status);
  EXPECT("s1_left_the_capture", status == cudaStreamCaptureStatusNone);

  size_t count = 0;
  cudaGraphGetNodes(graph, nullptr, &count);
  EXPECT("eight_nodes", count == 8);  // copy, scale, copy, scale, memset, add, copy, host
  cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count);
  // copy->scale, copy->copy, copy->scale, copy->memset, memset->add, scale->add, scale->add,
  // add->copy, copy->host
  EXPECT("nine_edges", count == 9);
  cudaGraphGetRootNodes(graph, nullptr, &count);
  EXPECT("one_root", count == 1);
  std::vector<cudaGraphNode_t> nodes(8);
  count = 8;
  cudaGraphGetNodes(graph, nodes.data(), &count);
  int kernels = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(node, &t);
    kernels += t == cudaGraphNodeTypeKernel;
  }
  EXPECT("three_kernel_nodes", kernels == 3);

  cudaGraphExec_t exec = nullptr;
  EXPECT_ERR("instantiate", cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int run = 0; run < 2; ++run) {
    EXPECT_ERR("launch", cudaGraphLaunch(exec, s0), cudaSuccess);
    EXPECT_ERR("sync", cudaStreamSynchronize(s0), cudaSuccess);
  }
  bool right = true;
  for (int i = 0; i < n; ++i) right = right && result[i] == 2 * i + 6 * i;  // a = 2i, b = 3 * 2i
  EXPECT("fork_join_result", right);
  EXPECT("host_function_ran_twice", host_calls == 2);

  // ---- A graph launched into a capture: refused, and the capture is invalidated (measured on the
  // H100 with CUDA 13: tests/hw/data/h100/runtime_gt/checks/capture_test.out).
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  EXPECT_ERR("graph_launch_captured", cudaGraphLaunch(exec, s1), cudaErrorStreamCaptureUnsupported);
  cudaGraph_t outer = nullptr;
  EXPECT_ERR("end_outer", cudaStreamEndCapture(s1, &outer), cudaErrorStreamCaptureInvalidated);
  EXPECT("no_outer_graph", outer == nullptr);
  EXPECT("not_run_by_capture", host_calls == 2);
  cudaGetLastError();

  // ---- What a capture forbids.
  EXPECT_ERR("legacy_stream_cannot_capture", cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal),
             cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  scale<<<1, 32, 0, s0>>>(a, 32, 5);
  EXPECT_ERR("sync_capturing_stream", cudaStreamSynchronize(s0), cudaErrorStreamCaptureUnsupported);
  cudaStreamIsCapturing(s0, &status);
  EXPECT("invalidated", status == cudaStreamCaptureStatusInvalidated);
  EXPECT_ERR("launch_after_invalidation", cudaMemsetAsync(a, 0, 4, s0), cudaErrorStreamCaptureInvalidated);
  graph = reinterpret_cast<cudaGraph_t>(1);
  EXPECT_ERR("end_invalidated", cudaStreamEndCapture(s0, &graph), cudaErrorStreamCaptureInvalidated);
  EXPECT("no_graph", graph == nullptr);
  cudaGetLastError();

  void* p = nullptr;
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  EXPECT_ERR("malloc_in_global_capture", cudaMalloc(&p, 64), cudaErrorStreamCaptureUnsupported);
  EXPECT_ERR("end_after_malloc", cudaStreamEndCapture(s0, &graph), cudaErrorStreamCaptureInvalidated);
  cudaGetLastError();
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  EXPECT_ERR("exchange_mode", cudaThreadExchangeStreamCaptureMode(&mode), cudaSuccess);
  EXPECT("previous_mode_global", mode == cudaStreamCaptureModeGlobal);
  EXPECT_ERR("malloc_in_relaxed_thread", cudaMalloc(&p, 64), cudaSuccess);
  cudaThreadExchangeStreamCaptureMode(&mode);
  EXPECT_ERR("end_relaxed_ok", cudaStreamEndCapture(s0, &graph), cudaSuccess);
  cudaGraphDestroy(graph);
  cudaFree(p);
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeRelaxed);
  EXPECT_ERR("malloc_in_relaxed_capture", cudaMalloc(&p, 64), cudaSuccess);
  EXPECT_ERR("end_relaxed_capture", cudaStreamEndCapture(s0, &graph), cudaSuccess);
  cudaGraphDestroy(graph);
  cudaFree(p);

  // A fork that is never joined back.
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s0);
  cudaStreamWaitEvent(s1, fork, 0);
  scale<<<1, 32, 0, s1>>>(a, 32, 5);
  EXPECT_ERR("unjoined", cudaStreamEndCapture(s0, &graph), cudaErrorStreamCaptureUnjoined);
  cudaGetLastError();
  cudaStreamIsCapturing(s1, &status);
  EXPECT("unjoined_stream_released", status == cudaStreamCaptureStatusNone);
  EXPECT_ERR("end_not_capturing", cudaStreamEndCapture(s0, &graph), cudaErrorIllegalState);
  cudaGetLastError();

  // An event last recorded in a capture cannot be queried.
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(join1, s0);
  EXPECT_ERR("event_query_captured", cudaEventQuery(join1), cudaErrorCapturedEvent);
  cudaStreamEndCapture(s0, &graph);
  if (graph != nullptr) cudaGraphDestroy(graph);
  cudaGetLastError();

  cudaGraphExecDestroy(exec);
  cudaFreeHost(host);
  cudaFreeHost(result);
  cudaStreamDestroy(s0);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
