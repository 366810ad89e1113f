#include "common/kernel_filter.hpp"

#include <utility>

#include "common/error.hpp"
#include "common/kernel_name.hpp"

namespace warpscope {

KernelFilter::KernelFilter(KernelFilterOptions options) : options_(std::move(options)) {
  const std::string& b = options_.base;
  if (b != "function" && b != "demangled" && b != "mangled") {
    fail(ErrorKind::kUsage, "--kernel-name-base {}: expected function, demangled or mangled", b);
  }
  const std::string& k = options_.kernel_name;
  if (k.rfind("regex:", 0) == 0) {
    const std::string expr = k.substr(6);
    if (expr.empty()) fail(ErrorKind::kUsage, "--kernel-name regex: needs an expression after 'regex:'");
    try {
      regex_.emplace(expr, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      fail(ErrorKind::kUsage, "--kernel-name {}: not a regular expression: {}", k, e.what());
    }
  }
}

bool KernelFilter::name_matches(const std::string& symbol) const {
  if (options_.kernel_name.empty()) return true;
  const KernelNames n = kernel_names(symbol);
  const std::string& name = options_.base == "mangled" ? n.mangled : options_.base == "demangled" ? n.demangled : n.function;
  if (regex_) return std::regex_search(name, *regex_);
  return name == options_.kernel_name;
}

KernelFilter::Decision KernelFilter::select(const std::string& symbol) {
  Decision d;
  if (seen_++ < options_.launch_skip_before_match) {
    d.profiled = false;
    d.reason = "--launch-skip-before-match " + std::to_string(options_.launch_skip_before_match) +
               " skips the first launches of any kernel";
    return d;
  }
  if (!name_matches(symbol)) {
    d.profiled = false;
    d.reason = "--kernel-name " + options_.kernel_name + " does not match the kernel's " + options_.base + " name";
    return d;
  }
  const std::uint64_t m = matched_++;  // 0-based among matching launches
  if (m < options_.launch_skip) {
    d.profiled = false;
    d.reason = "--launch-skip " + std::to_string(options_.launch_skip) + " skips the first " +
               (options_.launch_skip == 1 ? std::string("matching launch")
                                          : std::to_string(options_.launch_skip) + " matching launches");
    return d;
  }
  if (options_.launch_count && m - options_.launch_skip >= *options_.launch_count) {
    d.profiled = false;
    d.reason = "--launch-count " + std::to_string(*options_.launch_count) + ": " +
               std::to_string(*options_.launch_count) + " matching launch" +
               (*options_.launch_count == 1 ? " was" : "es were") + " profiled already";
    return d;
  }
  return d;
}

}  // namespace warpscope
