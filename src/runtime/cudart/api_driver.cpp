// Driver entry points (cudaGetDriverEntryPoint, cudaGetDriverEntryPointByVersion: every function of
// the driver API, as cuGetProcAddress hands them out, drv_proc.cpp) and the tensor-map encoders the
// TMA needs (cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col, cuTensorMapReplaceAddress; and
// cuTensorMapEncodeIm2colWide, checked only). Their checks are
// the driver's documented CUDA_ERROR_INVALID_VALUE cases (src/exec/tensormap.hpp); the 128 bytes
// of the CUtensorMap hold warpscope's own encoding, which the interpreter reads back.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "exec/tensormap.hpp"
#include "runtime/cudart/drv.hpp"

namespace warpscope::cudart {
namespace {

using drv::CUresult;
using drv::kCuInvalidValue;
using drv::kCuSuccess;

// cudaDriverEntryPointQueryResult
constexpr int kEntrySuccess = 0;
constexpr int kEntrySymbolNotFound = 1;
constexpr int kEntryVersionNotSufficient = 2;

CUresult invalid_map(const char* fn, const std::string& why) {
  std::fprintf(stderr, "warpscope: %s: CUDA_ERROR_INVALID_VALUE: %s\n", fn, why.c_str());
  return kCuInvalidValue;
}

/// cuTensorMapEncodeIm2col's arguments (and cuTensorMapEncodeIm2colWide's, with D and H corners 0).
warpscope::exec::tma::Im2colArgs im2col_args(unsigned type, unsigned rank, void* address, const std::uint64_t* dims,
                                             const std::uint64_t* strides, const int* lower, const int* upper,
                                             unsigned channels, unsigned pixels, const std::uint32_t* element_strides,
                                             unsigned interleave, unsigned swizzle, unsigned l2, unsigned fill) {
  warpscope::exec::tma::Im2colArgs a;
  a.t.data_type = type;
  a.t.rank = rank;
  a.t.global_address = reinterpret_cast<std::uintptr_t>(address);
  a.t.dims = dims;
  a.t.strides = strides;
  a.t.element_strides = element_strides;
  a.t.interleave = interleave;
  a.t.swizzle = swizzle;
  a.t.l2_promotion = l2;
  a.t.oob_fill = fill;
  a.lower = lower;
  a.upper = upper;
  a.channels = channels;
  a.pixels = pixels;
  return a;
}

cudaError_t entry_point(const char* symbol, void** fn, int version, unsigned long long flags, int* status) {
  if (symbol == nullptr || fn == nullptr) return last_error() = kErrInvalidValue;
  bool too_low = false;
  *fn = drv::proc_address(symbol, version, flags, &too_low);
  if (status != nullptr) *status = *fn != nullptr ? kEntrySuccess : too_low ? kEntryVersionNotSufficient : kEntrySymbolNotFound;
  return kSuccess;
}

}  // namespace
}  // namespace warpscope::cudart

using namespace warpscope::cudart;  // NOLINT: the C entry points below

WS_DRV CUresult cuTensorMapEncodeTiled(void* map, unsigned type, unsigned rank, void* address, const std::uint64_t* dims,
                                              const std::uint64_t* strides, const std::uint32_t* box,
                                              const std::uint32_t* element_strides, unsigned interleave, unsigned swizzle,
                                              unsigned l2, unsigned fill) {
  warpscope::exec::tma::TiledArgs a;
  a.data_type = type;
  a.rank = rank;
  a.global_address = reinterpret_cast<std::uintptr_t>(address);
  a.dims = dims;
  a.strides = strides;
  a.box = box;
  a.element_strides = element_strides;
  a.interleave = interleave;
  a.swizzle = swizzle;
  a.l2_promotion = l2;
  a.oob_fill = fill;
  const std::string why = warpscope::exec::tma::check_tiled(a, map);
  if (!why.empty()) return invalid_map("cuTensorMapEncodeTiled", why);
  const warpscope::exec::tma::EncodedMap m = warpscope::exec::tma::encode_tiled(a);
  std::memset(map, 0, 128);
  std::memcpy(map, &m, sizeof m);
  return kCuSuccess;
}

