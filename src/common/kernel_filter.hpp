// Which kernel launches are profiled, with Nsight Compute's filter options and their meaning
// (ncu's CLI manual, "Filter" options):
//  --kernel-name NAME       only launches whose name equals NAME; "regex:EXPR" selects the names
//                           in which the regular expression EXPR is found (a partial match)
//  --kernel-name-base B     which name NAME is compared with: function (default; the name alone,
//                           "load_default"), demangled ("void load_default<unsigned char>(const
//                           T1 *, ...)") or mangled ("_Z12load_defaultIhEvPKT_PS0_xxxx");
//                           common/kernel_name.hpp
//  --launch-skip N          skip the first N launches that match the name filter
//  --launch-count N         then profile at most N launches that match it
//  --launch-skip-before-match N
//                           the first N launches of any name are not profiled (and not matched)
// Launches are offered to select() in launch order; the skip and the count only count launches
// whose name matches. A launch that is not selected still runs: only the memory model skips it.
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>

namespace warpscope {

struct KernelFilterOptions {
  std::string kernel_name;          // "" selects every kernel
  std::string base = "function";    // function | demangled | mangled
  std::uint64_t launch_skip = 0;
  std::optional<std::uint64_t> launch_count;
  std::uint64_t launch_skip_before_match = 0;

  bool active() const {
    return !kernel_name.empty() || launch_skip != 0 || launch_count.has_value() || launch_skip_before_match != 0;
  }
};

class KernelFilter {
 public:
  /// Throws warpscope::Error (kUsage) for an unknown base or a regular expression that does not
  /// compile, naming the option.
  explicit KernelFilter(KernelFilterOptions options);

  struct Decision {
    bool profiled = true;
    std::string reason;  // why not, e.g. "--launch-skip 2 skips the first 2 matching launches"
  };
  /// Decides the next launch (call once per launch, in launch order).
  Decision select(const std::string& symbol);
  /// Whether a kernel's name passes the name filter (no counting).
  bool name_matches(const std::string& symbol) const;

  const KernelFilterOptions& options() const { return options_; }

 private:
  KernelFilterOptions options_;
  std::optional<std::regex> regex_;
  std::uint64_t matched_ = 0;  // launches that passed the name filter so far
  std::uint64_t seen_ = 0;     // launches offered so far
};

}  // namespace warpscope
