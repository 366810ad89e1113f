// Error messages for faults inside a launch. Every message names the kernel, the CUDA source
// line (or the PTX line when the module has no .loc), the PTX instruction, and the block and
// thread, in the spirit of compute-sanitizer's reports.
#pragma once

#include <cstdint>
#include <string>

#include "common/access.hpp"
#include "exec/program.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec {

/// "kernel NAME at FILE:LINE (ORIGIN:PTXLINE: `ptx text`)".
std::string describe_pc(const KernelImage& k, std::uint32_t pc);
/// The kernel's name, demangled when possible: "saxpy(int, float, float const*, float*)".
std::string pretty_kernel(const std::string& mangled);
/// "saxpy(int, float, float const*, float*) [_Z5saxpyifPKfPf]", or just the name when it is not
/// mangled.
std::string kernel_label(const std::string& mangled);

/// "all lanes", "lanes 0-15,17": a lane mask for messages.
std::string lanes_text(std::uint32_t mask);

/// An invalid memory access by `lane`: kOutOfBounds or kMisaligned.
[[noreturn]] void memory_fault(const Ctx& x, const Inst& in, ErrorKind kind, unsigned lane,
                               std::uint64_t addr, unsigned width, Space space, Op op,
                               bool generic = false, const char* note = "");

/// Any other fault of one lane (trap, assert, bad shuffle...): "<what> in kernel ... block ...
/// thread ...".
[[noreturn]] void lane_fault(const Ctx& x, std::uint32_t pc, ErrorKind kind, unsigned lane,
                             const std::string& what);

}  // namespace warpscope::exec
