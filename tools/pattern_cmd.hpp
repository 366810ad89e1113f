// `warpscope pattern`: evaluates one warp access given by an index expression over the lane
// number, through the memory model of one architecture profile, and prints what it costs.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "common/access.hpp"

namespace CLI {
class App;
}

namespace warpscope::cli {

struct PatternOptions {
  std::string index = "lane";
  unsigned width = 4;
  std::string base = "0";      // byte address of element 0 (decimal or 0x hex)
  std::string cache = "default";
  std::string active = "0xffffffff";
  std::string space = "global";
  std::string op = "load";
  std::string arch = std::string(arch::kDefaultProfile);
  std::string arch_file;
  std::string json_path;
  std::string svg_path;
};

/// What one evaluated access costs; the JSON keys are a contract (issue: `warpscope pattern`).
struct PatternResult {
  WarpAccess access;
  std::uint32_t requests = 0;
  std::uint32_t transactions = 0;
  std::uint32_t transaction_bytes = 0;
  std::uint64_t bytes_requested = 0;
  std::uint64_t bytes_moved = 0;
  double efficiency = 0;
  bool has_wavefronts = false;  // shared space only
  std::uint32_t wavefronts = 0, ideal_wavefronts = 0, bank_conflicts = 0;
  struct Txn {
    std::uint64_t addr;
    std::uint32_t bytes;
    std::uint32_t request;
  };
  std::vector<Txn> transaction_list;
  std::string unit_name;  // "sector", "segment", "line", "wavefront"
  bool cached_in_l1 = false;  // the access takes the L1 path
};

/// Builds the access and runs the model. Throws warpscope::Error on bad options.
PatternResult evaluate_pattern(const PatternOptions& options, const arch::Profile& profile);
nlohmann::json pattern_json(const PatternOptions& options, const arch::Profile& profile, const PatternResult& r);
std::string pattern_table(const PatternOptions& options, const arch::Profile& profile, const PatternResult& r);

/// Registers the subcommand; `run` is set to the code to execute when it is chosen.
void add_pattern_command(CLI::App& app, PatternOptions& options);
int run_pattern(const PatternOptions& options);

}  // namespace warpscope::cli
