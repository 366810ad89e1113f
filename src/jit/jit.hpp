// The JIT: compiles a kernel's straight-line runs of compute instructions into native segments
// (src/exec/segments.hpp) with LLVM, a warp's 32 lanes as the lanes of LLVM vectors under the
// warp's execution mask. docs/exec.md, "Native segments".
//
// install() makes it the process's segment compiler; launches without an access sink then run
// compiled segments, and profiled ones once their kernel is due (exec::traced_segments_due);
// exec::set_jit_enabled, WARPSCOPE_JIT=0 turn that off.
#pragma once

#include <cstdint>
#include <string>

namespace warpscope::jit {

/// Installs the JIT as exec's segment compiler (once; later calls do nothing). False when the
/// build has no JIT (WARPSCOPE_JIT_LLVM off) or the host target could not be set up.
bool install();

/// Whether this build has the JIT.
bool built_in();

/// One line for `warpscope run --help`: whether the JIT is built in and how to turn it off.
std::string describe();

/// Counters of the process's JIT (all kernels so far).
struct Stats {
  std::uint64_t kernels = 0;        // kernels compiled
  std::uint64_t segments = 0;       // segments made
  std::uint64_t instructions = 0;   // instructions in them
  std::uint64_t native = 0;         // of those, compiled to native code (the rest call their function)
  double compile_seconds = 0;       // time spent compiling
};
Stats stats();

}  // namespace warpscope::jit
