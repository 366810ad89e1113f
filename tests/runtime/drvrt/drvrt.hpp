// drvrt: the team's own CUDA runtime on the driver API (docs/runtime.md, "A runtime on the driver
// API: drvrt"). A program built with `nvcc -cudart none` and linked with libdrvrt.a and -lcuda gets
// its host-side runtime calls from here; each is done with driver calls only (cuInit, the primary
// context, cuModuleLoadData on the program's fatbinary, cuLaunchKernel, cuMemAlloc, ...). What it
// covers is what the acceptance programs of tests/runtime/three_builds_test.cpp call; a runtime
// function it does not define is an undefined reference at link time, which
// tests/runtime/three_builds/nvcc_three.sh names: "drvrt does not cover: cudaFoo, ... (program)".
#pragma once

#include <cuda.h>
#include <cudaProfiler.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

namespace drvrt {

/// Makes the device's primary context current on the calling thread (cuInit, cuDeviceGet,
/// cuDevicePrimaryCtxRetain once per process; cuCtxSetCurrent once per thread). Returns the
/// first failure's code as the runtime's.
cudaError_t ensure_context();

/// Records `e` as the calling thread's last error when it is one (cudaGetLastError) and returns it.
cudaError_t note(cudaError_t e);

/// The runtime's error for a driver result: CUDA 13's cudaError_t and CUresult have the same
/// number for every condition the driver reports here (driver_types.h and cuda.h).
inline cudaError_t from(CUresult r) { return static_cast<cudaError_t>(r); }

}  // namespace drvrt
