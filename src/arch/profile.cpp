#include "arch/profile.hpp"

#include <algorithm>
#include <bit>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "arch/embedded.hpp"
#include "common/error.hpp"

namespace warpscope::arch {
namespace {

using nlohmann::json;

/// Reads the fields of one JSON object, remembering which were read so that a misspelt or
/// unknown field can be reported (a typo must not silently fall back to a default).
class FieldReader {
 public:
  FieldReader(const json& obj, std::string origin, std::string prefix)
      : obj_(obj), origin_(std::move(origin)), prefix_(std::move(prefix)) {
    if (!obj_.is_object()) bad(prefix_.empty() ? "(top level)" : prefix_, "expected an object");
  }

  [[noreturn]] void bad(const std::string& field, const std::string& why) const {
    fail(ErrorKind::kProfile, "profile {}: field '{}': {}", origin_, field, why);
  }

  std::string path(std::string_view key) const {
    return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key);
  }

  const json& get(std::string_view key) {
    seen_.insert(std::string(key));
    auto it = obj_.find(std::string(key));
    if (it == obj_.end()) bad(path(key), "missing");
    return *it;
  }

  bool has(std::string_view key) const { return obj_.contains(std::string(key)); }
  std::uint64_t u64(std::string_view key, std::uint64_t min = 0) {
    const json& v = get(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      bad(path(key), "expected a non-negative integer");
    auto x = v.get<std::uint64_t>();
    if (x < min) bad(path(key), "must be at least " + std::to_string(min));
    return x;
  }

  std::uint32_t u32(std::string_view key, std::uint32_t min = 0) {
    auto x = u64(key, min);
    if (x > 0xffffffffu) bad(path(key), "too large");
    return static_cast<std::uint32_t>(x);
  }

  std::uint32_t pow2(std::string_view key) {
    auto x = u32(key, 1);
    if ((x & (x - 1)) != 0) bad(path(key), "must be a power of two");
    return x;
  }

  double number(std::string_view key) {
    const json& v = get(key);
    if (!v.is_number()) bad(path(key), "expected a number");
    return v.get<double>();
  }

  bool boolean(std::string_view key) {
    const json& v = get(key);
    if (!v.is_boolean()) bad(path(key), "expected true or false");
    return v.get<bool>();
  }

  std::string string(std::string_view key) {
    const json& v = get(key);
    if (!v.is_string()) bad(path(key), "expected a string");
    return v.get<std::string>();
  }

  template <class E>
  E choice(std::string_view key, const std::map<std::string, E>& options) {
    auto s = string(key);
    auto it = options.find(s);
    if (it == options.end()) {
      std::string names;
      for (const auto& [k, _] : options) names += (names.empty() ? "" : ", ") + k;
      bad(path(key), "'" + s + "' is not one of " + names);
    }
    return it->second;
  }

  FieldReader object(std::string_view key) { return FieldReader(get(key), origin_, path(key)); }

  /// Call after reading every known field.
  void no_unknown_fields() const {
    for (const auto& [k, _] : obj_.items())
      if (!seen_.count(k)) bad(path(k), "unknown field");
  }

 private:
  const json& obj_;
  std::string origin_;
  std::string prefix_;
  std::set<std::string> seen_;
};

CacheGeometry read_cache(FieldReader& parent, std::string_view key) {
  FieldReader r = parent.object(key);
  CacheGeometry g;
  g.bytes = r.u64("bytes");
  g.line_bytes = r.pow2("line_bytes");
  g.sector_bytes = r.pow2("sector_bytes");
  g.associativity = r.u32("associativity", 1);
  g.set_index = r.choice<SetIndex>("set_index", {{"modulo", SetIndex::kModulo}, {"xor", SetIndex::kXor}});
  r.no_unknown_fields();
  if (g.sector_bytes > g.line_bytes) r.bad(r.path("sector_bytes"), "larger than line_bytes");
  if (g.bytes % (std::uint64_t{g.line_bytes} * g.associativity) != 0)
    r.bad(r.path("bytes"), "not a multiple of line_bytes * associativity");
  return g;
}

}  // namespace

Profile parse_profile(std::string_view json_text, std::string_view origin) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    fail(ErrorKind::kProfile, "profile {}: not valid JSON: {}", origin, e.what());
  }
  FieldReader r(doc, std::string(origin), "");
  Profile p;
  p.name = r.string("name");
  p.gpu = r.string("gpu");
  {
    FieldReader cc = r.object("compute_capability");
    p.cc_major = static_cast<int>(cc.u32("major", 1));
    p.cc_minor = static_cast<int>(cc.u32("minor"));
    cc.no_unknown_fields();
  }
  p.ptx_target = r.string("ptx_target");
  p.warp_size = r.u32("warp_size", 1);
  if (p.warp_size != 32) r.bad("warp_size", "only 32-thread warps are modelled");
  p.coalescing = r.choice<Coalescing>("coalescing", {{"cc1.0", Coalescing::kCc10},
                                                     {"cc1.2", Coalescing::kCc12},
                                                     {"lines", Coalescing::kLines},
                                                     {"sectors", Coalescing::kSectors}});
  p.line_bytes = r.pow2("line_bytes");
  p.sector_bytes = r.pow2("sector_bytes");
  if (p.sector_bytes > p.line_bytes) r.bad("sector_bytes", "larger than line_bytes");
  p.global_loads_cached_in_l1 = r.boolean("global_loads_cached_in_l1");
  p.local_cached_in_l1 = r.boolean("local_cached_in_l1");
  p.l1 = read_cache(r, "l1");
  p.l2 = read_cache(r, "l2");
  {
    const json& classes = r.get("reduction_line_classes");
    const std::string where = r.path("reduction_line_classes");
    if (!classes.is_array()) r.bad(where, "expected an array of arrays of address bit numbers");
    if (classes.size() > 16) r.bad(where, "more than 16 masks");
    const unsigned line_bit = static_cast<unsigned>(std::countr_zero(p.line_bytes));
    for (std::size_t i = 0; i < classes.size(); ++i) {
      const json& bits = classes[i];
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (!bits.is_array() || bits.empty()) r.bad(at, "expected a non-empty array of address bit numbers");
      std::uint64_t mask = 0;
      for (const json& b : bits) {
        if (!b.is_number_unsigned() && !(b.is_number_integer() && b.get<std::int64_t>() >= 0)) r.bad(at, "expected bit numbers");
        const auto bit = b.get<std::uint64_t>();
        if (bit < line_bit || bit > 63) r.bad(at, "bit " + std::to_string(bit) + " is not a bit of a line address (" +
                                                      std::to_string(line_bit) + "..63)");
        if ((mask >> bit) & 1u) r.bad(at, "bit " + std::to_string(bit) + " twice");
        mask |= std::uint64_t{1} << bit;
      }
      p.reduction_line_classes.push_back(mask);
    }
  }
  p.l1_store_policy = r.choice<L1StorePolicy>(
      "l1_store_policy", {{"invalidate", L1StorePolicy::kInvalidate},
                          {"write_through_update", L1StorePolicy::kWriteThroughUpdate}});
  {
    FieldReader s = r.object("shared");
    p.shared_banks = s.pow2("banks");
    p.shared_bank_bytes = s.pow2("bank_bytes");
    p.shared_load_pass_bytes = s.pow2("load_pass_bytes");
    p.shared_store_pass_bytes = s.pow2("store_pass_bytes");
    if (p.shared_load_pass_bytes < p.shared_banks * p.shared_bank_bytes)
      s.bad(s.path("load_pass_bytes"), "smaller than banks * bank_bytes");
    if (p.shared_store_pass_bytes < p.shared_banks * p.shared_bank_bytes)
      s.bad(s.path("store_pass_bytes"), "smaller than banks * bank_bytes");
    p.shared_bytes_per_sm = s.u64("bytes_per_sm");
    p.shared_bytes_per_block = s.u64("bytes_per_block");
    p.shared_allocation_unit = s.pow2("allocation_unit");
    p.shared_reserved_per_block = s.u32("reserved_per_block");
    s.no_unknown_fields();
    if (p.shared_bytes_per_block > p.shared_bytes_per_sm)
      s.bad(s.path("bytes_per_block"), "larger than bytes_per_sm");
  }
  {
    FieldReader o = r.object("occupancy");
    p.sm_count = o.u32("sm_count", 1);
    p.registers_per_sm = o.u32("registers_per_sm", 1);
    p.registers_per_block = o.u32("registers_per_block", 1);
    p.max_registers_per_thread = o.u32("max_registers_per_thread", 1);
    p.register_allocation_unit = o.pow2("register_allocation_unit");
    p.warp_allocation_granularity = o.pow2("warp_allocation_granularity");
    p.max_threads_per_sm = o.u32("max_threads_per_sm", 1);
    p.max_threads_per_block = o.u32("max_threads_per_block", 1);
    p.max_warps_per_sm = o.u32("max_warps_per_sm", 1);
    p.max_blocks_per_sm = o.u32("max_blocks_per_sm", 1);
    if (o.has("later_rounds_last")) {
      const json& last = o.get("later_rounds_last");
      const std::string where = o.path("later_rounds_last");
      if (!last.is_array()) o.bad(where, "expected an array of SM positions");
      std::vector<bool> seen(p.sm_count, false);
      for (const json& u : last) {
        if (!u.is_number_unsigned() || u.get<std::uint64_t>() >= p.sm_count || seen[u.get<std::size_t>()])
          o.bad(where, "expected distinct SM positions below occupancy.sm_count");
        seen[u.get<std::size_t>()] = true;
        p.later_rounds_last.push_back(u.get<std::uint32_t>());
      }
    }
    o.no_unknown_fields();
    if (p.max_warps_per_sm * p.warp_size != p.max_threads_per_sm)
      o.bad(o.path("max_warps_per_sm"), "max_warps_per_sm * warp_size != max_threads_per_sm");
  }
  {
    FieldReader c = r.object("clusters");
    const json& units = c.get("gpc_sms");
    const std::string where = c.path("gpc_sms");
    if (!units.is_array()) c.bad(where, "expected an array of SM counts");
    std::uint64_t sum = 0;
    for (const json& u : units) {
      if (!u.is_number_unsigned() || u.get<std::uint64_t>() == 0 || u.get<std::uint64_t>() > p.sm_count)
        c.bad(where, "expected SM counts from 1 to occupancy.sm_count");
      p.cluster_gpc_sms.push_back(u.get<std::uint32_t>());
      sum += u.get<std::uint64_t>();
    }
    p.cluster_max_blocks_per_sm = c.u32("max_blocks_per_sm");
    p.cluster_max_portable_size = c.u32("max_portable_size");
    p.cluster_max_size = c.u32("max_size");
    c.no_unknown_fields();
    if (units.empty()) {
      if (p.cluster_max_blocks_per_sm != 0 || p.cluster_max_portable_size != 0 || p.cluster_max_size != 0)
        c.bad(where, "empty (no clusters), but the other cluster fields are not 0");
    } else {
      if (sum != p.sm_count) c.bad(where, "the SM counts add up to " + std::to_string(sum) + ", not occupancy.sm_count");
      if (p.cluster_max_blocks_per_sm == 0) c.bad(c.path("max_blocks_per_sm"), "must be at least 1");
      if (p.cluster_max_portable_size == 0) c.bad(c.path("max_portable_size"), "must be at least 1");
      if (p.cluster_max_size < p.cluster_max_portable_size) c.bad(c.path("max_size"), "smaller than max_portable_size");
    }
  }
  {
    FieldReader d = r.object("dram");
    p.dram_bytes = d.u64("bytes", 1);
    p.dram_bandwidth_gbps = d.number("bandwidth_gbps");
    p.dram_fetch_bytes = d.pow2("fetch_bytes");
    // Optional: what cudaDevAttrMemoryClockRate / GlobalMemoryBusWidth answer (0: not stated).
    if (d.has("clock_khz")) p.dram_clock_khz = d.u32("clock_khz", 1);
    if (d.has("bus_width_bits")) p.dram_bus_width_bits = d.u32("bus_width_bits", 1);
    // Optional: the bytes a cold launch reads beyond its code and constants (0: not measured).
    if (d.has("launch_fetch_bytes")) p.dram_launch_fetch_bytes = d.u32("launch_fetch_bytes", 0);
    d.no_unknown_fields();
    if (p.dram_fetch_bytes < p.l2.sector_bytes) d.bad(d.path("fetch_bytes"), "smaller than l2.sector_bytes");
    if (p.dram_fetch_bytes > p.l2.line_bytes) d.bad(d.path("fetch_bytes"), "larger than l2.line_bytes");
  }
  {
    // Each count is an integer, or null where it is not known (no Nsight Compute for the GPU, or
    // not measured).
    FieldReader u = r.object("ncu_units");
    auto count = [&](std::string_view key) -> std::uint32_t {
      if (u.get(key).is_null()) return 0;
      return u.u32(key, 1);
    };
    p.ncu_smsp_per_sm = count("smsp_per_sm");
    p.ncu_lts_units = count("lts");
    p.ncu_dram_units = count("dram");
    u.no_unknown_fields();
  }
  p.sm_clock_mhz = r.number("sm_clock_mhz");
  p.sources = r.string("sources");
  r.no_unknown_fields();
  return p;
}

