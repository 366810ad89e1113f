// cuGetProcAddress (drv.hpp): every function of cuda_exports.txt, implemented or a stub, by its
// base name ("cuMemAlloc"), a CUDA version and the per-thread-stream flag, as the driver API
// reference describes it: the versioned function (cuMemAlloc_v2) when the requested version is at
// least the one it came with, its _ptds/_ptsz form with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "runtime/cudart/drv.hpp"

namespace warpscope::cudart::drv {
namespace {

const std::unordered_map<std::string, void*>& symbols() {
  static const auto* m = [] {
    auto* map = new std::unordered_map<std::string, void*>();
    for (std::size_t i = 0; i < kDriverSymbolCount; ++i) map->emplace(kDriverSymbols[i].name, kDriverSymbols[i].fn);
    return map;
  }();
  return *m;
}

/// The CUDA version a versioned name came with, where its signature differs from the older form's
/// (a program built against an older cuda.h asks with its version and must get the ABI it was
/// compiled for). Every other _v2 is the CUDA 3.2 change to 64-bit sizes and device pointers
/// (3020) or has the older form's signature.
int introduced(const std::string& name) {
  static const std::unordered_map<std::string, int> k = {
      {"cuCtxCreate_v3", 11040},
      {"cuCtxCreate_v4", 12050},
      {"cuGetProcAddress_v2", 12000},
      {"cuStreamGetCaptureInfo_v2", 11030},
      {"cuStreamGetCaptureInfo_v3", 12030},
      {"cuStreamUpdateCaptureDependencies_v2", 12030},
      {"cuGraphGetEdges_v2", 12030},
      {"cuGraphNodeGetDependencies_v2", 12030},
      {"cuGraphNodeGetDependentNodes_v2", 12030},
      {"cuGraphAddDependencies_v2", 12030},
      {"cuGraphRemoveDependencies_v2", 12030},
      {"cuGraphAddNode_v2", 12030},
      {"cuGraphAddKernelNode_v2", 12000},
      {"cuGraphKernelNodeGetParams_v2", 12000},
      {"cuGraphKernelNodeSetParams_v2", 12000},
      {"cuGraphExecKernelNodeSetParams_v2", 12000},
      {"cuGraphExecUpdate_v2", 12000},
      {"cuMemAdvise_v2", 12020},
      {"cuMemPrefetchAsync_v2", 12020},
      {"cuMemcpyBatchAsync_v2", 13000},
      {"cuMemcpy3DBatchAsync_v2", 13000},
      {"cuStreamBatchMemOp_v2", 11070},
  };
  auto it = k.find(name);
  return it != k.end() ? it->second : 3020;
}

std::atomic<int> g_asked_version{0};

}  // namespace

int asked_driver_version() { return g_asked_version.load(); }

void* proc_address(const std::string& symbol, int version, std::uint64_t flags, bool* version_too_low) {
  const auto& m = symbols();
  *version_too_low = false;
  std::string chosen;
  bool newer_only = false;
  for (int v = 4; v >= 2 && chosen.empty(); --v) {
    const std::string name = symbol + "_v" + std::to_string(v);
    if (m.count(name) == 0) continue;
    if (version >= introduced(name)) chosen = name;
    else newer_only = true;
  }
  if (chosen.empty() && m.count(symbol) != 0) chosen = symbol;
  if (chosen.empty()) {
    *version_too_low = newer_only;
    return nullptr;
  }
  if ((flags & 2) != 0) {  // CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
    if (m.count(chosen + "_ptds") != 0) chosen += "_ptds";
    else if (m.count(chosen + "_ptsz") != 0) chosen += "_ptsz";
  }
  return m.at(chosen);
}

}  // namespace warpscope::cudart::drv

using namespace warpscope::cudart::drv;  // NOLINT: the C entry points below

// "If the specified CUDA version is greater than the driver version, the API will return
// CUDA_ERROR_INVALID_VALUE"; a symbol without a function for the version: CUDA_SUCCESS, *pfn NULL
// and the status says why (CUdriverProcAddressQueryResult: 0 found, 1 not found, 2 version not
// sufficient).
WS_DRV CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, std::uint64_t flags, int* status) {
  if (symbol == nullptr || pfn == nullptr) return kCuInvalidValue;
  *pfn = nullptr;
  for (int seen = g_asked_version.load(); version > seen && !g_asked_version.compare_exchange_weak(seen, version);) {
  }
  if (version > 13000) {
    // A runtime newer than the driver: NVIDIA's static runtime of a later CUDA (a program built
    // with that CUDA's nvcc and its default -cudart static) asks with its own version.
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      std::fprintf(stderr,
                   "warpscope: cuGetProcAddress(\"%s\") asks for the driver API of CUDA %d.%d; warpscope's driver is "
                   "CUDA 13.0's (cuDriverGetVersion: 13000), so a CUDA runtime of that version linked into the program "
                   "(nvcc's default -cudart static) stops with cudaErrorInsufficientDriver. Build the program with "
                   "CUDA 13.0, or with -cudart shared to run it on warpscope's runtime\n",
                   symbol, version / 1000, version % 1000 / 10);
    return kCuInvalidValue;
  }
  bool too_low = false;
  *pfn = proc_address(symbol, version, flags, &too_low);
  if (driver_tracing())
    driver_trace(fmt::format("cuGetProcAddress {} version {}{}: {}", symbol, version, (flags & 2) != 0 ? " per-thread" : "",
                             *pfn != nullptr ? "found" : too_low ? "version not sufficient" : "not found"));
  if (status != nullptr) *status = *pfn != nullptr ? 0 : too_low ? 2 : 1;
  return kCuSuccess;
}
WS_DRV CUresult cuGetProcAddress_v2_ptsz(const char* symbol, void** pfn, int version, std::uint64_t flags, int* status) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, status);
}
// CUDA 11.3's form, without the status.
WS_DRV CUresult cuGetProcAddress(const char* symbol, void** pfn, int version, std::uint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, nullptr);
}
