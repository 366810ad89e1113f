// CUDA graphs and stream capture (docs/runtime.md "Graphs and stream capture").
//
// A graph is a set of nodes (kernel launches, copies, memsets, host calls, child graphs, event
// record/wait, empty) with dependency edges. Instantiating one copies it into a GraphExec with a
// topological order; launching that runs the nodes one after the other in that order, each to
// completion, as every other operation of warpscope's runtime runs (streams are always idle).
// Every kernel node run is an ordinary launch (Runtime::launch): it is in the report.
//
// Stream capture turns the work issued to a capturing stream into nodes of a graph instead of
// running it. Each capturing stream carries its current dependency set (the nodes the next
// operation depends on); events recorded in a capturing stream carry the set they saw, so that
// cudaStreamWaitEvent forks other streams into the capture and joins them back.
//
// Everything here runs under Runtime::mu (the C entry points go through call()).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "runtime/cudart/abi.hpp"
#include "runtime/cudart/mem_pools.hpp"
#include "runtime/cudart/runtime.hpp"

namespace warpscope::cudart {

// ---- The CUDA 13 types of the graph API (driver_types.h), pinned by size. --------------------

// PitchedPtr, Pos, Extent, Memcpy3DParms (cudaMemcpy3DParms): abi.hpp.
static_assert(sizeof(Memcpy3DParms) == 160);

/// cudaKernelNodeParams (and V2, the same layout).
struct KernelNodeParams {
  const void* func;
  Dim3 gridDim;
  Dim3 blockDim;
  unsigned sharedMemBytes;
  void** kernelParams;
  void** extra;
};
static_assert(sizeof(KernelNodeParams) == 56);

/// cudaMemsetParams (and V2).
struct MemsetParams {
  void* dst;
  std::size_t pitch;
  unsigned value;
  unsigned elementSize;
  std::size_t width;
  std::size_t height;
};
static_assert(sizeof(MemsetParams) == 40);

using HostFn = void (*)(void*);
/// cudaHostNodeParams (and V2).
struct HostNodeParams {
  HostFn fn;
  void* userData;
};

/// cudaMemcpyNodeParams.
struct MemcpyNodeParams {
  int flags;
  int reserved[3];
  Memcpy3DParms copyParams;
};

struct ChildGraphNodeParams {
  void* graph;
  int ownership;  // cudaGraphChildGraphOwnershipClone 0, Move 1
};

struct EventNodeParams {
  void* event;
};

/// cudaConditionalNodeParams.
struct ConditionalNodeParams {
  std::uint64_t handle;  // cudaGraphConditionalHandle
  int type;              // cudaGraphCondTypeIf 0, While 1, Switch 2
  unsigned size;
  void** phGraph_out;
};
static_assert(sizeof(ConditionalNodeParams) == 24);

struct MemFreeNodeParams {
  void* dptr;
};

/// cudaGraphNodeParams (256 bytes).
struct GraphNodeParams {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    KernelNodeParams kernel;
    MemcpyNodeParams memcpy;
    MemsetParams memset;
    HostNodeParams host;
    ChildGraphNodeParams graph;
    EventNodeParams eventWait;
    EventNodeParams eventRecord;
    MemAllocNodeParams alloc;
    MemFreeNodeParams free;
    ConditionalNodeParams conditional;
  };
  long long reserved2;
};
static_assert(sizeof(GraphNodeParams) == 256);

/// cudaGraphEdgeData.
struct GraphEdgeData {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;  // cudaGraphDependencyTypeDefault 0, Programmatic 1
  unsigned char reserved[5];
};
static_assert(sizeof(GraphEdgeData) == 8);

/// cudaGraphInstantiateParams.
struct GraphInstantiateParams {
  unsigned long long flags;
  void* uploadStream;
  void* errNode_out;
  int result_out;
};
static_assert(sizeof(GraphInstantiateParams) == 32);