WS_DRV CUresult cuTensorMapEncodeIm2col(void* map, unsigned type, unsigned rank, void* address, const std::uint64_t* dims,
                                               const std::uint64_t* strides, const int* lower, const int* upper,
                                               unsigned channels, unsigned pixels, const std::uint32_t* element_strides,
                                               unsigned interleave, unsigned swizzle, unsigned l2, unsigned fill) {
  const warpscope::exec::tma::Im2colArgs a = im2col_args(type, rank, address, dims, strides, lower, upper, channels,
                                                         pixels, element_strides, interleave, swizzle, l2, fill);
  const std::string why = warpscope::exec::tma::check_im2col(a, map);
  if (!why.empty()) return invalid_map("cuTensorMapEncodeIm2col", why);
  const warpscope::exec::tma::EncodedMap m = warpscope::exec::tma::encode_im2col(a);
  std::memset(map, 0, 128);
  std::memcpy(map, &m, sizeof m);
  return kCuSuccess;
}

// caveat: checked, and the map left zero: no sm_90 instruction reads an im2col-wide map (the .im2col::w
//   modes are sm_100's; the H200 encodes it all the same)
WS_DRV CUresult cuTensorMapEncodeIm2colWide(void* map, unsigned type, unsigned rank, void* address,
                                            const std::uint64_t* dims, const std::uint64_t* strides, int lower_w,
                                            int upper_w, unsigned channels, unsigned pixels,
                                            const std::uint32_t* element_strides, unsigned interleave, unsigned mode,
                                            unsigned swizzle, unsigned l2, unsigned fill) {
  constexpr const char* kFn = "cuTensorMapEncodeIm2colWide";
  if (map == nullptr) return invalid_map(kFn, "tensorMap is NULL");
  if (rank < 3 || rank > 5) return invalid_map(kFn, "tensorRank must be 3, 4 or 5");
  if (mode > 1) return invalid_map(kFn, "mode is not CU_TENSOR_MAP_IM2COL_WIDE_MODE_W or _W128");
  // CU_TENSOR_MAP_SWIZZLE_64B 2, _128B 3, _128B_ATOM_32B 4: "other swizzle modes are not supported"
  if (swizzle < 2 || swizzle > 4) return invalid_map(kFn, "swizzle must be 64B, 128B or 128B_ATOM_32B");
  if (lower_w < -32768 || lower_w > 32767 || upper_w < -32768 || upper_w > 32767) {
    return invalid_map(kFn, "pixelBoxLowerCornerWidth and pixelBoxUpperCornerWidth must be in [-32768, 32767]");
  }
  if (dims != nullptr && lower_w > static_cast<std::int64_t>(dims[1]) - 1 + upper_w) {
    return invalid_map(kFn, "the pixel bounding box along W is empty");
  }
  if (mode == 0 && pixels > 1024) return invalid_map(kFn, "pixelsPerColumn must be at most 1024");
  // The other checks are cuTensorMapEncodeIm2col's, with the D and H corners 0.
  const int corners[3] = {0, 0, 0};
  const warpscope::exec::tma::Im2colArgs a =
      im2col_args(type, rank, address, dims, strides, corners, corners, channels, mode == 0 ? pixels : 128,
                  element_strides, interleave, swizzle, l2, fill);
  if (const std::string why = warpscope::exec::tma::check_im2col(a, map); !why.empty()) return invalid_map(kFn, why);
  std::memset(map, 0, 128);
  return kCuSuccess;
}

WS_DRV CUresult cuTensorMapReplaceAddress(void* map, void* address) {
  if (map == nullptr) return invalid_map("cuTensorMapReplaceAddress", "tensorMap is NULL");
  std::optional<warpscope::exec::tma::EncodedMap> m = warpscope::exec::tma::decode(static_cast<const std::uint8_t*>(map));
  if (!m) return invalid_map("cuTensorMapReplaceAddress", "tensorMap was not made by cuTensorMapEncodeTiled/Im2col");
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  if (a % (m->interleave == 2 ? 32 : 16) != 0) return invalid_map("cuTensorMapReplaceAddress", "globalAddress is misaligned");
  m->global_address = a;
  std::memcpy(map, &*m, sizeof *m);
  return kCuSuccess;
}



// The runtime's version (13000) picks the driver function's version; cudaEnablePerThreadDefaultStream
// (flags 2) its per-thread form, as cuGetProcAddress's flags.
WS_API cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** fn, unsigned long long flags, int* status) {
  return entry_point(symbol, fn, 13000, flags, status);
}
WS_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char* symbol, void** fn, unsigned long long flags, int* status) {
  return entry_point(symbol, fn, 13000, flags, status);
}
WS_API cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned version,
                                                    unsigned long long flags, int* status) {
  return entry_point(symbol, fn, static_cast<int>(version), flags, status);
}
WS_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char* symbol, void** fn, unsigned version,
                                                         unsigned long long flags, int* status) {
  return entry_point(symbol, fn, static_cast<int>(version), flags, status);
}