Profile load_profile_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::kIo, "cannot read architecture profile '{}'", path);
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_profile(ss.str(), path);
}

namespace {

const std::vector<Profile>& builtins() {
  // Never destroyed: programs launch kernels from their static destructors.
  static const std::vector<Profile>& profiles = *new std::vector<Profile>([] {
    std::vector<Profile> v;
    for (const EmbeddedFile& f : embedded_profile_files()) v.push_back(parse_profile(f.contents, f.name));
    std::sort(v.begin(), v.end(), [](const Profile& a, const Profile& b) {
      return std::tie(a.cc_major, a.cc_minor, a.name) < std::tie(b.cc_major, b.cc_minor, b.name);
    });
    return v;
  }());
  return profiles;
}

}  // namespace

const Profile& builtin_profile(std::string_view name) {
  for (const Profile& p : builtins())
    if (p.name == name) return p;
  std::string names;
  for (const Profile& p : builtins()) names += (names.empty() ? "" : ", ") + p.name;
  fail(ErrorKind::kUsage, "unknown architecture '{}' (known: {})", name, names);
}

std::vector<std::string> builtin_profile_names() {
  std::vector<std::string> names;
  for (const Profile& p : builtins()) names.push_back(p.name);
  return names;
}

std::string_view to_string(Coalescing c) {
  switch (c) {
    case Coalescing::kCc10: return "cc1.0";
    case Coalescing::kCc12: return "cc1.2";
    case Coalescing::kLines: return "lines";
    case Coalescing::kSectors: return "sectors";
  }
  return "?";
}

std::string_view to_string(SetIndex s) {
  switch (s) {
    case SetIndex::kModulo: return "modulo";
    case SetIndex::kXor: return "xor";
  }
  return "?";
}

}  // namespace warpscope::arch
