// Where the JIT keeps compiled code (jit.hpp's options_from_env); in both builds, with or without
// LLVM.
#include <cstdlib>
#include <string>

#include "jit/jit.hpp"

namespace warpscope::jit {

namespace {
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}
}  // namespace

std::string cache_dir_from_env() {
  if (std::string d = env("WARPSCOPE_CACHE_DIR"); !d.empty()) return d + "/jit";
  if (std::string d = env("XDG_CACHE_HOME"); !d.empty()) return d + "/warpscope/jit";
  const std::string home = env("HOME");
  return (home.empty() ? std::string("/tmp") : home) + "/.cache/warpscope/jit";
}

Options options_from_env() {
  Options o;
  o.cache = env("WARPSCOPE_JIT_CACHE") != "0";
  o.cache_dir = cache_dir_from_env();
  o.notes = env("WARPSCOPE_QUIET").empty();
  return o;
}

}  // namespace warpscope::jit
