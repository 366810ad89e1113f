// drvrt: devices, memory, streams and events on the driver API (see drvrt.hpp).
#include <cstring>
#include <string>
#include <type_traits>

#include "drvrt.hpp"

namespace drvrt {
cudaError_t variable_address(const void* symbol, CUdeviceptr* address, std::size_t* size);
}  // namespace drvrt

using namespace drvrt;

namespace {

CUdeviceptr dptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

/// Runs `call` after making the context current; the driver's result as the runtime's, recorded.
template <typename F>
cudaError_t with_context(F&& call) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  return note(from(call()));
}

/// A copy of `count` bytes in the direction `kind`, on `stream` when `async`.
cudaError_t copy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, CUstream stream, bool async) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  if (count == 0) return cudaSuccess;
  CUresult r = CUDA_SUCCESS;
  switch (kind) {
    case cudaMemcpyHostToHost:
      std::memcpy(dst, src, count);
      break;
    case cudaMemcpyHostToDevice:
      r = async ? cuMemcpyHtoDAsync(dptr(dst), src, count, stream) : cuMemcpyHtoD(dptr(dst), src, count);
      break;
    case cudaMemcpyDeviceToHost:
      r = async ? cuMemcpyDtoHAsync(dst, dptr(src), count, stream) : cuMemcpyDtoH(dst, dptr(src), count);
      break;
    case cudaMemcpyDeviceToDevice:
      r = async ? cuMemcpyDtoDAsync(dptr(dst), dptr(src), count, stream) : cuMemcpyDtoD(dptr(dst), dptr(src), count);
      break;
    case cudaMemcpyDefault:  // unified addressing: the driver tells host from device
      r = async ? cuMemcpyAsync(dptr(dst), dptr(src), count, stream) : cuMemcpy(dptr(dst), dptr(src), count);
      break;
    default:
      return note(cudaErrorInvalidMemcpyDirection);
  }
  return note(from(r));
}

/// A copy to or from the variable registered for `symbol`, `offset` bytes into it.
cudaError_t symbol_copy(const void* symbol, std::size_t offset, void* host_or_device, std::size_t count,
                        cudaMemcpyKind kind, bool to_symbol) {
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (const cudaError_t e = variable_address(symbol, &base, &size); e != cudaSuccess) return note(e);
  if (offset > size || count > size - offset) return note(cudaErrorInvalidValue);
  void* dev = reinterpret_cast<void*>(base + offset);
  if (to_symbol) {
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
      return note(cudaErrorInvalidMemcpyDirection);
    return copy(dev, host_or_device, count, kind, nullptr, false);
  }
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return note(cudaErrorInvalidMemcpyDirection);
  return copy(host_or_device, dev, count, kind, nullptr, false);
}

}  // namespace

extern "C" {

// ---- devices -------------------------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int* count) {
  return with_context([&] { return cuDeviceGetCount(count); });
}

cudaError_t cudaSetDevice(int device) {
  if (device != 0) return note(cudaErrorInvalidDevice);  // the launcher runs on device 0 only
  return with_context([] { return CUDA_SUCCESS; });
}

// cudaDeviceScheduleAuto 0, Spin 1, Yield 2, BlockingSync 4, MapHost 8, LmemResizeToMax 16 are
// CU_CTX_*'s: the primary context's flags.
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  return with_context([&] { return cuDevicePrimaryCtxSetFlags(0, flags); });
}

cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return with_context([] { return CUDA_SUCCESS; });
}

