// Issue 29's runtime calls (docs/runtime.md "Memory pools and graph memory", "Conditional nodes",
// "Stream and kernel-node attributes", "Libraries"): memory pools, graph memory nodes from stream
// capture, conditional if and while nodes set by cudaGraphSetConditional, stream attributes,
// cudaLibrary*, cudaMalloc3D/cudaMemset3D, peer calls of a one-GPU system and refused interop.
// Expected values are the CUDA runtime API reference's meanings and CPU references.
#include <cstdint>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "expect.cuh"

__global__ void fill(int* p, int n, int v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
__global__ void countdown(cudaGraphConditionalHandle h, int* n, int* runs) {
  if (threadIdx.x == 0) {
    *runs += 1;
    cudaGraphSetConditional(h, --*n > 0);
  }
}
__global__ void set_cond(cudaGraphConditionalHandle h, const int* v) {
  if (threadIdx.x == 0) cudaGraphSetConditional(h, *v);
}
__global__ void put(int* out, int v) { *out = v; }

static const char kPtx[] = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .global .align 4 .u32 counter = 7;
.visible .entry add1(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [%rd2];
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

static cudaGraphNode_t add_kernel(cudaGraph_t g, const void* fn, void** args) {
  cudaKernelNodeParams k{};
  k.func = const_cast<void*>(fn);
  k.gridDim = dim3(1);
  k.blockDim = dim3(32);
  k.kernelParams = args;
  cudaGraphNode_t n = nullptr;
  cudaGraphAddKernelNode(&n, g, nullptr, 0, &k);
  return n;
}

static void pools() {
  cudaMemPool_t def = nullptr, cur = nullptr, mine = nullptr;
  EXPECT_ERR("default pool", cudaDeviceGetDefaultMemPool(&def, 0), cudaSuccess);
  EXPECT_ERR("default pool of device 1", cudaDeviceGetDefaultMemPool(&def, 1), cudaErrorInvalidDevice);
  EXPECT_ERR("current pool", cudaDeviceGetMemPool(&cur, 0), cudaSuccess);
  EXPECT("current pool is the default", cur == def);
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  EXPECT_ERR("pool create", cudaMemPoolCreate(&mine, &props), cudaSuccess);
  int reuse = -1;
  EXPECT_ERR("reuse flag", cudaMemPoolGetAttribute(mine, cudaMemPoolReuseFollowEventDependencies, &reuse), cudaSuccess);
  EXPECT("reuse follows event dependencies by default", reuse == 1);
  std::uint64_t v = 1;
  EXPECT_ERR("threshold", cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReleaseThreshold, &v), cudaSuccess);
  EXPECT("release threshold 0 by default", v == 0);
  void* p = nullptr;
  EXPECT_ERR("malloc from pool", cudaMallocFromPoolAsync(&p, 1000, mine, nullptr), cudaSuccess);
  std::uint64_t used = 0, reserved = 0;
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used);
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReservedMemCurrent, &reserved);
  EXPECT("used covers the allocation", used >= 1000);
  EXPECT("reserved covers the used", reserved >= used);
  fill<<<4, 256>>>(static_cast<int*>(p), 250, 3);
  int host[250];
  cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost);
  EXPECT("pool memory holds a kernel's stores", host[0] == 3 && host[249] == 252);
  std::uint64_t keep = ~0ull;  // keep everything freed
  EXPECT_ERR("set threshold", cudaMemPoolSetAttribute(mine, cudaMemPoolAttrReleaseThreshold, &keep), cudaSuccess);
  EXPECT_ERR("free async", cudaFreeAsync(p, nullptr), cudaSuccess);
  cudaStreamSynchronize(nullptr);
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used);
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReservedMemCurrent, &reserved);
  EXPECT("nothing used after the free", used == 0);
  EXPECT("freed memory kept under the threshold", reserved > 0);
  EXPECT_ERR("trim", cudaMemPoolTrimTo(mine, 0), cudaSuccess);
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReservedMemCurrent, &reserved);
  EXPECT("trim to 0 gives back all unused memory", reserved == 0);
  std::uint64_t high = 0;
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemHigh, &high);
  EXPECT("used high watermark", high >= 1000);
  std::uint64_t one = 1, zero = 0;
  EXPECT_ERR("high watermark set to non-zero", cudaMemPoolSetAttribute(mine, cudaMemPoolAttrUsedMemHigh, &one),
             cudaErrorInvalidValue);
  EXPECT_ERR("high watermark reset", cudaMemPoolSetAttribute(mine, cudaMemPoolAttrUsedMemHigh, &zero), cudaSuccess);
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemHigh, &high);
  EXPECT("high watermark reset to the current", high == 0);
  cudaMemAccessDesc d{};
  d.location.type = cudaMemLocationTypeDevice;
  d.location.id = 0;
  d.flags = cudaMemAccessFlagsProtReadWrite;
  EXPECT_ERR("set access", cudaMemPoolSetAccess(mine, &d, 1), cudaSuccess);
  cudaMemAccessFlags f = cudaMemAccessFlagsProtNone;
  cudaMemLocation loc = d.location;
  EXPECT_ERR("get access", cudaMemPoolGetAccess(&f, mine, &loc), cudaSuccess);
  EXPECT("own device reads and writes", f == cudaMemAccessFlagsProtReadWrite);
  EXPECT_ERR("set device pool", cudaDeviceSetMemPool(0, mine), cudaSuccess);
  void* q = nullptr;
  EXPECT_ERR("malloc async from the device's pool", cudaMallocAsync(&q, 64, nullptr), cudaSuccess);
  cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used);
  EXPECT("cudaMallocAsync takes the current pool", used >= 64);
  cudaFreeAsync(q, nullptr);
  EXPECT_ERR("destroy the default pool", cudaMemPoolDestroy(def), cudaErrorInvalidValue);
  EXPECT_ERR("destroy", cudaMemPoolDestroy(mine), cudaSuccess);
  cudaDeviceGetMemPool(&cur, 0);
  EXPECT("the default pool again", cur == def);
}