/// cudaGraphExecUpdateResultInfo.
struct GraphExecUpdateResultInfo {
  int result;
  void* errorNode;
  void* errorFromNode;
};
static_assert(sizeof(GraphExecUpdateResultInfo) == 24);

enum class NodeType : int {
  kKernel = 0,
  kMemcpy = 1,
  kMemset = 2,
  kHost = 3,
  kGraph = 4,
  kEmpty = 5,
  kWaitEvent = 6,
  kEventRecord = 7,
  kExtSemSignal = 8,
  kExtSemWait = 9,
  kMemAlloc = 10,
  kMemFree = 11,
  kBatchMemOp = 12,  // the driver's cuGraphAddBatchMemOpNode
  kConditional = 13,
};
const char* node_type_name(NodeType t);

enum CaptureStatus : int { kCaptureNone = 0, kCaptureActive = 1, kCaptureInvalidated = 2 };
enum CaptureMode : int { kModeGlobal = 0, kModeThreadLocal = 1, kModeRelaxed = 2 };

inline constexpr cudaError_t kErrIllegalState = 401;
inline constexpr cudaError_t kErrCaptureUnsupported = 900;
inline constexpr cudaError_t kErrCaptureInvalidated = 901;
inline constexpr cudaError_t kErrCaptureMerge = 902;
inline constexpr cudaError_t kErrCaptureUnmatched = 903;
inline constexpr cudaError_t kErrCaptureUnjoined = 904;
inline constexpr cudaError_t kErrCaptureIsolation = 905;
inline constexpr cudaError_t kErrCaptureImplicit = 906;
inline constexpr cudaError_t kErrCapturedEvent = 907;
inline constexpr cudaError_t kErrCaptureWrongThread = 908;
inline constexpr cudaError_t kErrGraphExecUpdateFailure = 910;
inline constexpr cudaError_t kErrLossyQuery = 402;

// ---- The model ---------------------------------------------------------------------------

struct Graph;

/// A kernel launch with copies of its argument values (a node owns them, as CUDA's does).
struct KernelCall {
  KernelRec* kernel = nullptr;
  const void* func = nullptr;  // as the program gave it (a host stub or a cudaKernel_t)
  Dim3 grid{1, 1, 1}, block{1, 1, 1};
  unsigned shared = 0;
  std::vector<std::vector<std::uint8_t>> args;
  std::vector<void*> arg_ptrs;  // args[i].data(): kernelParams as GetParams reports it

  KernelCall() = default;
  KernelCall(const KernelCall& o) { *this = o; }
  KernelCall& operator=(const KernelCall& o);
};

struct Node {
  Graph* graph = nullptr;
  NodeType type = NodeType::kEmpty;
  std::uint64_t serial = 0;  // unique over the process: tells a live node from a reused address
  KernelCall kernel;
  Memcpy3DParms copy{};
  MemsetParams memset{};
  HostNodeParams host{};
  std::unique_ptr<Graph> child;
  void* event = nullptr;
  std::shared_ptr<GraphAlloc> alloc;  // a memory allocation node's memory (mem_pools.hpp)
  DevicePtr free_ptr = 0;             // a memory free node's address
  // A conditional node (api_graph_mem.cpp): its handle (the device address of its 32-bit
  // condition), type and body graphs (registered: the program fills them through their handles).
  ConditionalNodeParams cond{};
  // A batch memory operation node (drv_graph.cpp): its CUstreamBatchMemOpParams (48 bytes each), a
  // copy of the caller's, and flags.
  std::vector<std::array<std::uint64_t, 6>> mem_ops;
  unsigned mem_op_flags = 0;
  std::vector<std::unique_ptr<Graph>> bodies;
  std::vector<void*> body_handles;  // what phGraph_out points to
  std::map<int, LaunchAttrValue> attributes;  // a kernel node's cudaGraphKernelNodeSetAttribute (api_attr.cpp)
  bool enabled = true;  // cudaGraphNodeSetEnabled (nodes of a GraphExec)
  std::vector<Node*> deps;  // incoming edges, in the order they were added
  std::vector<GraphEdgeData> dep_data;
  std::vector<Node*> dependents;  // outgoing edges
};

