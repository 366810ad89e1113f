// The machine code of an .ncu-rep and the source counters keyed by its addresses (ncu_rep_sass.hpp).
#include "export/ncu_rep_sass.hpp"

#include <algorithm>
#include <fstream>
#include <filesystem>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "common/elf_file.hpp"
#include "common/error.hpp"
#include "ncu_report.pb.h"

namespace warpscope::ncurep::detail {
namespace pb = ncu_rep_pb;
namespace fs = std::filesystem;
namespace {

// Where the made-up addresses start, and how far apart two cubins' are.
constexpr std::uint64_t kCodeBase = 0x7f0000000000ull;
constexpr std::uint64_t kCubinStride = 0x100000000ull;
// The H200's reports (tests/hw/data/h200/ncurep_source): SourceSassLevel_Sass9, CudaSmVersion
// 589824 (0x90000) for sm_90 code, the only code the report's cubins hold (src/runtime reads
// ptxas's cubin for sm_90 and sm_90a targets only).
constexpr std::uint32_t kSassLevelSm90 = 9;
constexpr std::uint32_t kCudaSmVersion90 = 0x90000;
constexpr std::uint32_t kWarpSize = 32;

// memory_access_type as the H200's reports code it (tests/hw/data/h200/ncurep_source): load 2,
// store 4, a global atomic 8 (ATOMG), cp.async 6 (load | store); a reduction (REDG) has none.
// Shared atomics have no measurement: none.
std::optional<double> access_code(const std::string& space, const std::string& op) {
  if (op == "load") return 2;
  if (op == "store") return 4;
  if (op == "atomic" && space == "global") return 8;
  if (op == "ldgsts" && space == "global") return 2 | 4;
  return std::nullopt;
}

const nlohmann::json* sass_of(const nlohmann::json& launch) {
  const auto it = launch.find("sass");
  if (it == launch.end() || !it->is_object() || !it->contains("cubin_key") || !(*it)["cubin_key"].is_string())
    return nullptr;
  return &*it;
}

std::set<std::string> files_of(const nlohmann::json& launch) {
  std::set<std::string> files;
  for (const auto& x : launch.value("lines", nlohmann::json::array()))
    if (x.is_object() && x.contains("file") && x["file"].is_string() && !x["file"].get<std::string>().empty())
      files.insert(x["file"].get<std::string>());
  return files;
}

}  // namespace

std::optional<std::string> readable_source(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > (1u << 20) || ec) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return std::nullopt;
  return text.str();
}

std::optional<std::vector<std::uint8_t>> decode_base64(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string t = text;
  while (!t.empty() && t.back() == '=') t.pop_back();
  if (t.size() % 4 == 1) return std::nullopt;
  std::vector<std::uint8_t> out;
  out.reserve(t.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : t) {
    const int v = value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xff));
    }
  }
  return out;
}

MachineCode::MachineCode(const std::vector<const nlohmann::json*>& launches) {
  for (const nlohmann::json* l : launches) {
    const nlohmann::json* s = sass_of(*l);
    if (s == nullptr || !s->contains("cubin_base64")) continue;
    const std::string key = (*s)["cubin_key"].get<std::string>();
    if (cubins_.count(key) != 0) continue;
    auto bytes = decode_base64(s->value("cubin_base64", std::string()));
    if (!bytes) {
      notes_.push_back(fmt::format("cubin {}: its base64 text is malformed; its launches have no machine code", key));
      continue;
    }
    Cubin c;
    c.bytes = std::move(*bytes);
    c.reference = kCubinStride * (cubins_.size() + 1) + 1;
    const std::uint64_t base = kCodeBase + kCubinStride * cubins_.size();
    try {
      const ElfFile elf(c.bytes, fmt::format("cubin {}", key));
      const auto& symbols = elf.symtab();
      for (std::size_t i = 0; i < symbols.size(); ++i) {
        const ElfSymbol& sym = symbols[i];
        if ((sym.info & 0xf) != 2 || sym.section >= elf.sections().size()) continue;  // STT_FUNC in a section
        const ElfSection& sec = elf.sections()[sym.section];
        if (sec.name != ".text." + sym.name) continue;
        c.functions[sym.name] = {base + sec.offset + sym.value, static_cast<std::uint32_t>(i)};
      }
    } catch (const Error& e) {
      notes_.push_back(fmt::format("cubin {}: {}; its launches have no machine code", key, e.what()));
      continue;
    }
    cubins_.emplace(key, std::move(c));
  }
  std::set<std::string> said;
  for (const nlohmann::json* l : launches) {
    const nlohmann::json* s = sass_of(*l);
    if (s == nullptr) continue;
    const std::string key = (*s)["cubin_key"].get<std::string>();
    const std::string fn = s->value("function", std::string());
    const auto it = cubins_.find(key);
    std::string why;
    if (it == cubins_.end()) {
      why = fmt::format("cubin {} is not in the report (no profiled launch of it carries its bytes)", key);
    } else if (it->second.functions.count(fn) == 0) {
      why = fmt::format("cubin {} defines no function {}", key, fn);
    }
    if (!why.empty() && said.insert(why).second) notes_.push_back(why);
  }
}