static void graph_memory() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t g = nullptr;
  int* p = nullptr;
  std::vector<int> host(1000, 0);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  EXPECT_ERR("malloc async captured", cudaMallocAsync(reinterpret_cast<void**>(&p), 4000, s), cudaSuccess);
  fill<<<4, 256, 0, s>>>(p, 1000, 10);
  cudaMemcpyAsync(host.data(), p, 4000, cudaMemcpyDeviceToHost, s);
  EXPECT_ERR("free async captured", cudaFreeAsync(p, s), cudaSuccess);
  EXPECT_ERR("end capture", cudaStreamEndCapture(s, &g), cudaSuccess);
  std::size_t n = 0;
  cudaGraphGetNodes(g, nullptr, &n);
  EXPECT("alloc, kernel, copy, free", n == 4);
  std::vector<cudaGraphNode_t> nodes(n);
  cudaGraphGetNodes(g, nodes.data(), &n);
  cudaGraphNodeType t0, t3;
  cudaGraphNodeGetType(nodes[0], &t0);
  cudaGraphNodeGetType(nodes[3], &t3);
  EXPECT("first a memory allocation node", t0 == cudaGraphNodeTypeMemAlloc);
  EXPECT("last a memory free node", t3 == cudaGraphNodeTypeMemFree);
  cudaMemAllocNodeParams ap{};
  EXPECT_ERR("alloc node params", cudaGraphMemAllocNodeGetParams(nodes[0], &ap), cudaSuccess);
  EXPECT("alloc node's size and address", ap.bytesize == 4000 && ap.dptr == p);
  void* freed = nullptr;
  EXPECT_ERR("free node params", cudaGraphMemFreeNodeGetParams(nodes[3], &freed), cudaSuccess);
  EXPECT("free node's address", freed == p);
  cudaGraphExec_t e = nullptr;
  EXPECT_ERR("instantiate", cudaGraphInstantiate(&e, g, 0), cudaSuccess);
  EXPECT_ERR("launch", cudaGraphLaunch(e, s), cudaSuccess);
  cudaStreamSynchronize(s);
  EXPECT("the graph's allocation held the kernel's stores", host[0] == 10 && host[999] == 1009);
  std::uint64_t used = 1, reserved = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved);
  // The H200 answers a non-zero UsedMemCurrent here (tests/hw/data/h200/issue29/runtime_calls.txt;
  // the value is printed for the next capture); warpscope answers 0 (docs/runtime.md).
  std::printf("graph memory used after the in-graph free: %llu\n", static_cast<unsigned long long>(used));
  EXPECT("reserved after the launch", reserved >= 4000);
  EXPECT_ERR("trim graph memory", cudaDeviceGraphMemTrim(0), cudaSuccess);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved);
  EXPECT("trimmed", reserved == 0);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

