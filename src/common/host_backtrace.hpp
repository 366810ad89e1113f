// The host call stack of a CUDA runtime call, as compute-sanitizer prints it ("Saved host
// backtrace up to driver entry point": `Host Frame: main [0x8f19] in sanitize_probe`,
// tests/hw/data/h200/sanitize). The stack is unwound at the call (glibc's backtrace(), from the
// frames' unwind tables), each return address named from its module's ELF symbol table (the
// static one, so functions the program does not export are named too; else the dynamic symbol
// dladdr finds), demangled, and given as its offset in the module.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope {

struct HostFrame {
  std::string function;  // demangled; empty when no symbol covers the address
  std::string module;    // the file name without its directories ("app", "libc.so.6")
  std::string path;      // its path as loaded ("/lib/x86_64-linux-gnu/libc.so.6"; the program: /proc/self/exe)
  std::uint64_t offset = 0;  // the return address less the module's load bias (its ELF address)
};

/// The calling thread's host stack, innermost frame first, without the frames of warpscope's own
/// code: the leading frames in the module that holds `self` (an address in warpscope's runtime
/// library); when that module is the program itself (warpscope's runtime linked statically), the
/// leading frames named `warpscope::...` or `std::...` and the API entry after them. The frames
/// end at `main` (the C library's start-up frames below it are left out), or at the outermost one
/// for a thread that `main` did not start. At most `max_frames` frames.
std::vector<HostFrame> host_backtrace(const void* self, std::size_t max_frames = 32);

/// A return address as a frame (what host_backtrace does for each).
HostFrame host_frame(std::uintptr_t return_address);

}  // namespace warpscope
