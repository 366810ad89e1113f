// Writing an .ncu-rep from the report's JSON (ncu_rep.hpp; docs/report.md "Nsight Compute's report
// file").
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/kernel_name.hpp"
#include "export/ncu_rep.hpp"
#include "export/ncu_rep_sass.hpp"
#include "ncu_report.pb.h"
#include "report/ncu_output.hpp"
#include "report/ncu_sections.hpp"

namespace warpscope::ncurep {
namespace pb = ncu_rep_pb;
namespace fs = std::filesystem;
namespace {

constexpr char kMagic[4] = {'N', 'V', 'R', '\0'};

/// The string table: every name once, in first-use order; NameIds index it.
class Strings {
 public:
  std::uint32_t id(const std::string& s) {
    const auto [it, fresh] = index_.emplace(s, static_cast<std::uint32_t>(list_.size()));
    if (fresh) list_.push_back(s);
    return it->second;
  }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::map<std::string, std::uint32_t> index_;
  std::vector<std::string> list_;
};

/// A number as the file types it: a non-negative whole number (a counter) as uint64, anything else
/// as double, so that ncu prints the value as `warpscope run --csv` does (ncu_number: whole
/// numbers without decimals, others with two).
void set_number(pb::ProfileMetricValue& v, double x) {
  if (x >= 0 && x < 9.0e15 && std::nearbyint(x) == x) {
    v.set_uint64value(static_cast<std::uint64_t>(x));
  } else {
    v.set_doublevalue(x);
  }
}

void append_framed(std::string& out, const std::string& message) {
  const auto n = static_cast<std::uint32_t>(message.size());
  const char size[4] = {static_cast<char>(n & 0xff), static_cast<char>((n >> 8) & 0xff),
                        static_cast<char>((n >> 16) & 0xff), static_cast<char>((n >> 24) & 0xff)};
  out.append(size, 4);
  out += message;
}

std::string serialized(const google::protobuf::MessageLite& m, const char* what) {
  std::string s;
  if (!m.SerializeToString(&s)) fail(ErrorKind::kInternal, ".ncu-rep: cannot serialise the {}", what);
  return s;
}

std::array<std::uint64_t, 3> dims(const nlohmann::json& d) {
  std::array<std::uint64_t, 3> out{1, 1, 1};
  if (d.is_array() && d.size() == 3)
    for (std::size_t i = 0; i < 3; ++i) out[i] = d[i].get<std::uint64_t>();
  return out;
}

void set_dims(pb::Uint64x3& m, const std::array<std::uint64_t, 3>& d) {
  m.set_x(d[0]);
  m.set_y(d[1]);
  m.set_z(d[2]);
}

/// The launch as a compared profile saw it: its compare entry's metrics, time, occupancy and
/// resources in place of the primary profile's.
nlohmann::json launch_for(const nlohmann::json& launch, const std::string& arch, bool primary) {
  if (primary) return launch;
  for (const auto& c : launch.value("compare", nlohmann::json::array())) {
    if (c.value("arch", std::string()) != arch) continue;
    nlohmann::json l = launch;
    for (const char* k : {"metrics", "estimated", "time", "occupancy", "resources", "unit_extremes", "lines"})
      if (c.contains(k)) l[k] = c[k];
    l.erase("compare");
    return l;
  }
  return nullptr;
}

/// The metric names of a result: what `--csv` prints (every metric with an Nsight Compute name),
/// the launch__ facts, and the metrics of the sections warpscope fills.
std::vector<std::string> result_metrics(const nlohmann::json& l) {
  std::set<std::string> names;
  if (const auto m = l.find("metrics"); m != l.end() && m->is_object())
    for (auto it = m->begin(); it != m->end(); ++it)
      if (it.key().find("__") != std::string::npos && it->is_number()) names.insert(it.key());
  for (const char* f : {"launch__grid_size", "launch__block_size", "launch__thread_count", "launch__grid_dim_x",
                        "launch__grid_dim_y", "launch__grid_dim_z", "launch__block_dim_x", "launch__block_dim_y",
                        "launch__block_dim_z", "launch__shared_mem_per_block_dynamic"})
    names.insert(f);
  for (const auto& s : report::ncu_sections())
    if (s.modelled)
      for (const auto& m : report::section_metrics(s.identifier))
        if (m.metric.find("__") != std::string::npos) names.insert(m.metric);
  return {names.begin(), names.end()};
}

/// The source page's columns (the SourceCounters section's SourceMetrics), in the order and with the
/// labels and groups of Nsight Compute 2025.3's section (tests/hw/data/h200/ncurep_source: its
/// `--page source --csv` header), for the per-instruction metrics warpscope writes.
void add_source_metrics(pb::ProfilerSection& sec, const std::set<std::string>& instanced) {
  struct Column {
    const char* name;
    const char* label;
    const char* group;
  };
  static const Column kColumns[] = {
      {"inst_executed", "Instructions Executed", "group_inst_executed"},
      {"thread_inst_executed", "Thread Instructions Executed", "group_inst_executed"},
      {"thread_inst_executed_true", "Predicated-On Thread Instructions Executed", "group_inst_executed"},
      {"derived__avg_thread_executed", "Avg. Threads Executed", "group_inst_executed"},
      {"derived__avg_thread_executed_true", "Avg. Predicated-On Threads Executed", "group_inst_executed"},
      {"derived__avg_thread_unexecuted_true", "Avg. Predicated-On Threads Unexecuted", "group_inst_executed"},
      {"memory_type", "Address Space", "group_memory_access"},
      {"memory_access_type", "Access Operation", "group_memory_access"},
      {"memory_access_size_type", "Access Size", "group_memory_access"},
      {"memory_l1_tag_requests_global", "L1 Tag Requests Global", "group_l1"},
      {"derived__memory_l1_conflicts_shared_nway", "L1 Conflicts Shared N-Way", "group_l1"},
      {"derived__memory_l1_wavefronts_shared_excessive", "L1 Wavefronts Shared Excessive", "group_l1"},
      {"memory_l1_wavefronts_shared", "L1 Wavefronts Shared", "group_l1"},
      {"memory_l1_wavefronts_shared_ideal", "L1 Wavefronts Shared Ideal", "group_l1"},
      {"derived__memory_l2_theoretical_sectors_global_excessive", "L2 Theoretical Sectors Global Excessive", "group_l2"},
      {"memory_l2_theoretical_sectors_global", "L2 Theoretical Sectors Global", "group_l2"},
      {"memory_l2_theoretical_sectors_global_ideal", "L2 Theoretical Sectors Global Ideal", "group_l2"},
      {"memory_l2_theoretical_sectors_local", "L2 Theoretical Sectors Local", "group_l2"}};
  static const std::pair<const char*, const char*> kGroups[] = {{"group_inst_executed", "Instructions Executed"},
                                                                {"group_memory_access", "Memory Access"},
                                                                {"group_l1", "L1 Cache"},
                                                                {"group_l2", "L2 Cache"}};
  for (const auto& [name, label] : kGroups) {
    auto* g = sec.add_group();
    g->set_name(name);
    g->set_label(label);
  }
  // Nsight Compute 2025.3 takes the columns from SourceMetrics (field 13); 2022.3's format has no
  // such field and takes them from the section's Metrics (field 6): both are written.
  for (const Column& c : kColumns) {
    if (instanced.count(c.name) == 0) continue;
    for (auto* list : {sec.mutable_sourcemetrics(), sec.mutable_metrics()}) {
      auto* m = list->add_metrics();
      m->set_name(c.name);
      m->set_label(c.label);
      m->add_groups(c.group);
    }
  }
}

/// The sections warpscope fills, each with its metric rows that have a value; SourceCounters also
/// with the source page's columns when the result has per-instruction metrics (`instanced`).
void add_sections(pb::ProfileResult& r, const std::set<std::string>& present, const std::set<std::string>& instanced) {
  std::uint32_t order = 0;
  for (const auto& s : report::ncu_sections()) {
    if (!s.modelled) continue;
    std::vector<report::SectionMetric> rows;
    for (const auto& m : report::section_metrics(s.identifier))
      if (present.count(m.metric) != 0) rows.push_back(m);
    const bool source = s.identifier == "SourceCounters" && !instanced.empty();
    if (rows.empty() && !source) continue;
    auto* sec = r.add_sections();
    sec->set_identifier(s.identifier);
    sec->set_displayname(s.display_name);
    sec->set_order(order += 10);
    if (source) add_source_metrics(*sec, instanced);
    if (rows.empty()) continue;
    // The header: two columns, row-major (what ncu's CLI prints of a section; a section with a body
    // alone prints nothing there).
    auto* header = sec->mutable_header();
    header->set_rows(static_cast<std::uint32_t>((rows.size() + 1) / 2));
    for (const auto& m : rows) {
      auto* cell = header->add_metrics();
      cell->set_name(m.metric);
      cell->set_label(m.label);
      cell->set_unit(m.unit);
    }
    if (s.identifier == "SpeedOfLight") {
      auto* c = r.add_sectioncomments();
      c->mutable_id()->set_sectionid(s.identifier);
      c->set_displayname("Predicted (warpscope)");
      c->set_text("Duration (gpu__time_duration.sum), the elapsed cycles and the throughputs are predicted by "
                  "warpscope's time model, not measured.");
    }
  }
}

/// The CUDA files the launch's lines name, with their text when they can be read (small files
/// only): what ncu's --import-source keeps for the source page.
void add_source_files(pb::SourceData& src, const nlohmann::json& l) {
  std::set<std::string> files;
  for (const auto& x : l.value("lines", nlohmann::json::array()))
    if (x.contains("file") && x["file"].is_string()) files.insert(x["file"].get<std::string>());
  for (const auto& f : files) {
    auto* file = src.mutable_sourcefiles()->add_files();
    file->set_filename(f);
    if (auto text = detail::readable_source(f)) file->set_content(std::move(*text));
  }
}

/// One instanced metric: a name and (correlation id, value) pairs, the form the format gives a
/// metric with one value per instance (ProfileMetricResult.MetricValueList).
struct Instanced {
  std::vector<std::pair<pb::ProfileMetricValue, double>> values;
  void add_uint(std::uint64_t key, double v) {
    pb::ProfileMetricValue k;
    k.set_uint64value(key);
    values.emplace_back(std::move(k), v);
  }
  void add_string(const std::string& key, double v) {
    pb::ProfileMetricValue k;
    k.set_stringvalue(key);
    values.emplace_back(std::move(k), v);
  }
};

/// The launch's per-instruction and per-line counters (docs/report.md "Source counters"):
///  - per PTX instruction (correlation id: its "pc", warpscope's index of the instruction in the
///    kernel's PTX; only without the machine code, else ncu_rep_sass.hpp keys them by address),
///    under the names of ncu's SourceCounters section: inst_executed, thread_inst_executed,
///    memory_l1_tag_requests_global (distinct lines), memory_l2_theoretical_sectors_global
///    (_ideal, and the section's derived _excessive), memory_l2_theoretical_sectors_local,
///    memory_l1_wavefronts_shared (_ideal, derived _excessive); memory instructions only (the JSON
///    report lists no others);
///  - per CUDA line (correlation id: the string "FILE:LINE"), warpscope__line_* names: every
///    executed line's warp instructions, thread instructions, global requests, sectors, ideal and
///    excessive sectors, shared wavefronts and excess wavefronts.
/// A counter that is zero on every instance is left out.
std::vector<std::pair<std::string, Instanced>> source_counters(const nlohmann::json& l, bool lines_only) {
  std::map<std::string, Instanced> m;
  auto num = [](const nlohmann::json& x, const char* k) { return x.value(k, 0.0); };
  for (const auto& line : l.value("lines", nlohmann::json::array())) {
    const std::string where = fmt::format("{}:{}", line.value("file", std::string()), line.value("line", 0));
    for (const auto& [name, key] :
         {std::pair{"warpscope__line_inst_executed", "executions"},
          {"warpscope__line_thread_inst_executed", "thread_executions"},
          {"warpscope__line_requests_global", "global_requests"},
          {"warpscope__line_sectors_global", "global_sectors"},
          {"warpscope__line_sectors_global_ideal", "global_ideal_sectors"},
          {"warpscope__line_sectors_global_excessive", "global_excessive_sectors"},
          {"warpscope__line_wavefronts_shared", "shared_wavefronts"},
          {"warpscope__line_wavefronts_shared_excessive", "shared_excess_wavefronts"}})
      m[name].add_string(where, num(line, key));
    if (lines_only) continue;  // the instructions are keyed by machine-code address (ncu_rep_sass.hpp)
    for (const auto& ins : line.value("instructions", nlohmann::json::array())) {
      if (!ins.contains("pc") || !ins["pc"].is_number_unsigned()) continue;
      const auto pc = ins["pc"].get<std::uint64_t>();
      const std::string space = ins.value("space", std::string());
      m["inst_executed"].add_uint(pc, num(ins, "executions"));
      m["thread_inst_executed"].add_uint(pc, num(ins, "active_lanes"));
      if (space == "global") {
        if (ins.contains("l1_tag_requests"))
          m["memory_l1_tag_requests_global"].add_uint(pc, num(ins, "l1_tag_requests"));
        // Atomics and reductions: the sectors their lanes touch, once each (ncu_rep_sass.cpp).
        const bool theoretical = ins.contains("theoretical_sectors");
        const double sectors = num(ins, theoretical ? "theoretical_sectors" : "sectors"), ideal = num(ins, "ideal_sectors");
        m["memory_l2_theoretical_sectors_global"].add_uint(pc, sectors);
        m["memory_l2_theoretical_sectors_global_ideal"].add_uint(pc, ideal);
        m["derived__memory_l2_theoretical_sectors_global_excessive"].add_uint(
            pc, theoretical ? std::max(0.0, sectors - ideal) : num(ins, "excessive_sectors"));
      } else if (space == "local") {
        m["memory_l2_theoretical_sectors_local"].add_uint(pc, num(ins, "sectors"));
      } else if (space == "shared") {
        m["memory_l1_wavefronts_shared"].add_uint(pc, num(ins, "wavefronts"));
        m["memory_l1_wavefronts_shared_ideal"].add_uint(pc, num(ins, "ideal_wavefronts"));
        m["derived__memory_l1_wavefronts_shared_excessive"].add_uint(
            pc, std::max(0.0, num(ins, "wavefronts") - num(ins, "ideal_wavefronts")));
      }
    }
  }
  std::vector<std::pair<std::string, Instanced>> out;
  for (auto& [name, inst] : m) {
    bool any = false;
    for (const auto& [k, v] : inst.values) any = any || v != 0;
    if (any) out.emplace_back(name, std::move(inst));
  }
  return out;
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

pb::ProfileResult make_result(const nlohmann::json& l, const ExportProfile& p, std::size_t device, std::size_t index,
                              const ExportContext& ctx, Strings& strings, const detail::MachineCode* code) {
  // The primary profile's sm_90 launches: the source page's machine code and counters by address.
  const std::optional<std::uint64_t> address = code != nullptr ? code->address(l) : std::nullopt;
  pb::ProfileResult r;
  const std::string mangled = l.value("kernel", std::string("?"));
  const auto names = kernel_names(mangled);
  r.set_threadid(static_cast<std::uint32_t>(ctx.pid));
  r.set_apicallid(l.value("index", std::uint64_t{index}) + 1);
  const std::uint64_t program = fnv1a(l.value("module", std::string())) & 0xffffffffull;
  r.set_programhandle(program);
  r.set_kernelid(l.value("index", std::uint64_t{index}) + 1);
  r.set_kernelmangledname(mangled);
  r.set_kernelfunctionname(names.function);
  r.set_kerneldemangledname(names.demangled);
  r.set_workdimensions(3);
  set_dims(*r.mutable_globalworkoffset(), {0, 0, 0});
  set_dims(*r.mutable_gridsize(), dims(l.value("grid", nlohmann::json())));
  set_dims(*r.mutable_blocksize(), dims(l.value("block", nlohmann::json())));
  r.set_comments(fmt::format(
      "Modelled by warpscope (profile {}, {}), not measured on a GPU: the memory counters are the memory "
      "model's; gpu__time_duration.sum and the throughput percentages are predicted by its time model.",
      p.name, p.gpu));
  r.set_creationtime(ctx.creation_time_ns);
  auto* src = r.mutable_source();
  if (address) {
    src->set_reference(code->reference(l));  // the block's SourceData with the cubin and the files
  } else {
    src->set_reference(program);
    add_source_files(*src, l);
  }
  if (l.contains("sampling") && l["sampling"].is_object())
    r.set_comments(r.comments() + " The source counters of memory instructions are the sampled CTAs' own (" +
                   l["sampling"].value("note", std::string()) + ").");
  r.set_api(0);
  r.set_contextid(1);
  r.set_streamid(static_cast<std::uint32_t>(report::ncu_stream(l.value("stream", std::uint64_t{0}))));

  auto add = [&](const std::string& name) -> pb::ProfileMetricValue* {
    auto* m = r.add_metricresults();
    m->set_nameid(strings.id(name));
    return m->mutable_metricvalue();
  };
  std::set<std::string> present;
  for (const auto& m : result_metrics(l)) {
    const auto v = report::metric_number(l, m, p.units);
    if (!v || !std::isfinite(*v)) continue;  // n/a in --csv: no value in the report either
    set_number(*add(m), *v);
    present.insert(m);
  }
  add("device__attribute_display_name")->set_stringvalue(p.gpu);
  add("device__attribute_device_index")->set_uint64value(device);
  add("device__attribute_compute_capability_major")->set_uint64value(static_cast<std::uint64_t>(p.cc_major));
  add("device__attribute_compute_capability_minor")->set_uint64value(static_cast<std::uint64_t>(p.cc_minor));
  for (const auto& [name, value] : p.device_attributes) add(name)->set_uint64value(value);
  add("warpscope_profile")->set_stringvalue(p.name);
  // Instanced metrics: the list alone, no aggregate value (a reader tells them from the launch's
  // metrics by that; ncu's raw page does not list them).
  for (const auto& [name, inst] : source_counters(l, address.has_value())) {
    auto* m = r.add_metricresults();
    m->set_nameid(strings.id(name));
    for (const auto& [key, v] : inst.values) {
      auto* e = m->add_metricvaluelist();
      *e->mutable_correlationid() = key;
      set_number(*e->mutable_elementvalue(), v);
    }
  }
  std::set<std::string> instanced;
  if (address) {
    for (const auto& [name, values] : detail::sass_counters(l, *address)) {
      instanced.insert(name);
      auto* m = r.add_metricresults();
      m->set_nameid(strings.id(name));
      // The aggregate, as the H200's reports have it: the sum over the instructions; 0 for the
      // codes (address space, operation, size), which do not add up.
      double sum = 0;
      const bool is_code = name == "memory_type" || name == "memory_access_type" || name == "memory_access_size_type";
      for (const auto& [a, v] : values) sum += is_code ? 0 : v;
      set_number(*m->mutable_metricvalue(), sum);
      for (const auto& [a, v] : values) {
        auto* e = m->add_metricvaluelist();
        e->mutable_correlationid()->set_uint64value(a);
        set_number(*e->mutable_elementvalue(), v);
      }
    }
  }
  add_sections(r, present, instanced);
  return r;
}

void set_system(pb::SystemInfo& s, const std::string& host) {
  s.set_osname("Linux");
  s.set_computername(host);
  s.set_platform(2);  // Linux
}

}  // namespace

std::string report_path(const std::string& name) {
  const std::string ext = ".ncu-rep";
  if (name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) return name;
  return name + ext;
}

std::string write_report(const nlohmann::json& report, const std::vector<ExportProfile>& profiles,
                         const ExportContext& ctx) {
  if (profiles.empty()) fail(ErrorKind::kInternal, ".ncu-rep: no profile to write");
  const auto launches = report::profiled_launches(report);
  Strings strings;
  // The machine code of the primary profile's launches (sm_90: the cubins ptxas made for them).
  const detail::MachineCode code(launches);
  std::vector<std::vector<std::string>> blocks;  // the serialised results of each profile
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    std::vector<std::string> results;
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const auto l = launch_for(*launches[i], profiles[p].name, p == 0);
      if (l.is_null()) continue;
      results.push_back(serialized(make_result(l, profiles[p], p, i, ctx, strings, p == 0 ? &code : nullptr), "result"));
    }
    blocks.push_back(std::move(results));
  }