static void conditionals() {
  int *n = nullptr, *runs = nullptr, *v = nullptr, *out = nullptr;
  cudaMallocManaged(&n, 4);
  cudaMallocManaged(&runs, 4);
  cudaMallocManaged(&v, 4);
  cudaMallocManaged(&out, 4);
  // while: the body runs while its kernel leaves the counter above 0.
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  EXPECT_ERR("handle", cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault), cudaSuccess);
  cudaGraphNodeParams cp{};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t wnode;
  EXPECT_ERR("while node", cudaGraphAddNode(&wnode, g, nullptr, nullptr, 0, &cp), cudaSuccess);
  void* args[] = {&h, &n, &runs};
  add_kernel(cp.conditional.phGraph_out[0], reinterpret_cast<const void*>(countdown), args);
  cudaGraphExec_t e;
  EXPECT_ERR("instantiate while", cudaGraphInstantiate(&e, g, 0), cudaSuccess);
  *n = 5;
  *runs = 0;
  EXPECT_ERR("launch while", cudaGraphLaunch(e, nullptr), cudaSuccess);
  cudaDeviceSynchronize();
  EXPECT("while ran its body 5 times", *runs == 5 && *n == 0);
  *n = 2;
  *runs = 0;
  cudaGraphLaunch(e, nullptr);  // the condition is 1 again at the launch (cudaGraphCondAssignDefault)
  cudaDeviceSynchronize();
  EXPECT("while again from the default", *runs == 2 && *n == 0);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  // if/else: a kernel before the node sets the condition.
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandleCreate(&h, g, 0, 0);
  void* sargs[] = {&h, &v};
  cudaGraphNode_t setter = add_kernel(g, reinterpret_cast<const void*>(set_cond), sargs);
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeIf;
  cp.conditional.size = 2;
  cudaGraphNode_t inode;
  EXPECT_ERR("if node", cudaGraphAddNode(&inode, g, &setter, nullptr, 1, &cp), cudaSuccess);
  int one = 1, two = 2;
  void* a1[] = {&out, &one};
  void* a2[] = {&out, &two};
  add_kernel(cp.conditional.phGraph_out[0], reinterpret_cast<const void*>(put), a1);
  add_kernel(cp.conditional.phGraph_out[1], reinterpret_cast<const void*>(put), a2);
  cudaGraphInstantiate(&e, g, 0);
  *v = 7;
  cudaGraphLaunch(e, nullptr);
  cudaDeviceSynchronize();
  EXPECT("if: non-zero runs the first body", *out == 1);
  *v = 0;
  cudaGraphLaunch(e, nullptr);
  cudaDeviceSynchronize();
  EXPECT("if: zero runs the second body", *out == 2);
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 2;
  EXPECT_ERR("while with two bodies", cudaGraphAddNode(&inode, g, nullptr, nullptr, 0, &cp), cudaErrorInvalidValue);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}

static void stream_attributes() {
  cudaStream_t s, t;
  cudaStreamCreate(&s);
  cudaStreamCreate(&t);
  int* p;
  cudaMalloc(&p, 1 << 20);
  cudaStreamAttrValue a{};
  a.accessPolicyWindow.base_ptr = p;
  a.accessPolicyWindow.num_bytes = 1 << 20;
  a.accessPolicyWindow.hitRatio = 0.5f;
  a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  EXPECT_ERR("set window", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a), cudaSuccess);
  cudaStreamAttrValue b{};
  EXPECT_ERR("get window", cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &b), cudaSuccess);
  EXPECT("window as set", b.accessPolicyWindow.base_ptr == p && b.accessPolicyWindow.num_bytes == (1u << 20) &&
                              b.accessPolicyWindow.hitRatio == 0.5f &&
                              b.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
  a.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
  EXPECT_ERR("misses cannot persist", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a),
             cudaErrorInvalidValue);
  EXPECT_ERR("copy attributes", cudaStreamCopyAttributes(t, s), cudaSuccess);
  cudaStreamAttrValue c{};
  cudaStreamGetAttribute(t, cudaStreamAttributeAccessPolicyWindow, &c);
  EXPECT("copied window", c.accessPolicyWindow.num_bytes == (1u << 20));
  EXPECT_ERR("reset persisting lines", cudaCtxResetPersistingL2Cache(), cudaSuccess);
  cudaFree(p);
  cudaStreamDestroy(s);
  cudaStreamDestroy(t);
}

