// The binary interface of the CUDA 13 runtime that programs compiled by nvcc call: warpscope's own
// declarations of the types whose layout or numbering crosses the library boundary. Field order,
// sizes and enum numbers follow CUDA 13.0's documented types (cudaDeviceProp, cudaFuncAttributes,
// cudaPointerAttributes, cudaError_t, cudaMemcpyKind); the static_asserts pin the sizes, and
// tests/runtime checks the values seen by a program built against NVIDIA's headers.
// NVIDIA's headers are never included here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpscope::cudart {

using cudaError_t = int;  // enum cudaError: passed and returned as int

inline constexpr cudaError_t kSuccess = 0;
inline constexpr cudaError_t kErrInvalidValue = 1;
inline constexpr cudaError_t kErrMemoryAllocation = 2;
inline constexpr cudaError_t kErrInitialization = 3;
inline constexpr cudaError_t kErrCudartUnloading = 4;
inline constexpr cudaError_t kErrHostMemoryAlreadyRegistered = 712;
inline constexpr cudaError_t kErrHostMemoryNotRegistered = 713;
inline constexpr cudaError_t kErrInvalidConfiguration = 9;
inline constexpr cudaError_t kErrInvalidPitchValue = 12;
inline constexpr cudaError_t kErrInvalidSymbol = 13;
inline constexpr cudaError_t kErrInvalidDevicePointer = 17;
inline constexpr cudaError_t kErrInvalidMemcpyDirection = 21;
inline constexpr cudaError_t kErrMissingConfiguration = 52;
inline constexpr cudaError_t kErrInvalidDeviceFunction = 98;
inline constexpr cudaError_t kErrInvalidDevice = 101;
inline constexpr cudaError_t kErrInvalidKernelImage = 200;
inline constexpr cudaError_t kErrNoKernelImageForDevice = 209;
inline constexpr cudaError_t kErrInvalidPtx = 218;
inline constexpr cudaError_t kErrInvalidResourceHandle = 400;
inline constexpr cudaError_t kErrNotReady = 600;
inline constexpr cudaError_t kErrIllegalAddress = 700;
inline constexpr cudaError_t kErrLaunchTimeout = 702;
inline constexpr cudaError_t kErrLaunchOutOfResources = 701;
inline constexpr cudaError_t kErrAssert = 710;
inline constexpr cudaError_t kErrIllegalInstruction = 715;
inline constexpr cudaError_t kErrMisalignedAddress = 716;
inline constexpr cudaError_t kErrLaunchFailure = 719;
inline constexpr cudaError_t kErrCooperativeLaunchTooLarge = 720;
inline constexpr cudaError_t kErrNotSupported = 801;
inline constexpr cudaError_t kErrInvalidClusterSize = 912;
inline constexpr cudaError_t kErrUnknown = 999;

/// The name ("cudaErrorInvalidValue") and description ("invalid argument") of a code; unknown
/// codes give "unrecognized error code".
const char* error_name(cudaError_t e);
const char* error_string(cudaError_t e);

enum MemcpyKind : int {
  kHostToHost = 0,
  kHostToDevice = 1,
  kDeviceToHost = 2,
  kDeviceToDevice = 3,
  kDefault = 4,
};

enum MemoryType : int { kUnregistered = 0, kHost = 1, kDevice = 2, kManaged = 3 };

inline constexpr unsigned kHostAllocMapped = 0x02;
inline constexpr int kFuncAttrMaxDynamicShared = 8;
inline constexpr int kFuncAttrPreferredCarveout = 9;
inline constexpr int kFuncAttrFirst = 8, kFuncAttrLast = 15;
inline constexpr int kFuncAttrNonPortableClusterSizeAllowed = 14;

struct Dim3 {
  unsigned x, y, z;
};
static_assert(sizeof(Dim3) == 12);

/// cudaLaunchAttribute: an id (enum cudaLaunchAttributeID), padding to 8, a 64-byte value union.
struct LaunchAttribute {
  int id;
  char pad[4];
  union Value {
    char bytes[64];
    int i;                                   // cooperative, priority, ...
    struct { unsigned x, y, z; } dim;        // clusterDim, preferredClusterDim
    struct { void* event; int flags; int trigger_at_block_start; } event;  // programmaticEvent,
                                                                            // launchCompletionEvent
  } val;
};
static_assert(sizeof(LaunchAttribute) == 72);

