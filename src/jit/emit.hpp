// LLVM IR for a kernel's segments (internal to src/jit; includes LLVM's headers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/segments.hpp"

namespace llvm {
class Module;
}

namespace warpscope::jit {

/// The version of the code the JIT makes, part of the disk cache's key: bump it whenever emit.cpp,
/// arith.cpp or engine.cpp's pipeline would compile the same kernel differently (a cached object
/// from an older version is then never loaded).
inline constexpr unsigned kCodeVersion = 4;  // 2: f64, min/max/abs, integer cvt, float abs/neg/min/max; 3: float cvt;
                                              // 4: memory instructions of profiled launches call their semantic functions

/// What emitted code depends on besides the kernel, for the disk cache's key: the offsets and
/// sizes it bakes in (SegFrame, Ctx, Region, Inst) and the emitter's options
/// (WARPSCOPE_JIT_PARTIAL).
std::string emit_key();

/// A straight-line run [begin, end) of compute-only instructions that no branch enters in its
/// middle (no branch target, reconvergence point or function entry inside).
struct Run {
  std::uint32_t begin = 0, end = 0;
};

/// The kernel's runs worth compiling.
std::vector<Run> find_runs(const exec::KernelImage& kernel);

/// Adds one function `<prefix>_<begin>` per run to `module` (exec::SegFn); returns how many of
/// the runs' instructions are native code (the others call their semantic function).
std::uint64_t emit_segments(llvm::Module& module, const exec::KernelImage& kernel, const std::vector<Run>& runs,
                            const std::string& prefix);

}  // namespace warpscope::jit
