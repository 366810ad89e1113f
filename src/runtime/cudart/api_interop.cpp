// Interop with graphics and other APIs (OpenGL, EGL, VDPAU, NvSci, external memory and semaphores)
// and IPC between processes (docs/runtime.md "Every runtime call"). warpscope's device is an
// emulation inside one process, with no graphics context and no memory another API or process can
// map, so it answers as a GPU without those capabilities: the calls that would make such a
// resource (register, import, connect, export, open) are refused with cudaErrorNotSupported and
// say why once on stderr (`// refused:` above each: the calls table shows it); the calls that take
// such a resource answer as CUDA does for a handle that names none (every handle is one).
//
// The refused calls ignore their arguments (a C function may take fewer parameters than its
// callers pass).
#include "runtime/cudart/api.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {
cudaError_t refused(const char* api, const char* why) {
  return call(api, [&](Runtime&) { return refuse_once(api, why, kErrNotSupported); });
}
cudaError_t no_such(const char* api, cudaError_t code) {
  return call(api, [&](Runtime&) { return code; });
}
}  // namespace

// ---- OpenGL interop: warpscope has no graphics device or GL context

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLGetDevices() { return refused("cudaGLGetDevices", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLMapBufferObject() { return refused("cudaGLMapBufferObject", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLMapBufferObjectAsync() { return refused("cudaGLMapBufferObjectAsync", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLRegisterBufferObject() { return refused("cudaGLRegisterBufferObject", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLSetBufferObjectMapFlags() { return refused("cudaGLSetBufferObjectMapFlags", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLSetGLDevice() { return refused("cudaGLSetGLDevice", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLUnmapBufferObject() { return refused("cudaGLUnmapBufferObject", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLUnmapBufferObjectAsync() { return refused("cudaGLUnmapBufferObjectAsync", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGLUnregisterBufferObject() { return refused("cudaGLUnregisterBufferObject", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGraphicsGLRegisterBuffer() { return refused("cudaGraphicsGLRegisterBuffer", "OpenGL interop: warpscope has no graphics device or GL context"); }

// refused: OpenGL interop: warpscope has no graphics device or GL context
WS_API cudaError_t cudaGraphicsGLRegisterImage() { return refused("cudaGraphicsGLRegisterImage", "OpenGL interop: warpscope has no graphics device or GL context"); }

// ---- EGL interop: warpscope has no EGL display or streams

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamConsumerAcquireFrame() { return refused("cudaEGLStreamConsumerAcquireFrame", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamConsumerConnect() { return refused("cudaEGLStreamConsumerConnect", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamConsumerConnectWithFlags() { return refused("cudaEGLStreamConsumerConnectWithFlags", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamConsumerDisconnect() { return refused("cudaEGLStreamConsumerDisconnect", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamConsumerReleaseFrame() { return refused("cudaEGLStreamConsumerReleaseFrame", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamProducerConnect() { return refused("cudaEGLStreamProducerConnect", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamProducerDisconnect() { return refused("cudaEGLStreamProducerDisconnect", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamProducerPresentFrame() { return refused("cudaEGLStreamProducerPresentFrame", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEGLStreamProducerReturnFrame() { return refused("cudaEGLStreamProducerReturnFrame", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaEventCreateFromEGLSync() { return refused("cudaEventCreateFromEGLSync", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaGraphicsEGLRegisterImage() { return refused("cudaGraphicsEGLRegisterImage", "EGL interop: warpscope has no EGL display or streams"); }

// refused: EGL interop: warpscope has no EGL display or streams
WS_API cudaError_t cudaGraphicsResourceGetMappedEglFrame() { return refused("cudaGraphicsResourceGetMappedEglFrame", "EGL interop: warpscope has no EGL display or streams"); }

// ---- VDPAU interop: warpscope has no VDPAU device

// refused: VDPAU interop: warpscope has no VDPAU device
WS_API cudaError_t cudaVDPAUGetDevice() { return refused("cudaVDPAUGetDevice", "VDPAU interop: warpscope has no VDPAU device"); }

// refused: VDPAU interop: warpscope has no VDPAU device
WS_API cudaError_t cudaVDPAUSetVDPAUDevice() { return refused("cudaVDPAUSetVDPAUDevice", "VDPAU interop: warpscope has no VDPAU device"); }

// refused: VDPAU interop: warpscope has no VDPAU device
WS_API cudaError_t cudaGraphicsVDPAURegisterOutputSurface() { return refused("cudaGraphicsVDPAURegisterOutputSurface", "VDPAU interop: warpscope has no VDPAU device"); }

// refused: VDPAU interop: warpscope has no VDPAU device
WS_API cudaError_t cudaGraphicsVDPAURegisterVideoSurface() { return refused("cudaGraphicsVDPAURegisterVideoSurface", "VDPAU interop: warpscope has no VDPAU device"); }

// ---- NvSciSync interop: not available

// refused: NvSciSync interop: not available
WS_API cudaError_t cudaDeviceGetNvSciSyncAttributes() { return refused("cudaDeviceGetNvSciSyncAttributes", "NvSciSync interop: not available"); }

// ---- External memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device

// refused: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_API cudaError_t cudaImportExternalMemory() { return refused("cudaImportExternalMemory", "external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device"); }

// refused: external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device
WS_API cudaError_t cudaImportExternalSemaphore() { return refused("cudaImportExternalSemaphore", "external memory and semaphores (Vulkan, D3D, NvSci, OS handles): warpscope cannot map another API's memory into its device"); }

// ---- IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaIpcGetMemHandle() { return refused("cudaIpcGetMemHandle", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaIpcOpenMemHandle() { return refused("cudaIpcOpenMemHandle", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaIpcCloseMemHandle() { return refused("cudaIpcCloseMemHandle", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaIpcGetEventHandle() { return refused("cudaIpcGetEventHandle", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaIpcOpenEventHandle() { return refused("cudaIpcOpenEventHandle", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaMemPoolExportToShareableHandle() { return refused("cudaMemPoolExportToShareableHandle", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaMemPoolImportFromShareableHandle() { return refused("cudaMemPoolImportFromShareableHandle", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaMemPoolExportPointer() { return refused("cudaMemPoolExportPointer", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// refused: IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map
WS_API cudaError_t cudaMemPoolImportPointer() { return refused("cudaMemPoolImportPointer", "IPC between processes: each process under warpscope has its own emulated device, which other processes cannot map"); }

// ---- Graphics resources: none can be registered here (the registering calls are refused)

// caveat: cudaErrorInvalidResourceHandle for every handle: graphics resources: none can be registered here (the registering calls are refused)
WS_API cudaError_t cudaGraphicsMapResources() { return no_such("cudaGraphicsMapResources", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: graphics resources: none can be registered here (the registering calls are refused)
WS_API cudaError_t cudaGraphicsUnmapResources() { return no_such("cudaGraphicsUnmapResources", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: graphics resources: none can be registered here (the registering calls are refused)
WS_API cudaError_t cudaGraphicsResourceGetMappedPointer() { return no_such("cudaGraphicsResourceGetMappedPointer", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: graphics resources: none can be registered here (the registering calls are refused)
WS_API cudaError_t cudaGraphicsResourceGetMappedMipmappedArray() { return no_such("cudaGraphicsResourceGetMappedMipmappedArray", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: graphics resources: none can be registered here (the registering calls are refused)
WS_API cudaError_t cudaGraphicsResourceSetMapFlags() { return no_such("cudaGraphicsResourceSetMapFlags", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: graphics resources: none can be registered here (the registering calls are refused)
WS_API cudaError_t cudaGraphicsSubResourceGetMappedArray() { return no_such("cudaGraphicsSubResourceGetMappedArray", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: graphics resources: none can be registered here (the registering calls are refused)
WS_API cudaError_t cudaGraphicsUnregisterResource() { return no_such("cudaGraphicsUnregisterResource", kErrInvalidResourceHandle); }

// ---- External memory and semaphores: none can be imported here (the importing calls are refused)

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaDestroyExternalMemory() { return no_such("cudaDestroyExternalMemory", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaDestroyExternalSemaphore() { return no_such("cudaDestroyExternalSemaphore", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaExternalMemoryGetMappedBuffer() { return no_such("cudaExternalMemoryGetMappedBuffer", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaExternalMemoryGetMappedMipmappedArray() { return no_such("cudaExternalMemoryGetMappedMipmappedArray", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaSignalExternalSemaphoresAsync() { return no_such("cudaSignalExternalSemaphoresAsync", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaSignalExternalSemaphoresAsync_ptsz() { return no_such("cudaSignalExternalSemaphoresAsync_ptsz", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaWaitExternalSemaphoresAsync() { return no_such("cudaWaitExternalSemaphoresAsync", kErrInvalidResourceHandle); }

// caveat: cudaErrorInvalidResourceHandle for every handle: external memory and semaphores: none can be imported here (the importing calls are refused)
WS_API cudaError_t cudaWaitExternalSemaphoresAsync_ptsz() { return no_such("cudaWaitExternalSemaphoresAsync_ptsz", kErrInvalidResourceHandle); }

// ---- External semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphAddExternalSemaphoresSignalNode() { return no_such("cudaGraphAddExternalSemaphoresSignalNode", kErrInvalidValue); }

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphAddExternalSemaphoresWaitNode() { return no_such("cudaGraphAddExternalSemaphoresWaitNode", kErrInvalidValue); }

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphExternalSemaphoresSignalNodeGetParams() { return no_such("cudaGraphExternalSemaphoresSignalNodeGetParams", kErrInvalidValue); }

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphExternalSemaphoresSignalNodeSetParams() { return no_such("cudaGraphExternalSemaphoresSignalNodeSetParams", kErrInvalidValue); }

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphExternalSemaphoresWaitNodeGetParams() { return no_such("cudaGraphExternalSemaphoresWaitNodeGetParams", kErrInvalidValue); }

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphExternalSemaphoresWaitNodeSetParams() { return no_such("cudaGraphExternalSemaphoresWaitNodeSetParams", kErrInvalidValue); }

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphExecExternalSemaphoresSignalNodeSetParams() { return no_such("cudaGraphExecExternalSemaphoresSignalNodeSetParams", kErrInvalidValue); }

// caveat: cudaErrorInvalidValue for every handle: external semaphore nodes: no semaphore can be imported here, so no such node exists and none can be added
WS_API cudaError_t cudaGraphExecExternalSemaphoresWaitNodeSetParams() { return no_such("cudaGraphExecExternalSemaphoresWaitNodeSetParams", kErrInvalidValue); }