struct Graph {
  std::vector<std::unique_ptr<Node>> nodes;  // in creation order
  std::map<const Node*, Node*> clone_of;     // cudaGraphClone: original node -> node of this graph
  std::map<void*, unsigned> user_objects;    // cudaGraphRetainUserObject references
  Node* owner = nullptr;                     // the child-graph node that embeds this graph
};

struct GraphExec {
  std::unique_ptr<Graph> graph;                  // the instantiated copy
  std::vector<Node*> order;                      // topological order of graph's nodes
  std::map<const Node*, std::pair<std::uint64_t, Node*>> from_original;  // user node -> copy
  unsigned long long flags = 0;
};

/// A stream capture sequence.
struct Capture {
  std::uint64_t id = 0;
  Graph* graph = nullptr;
  bool owns_graph = true;  // false for cudaStreamBeginCaptureToGraph
  const void* origin = nullptr;
  int mode = kModeGlobal;
  std::thread::id thread;
  bool invalidated = false;
  std::string why_invalidated;
};

/// A stream's part in a capture: its capture and its current dependency set.
struct StreamCapture {
  Capture* capture = nullptr;
  std::vector<Node*> deps;
  std::vector<GraphEdgeData> dep_data;  // the edge data of the next node's dependencies
};

/// A user object (cudaUserObjectCreate).
struct UserObject {
  void* ptr = nullptr;
  HostFn destroy = nullptr;
  unsigned refs = 0;
};

/// The graph state of the process (guarded by Runtime::mu).
struct Graphs {
  std::set<Graph*> graphs;  // every graph a handle may name, child graphs included
  std::unordered_map<const Node*, std::uint64_t> nodes;  // every live node of those graphs
  std::set<GraphExec*> execs;
  std::uint64_t next_serial = 1;
  std::uint64_t next_capture_id = 1;
  std::map<const void*, StreamCapture> capturing;  // by stream handle
  std::vector<std::unique_ptr<Capture>> captures;
  std::map<const void*, StreamCapture> event_captures;  // events recorded in a capture
  std::set<UserObject*> user_objects;

  static Graphs& get();

  bool valid(const Graph* g) const { return g != nullptr && graphs.count(const_cast<Graph*>(g)) != 0; }
  bool valid(const Node* n) const { return n != nullptr && nodes.count(n) != 0; }
  bool valid(const GraphExec* e) const { return e != nullptr && execs.count(const_cast<GraphExec*>(e)) != 0; }

  Graph* new_graph();
  /// Destroys a graph the registry knows and every node and child graph in it.
  void destroy_graph(Graph* g);
  Node* add_node(Graph& g, std::unique_ptr<Node> n);
  /// Removes a node with its edges.
  void destroy_node(Node* n);
  /// Deep copy of `src` (nodes, edges, child graphs) into a new registered graph when
  /// `registered`; `map` receives original -> copy for the top-level nodes.
  std::unique_ptr<Graph> copy_graph(const Graph& src, bool registered, std::map<const Node*, Node*>* map);

  void release_user_object(UserObject* o, unsigned count);
  /// Releases the user-object references a graph (and its child graphs) holds.
  void release_objects_of(Graph& g);
  void destroy_exec(GraphExec* e);
};

/// Adds an edge from -> to; kErrInvalidValue when it exists or crosses graphs.
cudaError_t add_edge(Node* from, Node* to, const GraphEdgeData& data);
/// A topological order of g's nodes (creation order among ready nodes); false on a cycle.
bool topological_order(const Graph& g, std::vector<Node*>* order);