// CUDA 13's cudaDeviceAttr and CUdevice_attribute number the attributes alike.
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  return with_context([&] { return cuDeviceGetAttribute(value, static_cast<CUdevice_attribute>(attr), device); });
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  *prop = cudaDeviceProp{};
  CUresult r = cuDeviceGetName(prop->name, sizeof prop->name, device);
  if (r == CUDA_SUCCESS) r = cuDeviceGetUuid(reinterpret_cast<CUuuid*>(&prop->uuid), device);
  if (r == CUDA_SUCCESS) r = cuDeviceTotalMem(&prop->totalGlobalMem, device);
  const auto get = [&](auto& field, CUdevice_attribute a) {
    int v = 0;
    if (r == CUDA_SUCCESS) r = cuDeviceGetAttribute(&v, a, device);
    field = static_cast<std::remove_reference_t<decltype(field)>>(v);
  };
  // Every field of cudaDeviceProp that a device attribute answers (luid and luidDeviceNodeMask,
  // Windows only, stay 0).
  get(prop->sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  get(prop->regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  get(prop->warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  get(prop->memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH);
  get(prop->maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  get(prop->maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  get(prop->maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  get(prop->maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  get(prop->maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  get(prop->maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  get(prop->maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  get(prop->totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
  get(prop->major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  get(prop->minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  get(prop->textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
  get(prop->texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
  get(prop->multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  get(prop->integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED);
  get(prop->canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
  get(prop->maxTexture1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH);
  get(prop->maxTexture1DMipmap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH);
  get(prop->maxTexture2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH);
  get(prop->maxTexture2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT);
  get(prop->maxTexture2DMipmap[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH);
  get(prop->maxTexture2DMipmap[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT);
  get(prop->maxTexture2DLinear[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
  get(prop->maxTexture2DLinear[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
  get(prop->maxTexture2DLinear[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
  get(prop->maxTexture2DGather[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH);
  get(prop->maxTexture2DGather[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT);
  get(prop->maxTexture3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH);
  get(prop->maxTexture3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT);
  get(prop->maxTexture3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH);
  get(prop->maxTexture3DAlt[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE);
  get(prop->maxTexture3DAlt[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE);
  get(prop->maxTexture3DAlt[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE);
  get(prop->maxTextureCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH);
  get(prop->maxTexture1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH);
  get(prop->maxTexture1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS);
  get(prop->maxTexture2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH);
  get(prop->maxTexture2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT);
  get(prop->maxTexture2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS);
  get(prop->maxTextureCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH);
  get(prop->maxTextureCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS);
  get(prop->maxSurface1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH);
  get(prop->maxSurface2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
  get(prop->maxSurface2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT);
  get(prop->maxSurface3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH);
  get(prop->maxSurface3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT);
  get(prop->maxSurface3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
  get(prop->maxSurface1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH);
  get(prop->maxSurface1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS);
  get(prop->maxSurface2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH);
  get(prop->maxSurface2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT);
  get(prop->maxSurface2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS);
  get(prop->maxSurfaceCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH);
  get(prop->maxSurfaceCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH);
  get(prop->maxSurfaceCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS);
  get(prop->surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT);
  get(prop->concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
  get(prop->ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
  get(prop->pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  get(prop->pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  get(prop->pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  get(prop->tccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER);
  get(prop->asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
  get(prop->unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
  get(prop->memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  get(prop->l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  get(prop->persistingL2CacheMaxSize, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
  get(prop->maxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  get(prop->streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
  get(prop->globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
  get(prop->localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
  get(prop->sharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  get(prop->regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  get(prop->managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
  get(prop->isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD);
  get(prop->multiGpuBoardGroupID, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID);
  get(prop->hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
  get(prop->pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
  get(prop->concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
  get(prop->computePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED);
  get(prop->canUseHostPointerForRegisteredMem, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
  get(prop->cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
  get(prop->sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  get(prop->pageableMemoryAccessUsesHostPageTables, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
  get(prop->directManagedMemAccessFromHost, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
  get(prop->maxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
  get(prop->accessPolicyMaxWindowSize, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
  get(prop->reservedSharedMemPerBlock, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
  get(prop->hostRegisterSupported, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED);
  get(prop->sparseCudaArraySupported, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED);
  get(prop->hostRegisterReadOnlySupported, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED);
  get(prop->timelineSemaphoreInteropSupported, CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED);
  get(prop->memoryPoolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
  get(prop->gpuDirectRDMASupported, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
  get(prop->gpuDirectRDMAFlushWritesOptions, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS);
  get(prop->gpuDirectRDMAWritesOrdering, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING);
  get(prop->memoryPoolSupportedHandleTypes, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES);
  get(prop->deferredMappingCudaArraySupported, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED);
  get(prop->ipcEventSupported, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED);
  get(prop->clusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
  get(prop->unifiedFunctionPointers, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS);
  get(prop->deviceNumaConfig, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG);
  get(prop->deviceNumaId, CU_DEVICE_ATTRIBUTE_NUMA_ID);
  get(prop->mpsEnabled, CU_DEVICE_ATTRIBUTE_MPS_ENABLED);
  get(prop->hostNumaId, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID);
  get(prop->gpuPciDeviceID, CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID);
  get(prop->gpuPciSubsystemID, CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID);
  get(prop->hostNumaMultinodeIpcSupported, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED);
  return note(from(r));
}

cudaError_t cudaDeviceSynchronize() {
  return with_context([] { return cuCtxSynchronize(); });
}

// ---- memory --------------------------------------------------------------------------------

cudaError_t cudaMalloc(void** ptr, size_t size) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  if (size == 0) {  // the runtime's answer: success and a null pointer
    *ptr = nullptr;
    return cudaSuccess;
  }
  CUdeviceptr d = 0;
  const CUresult r = cuMemAlloc(&d, size);
  if (r == CUDA_SUCCESS) *ptr = reinterpret_cast<void*>(d);
  return note(from(r));
}

cudaError_t cudaFree(void* ptr) {
  if (const cudaError_t e = ensure_context(); e != cudaSuccess) return note(e);
  if (ptr == nullptr) return cudaSuccess;
  return note(from(cuMemFree(dptr(ptr))));
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  return with_context([&] { return cuMemAllocHost(ptr, size); });
}

// cudaHostAlloc's flags (Default 0, Portable 1, Mapped 2, WriteCombined 4) are CU_MEMHOSTALLOC_*'s.
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags) {
  return with_context([&] { return cuMemHostAlloc(ptr, size, flags); });
}

// cudaHostRegister's flags (Default 0, Portable 1, Mapped 2, IoMemory 4, ReadOnly 8) are
// CU_MEMHOSTREGISTER_*'s.
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  return with_context([&] { return cuMemHostRegister(ptr, size, flags); });
}

cudaError_t cudaHostUnregister(void* ptr) {
  return with_context([&] { return cuMemHostUnregister(ptr); });
}

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  return with_context([&] { return cuMemHostGetDevicePointer(reinterpret_cast<CUdeviceptr*>(pDevice), pHost, flags); });
}

cudaError_t cudaFreeHost(void* ptr) {
  return with_context([&] { return cuMemFreeHost(ptr); });
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return copy(dst, src, count, kind, nullptr, false);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return copy(dst, src, count, kind, stream, true);
}

cudaError_t cudaMemset(void* ptr, int value, size_t count) {
  return with_context([&] { return cuMemsetD8(dptr(ptr), static_cast<unsigned char>(value), count); });
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind) {
  return symbol_copy(symbol, offset, const_cast<void*>(src), count, kind, true);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  return symbol_copy(symbol, offset, dst, count, kind, false);
}

// ---- streams and events --------------------------------------------------------------------

// cudaStreamNonBlocking (1) is CU_STREAM_NON_BLOCKING.
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return with_context([&] { return cuStreamCreate(stream, flags); });
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  return with_context([&] { return cuStreamCreate(stream, CU_STREAM_DEFAULT); });
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return with_context([&] { return cuStreamDestroy(stream); });
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return with_context([&] { return cuStreamSynchronize(stream); });
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return with_context([&] { return cuEventCreate(event, CU_EVENT_DEFAULT); });
}

// cudaEventDefault 0, BlockingSync 1, DisableTiming 2, Interprocess 4 are CU_EVENT_*'s.
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return with_context([&] { return cuEventCreate(event, flags); });
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return with_context([&] { return cuEventRecord(event, stream); });
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return with_context([&] { return cuEventSynchronize(event); });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  return with_context([&] { return cuEventQuery(event); });
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return with_context([&] { return cuEventElapsedTime(ms, start, end); });
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return with_context([&] { return cuEventDestroy(event); });
}

}  // extern "C"
