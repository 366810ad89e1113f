#include "profile/launch_selection.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/error.hpp"

namespace warpscope::profiling {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

/// A count: decimal digits only.
std::optional<std::uint64_t> count(const char* name) {
  const std::string v = env(name);
  if (v.empty()) return std::nullopt;
  if (v.find_first_not_of("0123456789") != std::string::npos || v.size() > 19) {
    std::fprintf(stderr, "warpscope: %s=%s is not a launch count; ignored\n", name, v.c_str());
    return std::nullopt;
  }
  return std::strtoull(v.c_str(), nullptr, 10);
}

}  // namespace

std::optional<KernelFilter> launch_filter_from_environment() {
  KernelFilterOptions o;
  o.kernel_name = env("WARPSCOPE_KERNEL_NAME");
  if (const std::string b = env("WARPSCOPE_KERNEL_NAME_BASE"); !b.empty()) o.base = b;
  o.launch_skip = count("WARPSCOPE_LAUNCH_SKIP").value_or(0);
  o.launch_count = count("WARPSCOPE_LAUNCH_COUNT");
  o.launch_skip_before_match = count("WARPSCOPE_LAUNCH_SKIP_BEFORE_MATCH").value_or(0);
  if (!o.active()) return std::nullopt;
  try {
    return KernelFilter(o);
  } catch (const Error& e) {
    std::fprintf(stderr, "warpscope: %s; every kernel name matches\n", e.what());
    o.kernel_name.clear();
    o.base = "function";
    return KernelFilter(o);
  }
}

nlohmann::json launch_filter_json(const KernelFilterOptions& o) {
  return {{"kernel_name", o.kernel_name},
          {"kernel_name_base", o.base},
          {"launch_skip", o.launch_skip},
          {"launch_count", o.launch_count ? nlohmann::json(*o.launch_count) : nlohmann::json(nullptr)},
          {"launch_skip_before_match", o.launch_skip_before_match}};
}

}  // namespace warpscope::profiling