  pb::FileHeader file;
  file.set_version(ctx.file_version);
  std::string out(kMagic, 4);
  append_framed(out, serialized(file, "file header"));
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    std::string payload;
    const std::vector<std::string> sources = b == 0 ? code.sources(launches) : std::vector<std::string>{};
    for (const auto& s : sources) append_framed(payload, s);
    for (const auto& r : blocks[b]) append_framed(payload, r);
    pb::BlockHeader h;
    h.set_numsources(static_cast<std::uint32_t>(sources.size()));
    h.set_numresults(static_cast<std::uint32_t>(blocks[b].size()));
    h.set_payloadsize(static_cast<std::uint32_t>(payload.size()));
    // Every block carries the whole table: a reader that keeps one table per block and one that
    // extends a table block by block both find every name.
    for (const auto& s : strings.list()) h.mutable_stringtable()->add_strings(s);
    auto* proc = h.mutable_process();
    proc->set_processid(static_cast<std::uint32_t>(ctx.pid));
    proc->set_hostname(ctx.host);
    proc->set_processname(ctx.process);
    if (b == 0) {
      auto* s = h.mutable_sessiondetails();
      s->set_processid(static_cast<std::uint32_t>(ctx.pid));
      s->set_creationtime(ctx.creation_time_ns);
      set_system(*s->mutable_hostsysteminfo(), ctx.host);
      set_system(*s->mutable_targetsysteminfo(), ctx.host);
      for (std::size_t p = 0; p < profiles.size(); ++p) {
        auto* d = s->add_deviceattributes();
        d->set_id(static_cast<std::uint32_t>(p));
        d->set_name(profiles[p].gpu);
        auto* a = d->add_attributes();
        a->set_name("device__attribute_display_name");
        a->mutable_value()->set_stringvalue(profiles[p].gpu);
        for (const auto& [name, value] : profiles[p].device_attributes) {
          auto* x = d->add_attributes();
          x->set_name(name);
          x->mutable_value()->set_uint64value(value);
        }
      }
      std::string profile_names;
      for (const auto& p : profiles) profile_names += (profile_names.empty() ? "" : ", ") + p.name;
      s->set_comments(fmt::format("Written by warpscope: the program ran on a CPU and every GPU figure is "
                                  "modelled (profiles: {}); gpu__time_duration.sum is predicted, not measured.",
                                  profile_names) +
                      (code.notes().empty() ? std::string()
                                            : fmt::format(" No machine code for some launches: {}.",
                                                          fmt::join(code.notes(), "; "))));
      auto* v = s->add_versioninfo();
      v->set_provider("warpscope");
      v->set_version(report.value("tool", nlohmann::json::object()).value("version", std::string("?")));
      if (!ctx.executable.empty()) {
        auto* e = s->mutable_executablesettings();
        e->set_executablepath(ctx.executable);
        e->set_workdirectory(fs::current_path().string());
        e->set_cmdlineagruments(ctx.arguments);
      }
      if (!ctx.command_line.empty()) s->set_profilercmdline(ctx.command_line);
    }
    append_framed(out, serialized(h, "block header"));
    out += payload;
  }
  return out;
}

void write_report_file(const std::string& path, const nlohmann::json& report, const std::vector<ExportProfile>& profiles,
                       const ExportContext& ctx) {
  const std::string bytes = write_report(report, profiles, ctx);
  const std::string tmp = fmt::format("{}.tmp{}", path, getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail(ErrorKind::kIo, "-o {}: cannot write: {}", path, std::strerror(errno));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      fail(ErrorKind::kIo, "-o {}: the report could not be written whole", path);
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    fail(ErrorKind::kIo, "-o {}: cannot write: {}", path, ec.message());
  }
}

}  // namespace warpscope::ncurep