std::optional<std::uint64_t> MachineCode::address(const nlohmann::json& launch) const {
  const nlohmann::json* s = sass_of(launch);
  if (s == nullptr) return std::nullopt;
  const auto it = cubins_.find((*s)["cubin_key"].get<std::string>());
  if (it == cubins_.end()) return std::nullopt;
  const auto f = it->second.functions.find(s->value("function", std::string()));
  if (f == it->second.functions.end()) return std::nullopt;
  return f->second.first;
}

std::uint64_t MachineCode::reference(const nlohmann::json& launch) const {
  const nlohmann::json* s = sass_of(launch);
  if (s == nullptr) return 0;
  const auto it = cubins_.find((*s)["cubin_key"].get<std::string>());
  return it == cubins_.end() ? 0 : it->second.reference;
}

std::vector<std::string> MachineCode::sources(const std::vector<const nlohmann::json*>& launches) const {
  std::vector<std::string> out;
  for (const auto& [key, c] : cubins_) {
    pb::SourceData src;
    src.set_reference(c.reference);
    src.set_binary(std::string(c.bytes.begin(), c.bytes.end()));
    src.set_sasslevel(kSassLevelSm90);
    src.set_cudasmversion(kCudaSmVersion90);
    src.set_binaryflags(0);
    std::set<std::string> files;
    for (const nlohmann::json* l : launches) {
      const nlohmann::json* s = sass_of(*l);
      if (s == nullptr || (*s)["cubin_key"].get<std::string>() != key) continue;
      const auto f = files_of(*l);
      files.insert(f.begin(), f.end());
    }
    for (const auto& f : files) {
      auto* file = src.mutable_sourcefiles()->add_files();
      file->set_filename(f);
      if (auto text = readable_source(f)) file->set_content(std::move(*text));
    }
    for (const auto& [name, where] : c.functions) {
      auto* e = src.mutable_relocationdata()->add_functions();
      e->set_symbolname(name);
      e->set_address(where.first);
      e->set_symbolindex(where.second);
    }
    std::string bytes;
    if (!src.SerializeToString(&bytes)) fail(ErrorKind::kInternal, ".ncu-rep: cannot serialise the source of cubin {}", key);
    out.push_back(std::move(bytes));
  }
  return out;
}

