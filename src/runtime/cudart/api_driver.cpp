// Driver entry points (cudaGetDriverEntryPoint, cudaGetDriverEntryPointByVersion) and the driver
// functions warpscope provides through them: the tensor-map encoders the TMA needs
// (cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col, cuTensorMapReplaceAddress). Their checks are
// the driver's documented CUDA_ERROR_INVALID_VALUE cases (src/exec/tensormap.hpp); the 128 bytes
// of the CUtensorMap hold warpscope's own encoding, which the interpreter reads back.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "exec/tensormap.hpp"
#include "runtime/cudart/api.hpp"

namespace warpscope::cudart {
namespace {

using CUresult = int;
constexpr CUresult kCuSuccess = 0;
constexpr CUresult kCuInvalidValue = 1;

// cudaDriverEntryPointQueryResult
constexpr int kEntrySuccess = 0;
constexpr int kEntrySymbolNotFound = 1;

CUresult invalid(const char* fn, const std::string& why) {
  std::fprintf(stderr, "warpscope: %s: CUDA_ERROR_INVALID_VALUE: %s\n", fn, why.c_str());
  return kCuInvalidValue;
}

extern "C" CUresult ws_cuTensorMapEncodeTiled(void* map, unsigned type, unsigned rank, void* address, const std::uint64_t* dims,
                                              const std::uint64_t* strides, const std::uint32_t* box,
                                              const std::uint32_t* element_strides, unsigned interleave, unsigned swizzle,
                                              unsigned l2, unsigned fill) {
  exec::tma::TiledArgs a;
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
  const std::string why = exec::tma::check_tiled(a, map);
  if (!why.empty()) return invalid("cuTensorMapEncodeTiled", why);
  const exec::tma::EncodedMap m = exec::tma::encode_tiled(a);
  std::memset(map, 0, 128);
  std::memcpy(map, &m, sizeof m);
  return kCuSuccess;
}

extern "C" CUresult ws_cuTensorMapEncodeIm2col(void* map, unsigned type, unsigned rank, void* address, const std::uint64_t* dims,
                                               const std::uint64_t* strides, const int* lower, const int* upper,
                                               unsigned channels, unsigned pixels, const std::uint32_t* element_strides,
                                               unsigned interleave, unsigned swizzle, unsigned l2, unsigned fill) {
  exec::tma::Im2colArgs a;
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
  const std::string why = exec::tma::check_im2col(a, map);
  if (!why.empty()) return invalid("cuTensorMapEncodeIm2col", why);
  const exec::tma::EncodedMap m = exec::tma::encode_im2col(a);
  std::memset(map, 0, 128);
  std::memcpy(map, &m, sizeof m);
  return kCuSuccess;
}

extern "C" CUresult ws_cuTensorMapReplaceAddress(void* map, void* address) {
  if (map == nullptr) return invalid("cuTensorMapReplaceAddress", "tensorMap is NULL");
  std::optional<exec::tma::EncodedMap> m = exec::tma::decode(static_cast<const std::uint8_t*>(map));
  if (!m) return invalid("cuTensorMapReplaceAddress", "tensorMap was not made by cuTensorMapEncodeTiled/Im2col");
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  if (a % (m->interleave == 2 ? 32 : 16) != 0) return invalid("cuTensorMapReplaceAddress", "globalAddress is misaligned");
  m->global_address = a;
  std::memcpy(map, &*m, sizeof *m);
  return kCuSuccess;
}

struct Entry {
  const char* name;
  void* fn;
};
const Entry kEntries[] = {
    {"cuTensorMapEncodeTiled", reinterpret_cast<void*>(&ws_cuTensorMapEncodeTiled)},
    {"cuTensorMapEncodeIm2col", reinterpret_cast<void*>(&ws_cuTensorMapEncodeIm2col)},
    {"cuTensorMapReplaceAddress", reinterpret_cast<void*>(&ws_cuTensorMapReplaceAddress)},
};

cudaError_t entry_point(const char* symbol, void** fn, int* status) {
  if (symbol == nullptr || fn == nullptr) return last_error() = kErrInvalidValue;
  *fn = nullptr;
  for (const Entry& e : kEntries) {
    if (std::strcmp(symbol, e.name) == 0) {
      *fn = e.fn;
      if (status != nullptr) *status = kEntrySuccess;
      return kSuccess;
    }
  }
  // Any other driver function: not provided. Said once per name on stderr.
  static std::mutex mu;
  static std::set<std::string>& said = *new std::set<std::string>;  // never destroyed
  {
    std::lock_guard lock(mu);
    if (said.insert(symbol).second)
      std::fprintf(stderr, "warpscope: cudaGetDriverEntryPoint: the driver function %s is not provided "
                           "(only cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col, cuTensorMapReplaceAddress)\n", symbol);
  }
  if (status != nullptr) *status = kEntrySymbolNotFound;
  return kSuccess;
}

}  // namespace
}  // namespace warpscope::cudart

using namespace warpscope::cudart;

WS_API cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** fn, unsigned long long, int* status) {
  return entry_point(symbol, fn, status);
}
WS_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char* symbol, void** fn, unsigned long long, int* status) {
  return entry_point(symbol, fn, status);
}
WS_API cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned, unsigned long long, int* status) {
  return entry_point(symbol, fn, status);
}
WS_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char* symbol, void** fn, unsigned, unsigned long long,
                                                         int* status) {
  return entry_point(symbol, fn, status);
}