static void libraries() {
  cudaLibrary_t lib = nullptr;
  EXPECT_ERR("load data", cudaLibraryLoadData(&lib, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0), cudaSuccess);
  unsigned count = 0;
  EXPECT_ERR("kernel count", cudaLibraryGetKernelCount(&count, lib), cudaSuccess);
  EXPECT("one kernel", count == 1);
  cudaKernel_t k = nullptr;
  EXPECT_ERR("get kernel", cudaLibraryGetKernel(&k, lib, "add1"), cudaSuccess);
  EXPECT_ERR("no such kernel", cudaLibraryGetKernel(&k, lib, "nope"), cudaErrorSymbolNotFound);
  cudaLibraryGetKernel(&k, lib, "add1");
  void* counter = nullptr;
  std::size_t bytes = 0;
  EXPECT_ERR("get global", cudaLibraryGetGlobal(&counter, &bytes, lib, "counter"), cudaSuccess);
  EXPECT("global's size", bytes == 4);
  void* args[] = {&counter};
  EXPECT_ERR("launch a library kernel", cudaLaunchKernel(reinterpret_cast<const void*>(k), dim3(1), dim3(1), args, 0, nullptr),
             cudaSuccess);
  unsigned value = 0;
  cudaMemcpy(&value, counter, 4, cudaMemcpyDeviceToHost);
  EXPECT("the kernel added 1 to 7", value == 8);
  std::size_t off = 1, size = 0;
  EXPECT_ERR("param info", cudaFuncGetParamInfo(reinterpret_cast<const void*>(k), 0, &off, &size), cudaSuccess);
  EXPECT("one 8-byte parameter at 0", off == 0 && size == 8);
  EXPECT_ERR("unload", cudaLibraryUnload(lib), cudaSuccess);
}

static void three_d() {
  cudaPitchedPtr pp{};
  const cudaExtent ext = make_cudaExtent(100, 4, 3);
  EXPECT_ERR("malloc 3D", cudaMalloc3D(&pp, ext), cudaSuccess);
  EXPECT("pitch: 512-byte rows", pp.pitch == 512 && pp.xsize == 100 && pp.ysize == 4);
  cudaMemset3D(pp, 0, ext);
  EXPECT_ERR("memset 3D", cudaMemset3D(pp, 0x5a, make_cudaExtent(60, 4, 3)), cudaSuccess);
  std::vector<unsigned char> host(100 * 4 * 3, 1);
  cudaMemcpy3DParms c{};
  c.srcPtr = pp;
  c.dstPtr = make_cudaPitchedPtr(host.data(), 100, 100, 4);
  c.extent = ext;
  c.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3D(&c);
  bool good = true;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 100; ++x) good &= host[(z * 4 + y) * 100 + x] == (x < 60 ? 0x5a : 0);
  EXPECT("memset 3D sets 60 bytes of each row of each slice", good);
  cudaFree(pp.ptr);
}

static void one_gpu() {
  int can = -1;
  cudaDeviceCanAccessPeer(&can, 0, 0);
  EXPECT("no peer", can == 0);
  EXPECT_ERR("enable peer 1", cudaDeviceEnablePeerAccess(1, 0), cudaErrorInvalidDevice);
  EXPECT_ERR("disable peer 1", cudaDeviceDisablePeerAccess(1), cudaErrorInvalidDevice);
  cudaIpcMemHandle_t ipc;
  void* p;
  cudaMalloc(&p, 16);
  EXPECT_ERR("IPC refused", cudaIpcGetMemHandle(&ipc, p), cudaErrorNotSupported);
  EXPECT_ERR("no graphics resource", cudaGraphicsUnregisterResource(nullptr), cudaErrorInvalidResourceHandle);
  cudaFree(p);
  cudaGetLastError();
}

int main() {
  pools();
  graph_memory();
  conditionals();
  stream_attributes();
  libraries();
  three_d();
  one_gpu();
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