/// Fills a kernel call from cudaKernelNodeParams: finds the kernel, loads its module and copies
/// the argument values (from kernelParams, or the packed buffer of `extra`).
cudaError_t make_kernel_call(Runtime& rt, const KernelNodeParams& p, KernelCall* out);
cudaError_t check_copy_params(Runtime& rt, const Memcpy3DParms& p);
cudaError_t check_memset_params(Runtime& rt, const MemsetParams& p);

/// A copy of `count` bytes to (from) a __device__/__constant__ variable, at `offset`, as
/// cudaMemcpy3DParms: cudaErrorInvalidSymbol, cudaErrorInvalidValue (out of the variable) or
/// cudaErrorInvalidMemcpyDirection as cudaMemcpyToSymbol (FromSymbol) says.
cudaError_t to_symbol(Runtime& rt, const void* symbol, const void* src, std::size_t count, std::size_t offset,
                      int kind, Memcpy3DParms* p);
cudaError_t from_symbol(Runtime& rt, void* dst, const void* symbol, std::size_t count, std::size_t offset, int kind,
                        Memcpy3DParms* p);
/// Fills node `n` from the generic cudaGraphNodeParams (its type included).
cudaError_t node_from_params(Runtime& rt, const GraphNodeParams& p, Node* n);
/// Gives node `n` the parameters of `fresh`, a node of the same type (not a child graph node).
cudaError_t assign_params(Node* n, Node& fresh);

/// Runs the nodes of an instantiated graph in order, on `stream`.
cudaError_t run_graph(Runtime& rt, const std::vector<Node*>& order, const void* stream);

// ---- Memory and conditional nodes (api_graph_mem.cpp) -----------------------------------------

/// Fills a memory allocation, memory free or conditional node from its parameters; writes the
/// allocation's address (the bodies' handles) back into `p`.
cudaError_t mem_alloc_node(Runtime& rt, MemAllocNodeParams& p, Node* n);
cudaError_t mem_free_node(Runtime& rt, void* dptr, Node* n);
cudaError_t conditional_node(Runtime& rt, ConditionalNodeParams& p, Node* n);
/// Copies what copy_graph does not: a memory node's allocation, a conditional node's bodies, a
/// kernel node's attributes.
void copy_special(Graphs& gs, const Node& from, Node* to, bool registered);
/// A kernel node's cluster dimension attribute (null when it has none) and cooperative attribute.
const Dim3* node_cluster(const Node& n);
bool node_cooperative(const Node& n);
/// Runs a memory allocation, memory free or conditional node.
cudaError_t run_special(Runtime& rt, Node* n, const void* stream);
/// Sets the conditions of `g`'s conditional handles made with cudaGraphCondAssignDefault to their
/// default (at the start of each launch of the graph).
void reset_conditions(Runtime& rt, const Graph& g);
/// cudaMallocAsync / cudaMallocFromPoolAsync (cudaFreeAsync) on a capturing stream: a memory
/// allocation (free) node of the capture, with the pool's properties.
cudaError_t capture_alloc(Runtime& rt, const void* stream, const MemPool& pool, std::size_t bytes, void** ptr);
cudaError_t capture_free(Runtime& rt, const void* stream, void* ptr);

/// Batch memory operation nodes (cuGraphAddBatchMemOpNode and its Get/Set/ExecSetParams,
/// drv_graph.cpp; api_graph.cpp): `ops` are `count` CUstreamBatchMemOpParams, which the node copies.
cudaError_t add_batch_mem_op_node(void** out, void* graph, void* const* deps, std::size_t n, const void* ops,
                                  unsigned count, unsigned flags);
cudaError_t batch_mem_op_node_params(void* node, const void** ops, unsigned* count, unsigned* flags);
cudaError_t set_batch_mem_op_node(void* node, const void* ops, unsigned count, unsigned flags);
cudaError_t exec_set_batch_mem_op_node(void* exec, void* node, const void* ops, unsigned count, unsigned flags);
/// Runs a batch memory operation node's operations in `stream`, as cuStreamBatchMemOp_v2 (drv_stream.cpp).
cudaError_t run_batch_mem_ops(const Node& n, const void* stream);

