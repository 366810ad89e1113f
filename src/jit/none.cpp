// The JIT's interface in a build without LLVM (WARPSCOPE_JIT_LLVM off, or LLVM 16 not found):
// every launch is interpreted.
#include "jit/jit.hpp"

namespace warpscope::jit {

bool install() { return false; }
std::unique_ptr<exec::SegmentCompiler> make_compiler(const Options&) { return nullptr; }
bool built_in() { return false; }
std::string describe() { return "no native segments: this build has no JIT (LLVM 16 was not found at build time)"; }
Stats stats() { return Stats{}; }

}  // namespace warpscope::jit