/// cudaLaunchConfig_t (cudaLaunchKernelExC).
struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  std::size_t dynamic_smem;
  void* stream;
  LaunchAttribute* attrs;
  unsigned num_attrs;
};
static_assert(sizeof(LaunchConfig) == 56);

/// enum cudaLaunchAttributeID (CUDA 13.0).
enum LaunchAttributeId : int {
  kLaunchAttrIgnore = 0,
  kLaunchAttrAccessPolicyWindow = 1,
  kLaunchAttrCooperative = 2,
  kLaunchAttrSynchronizationPolicy = 3,
  kLaunchAttrClusterDimension = 4,
  kLaunchAttrClusterSchedulingPolicyPreference = 5,
  kLaunchAttrProgrammaticStreamSerialization = 6,
  kLaunchAttrProgrammaticEvent = 7,
  kLaunchAttrPriority = 8,
  kLaunchAttrMemSyncDomainMap = 9,
  kLaunchAttrMemSyncDomain = 10,
  kLaunchAttrPreferredClusterDimension = 11,
  kLaunchAttrLaunchCompletionEvent = 12,
  kLaunchAttrDeviceUpdatableKernelNode = 13,
  kLaunchAttrPreferredSharedMemoryCarveout = 14,
  kLaunchAttrNvlinkUtilCentricScheduling = 16,
};

struct Uuid {
  char bytes[16];
};

/// cudaDeviceProp, CUDA 13.0 layout (1008 bytes).
struct DeviceProp {
  char name[256];
  Uuid uuid;
  char luid[8];
  unsigned luidDeviceNodeMask;
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  std::size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  std::size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  std::size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  std::size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned gpuPciDeviceID;
  unsigned gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};
static_assert(sizeof(DeviceProp) == 1008, "cudaDeviceProp is 1008 bytes in CUDA 13.0");
static_assert(offsetof(DeviceProp, l2CacheSize) == 596);

/// cudaFuncAttributes, CUDA 13.0 layout (144 bytes).
struct FuncAttributes {
  std::size_t sharedSizeBytes;
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
static_assert(sizeof(FuncAttributes) == 144, "cudaFuncAttributes is 144 bytes in CUDA 13.0");

/// cudaPointerAttributes (88 bytes).
struct PointerAttributes {
  int type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};
static_assert(sizeof(PointerAttributes) == 88);

/// cudaChannelFormatDesc.
struct ChannelFormatDesc {
  int x, y, z, w;
  int f;
};

// Arrays, textures and surfaces (driver_types.h, texture_types.h, CUDA 13.0 layouts).
inline constexpr cudaError_t kErrInvalidChannelDescriptor = 20;
inline constexpr unsigned kArrayLayered = 0x01, kArraySurfaceLoadStore = 0x02, kArrayCubemap = 0x04,
                          kArrayTextureGather = 0x08;
enum ResourceType : int { kResArray = 0, kResMipmappedArray = 1, kResLinear = 2, kResPitch2D = 3 };

struct Extent {
  std::size_t width, height, depth;
};
struct Pos {
  std::size_t x, y, z;
};
struct PitchedPtr {
  void* ptr;
  std::size_t pitch, xsize, ysize;
};
/// cudaMemcpy3DParms.
struct Memcpy3DParms {
  void* srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  void* dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  Extent extent;
  int kind;
};
static_assert(sizeof(Memcpy3DParms) == 160);

/// cudaResourceDesc.
struct ResourceDesc {
  int resType;
  union {
    struct {
      void* array;
    } array;
    struct {
      void* mipmap;
    } mipmap;
    struct {
      void* devPtr;
      ChannelFormatDesc desc;
      std::size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      ChannelFormatDesc desc;
      std::size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned flags;
};
static_assert(sizeof(ResourceDesc) == 144);

/// cudaTextureDesc.
struct TextureDesc {
  int addressMode[3];
  int filterMode;
  int readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
static_assert(sizeof(TextureDesc) == 72);

// Special stream handles.
inline constexpr std::uintptr_t kStreamLegacy = 0x1;
inline constexpr std::uintptr_t kStreamPerThread = 0x2;

}  // namespace warpscope::cudart