/// Instantiates `g`; on failure sets *err_node (a node of g) when one is to blame.
cudaError_t instantiate(Runtime& rt, Graph& g, unsigned long long flags, GraphExec** out, Node** err_node);

// ---- Stream capture hooks (api_capture.cpp), called by the other entry points. ----------------

/// The stream's capture when it is capturing (active or invalidated), else nullptr.
StreamCapture* capture_of(const void* stream);
/// Normalises a stream handle: the per-thread default stream is kStreamPerThread.
const void* canonical_stream(const void* stream, bool per_thread);

/// Called by an operation about to be issued to `stream`: returns kSuccess when it is not
/// capturing (the operation runs), kErrCaptureInvalidated when its capture was invalidated, or
/// kErrCaptureImplicit when it is the legacy stream and a blocking stream is capturing (that
/// capture is invalidated). Sets *captured when the operation must become a node instead.
cudaError_t capture_check(Runtime& rt, const void* stream, bool* captured);
/// An operation CUDA refuses on a capturing stream: invalidates that capture (saying `why` on
/// stderr) and returns kErrCaptureUnsupported.
cudaError_t capture_refuse(Runtime& rt, const void* stream, const std::string& why);
/// Appends a node to the stream's capture after its current dependencies.
cudaError_t capture_node(Runtime& rt, const void* stream, std::unique_ptr<Node> node);
/// A "potentially unsafe" call (cudaMalloc, synchronous copies, synchronisation): returns
/// kErrCaptureUnsupported, invalidating the captures that forbid it, when the calling thread's
/// capture mode forbids it (cudaThreadExchangeStreamCaptureMode); else kSuccess.
cudaError_t unsafe_call(Runtime& rt, const char* api);
/// cudaEventRecord into a capturing stream: the event takes the stream's dependency set.
cudaError_t capture_event_record(Runtime& rt, const void* stream, void* event);
/// cudaStreamWaitEvent: when the event was recorded in a capture, the stream joins it. Returns
/// kSuccess with *handled false when neither the stream nor the event is part of a capture.
cudaError_t capture_event_wait(Runtime& rt, const void* stream, void* event, unsigned flags, bool* handled);
/// An asynchronous operation on `stream`: the stream's validity, then capture_check.
cudaError_t async_check(Runtime& rt, const void* stream, bool* captured);
/// A synchronous copy or memset (legacy stream): unsafe_call, then the legacy-stream rule.
cudaError_t sync_check(Runtime& rt, const char* api);
/// cudaDeviceSynchronize: not permitted while any stream captures (the captures are invalidated).
cudaError_t device_sync_check(Runtime& rt);
/// Captured operations: validated as at launch, then appended to the stream's capture.
cudaError_t capture_copy(Runtime& rt, const void* stream, const Memcpy3DParms& p);
cudaError_t capture_memset(Runtime& rt, const void* stream, const MemsetParams& p);
cudaError_t capture_launch(Runtime& rt, const void* stream, const void* func, Dim3 grid, Dim3 block, void** args,
                           std::size_t shmem);
/// A copy of `bytes` contiguous bytes, or of a 2-D region, as cudaMemcpy3DParms.
Memcpy3DParms linear_copy(void* dst, const void* src, std::size_t bytes, int kind);
Memcpy3DParms pitched_copy(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                           std::size_t height, int kind);
/// Whether the event was last recorded in a capture (cudaEventQuery/Synchronize: kErrCapturedEvent).
bool event_captured(const void* event);
/// The event was recorded outside any capture, or destroyed.
void forget_event(const void* event);
/// The stream is destroyed: ends its part in any capture.
void forget_stream(const void* stream);
/// cudaDeviceReset: every capture ends (its streams and events are gone); graphs stay valid.
void reset_captures();

}  // namespace warpscope::cudart
