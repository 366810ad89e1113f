// Shared by the files that define the runtime's C entry points (api_*.cpp). Every definition of
// an exported CUDA function starts a line with WS_API: src/runtime/CMakeLists.txt reads those
// lines to know which of libcudart.so.13's names are implemented, and generates a stub returning
// cudaErrorNotSupported for every other one (cudart_exports.txt).
#pragma once

#include <cstddef>

#include "runtime/cudart/abi.hpp"
#include "runtime/cudart/runtime.hpp"

#define WS_API extern "C" __attribute__((visibility("default")))

namespace warpscope::cudart {
/// The device properties the chosen profile gives (an H100's measured values for "hopper").
DeviceProp device_properties(const arch::Profile& p);
/// cudaDeviceGetAttribute's value; false when the attribute is not known.
bool device_attribute(const arch::Profile& p, int attr, int* value);
/// cudaMallocPitch's pitch for a row of `width` bytes (512-byte granularity, as measured).
std::size_t pitch_for(std::size_t width);
}  // namespace warpscope::cudart
