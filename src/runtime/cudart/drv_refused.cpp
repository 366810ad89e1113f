// The driver calls warpscope answers as the H200 does without doing them (drv.hpp): capabilities
// its device does not have (IPC and shareable handles, graphics interop, external memory and
// semaphores, green contexts, multicast objects, checkpoints, core dumps, driver logs), and calls
// the H200's driver itself refuses (the v1 calls, the v1 stream memory operations, memory
// decompression, the profiler's configuration, LUIDs, unified functions: tests/hw/data/h200/
// driver_stubs). Each answers its reason's CUresult and says the reason once on stderr, as
// api_interop.cpp does for the runtime. A block's comment `// refused each: CODE: TEXT` gives the
// calls table of docs/runtime.md the reason of every definition below it up to the next blank line
// (scripts/runtime_calls.cmake). The refused calls ignore their arguments (a C function may take
// fewer parameters than its callers pass), and name themselves with __func__.
#include "runtime/cudart/drv.hpp"

namespace warpscope::cudart::drv {
namespace {

enum class Why {
  Ipc, Graphics, External, Green, Multicast, Checkpoint, Coredump, Logs,                // capabilities
  V1, MemOpsV1, Decompress, Profiler, Luid, UnifiedFunction,  // what the H200 refuses
};

struct Refusal {
  CUresult code;
  const char* text;
};

/// Each reason's CUresult and text, in the order of Why.
constexpr Refusal kRefusals[] = {
    {kCuNotSupported,
     "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"},
    {kCuNotSupported,
     "graphics interop: warpscope has no graphics device or context to share resources with"},
    {kCuNotSupported,
     "external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device"},
    {kCuNotSupported,
     "green contexts: warpscope's device is not partitioned into SM groups"},
    {kCuNotSupported,
     "multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)"},
    {kCuNotSupported,
     "checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole"},
    {kCuNotSupported,
     "GPU core dumps: warpscope reports a kernel's fault itself (the report and stderr), with no core dump"},
    {kCuNotSupported,
     "driver logs: warpscope's driver writes its messages to stderr, not to a log buffer"},
    {kCuInvalidContext,
     "the v1 driver API (32-bit CUdeviceptr_v1 and unsigned int sizes, before CUDA 3.2): the H200's driver answers CUDA_ERROR_INVALID_CONTEXT (measured in a context made by cuCtxCreate_v4); cuda.h maps these names to their _v2 calls"},
    {kCuNotSupported,
     "the v1 stream memory operations (before CUDA 11.7): CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 is 0, as on the H200, whose driver answers CUDA_ERROR_NOT_SUPPORTED; cuda.h maps these names to their _v2 calls"},
    {kCuNotSupported,
     "memory decompression: the H200 has no decompression engine (CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK 0) and its driver answers CUDA_ERROR_NOT_SUPPORTED"},
    {kCuNotSupported,
     "the command-line profiler's configuration files: the H200's driver answers CUDA_ERROR_NOT_SUPPORTED (cuProfilerStart and cuProfilerStop work)"},
    {kCuNotSupported,
     "a device's LUID is a Windows (WDDM) property: on Linux the H200's driver answers CUDA_ERROR_NOT_SUPPORTED"},
    {kCuInvalidValue,
     "unified functions (one address callable from host and device): the H200's driver answers CUDA_ERROR_INVALID_VALUE for every library and name"},
};
static_assert(sizeof kRefusals / sizeof kRefusals[0] == static_cast<std::size_t>(Why::UnifiedFunction) + 1);

CUresult refused(const char* api, Why why) {
  const Refusal& r = kRefusals[static_cast<int>(why)];
  return via_runtime([&] { return refuse_once(api, r.text, r.code); });
}

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart::drv;  // NOLINT: the C entry points below

// ---- IPC and shareable handles (cuIpc*, exports and imports of allocations and pools, dma-buf handles)

// refused each: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuIpcGetMemHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuIpcOpenMemHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuIpcOpenMemHandle_v2() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuIpcCloseMemHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuIpcGetEventHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuIpcOpenEventHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuMemExportToShareableHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuMemImportFromShareableHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuMemPoolExportToShareableHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuMemPoolImportFromShareableHandle() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuMemPoolExportPointer() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuMemPoolImportPointer() { return refused(__func__, Why::Ipc); }
WS_DRV CUresult cuMemGetHandleForAddressRange() { return refused(__func__, Why::Ipc); }

// ---- Graphics interop (cuGraphics*: OpenGL, Direct3D, VDPAU, EGL resources)

// refused each: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsMapResources() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsMapResources_ptsz() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsResourceGetMappedMipmappedArray() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsResourceGetMappedPointer() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsResourceGetMappedPointer_v2() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsResourceSetMapFlags() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsResourceSetMapFlags_v2() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsSubResourceGetMappedArray() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsUnmapResources() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsUnmapResources_ptsz() { return refused(__func__, Why::Graphics); }
WS_DRV CUresult cuGraphicsUnregisterResource() { return refused(__func__, Why::Graphics); }

// ---- External memory and semaphores

// refused each: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuImportExternalMemory() { return refused(__func__, Why::External); }
WS_DRV CUresult cuImportExternalSemaphore() { return refused(__func__, Why::External); }
WS_DRV CUresult cuDestroyExternalMemory() { return refused(__func__, Why::External); }
WS_DRV CUresult cuDestroyExternalSemaphore() { return refused(__func__, Why::External); }
WS_DRV CUresult cuExternalMemoryGetMappedBuffer() { return refused(__func__, Why::External); }
WS_DRV CUresult cuExternalMemoryGetMappedMipmappedArray() { return refused(__func__, Why::External); }
WS_DRV CUresult cuSignalExternalSemaphoresAsync() { return refused(__func__, Why::External); }
WS_DRV CUresult cuSignalExternalSemaphoresAsync_ptsz() { return refused(__func__, Why::External); }
WS_DRV CUresult cuWaitExternalSemaphoresAsync() { return refused(__func__, Why::External); }
WS_DRV CUresult cuWaitExternalSemaphoresAsync_ptsz() { return refused(__func__, Why::External); }
WS_DRV CUresult cuDeviceGetNvSciSyncAttributes() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphAddExternalSemaphoresSignalNode() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphAddExternalSemaphoresWaitNode() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphExternalSemaphoresSignalNodeGetParams() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphExternalSemaphoresSignalNodeSetParams() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphExternalSemaphoresWaitNodeGetParams() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphExternalSemaphoresWaitNodeSetParams() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphExecExternalSemaphoresSignalNodeSetParams() { return refused(__func__, Why::External); }
WS_DRV CUresult cuGraphExecExternalSemaphoresWaitNodeSetParams() { return refused(__func__, Why::External); }

// ---- Green contexts and device resources

// refused each: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxCreate() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuGreenCtxDestroy() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuGreenCtxGetDevResource() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuGreenCtxGetId() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuGreenCtxRecordEvent() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuGreenCtxStreamCreate() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuGreenCtxWaitEvent() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuCtxFromGreenCtx() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuCtxGetDevResource() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuDeviceGetDevResource() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuDevResourceGenerateDesc() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuDevSmResourceSplitByCount() { return refused(__func__, Why::Green); }
WS_DRV CUresult cuStreamGetGreenCtx() { return refused(__func__, Why::Green); }

// ---- Multicast objects

// refused each: CUDA_ERROR_NOT_SUPPORTED: multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)
WS_DRV CUresult cuMulticastCreate() { return refused(__func__, Why::Multicast); }
WS_DRV CUresult cuMulticastAddDevice() { return refused(__func__, Why::Multicast); }
WS_DRV CUresult cuMulticastBindAddr() { return refused(__func__, Why::Multicast); }
WS_DRV CUresult cuMulticastBindMem() { return refused(__func__, Why::Multicast); }
WS_DRV CUresult cuMulticastGetGranularity() { return refused(__func__, Why::Multicast); }
WS_DRV CUresult cuMulticastUnbind() { return refused(__func__, Why::Multicast); }

// ---- Checkpoints

// refused each: CUDA_ERROR_NOT_SUPPORTED: checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole
WS_DRV CUresult cuCheckpointProcessCheckpoint() { return refused(__func__, Why::Checkpoint); }
WS_DRV CUresult cuCheckpointProcessGetRestoreThreadId() { return refused(__func__, Why::Checkpoint); }
WS_DRV CUresult cuCheckpointProcessGetState() { return refused(__func__, Why::Checkpoint); }
WS_DRV CUresult cuCheckpointProcessLock() { return refused(__func__, Why::Checkpoint); }
WS_DRV CUresult cuCheckpointProcessRestore() { return refused(__func__, Why::Checkpoint); }
WS_DRV CUresult cuCheckpointProcessUnlock() { return refused(__func__, Why::Checkpoint); }

// ---- Core dumps

// refused each: CUDA_ERROR_NOT_SUPPORTED: GPU core dumps: warpscope reports a kernel's fault itself (the report and stderr), with no core dump
WS_DRV CUresult cuCoredumpGetAttribute() { return refused(__func__, Why::Coredump); }
WS_DRV CUresult cuCoredumpGetAttributeGlobal() { return refused(__func__, Why::Coredump); }
WS_DRV CUresult cuCoredumpSetAttribute() { return refused(__func__, Why::Coredump); }
WS_DRV CUresult cuCoredumpSetAttributeGlobal() { return refused(__func__, Why::Coredump); }

// ---- Driver logs

// refused each: CUDA_ERROR_NOT_SUPPORTED: driver logs: warpscope's driver writes its messages to stderr, not to a log buffer
WS_DRV CUresult cuLogsCurrent() { return refused(__func__, Why::Logs); }
WS_DRV CUresult cuLogsDumpToFile() { return refused(__func__, Why::Logs); }
WS_DRV CUresult cuLogsDumpToMemory() { return refused(__func__, Why::Logs); }
WS_DRV CUresult cuLogsRegisterCallback() { return refused(__func__, Why::Logs); }
WS_DRV CUresult cuLogsUnregisterCallback() { return refused(__func__, Why::Logs); }

// ---- The v1 calls (CUdeviceptr_v1). The H200 zeroes their outputs before it fails, which these do not; the
// descriptor queries of a null array answer CUDA_ERROR_INVALID_HANDLE (of a valid one: not measured).

// refused each: CUDA_ERROR_INVALID_CONTEXT: the v1 driver API (32-bit CUdeviceptr_v1 and unsigned int sizes, before CUDA 3.2): the H200's driver answers CUDA_ERROR_INVALID_CONTEXT (measured in a context made by cuCtxCreate_v4); cuda.h maps these names to their _v2 calls
WS_DRV CUresult cuMemAlloc() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemAllocPitch() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemFree() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemGetAddressRange() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemAllocHost() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemHostGetDevicePointer() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemGetInfo() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuModuleGetGlobal() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyHtoD() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyDtoH() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyDtoD() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyHtoDAsync() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyDtoHAsync() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyDtoDAsync() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyDtoA() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyAtoD() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyHtoA() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyAtoH() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyAtoA() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyHtoAAsync() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpyAtoHAsync() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpy2D() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpy2DUnaligned() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpy2DAsync() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpy3D() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemcpy3DAsync() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemsetD8() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemsetD16() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemsetD32() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemsetD2D8() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemsetD2D16() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuMemsetD2D32() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuArrayCreate() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuArray3DCreate() { return refused(__func__, Why::V1); }
WS_DRV CUresult cuArrayGetDescriptor(void*, void* a) { return a == nullptr ? kCuInvalidHandle : refused(__func__, Why::V1); }
WS_DRV CUresult cuArray3DGetDescriptor(void*, void* a) { return a == nullptr ? kCuInvalidHandle : refused(__func__, Why::V1); }

// ---- The v1 stream memory operations

// refused each: CUDA_ERROR_NOT_SUPPORTED: the v1 stream memory operations (before CUDA 11.7): CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 is 0, as on the H200, whose driver answers CUDA_ERROR_NOT_SUPPORTED; cuda.h maps these names to their _v2 calls
WS_DRV CUresult cuStreamWaitValue32() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamWaitValue32_ptsz() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamWaitValue64() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamWaitValue64_ptsz() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamWriteValue32() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamWriteValue32_ptsz() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamWriteValue64() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamWriteValue64_ptsz() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamBatchMemOp() { return refused(__func__, Why::MemOpsV1); }
WS_DRV CUresult cuStreamBatchMemOp_ptsz() { return refused(__func__, Why::MemOpsV1); }

// ---- Memory decompression

// refused each: CUDA_ERROR_NOT_SUPPORTED: memory decompression: the H200 has no decompression engine (CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK 0) and its driver answers CUDA_ERROR_NOT_SUPPORTED
WS_DRV CUresult cuMemBatchDecompressAsync() { return refused(__func__, Why::Decompress); }
WS_DRV CUresult cuMemBatchDecompressAsync_ptsz() { return refused(__func__, Why::Decompress); }

// ---- Profiler configuration

// refused each: CUDA_ERROR_NOT_SUPPORTED: the command-line profiler's configuration files: the H200's driver answers CUDA_ERROR_NOT_SUPPORTED (cuProfilerStart and cuProfilerStop work)
WS_DRV CUresult cuProfilerInitialize() { return refused(__func__, Why::Profiler); }

// ---- Device LUIDs

// refused each: CUDA_ERROR_NOT_SUPPORTED: a device's LUID is a Windows (WDDM) property: on Linux the H200's driver answers CUDA_ERROR_NOT_SUPPORTED
WS_DRV CUresult cuDeviceGetLuid() { return refused(__func__, Why::Luid); }

// ---- Unified functions

// refused each: CUDA_ERROR_INVALID_VALUE: unified functions (one address callable from host and device): the H200's driver answers CUDA_ERROR_INVALID_VALUE for every library and name
WS_DRV CUresult cuLibraryGetUnifiedFunction() { return refused(__func__, Why::UnifiedFunction); }
