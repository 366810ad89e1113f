// The driver calls of capabilities warpscope's device does not have (drv.hpp): IPC and shareable
// handles, graphics interop, external memory and semaphores, green contexts, multicast objects,
// checkpoints, core dumps and driver logs. They answer as a GPU without the capability:
// CUDA_ERROR_NOT_SUPPORTED, said once on stderr with the reason (`// refused:` above each: the
// calls table in docs/runtime.md shows it), as api_interop.cpp does for the runtime. The refused
// calls ignore their arguments (a C function may take fewer parameters than its callers pass).
#include "runtime/cudart/drv.hpp"

namespace warpscope::cudart::drv {
namespace {

CUresult refused(const char* api, const char* why) {
  return via_runtime([&] { return refuse_once(api, why, kErrNotSupported); });
}
constexpr const char* kIpc =
    "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map";
constexpr const char* kGraphics =
    "graphics interop: warpscope has no graphics device or context to share resources with";
constexpr const char* kExternal =
    "external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device";
constexpr const char* kGreen =
    "green contexts: warpscope's device is not partitioned into SM groups";
constexpr const char* kMulticast =
    "multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)";
constexpr const char* kCheckpoint =
    "checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole";
constexpr const char* kCoredump =
    "GPU core dumps: warpscope reports a kernel's fault itself (the report and stderr), with no core dump";
constexpr const char* kLogs =
    "driver logs: warpscope's driver writes its messages to stderr, not to a log buffer";

}  // namespace
}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart::drv;  // NOLINT: the C entry points below

// ---- IPC and shareable handles (cuIpc*, exports and imports of allocations and pools, dma-buf handles)

// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuIpcGetMemHandle() { return refused("cuIpcGetMemHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuIpcOpenMemHandle() { return refused("cuIpcOpenMemHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuIpcOpenMemHandle_v2() { return refused("cuIpcOpenMemHandle_v2", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuIpcCloseMemHandle() { return refused("cuIpcCloseMemHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuIpcGetEventHandle() { return refused("cuIpcGetEventHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuIpcOpenEventHandle() { return refused("cuIpcOpenEventHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuMemExportToShareableHandle() { return refused("cuMemExportToShareableHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuMemImportFromShareableHandle() { return refused("cuMemImportFromShareableHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuMemPoolExportToShareableHandle() { return refused("cuMemPoolExportToShareableHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuMemPoolImportFromShareableHandle() { return refused("cuMemPoolImportFromShareableHandle", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuMemPoolExportPointer() { return refused("cuMemPoolExportPointer", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuMemPoolImportPointer() { return refused("cuMemPoolImportPointer", kIpc); }
// refused: CUDA_ERROR_NOT_SUPPORTED: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_DRV CUresult cuMemGetHandleForAddressRange() { return refused("cuMemGetHandleForAddressRange", kIpc); }

// ---- Graphics interop (cuGraphics*: OpenGL, Direct3D, VDPAU, EGL resources)

// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsMapResources() { return refused("cuGraphicsMapResources", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsMapResources_ptsz() { return refused("cuGraphicsMapResources_ptsz", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsResourceGetMappedMipmappedArray() { return refused("cuGraphicsResourceGetMappedMipmappedArray", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsResourceGetMappedPointer() { return refused("cuGraphicsResourceGetMappedPointer", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsResourceGetMappedPointer_v2() { return refused("cuGraphicsResourceGetMappedPointer_v2", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsResourceSetMapFlags() { return refused("cuGraphicsResourceSetMapFlags", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsResourceSetMapFlags_v2() { return refused("cuGraphicsResourceSetMapFlags_v2", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsSubResourceGetMappedArray() { return refused("cuGraphicsSubResourceGetMappedArray", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsUnmapResources() { return refused("cuGraphicsUnmapResources", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsUnmapResources_ptsz() { return refused("cuGraphicsUnmapResources_ptsz", kGraphics); }
// refused: CUDA_ERROR_NOT_SUPPORTED: graphics interop: warpscope has no graphics device or context to share resources with
WS_DRV CUresult cuGraphicsUnregisterResource() { return refused("cuGraphicsUnregisterResource", kGraphics); }

// ---- External memory and semaphores

// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuImportExternalMemory() { return refused("cuImportExternalMemory", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuImportExternalSemaphore() { return refused("cuImportExternalSemaphore", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuDestroyExternalMemory() { return refused("cuDestroyExternalMemory", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuDestroyExternalSemaphore() { return refused("cuDestroyExternalSemaphore", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuExternalMemoryGetMappedBuffer() { return refused("cuExternalMemoryGetMappedBuffer", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuExternalMemoryGetMappedMipmappedArray() { return refused("cuExternalMemoryGetMappedMipmappedArray", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuSignalExternalSemaphoresAsync() { return refused("cuSignalExternalSemaphoresAsync", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuSignalExternalSemaphoresAsync_ptsz() { return refused("cuSignalExternalSemaphoresAsync_ptsz", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuWaitExternalSemaphoresAsync() { return refused("cuWaitExternalSemaphoresAsync", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuWaitExternalSemaphoresAsync_ptsz() { return refused("cuWaitExternalSemaphoresAsync_ptsz", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuDeviceGetNvSciSyncAttributes() { return refused("cuDeviceGetNvSciSyncAttributes", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphAddExternalSemaphoresSignalNode() { return refused("cuGraphAddExternalSemaphoresSignalNode", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphAddExternalSemaphoresWaitNode() { return refused("cuGraphAddExternalSemaphoresWaitNode", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphExternalSemaphoresSignalNodeGetParams() { return refused("cuGraphExternalSemaphoresSignalNodeGetParams", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphExternalSemaphoresSignalNodeSetParams() { return refused("cuGraphExternalSemaphoresSignalNodeSetParams", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphExternalSemaphoresWaitNodeGetParams() { return refused("cuGraphExternalSemaphoresWaitNodeGetParams", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphExternalSemaphoresWaitNodeSetParams() { return refused("cuGraphExternalSemaphoresWaitNodeSetParams", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphExecExternalSemaphoresSignalNodeSetParams() { return refused("cuGraphExecExternalSemaphoresSignalNodeSetParams", kExternal); }
// refused: CUDA_ERROR_NOT_SUPPORTED: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_DRV CUresult cuGraphExecExternalSemaphoresWaitNodeSetParams() { return refused("cuGraphExecExternalSemaphoresWaitNodeSetParams", kExternal); }

// ---- Green contexts and device resources

// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxCreate() { return refused("cuGreenCtxCreate", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxDestroy() { return refused("cuGreenCtxDestroy", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxGetDevResource() { return refused("cuGreenCtxGetDevResource", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxGetId() { return refused("cuGreenCtxGetId", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxRecordEvent() { return refused("cuGreenCtxRecordEvent", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxStreamCreate() { return refused("cuGreenCtxStreamCreate", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuGreenCtxWaitEvent() { return refused("cuGreenCtxWaitEvent", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuCtxFromGreenCtx() { return refused("cuCtxFromGreenCtx", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuCtxGetDevResource() { return refused("cuCtxGetDevResource", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuDeviceGetDevResource() { return refused("cuDeviceGetDevResource", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuDevResourceGenerateDesc() { return refused("cuDevResourceGenerateDesc", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuDevSmResourceSplitByCount() { return refused("cuDevSmResourceSplitByCount", kGreen); }
// refused: CUDA_ERROR_NOT_SUPPORTED: green contexts: warpscope's device is not partitioned into SM groups
WS_DRV CUresult cuStreamGetGreenCtx() { return refused("cuStreamGetGreenCtx", kGreen); }

// ---- Multicast objects

// refused: CUDA_ERROR_NOT_SUPPORTED: multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)
WS_DRV CUresult cuMulticastCreate() { return refused("cuMulticastCreate", kMulticast); }
// refused: CUDA_ERROR_NOT_SUPPORTED: multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)
WS_DRV CUresult cuMulticastAddDevice() { return refused("cuMulticastAddDevice", kMulticast); }
// refused: CUDA_ERROR_NOT_SUPPORTED: multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)
WS_DRV CUresult cuMulticastBindAddr() { return refused("cuMulticastBindAddr", kMulticast); }
// refused: CUDA_ERROR_NOT_SUPPORTED: multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)
WS_DRV CUresult cuMulticastBindMem() { return refused("cuMulticastBindMem", kMulticast); }
// refused: CUDA_ERROR_NOT_SUPPORTED: multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)
WS_DRV CUresult cuMulticastGetGranularity() { return refused("cuMulticastGetGranularity", kMulticast); }
// refused: CUDA_ERROR_NOT_SUPPORTED: multicast objects: warpscope's one device has no NVLink multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0)
WS_DRV CUresult cuMulticastUnbind() { return refused("cuMulticastUnbind", kMulticast); }

