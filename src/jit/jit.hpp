// The JIT: compiles a kernel's straight-line runs of compute instructions into native segments
// (src/exec/segments.hpp) with LLVM, a warp's 32 lanes as the lanes of LLVM vectors under the
// warp's execution mask. docs/exec.md, "Native segments".
//
// install() makes it the process's segment compiler; launches without an access sink then run
// compiled segments, and profiled ones once their kernel is due (exec::traced_segments_due);
// exec::set_jit_enabled, WARPSCOPE_JIT=0 turn that off. Compiled code is kept on disk across runs
// (docs/exec.md, "The code cache"; WARPSCOPE_JIT_CACHE=0 turns that off).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "exec/segments.hpp"

namespace warpscope::jit {

/// How a compiler keeps its code on disk.
struct Options {
  bool cache = true;      // keep compiled code in `cache_dir` and look there first
  std::string cache_dir;  // empty: no cache
  bool notes = true;      // a line on stderr for an entry ignored or a directory not writable
};

/// The cache's directory from the environment: the `jit` folder of warpscope's cache directory
/// (the rule of analysis::cache_dir and `warpscope run`'s build cache): $WARPSCOPE_CACHE_DIR/jit,
/// else $XDG_CACHE_HOME/warpscope/jit, else $HOME/.cache/warpscope/jit (HOME unset: /tmp).
std::string cache_dir_from_env();
/// The options install() uses: that directory, the cache off when WARPSCOPE_JIT_CACHE=0, no notes
/// under WARPSCOPE_QUIET.
Options options_from_env();

/// A compiler of its own (its own LLVM JIT, its own in-memory table of compiled kernels), for
/// tests and benchmarks: exec::set_segment_compiler(c.get()) makes it the process's until
/// install() is called again. nullptr when the build has no JIT or LLVM could not be set up.
/// Its compiled code lives as long as the compiler or a kernel that uses it.
std::unique_ptr<exec::SegmentCompiler> make_compiler(const Options& options);

/// Installs the JIT as exec's segment compiler (made once, with options_from_env() read at its
/// first compile; a later call installs the same one again). False when the
/// build has no JIT (WARPSCOPE_JIT_LLVM off) or the host target could not be set up.
bool install();

/// Whether this build has the JIT.
bool built_in();

/// One line for `warpscope run --help`: whether the JIT is built in and how to turn it off.
std::string describe();

/// Counters of the process's JIT (all kernels so far).
struct Stats {
  std::uint64_t kernels = 0;        // kernels compiled or loaded from the disk cache
  std::uint64_t segments = 0;       // segments made
  std::uint64_t instructions = 0;   // instructions in them
  std::uint64_t native = 0;         // of those, compiled to native code (the rest call their function)
  double compile_seconds = 0;       // time spent compiling (and loading from the cache)
  std::uint64_t cache_loads = 0;    // kernels whose code came from the disk cache (LLVM did not run)
  std::uint64_t cache_stores = 0;   // kernels whose code was written to the disk cache
  std::uint64_t cache_rejects = 0;  // cache entries ignored (unreadable, corrupt): compiled again
};
Stats stats();

}  // namespace warpscope::jit
