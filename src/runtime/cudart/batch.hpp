// The batch copies and batch managed-memory hints, shared by the runtime's entry points
// (cudaMemcpyBatchAsync, cudaMemcpy3DBatchAsync, cudaMemPrefetchBatchAsync, ...: api_batch.cpp)
// and the driver's (cuMemcpyBatchAsync_v2, the CUDA 12.8 names with a failIdx, cuMemPrefetch-
// BatchAsync, ...: drv_batch.cpp). The driver's structures (CUmemcpyAttributes,
// CUDA_MEMCPY3D_BATCH_OP) have the runtime's layout, so both pass theirs through.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/cudart/abi.hpp"

namespace warpscope::cudart {

/// cudaMemcpyAttributes (CUmemcpyAttributes).
struct MemcpyAttributes {
  int srcAccessOrder;  // cudaMemcpySrcAccessOrder: Stream 1, DuringApiCall 2, Any 3
  int srcLocHint[2];
  int dstLocHint[2];
  unsigned flags;  // cudaMemcpyFlagPreferOverlapWithCompute 1
};
static_assert(sizeof(MemcpyAttributes) == 24);

/// cudaMemcpy3DOperand and cudaMemcpy3DBatchOp (CUmemcpy3DOperand, CUDA_MEMCPY3D_BATCH_OP).
struct Memcpy3DOperand {
  int type;  // cudaMemcpyOperandTypePointer 1, Array 2
  int pad;
  union {
    struct {
      void* ptr;
      std::size_t rowLength, layerHeight;
      int locHint[2];
    } ptr;
    struct {
      void* array;
      std::size_t x, y, z;
    } array;
  } op;
};
static_assert(sizeof(Memcpy3DOperand) == 40);
struct Memcpy3DBatchOp {
  Memcpy3DOperand src, dst;
  Extent extent;
  int srcAccessOrder;
  unsigned flags;
};
static_assert(sizeof(Memcpy3DBatchOp) == 112);

/// What failIdx holds when no single copy is to blame (success, or a check of the whole batch or
/// of an attribute): SIZE_MAX, as the H200's driver writes (tests/hw/data/h200/driver_stubs).
inline constexpr std::size_t kNoFailIndex = SIZE_MAX;

/// cudaMemcpyBatchAsync: `count` copies of sizes[i] bytes, each with the attributes attrs[j] of the
/// last idxs[j] <= i. The legacy stream is refused ("Must not be legacy NULL stream"), as are an
/// empty batch, attribute indices that do not start at 0 and rise, an unknown access order and an
/// unknown flag. The copies run in order at once. *fail_idx (when not null): the failing copy's
/// index, or kNoFailIndex.
cudaError_t memcpy_batch(const char* api, void* const* dsts, const void* const* srcs, const std::size_t* sizes,
                         std::size_t count, const MemcpyAttributes* attrs, const std::size_t* idxs,
                         std::size_t n_attrs, void* stream, std::size_t* fail_idx);

/// cudaMemcpy3DBatchAsync: each op a 3-D copy between pointers and arrays (extent in elements of
/// an array operand, else bytes by rows and layers); flags must be 0; the legacy stream is refused.
cudaError_t memcpy_3d_batch(const char* api, std::size_t n, const Memcpy3DBatchOp* ops, unsigned long long flags,
                            void* stream, std::size_t* fail_idx);

/// The batch prefetches and discards (cudaMemPrefetchBatchAsync, cudaMemDiscardBatchAsync,
/// cudaMemDiscardAndPrefetchBatchAsync): checked, then nothing to do: managed memory is where
/// each side needs it, and a discarded range keeps its contents (CUDA leaves them undefined; the
/// H200 kept them too). Every range must be managed memory; flags must be 0; the legacy stream is
/// refused.
cudaError_t memory_batch_hint(const char* api, void* const* ptrs, const std::size_t* sizes, std::size_t count,
                              unsigned long long flags, void* stream);

}  // namespace warpscope::cudart
