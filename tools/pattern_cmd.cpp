#include "pattern_cmd.hpp"

#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/error.hpp"
#include "expr.hpp"
#include "mem/coalescer.hpp"
#include "mem/local_layout.hpp"
#include "mem/shared_banks.hpp"
#include "profile_option.hpp"
#include "report/access_svg.hpp"

namespace warpscope::cli {
namespace {

std::uint64_t parse_u64(const std::string& text, const char* what) {
  try {
    std::size_t used = 0;
    unsigned long long v = std::stoull(text, &used, 0);
    if (used != text.size()) throw std::invalid_argument(text);
    return v;
  } catch (const std::exception&) {
    fail(ErrorKind::kUsage, "{} '{}' is not a non-negative number (decimal or 0x hex)", what, text);
  }
}

Space parse_space(const std::string& s) {
  if (s == "global") return Space::kGlobal;
  if (s == "local") return Space::kLocal;
  if (s == "shared") return Space::kShared;
  fail(ErrorKind::kUsage, "--space '{}': expected global, local or shared", s);
}

Op parse_op(const std::string& s) {
  if (s == "load") return Op::kLoad;
  if (s == "store") return Op::kStore;
  if (s == "atomic") return Op::kAtomic;
  fail(ErrorKind::kUsage, "--op '{}': expected load, store or atomic", s);
}

CacheOp parse_cache(const std::string& s) {
  if (s == "default") return CacheOp::kDefault;
  if (s == "ca") return CacheOp::kCa;
  if (s == "cg") return CacheOp::kCg;
  fail(ErrorKind::kUsage, "--cache '{}': expected default, ca or cg", s);
}

std::string unit_name(const arch::Profile& p, const WarpAccess& a, bool cached_in_l1) {
  if (a.space == Space::kShared) return "wavefront";
  switch (p.coalescing) {
    case arch::Coalescing::kSectors: return "sector";
    case arch::Coalescing::kLines: return cached_in_l1 ? "line" : "segment";
    case arch::Coalescing::kCc10:
    case arch::Coalescing::kCc12: return "segment";
  }
  return "transaction";
}

std::string percent(double fraction) { return fmt::format("{:.2f} %", 100.0 * fraction); }

}  // namespace

PatternResult evaluate_pattern(const PatternOptions& o, const arch::Profile& profile) {
  if (o.width != 1 && o.width != 2 && o.width != 4 && o.width != 8 && o.width != 16)
    fail(ErrorKind::kUsage, "--width {}: expected 1, 2, 4, 8 or 16 bytes", o.width);
  IndexExpr index = IndexExpr::parse(o.index);
  const std::uint64_t base = parse_u64(o.base, "--base");
  const std::uint64_t active = parse_u64(o.active, "--active");
  if (active > 0xffffffffull) fail(ErrorKind::kUsage, "--active {}: a warp has 32 lanes", o.active);

  PatternResult r;
  WarpAccess& a = r.access;
  a.space = parse_space(o.space);
  a.op = parse_op(o.op);
  a.cache = parse_cache(o.cache);
  a.width = static_cast<std::uint8_t>(o.width);
  a.active = LaneMask(static_cast<std::uint32_t>(active));
  a.active.for_each([&](unsigned lane) {
    std::int64_t element = index.eval(lane);
    // byte address = base + element * width, refused when it leaves the 64-bit address space
    std::int64_t offset = 0;
    bool bad = __builtin_mul_overflow(element, static_cast<std::int64_t>(o.width), &offset);
    std::uint64_t addr = 0;
    if (!bad && offset < 0) {
      const std::uint64_t back = 0ull - static_cast<std::uint64_t>(offset);
      bad = back > base;
      addr = base - back;
    } else if (!bad) {
      bad = __builtin_add_overflow(base, static_cast<std::uint64_t>(offset), &addr) || addr > UINT64_MAX - 16;
    }
    if (bad)
      fail(ErrorKind::kUsage, "index '{}' gives lane {} element {}, whose address base + {} * {} is outside the address space",
           o.index, lane, element, element, o.width);
    a.addr[lane] = static_cast<std::uint64_t>(addr);
  });

  if (a.space == Space::kShared) {
    mem::SharedBankResult s = mem::shared_access(profile, a);
    r.has_wavefronts = true;
    r.wavefronts = s.wavefronts;
    r.ideal_wavefronts = s.ideal_wavefronts;
    r.bank_conflicts = s.bank_conflicts;
  }
  mem::Coalescer coalescer(profile);
  mem::CoalesceResult c;
  coalescer.coalesce(a, c);
  r.cached_in_l1 = c.cached_in_l1;
  r.unit_name = unit_name(profile, a, c.cached_in_l1);
  r.requests = c.requests;
  r.transactions = c.transaction_count;
  r.transaction_bytes = c.transaction_bytes;
  r.bytes_requested = c.bytes_requested;
  r.bytes_moved = c.bytes_moved;
  r.efficiency = c.efficiency();
  for (std::uint32_t i = 0; i < c.transaction_count; ++i)
    r.transaction_list.push_back({c.transactions[i].addr, c.transactions[i].bytes, c.transactions[i].request});
  return r;
}

nlohmann::json pattern_json(const PatternOptions& o, const arch::Profile& p, const PatternResult& r) {
  nlohmann::json j;
  // The contract keys (issue 2), then context.
  j["requests"] = r.requests;
  j["transactions"] = r.transactions;
  j["transaction_bytes"] = r.transaction_bytes;
  j["bytes_requested"] = r.bytes_requested;
  j["bytes_moved"] = r.bytes_moved;
  j["efficiency"] = r.efficiency;
  j["wavefronts"] = r.has_wavefronts ? nlohmann::json(r.wavefronts) : nlohmann::json(nullptr);
  if (r.has_wavefronts) {
    j["ideal_wavefronts"] = r.ideal_wavefronts;
    j["bank_conflicts"] = r.bank_conflicts;
  }
  j["arch"] = p.name;
  j["space"] = o.space;
  j["op"] = o.op;
  j["width"] = o.width;
  j["cache"] = o.cache;
  j["index"] = o.index;
  j["active"] = fmt::format("0x{:08x}", r.access.active.bits());
  j["unit"] = r.unit_name;
  nlohmann::json lanes = nlohmann::json::array();
  r.access.active.for_each([&](unsigned lane) { lanes.push_back({{"lane", lane}, {"address", r.access.addr[lane]}}); });
  j["lanes"] = lanes;
  nlohmann::json txns = nlohmann::json::array();
  for (const auto& t : r.transaction_list) txns.push_back({{"address", t.addr}, {"bytes", t.bytes}, {"request", t.request}});
  j["transaction_list"] = txns;
  return j;
}

std::string pattern_table(const PatternOptions& o, const arch::Profile& p, const PatternResult& r) {
  const WarpAccess& a = r.access;
  std::string s;
  s += fmt::format("arch              {} ({}, cc {}.{}, coalescing {})\n", p.name, p.gpu, p.cc_major, p.cc_minor,
                   arch::to_string(p.coalescing));
  s += fmt::format("access            {} {} of {}-byte words, index '{}', base {}, {} active lanes", o.space, o.op,
                   o.width, o.index, o.base, a.active.count());
  if (a.space != Space::kShared)
    s += fmt::format(", {}", r.cached_in_l1 ? "cached in L1" : "not cached in L1");
  s += "\n";
  s += fmt::format("requests          {}\n", r.requests);
  if (r.has_wavefronts) {
    s += fmt::format("wavefronts        {} (ideal {})\n", r.wavefronts, r.ideal_wavefronts);
    s += fmt::format("bank conflicts    {}\n", r.bank_conflicts);
  } else {
    s += fmt::format("transactions      {} ({}s of {} B{})\n", r.transactions, r.unit_name,
                     r.transaction_bytes, p.coalescing == arch::Coalescing::kCc10 || p.coalescing == arch::Coalescing::kCc12
                                              ? " at most, shrunk to the half used" : "");
  }
  s += fmt::format("bytes requested   {}\n", r.bytes_requested);
  s += fmt::format("bytes moved       {}\n", r.bytes_moved);
  s += fmt::format("bus utilization   {}\n", percent(r.efficiency));
  if (!r.has_wavefronts && !r.transaction_list.empty()) {
    s += r.unit_name + "s:";
    std::size_t shown = 0;
    for (const auto& t : r.transaction_list) {
      if (shown++ == 16) {
        s += fmt::format(" ... ({} more)", r.transaction_list.size() - 16);
        break;
      }
      s += fmt::format(" 0x{:x}", t.addr);
    }
    s += "\n";
  }
  return s;
}

void add_pattern_command(CLI::App& app, PatternOptions& o) {
  CLI::App* cmd = app.add_subcommand("pattern", "Evaluate one warp access given by an index expression over 'lane'");
  cmd->add_option("--index", o.index, "Element index of each lane, e.g. 'lane+1', 'lane*32', '(lane*7+3)%32', 0")
      ->required();
  cmd->add_option("--width", o.width, "Bytes per lane: 1, 2, 4, 8 or 16")->capture_default_str();
  cmd->add_option("--base", o.base, "Byte address of element 0 (local: offset in the thread's frame)")
      ->capture_default_str();
  cmd->add_option("--cache", o.cache, "Load cache operator: default (the profile's), ca (L1) or cg (L2 only)")
      ->capture_default_str();
  cmd->add_option("--active", o.active, "Active-lane mask")->capture_default_str();
  cmd->add_option("--space", o.space, "global, local or shared")->capture_default_str();
  cmd->add_option("--op", o.op, "load, store or atomic")->capture_default_str();
  cmd->add_option("--arch", o.arch, arch_option_help())
      ->capture_default_str();
  cmd->add_option("--arch-file", o.arch_file, "A profile file of your own (JSON, fields as src/arch/profiles/*.json)");
  cmd->add_option("--json", o.json_path, "Write the result as JSON to FILE");
  cmd->add_option("--svg", o.svg_path, "Draw the access (lanes above addresses, transactions outlined) to FILE");
}

int run_pattern(const PatternOptions& o) {
  arch::Profile profile = resolve_profile(o.arch, o.arch_file);
  PatternResult r = evaluate_pattern(o, profile);
  std::cout << pattern_table(o, profile, r);
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    if (!out) fail(ErrorKind::kIo, "cannot write '{}'", o.json_path);
    out << pattern_json(o, profile, r).dump(2) << "\n";
  }
  if (!o.svg_path.empty()) {
    report::AccessPicture pic;
    pic.title = fmt::format("{}: {} {} of {}-byte words, index {}", profile.name, o.space, o.op, o.width, o.index);
    pic.width = o.width;
    pic.active = r.access.active;
    pic.unit_name = r.unit_name;
    pic.bytes_requested = r.bytes_requested;
    pic.bytes_moved = r.bytes_moved;
    // Local accesses are drawn at their physical (interleaved) addresses, which is where the
    // transactions are; shared accesses at their shared-memory addresses.
    if (r.access.space == Space::kLocal) {
      pic.title += " (physical, interleaved local layout)";
      // One word of each lane per request: draw the first request's words.
      mem::LocalLayout layout(profile.warp_size);
      r.access.active.for_each([&](unsigned lane) { pic.addr[lane] = layout.physical(0, lane, r.access.addr[lane]); });
      pic.width = std::min<std::uint32_t>(o.width, 4);
    } else {
      pic.addr = r.access.addr;
    }
    if (!r.has_wavefronts)
      for (const auto& t : r.transaction_list) pic.transactions.push_back({t.addr, t.bytes});
    std::ofstream out(o.svg_path);
    if (!out) fail(ErrorKind::kIo, "cannot write '{}'", o.svg_path);
    out << report::render_access_svg(pic);
  }
  return 0;
}

}  // namespace warpscope::cli
