// Installs the JIT when the CUDA runtime replacement is loaded (linked whole into
// libcudart.so.13: src/runtime/CMakeLists.txt). LLVM itself is set up at the first compile.
#include "jit/jit.hpp"

namespace {
[[maybe_unused]] const bool g_installed = warpscope::jit::install();
}  // namespace