// ---- Checkpoints

// refused: CUDA_ERROR_NOT_SUPPORTED: checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole
WS_DRV CUresult cuCheckpointProcessCheckpoint() { return refused("cuCheckpointProcessCheckpoint", kCheckpoint); }
// refused: CUDA_ERROR_NOT_SUPPORTED: checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole
WS_DRV CUresult cuCheckpointProcessGetRestoreThreadId() { return refused("cuCheckpointProcessGetRestoreThreadId", kCheckpoint); }
// refused: CUDA_ERROR_NOT_SUPPORTED: checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole
WS_DRV CUresult cuCheckpointProcessGetState() { return refused("cuCheckpointProcessGetState", kCheckpoint); }
// refused: CUDA_ERROR_NOT_SUPPORTED: checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole
WS_DRV CUresult cuCheckpointProcessLock() { return refused("cuCheckpointProcessLock", kCheckpoint); }
// refused: CUDA_ERROR_NOT_SUPPORTED: checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole
WS_DRV CUresult cuCheckpointProcessRestore() { return refused("cuCheckpointProcessRestore", kCheckpoint); }
// refused: CUDA_ERROR_NOT_SUPPORTED: checkpoint and restore: warpscope's device state lives in the process, which a checkpoint tool saves whole
WS_DRV CUresult cuCheckpointProcessUnlock() { return refused("cuCheckpointProcessUnlock", kCheckpoint); }

// ---- Core dumps

// refused: CUDA_ERROR_NOT_SUPPORTED: GPU core dumps: warpscope reports a kernel's fault itself (the report and stderr), with no core dump
WS_DRV CUresult cuCoredumpGetAttribute() { return refused("cuCoredumpGetAttribute", kCoredump); }
// refused: CUDA_ERROR_NOT_SUPPORTED: GPU core dumps: warpscope reports a kernel's fault itself (the report and stderr), with no core dump
WS_DRV CUresult cuCoredumpGetAttributeGlobal() { return refused("cuCoredumpGetAttributeGlobal", kCoredump); }
// refused: CUDA_ERROR_NOT_SUPPORTED: GPU core dumps: warpscope reports a kernel's fault itself (the report and stderr), with no core dump
WS_DRV CUresult cuCoredumpSetAttribute() { return refused("cuCoredumpSetAttribute", kCoredump); }
// refused: CUDA_ERROR_NOT_SUPPORTED: GPU core dumps: warpscope reports a kernel's fault itself (the report and stderr), with no core dump
WS_DRV CUresult cuCoredumpSetAttributeGlobal() { return refused("cuCoredumpSetAttributeGlobal", kCoredump); }

// ---- Driver logs

// refused: CUDA_ERROR_NOT_SUPPORTED: driver logs: warpscope's driver writes its messages to stderr, not to a log buffer
WS_DRV CUresult cuLogsCurrent() { return refused("cuLogsCurrent", kLogs); }
// refused: CUDA_ERROR_NOT_SUPPORTED: driver logs: warpscope's driver writes its messages to stderr, not to a log buffer
WS_DRV CUresult cuLogsDumpToFile() { return refused("cuLogsDumpToFile", kLogs); }
// refused: CUDA_ERROR_NOT_SUPPORTED: driver logs: warpscope's driver writes its messages to stderr, not to a log buffer
WS_DRV CUresult cuLogsDumpToMemory() { return refused("cuLogsDumpToMemory", kLogs); }
// refused: CUDA_ERROR_NOT_SUPPORTED: driver logs: warpscope's driver writes its messages to stderr, not to a log buffer
WS_DRV CUresult cuLogsRegisterCallback() { return refused("cuLogsRegisterCallback", kLogs); }
// refused: CUDA_ERROR_NOT_SUPPORTED: driver logs: warpscope's driver writes its messages to stderr, not to a log buffer
WS_DRV CUresult cuLogsUnregisterCallback() { return refused("cuLogsUnregisterCallback", kLogs); }
