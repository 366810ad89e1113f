// Resolves --arch NAME / --arch-file PATH to a profile (shared by every subcommand).
#pragma once

#include <string>

#include "arch/profile.hpp"

namespace warpscope::cli {

inline arch::Profile resolve_profile(const std::string& name, const std::string& file) {
  if (!file.empty()) return arch::load_profile_file(file);
  return arch::builtin_profile(name);
}

}  // namespace warpscope::cli
