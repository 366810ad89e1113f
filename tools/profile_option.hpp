// Resolves --arch NAME / --arch-file PATH to a profile, and names the built-in profiles in the
// options' help (shared by every subcommand).
#pragma once

#include <string>

#include "arch/profile.hpp"

namespace warpscope::cli {

/// The built-in profiles' names (src/arch/profiles/*.json), space-separated, oldest first.
inline std::string builtin_arch_names() {
  std::string names;
  for (const std::string& n : arch::builtin_profile_names()) names += (names.empty() ? "" : " ") + n;
  return names;
}

/// The help of an --arch option that takes a built-in profile.
inline std::string arch_option_help() { return "Architecture profile (" + builtin_arch_names() + ")"; }

inline arch::Profile resolve_profile(const std::string& name, const std::string& file) {
  if (!file.empty()) return arch::load_profile_file(file);
  return arch::builtin_profile(name);
}

}  // namespace warpscope::cli