std::map<std::string, AddressValues> sass_counters(const nlohmann::json& launch, std::uint64_t function_address) {
  std::map<std::string, AddressValues> m;
  const nlohmann::json* s = sass_of(launch);
  if (s == nullptr) return m;
  std::map<std::uint64_t, std::uint64_t> warp_at;  // offset -> warp executions
  for (const auto& i : s->value("instructions", nlohmann::json::array())) {
    if (!i.is_array() || i.size() < 5) continue;
    const auto off = i[0].get<std::uint64_t>();
    const double warp = i[2].get<double>(), thread = i[3].get<double>(), on = i[4].get<double>();
    const std::uint64_t a = function_address + off;
    warp_at[off] = i[2].get<std::uint64_t>();
    m["inst_executed"].emplace_back(a, warp);
    m["thread_inst_executed"].emplace_back(a, thread);
    m["thread_inst_executed_true"].emplace_back(a, on);
    if (warp > 0) {
      m["derived__avg_thread_executed"].emplace_back(a, thread / warp);
      m["derived__avg_thread_executed_true"].emplace_back(a, on / warp);
      m["derived__avg_thread_unexecuted_true"].emplace_back(a, kWarpSize - on / warp);
    }
  }
  std::map<std::uint64_t, std::uint64_t> offset_of;  // PTX pc -> machine instruction offset
  for (const auto& p : s->value("memory", nlohmann::json::array()))
    if (p.is_array() && p.size() == 2) offset_of[p[0].get<std::uint64_t>()] = p[1].get<std::uint64_t>();
  auto num = [](const nlohmann::json& x, const char* k) { return x.value(k, 0.0); };
  // The shared side's counters of a machine instruction at `offset` (address a).
  auto shared_counters = [&](std::uint64_t offset, std::uint64_t a, double w, double ideal) {
    m["memory_l1_wavefronts_shared"].emplace_back(a, w);
    m["memory_l1_wavefronts_shared_ideal"].emplace_back(a, ideal);
    m["derived__memory_l1_wavefronts_shared_excessive"].emplace_back(a, std::max(0.0, w - ideal));
    const auto e = warp_at.find(offset);
    if (e != warp_at.end() && e->second > 0)
      m["derived__memory_l1_conflicts_shared_nway"].emplace_back(a, w / static_cast<double>(e->second));
  };
  for (const auto& line : launch.value("lines", nlohmann::json::array())) {
    for (const auto& ins : line.value("instructions", nlohmann::json::array())) {
      if (!ins.contains("pc") || !ins["pc"].is_number_unsigned()) continue;
      const auto it = offset_of.find(ins["pc"].get<std::uint64_t>());
      if (it == offset_of.end()) continue;
      const std::uint64_t a = function_address + it->second;
      const std::string space = ins.value("space", std::string()), op = ins.value("op", std::string());
      // cp.async (LDGSTS) reads global and writes shared: both spaces' codes and counters on the
      // one instruction (the H200: address space 20 = global 4 | shared 16, operation 6 = load 2 |
      // store 4).
      const bool ldgsts = space == "global" && op == "ldgsts";
      if (space == "global" || space == "shared") {
        m["memory_type"].emplace_back(a, ldgsts ? 4 | 16 : space == "global" ? 4 : 16);
        if (const auto code = access_code(space, op)) m["memory_access_type"].emplace_back(a, *code);
        m["memory_access_size_type"].emplace_back(a, 8.0 * num(ins, "width"));
      }
      if (space == "global") {
        if (ins.contains("l1_tag_requests")) m["memory_l1_tag_requests_global"].emplace_back(a, num(ins, "l1_tag_requests"));
        // An atomic's or reduction's theoretical sectors are those its lanes touch, once each
        // (`theoretical_sectors`; its `sectors` count the L1's passes: 32 for one address per warp).
        const bool theoretical = ins.contains("theoretical_sectors");
        const double sectors = num(ins, theoretical ? "theoretical_sectors" : "sectors"), ideal = num(ins, "ideal_sectors");
        m["memory_l2_theoretical_sectors_global"].emplace_back(a, sectors);
        m["memory_l2_theoretical_sectors_global_ideal"].emplace_back(a, ideal);
        m["derived__memory_l2_theoretical_sectors_global_excessive"].emplace_back(
            a, theoretical ? std::max(0.0, sectors - ideal) : num(ins, "excessive_sectors"));
        if (ldgsts) shared_counters(it->second, a, num(ins, "wavefronts"), num(ins, "ideal_wavefronts"));
      } else if (space == "local") {
        m["memory_l2_theoretical_sectors_local"].emplace_back(a, num(ins, "sectors"));
      } else if (space == "shared") {
        shared_counters(it->second, a, num(ins, "wavefronts"), num(ins, "ideal_wavefronts"));
      }
    }
  }
  // Shared loads and stores no lane runs (`@!PT`): the H200 gives them address space 0 (no lane
  // touched one), the operation and size of the opcode, and zero wavefronts.
  for (const auto& n : s->value("memory_never", nlohmann::json::array())) {
    if (!n.is_array() || n.size() != 4 || !n[0].is_number_unsigned() || n[1] != "shared") continue;
    const auto off = n[0].get<std::uint64_t>();
    const std::uint64_t a = function_address + off;
    m["memory_type"].emplace_back(a, 0);
    if (const auto code = access_code("shared", n[2].get<std::string>())) m["memory_access_type"].emplace_back(a, *code);
    m["memory_access_size_type"].emplace_back(a, 8.0 * n[3].get<double>());
    shared_counters(off, a, 0, 0);
  }
  return m;
}

}  // namespace warpscope::ncurep::detail
