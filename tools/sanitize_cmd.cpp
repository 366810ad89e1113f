#include "sanitize_cmd.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "child_signals.hpp"
#include "common/error.hpp"
#include "profile_option.hpp"
#include "report/ncu_output.hpp"
#include "report/json_access.hpp"
#include "report/processes.hpp"
#include "run_cmd.hpp"
#include "sanitize_xml.hpp"


namespace warpscope::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kPrefix = "========= ";

/// 4096 -> "4,096", as compute-sanitizer writes sizes and distances.
std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string dim3(const json& a) {
  return fmt::format("({},{},{})", a.at(0).get<std::uint64_t>(), a.at(1).get<std::uint64_t>(),
                     a.at(2).get<std::uint64_t>());
}

/// "kernel(int*)+0x1a in race.cu:12": the kernel, the PTX instruction's index (warpscope has no
/// machine-code offsets; docs/sanitize.md) and the source line, its file without directories as
/// compute-sanitizer's --strip-paths yes writes it.
std::string location(const std::string& kernel, const json& site) {
  std::string s = fmt::format("{}+0x{:x}", kernel, site.value("pc", std::uint64_t{0}));
  const std::string file = site.value("file", std::string());
  if (!file.empty()) s += fmt::format(" in {}:{}", fs::path(file).filename().string(), site.value("line", 0u));
  return s;
}

/// The kernel as compute-sanitizer names it: demangled as Nsight Compute writes it ("raw(int *)",
/// tests/hw/data/h200/sanitize/sanitize.txt).
std::string sanitizer_kernel_name(const json& launch) {
  return report::printed_kernel_name(launch, "demangled");
}

using ojson = nlohmann::ordered_json;

/// Where a report's instruction is (the XML's `where`): the kernel's name without its parameters
/// (tests/hw/data/h200/sanitize/xml), file, line and the PTX index.
ojson where(const std::string& kernel, const json& site) {
  return {{"func", without_parameters(kernel)},
          {"path", site.value("file", std::string())},
          {"line", site.value("line", 0u)},
          {"pc", fmt::format("0x{:x}", site.value("pc", std::uint64_t{0}))}};
}

ojson xyz(const json& a) { return {{"x", a.at(0)}, {"y", a.at(1)}, {"z", a.at(2)}}; }

/// A device-side assert that ended a launch: the interpreter's message (src/exec/warp.cpp) names
/// the asserting threads of the warp and the call's instruction; empty when `error` is another
/// fault. compute-sanitizer's memcheck reports a "Warp assert" for each of those threads
/// (tests/hw/data/h200/sanitize/acceptance/simpleAssert.memcheck.txt).
struct WarpAssert {
  json site;                 // pc, file, line (the assert's)
  json block;                // [x, y, z]
  std::vector<json> threads;  // [x, y, z] each
};
WarpAssert warp_assert(const std::string& error) {
  WarpAssert a;
  if (error.rfind("cudaErrorAssert: ", 0) != 0) return a;
  static const std::regex head(R"(failed \((.*):(\d+): [^\n]*\); asserting threads of the warp at pc (\d+):((?: \(\d+,\d+,\d+\))+))");
  static const std::regex block(R"(, block \((\d+),(\d+),(\d+)\), thread \(\d+,\d+,\d+\)$)");
  static const std::regex triple(R"(\((\d+),(\d+),(\d+)\))");
  std::smatch h, b;
  if (!std::regex_search(error, h, head) || !std::regex_search(error, b, block)) return a;
  a.site = {{"pc", std::stoull(h[3])}, {"file", h[1].str()}, {"line", std::stoul(h[2])}};
  a.block = {std::stoull(b[1]), std::stoull(b[2]), std::stoull(b[3])};
  const std::string list = h[4];
  for (auto t = std::sregex_iterator(list.begin(), list.end(), triple); t != std::sregex_iterator(); ++t)
    a.threads.push_back({std::stoull((*t)[1]), std::stoull((*t)[2]), std::stoull((*t)[3])});
  return a;
}

/// Who made the access (the XML's `who`).
ojson who(const json& thread, const json& block) { return {{"threadIdx", xyz(thread)}, {"blockIdx", xyz(block)}}; }

std::string hex(std::uint64_t v) { return fmt::format("0x{:x}", v); }

/// An XML record's start: its kind, and its level where compute-sanitizer writes one (only its
/// racecheck records have one in tests/hw/data/h200/sanitize/xml).
ojson xml_record(const char* kind, const char* level = nullptr) {
  ojson r = {{"kind", kind}};
  if (level != nullptr) r["level"] = level;
  return r;
}

/// Collects the lines, stopping the reports (not the counts) at --print-limit; each printed
/// report is also a record for --xml (tools/sanitize_xml.hpp), in the element order of
/// compute-sanitizer's (kind, level, who, what, where; stack() adds hostStack).
class Out {
 public:
  Out(std::uint64_t limit, bool host_frames) : limit_(limit), host_frames_(host_frames) {}
  /// Starts a report with its XML record; false when the print limit is reached (its lines are dropped).
  bool report(ojson record) {
    ++reports_;
    if (limit_ != 0 && reports_ > limit_) return false;
    records.push_back(std::move(record));
    return true;
  }
  /// The report being written.
  ojson& record() { return records.back(); }
  /// Whether the print limit has been reached.
  bool full() const { return limit_ != 0 && reports_ >= limit_; }
  /// Reports past the print limit.
  std::uint64_t unprinted() const { return limit_ != 0 && reports_ > limit_ ? reports_ - limit_ : 0; }
  void line(const std::string& s) { text += kPrefix + s + "\n"; }
  void end() { text += "========= \n"; }  // compute-sanitizer's separator keeps the prefix's space
  /// The report's host frames, as the H200's compute-sanitizer prints them
  /// (tests/hw/data/h200/sanitize): `when` is "kernel launch time", "error" or "allocation time".
  void stack(const json& frames, const char* when) {
    if (!host_frames_ || !frames.is_array() || frames.empty()) return;
    line(std::string("    Saved host backtrace up to driver entry point at ") + when);
    ojson xml = {{"saveLocation", when}, {"frame", ojson::array()}};
    for (const json& f : frames) {
      const std::string func = f.value("function", std::string()), module = f.value("module", std::string());
      const std::uint64_t off = f.value("offset", std::uint64_t{0});
      line(func.empty() ? fmt::format("        Host Frame: [0x{:x}] in {}", off, module)
                        : fmt::format("        Host Frame: {} [0x{:x}] in {}", func, off, module));
      // func (left out when unknown), pc, module: the full path (tests/hw/data/h200/sanitize/xml).
      ojson frame = ojson::object();
      if (!func.empty()) frame["func"] = without_parameters(func);
      frame["pc"] = hex(off);
      const std::string path = f.value("path", std::string());
      frame["module"] = path.empty() ? module : path;
      xml["frame"].push_back(std::move(frame));
    }
    record()["hostStack"] = std::move(xml);
  }
  std::string text;
  std::vector<ojson> records;

 private:
  std::uint64_t limit_;
  bool host_frames_;
  std::uint64_t reports_ = 0;
};

const char* sync_class(const std::string& kind) {
  if (kind == "divergent_block") return "Divergent thread(s) in block";
  if (kind == "divergent_warp") return "Divergent thread(s) in warp";
  return "Invalid arguments";
}

struct RaceTotals {
  std::uint64_t displayed = 0, errors = 0, warnings = 0;
};

void racecheck_hazards(const json& launch, const json& findings, Out& out, RaceTotals& t) {
  const std::string kernel = sanitizer_kernel_name(launch);
  for (const json& f : findings) {
    if (f.value("tool", "") != "racecheck" || f.value("kind", "") == "incomplete") continue;
    const bool warning = f.value("severity", "") == "warning";
    const bool global = f.value("space", "shared") == "global";
    const bool cluster = f.value("space", "shared") == "cluster";  // another CTA's shared memory
    const json& first_block = global || cluster ? f["first_block"] : f["block"];
    const json& second_block = cluster ? f["second_block"] : f["block"];
    const std::string head =
        global ? fmt::format("{}: Potential {} hazard detected at __global__ 0x{:x} :", warning ? "Warning" : "Error",
                             f.value("kind", ""), f.value("address", std::uint64_t{0}))
               : fmt::format("{}: Potential {} hazard detected at __shared__ 0x{:x} in block {} :",
                             warning ? "Warning" : "Error", f.value("kind", ""), f.value("address", std::uint64_t{0}),
                             dim3(f["block"]));
    const json& a = f["first"];
    const json& b = f["second"];
    // Not in the H200's samples: the Analysis record's what/source/destination, each side with
    // its thread (warpscope's layout, docs/sanitize.md).
    ojson r = xml_record("Hazard", warning ? "Warning" : "Error");
    r["what"] = {{"text", head},
                 {"type", f.value("kind", "")},
                 {"space", global ? "__global__" : "__shared__"},
                 {"address", hex(f.value("address", std::uint64_t{0}))},
                 {"source",
                  {{"direction", a.value("access", "")},
                   {"who", who(a["thread"], first_block)},
                   {"where", where(kernel, a)}}},
                 {"destination",
                  {{"direction", b.value("access", "")}, {"who", who(b["thread"], second_block)}, {"where", where(kernel, b)}}}};
    if (!out.report(std::move(r))) continue;
    ++t.displayed;
    ++(warning ? t.warnings : t.errors);
    out.line(head);
    if (global || cluster) {
      // Two CTAs (--racecheck-memory all, or a cluster's distributed shared memory): each side
      // names its block; the head names the block whose shared memory it is.
      out.line(fmt::format("    {} Thread {} in block {} at {}", a.value("access", ""), dim3(a["thread"]),
                           dim3(first_block), location(kernel, a)));
      out.line(fmt::format("    {} Thread {} in block {} at {}", b.value("access", ""), dim3(b["thread"]),
                           dim3(second_block), location(kernel, b)));
    } else {
      out.line(fmt::format("    {} Thread {} at {}", a.value("access", ""), dim3(a["thread"]), location(kernel, a)));
      out.line(fmt::format("    {} Thread {} at {}", b.value("access", ""), dim3(b["thread"]), location(kernel, b)));
    }
    out.stack(launch.value("host_stack", json()), "kernel launch time");
    out.end();
  }
}

/// Analysis reports: the hazards grouped by one access location and the locations it races with.
/// The location taking part in the most unreported pairs goes first (ties: the lower pc), with
/// all its unreported pairs; then the next, until every pair is in a report.
void racecheck_analysis(const json& launch, const json& findings, Out& out, RaceTotals& t) {
  const std::string kernel = sanitizer_kernel_name(launch);
  struct Pair {
    const json* f;
    bool done = false;
  };
  std::vector<Pair> pairs;
  for (const json& f : findings)
    if (f.value("tool", "") == "racecheck" && f.value("kind", "") != "incomplete") pairs.push_back({&f});
  // A location: pc and access kind.
  auto key = [](const json& site) {
    return std::make_pair(site.value("pc", std::uint64_t{0}), site.value("access", std::string()));
  };
  for (;;) {
    std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> degree;
    for (const Pair& p : pairs) {
      if (p.done) continue;
      ++degree[key((*p.f)["first"])];
      if (key((*p.f)["second"]) != key((*p.f)["first"])) ++degree[key((*p.f)["second"])];
    }
    if (degree.empty()) break;
    auto best = degree.begin();
    for (auto it = degree.begin(); it != degree.end(); ++it)
      if (it->second > best->second) best = it;
    const auto center = best->first;
    // The partners, in order of pc, each with its hazards; the report is an error when any is.
    std::map<std::pair<std::uint64_t, std::string>, std::pair<const json*, std::uint64_t>> partners;
    bool error = false;
    const json* center_site = nullptr;
    for (Pair& p : pairs) {
      if (p.done) continue;
      const json& f = *p.f;
      const bool first_is = key(f["first"]) == center;
      if (!first_is && key(f["second"]) != center) continue;
      p.done = true;
      center_site = first_is ? &f["first"] : &f["second"];
      const json& other = first_is ? f["second"] : f["first"];
      auto& slot = partners[key(other)];
      slot.first = &other;
      slot.second += f.value("count", std::uint64_t{0});
      error = error || f.value("severity", "") != "warning";
    }
    const std::string head = fmt::format("{}: Race reported between {} access at {}", error ? "Error" : "Warning",
                                         center_site->value("access", ""), location(kernel, *center_site));
    // The H200's layout (tests/hw/data/h200/sanitize/xml/xml_raw.xml): the location is the
    // source, each partner a destination with its hazard count.
    ojson r = xml_record("Analysis", error ? "Error" : "Warning");
    r["what"] = {{"text", "Race condition"},
                 {"source", {{"direction", center_site->value("access", "")}, {"where", where(kernel, *center_site)}}},
                 {"destination", ojson::array()}};
    for (const auto& [k, p] : partners)
      r["what"]["destination"].push_back(
          {{"direction", p.first->value("access", "")}, {"where", where(kernel, *p.first)}, {"count", p.second}});
    if (!out.report(std::move(r))) continue;
    ++t.displayed;
    ++(error ? t.errors : t.warnings);
    out.line(head);
    for (const auto& [k, p] : partners) {
      out.line(fmt::format("    and {} access at {} [{} hazard{}]", p.first->value("access", ""),
                           location(kernel, *p.first), p.second, p.second == 1 ? "" : "s"));
    }
    out.end();
  }
}

/// memcheck's device-side errors (findings of tool "memcheck", src/exec/memcheck.hpp): one report
/// per thread, in the H200's words and layout (tests/hw/data/h200/sanitize/heap). Only the first
/// CTA's: the launch ends there (other CTAs that ran on other host threads meanwhile are left out,
/// so the output is the same for any --threads). Returns the errors counted.
std::uint64_t memcheck_device_errors(const json& launch, Out& out) {
  const std::string kernel = sanitizer_kernel_name(launch);
  std::uint64_t errors = 0;
  json block;
  for (const json& f : launch.value("sanitizer", json::array())) {
    if (f.value("tool", "") != "memcheck") continue;
    if (block.is_null()) block = f["block"];
    if (f["block"] != block) continue;
    ++errors;
    const std::string kind = f.value("kind", "");
    const json& s = f["first"];
    const std::uint64_t address = f.value("address", std::uint64_t{0});
    std::string head;
    ojson r;
    if (kind == "double_free" || kind == "invalid_free") {
      // The XML's record: tests/hw/data/h200/sanitize/heap/xml_double_free.xml.
      const std::string error = kind == "double_free" ? "Device-side double free" : "Invalid pointer to device-side free";
      head = "Malloc/Free Error encountered : " + error;
      r = xml_record("Syscall", "Error");
      r["who"] = who(s["thread"], block);
      r["what"] = {{"text", "Malloc/Free Error encountered: " + error},
                   {"error", error},
                   {"pc", hex(s.value("pc", std::uint64_t{0}))},
                   {"address", hex(address)}};
    } else if (kind == "heap_out_of_bounds" || kind == "shared_out_of_bounds" || kind == "local_out_of_bounds") {
      // A shared access's text: tests/hw/data/h200/sanitize/sanitize.txt (oob_shared); a local
      // one's was not captured on the H200 (docs/sanitize.md): the same layout with __local__.
      const std::string space = kind == "heap_out_of_bounds"     ? "__global__"
                                : kind == "shared_out_of_bounds" ? "__shared__"
                                                                 : "__local__";
      head = fmt::format("Invalid {} {} of size {} bytes", space, f.value("access", ""), f.value("size", 0u));
      r = xml_record("Precise", "Error");  // tests/hw/data/h200/sanitize/heap/xml_write_elem.xml
      r["who"] = who(s["thread"], block);
      r["what"] = {{"text", head + " is out of bounds"},
                   {"space", space},
                   {"size", f.value("size", 0u)},
                   {"direction", f.value("access", "")},
                   {"error", "out of bounds"},
                   {"address", hex(address)}};
    } else {
      head = "Trace/breakpoint trap";  // no XML sample: warpscope's record
      r = xml_record("Trap", "Error");
      r["who"] = who(s["thread"], block);
      r["what"] = {{"text", head}};
    }
    r["where"] = where(kernel, s);
    if (!out.report(std::move(r))) continue;
    out.line(head);
    out.line(fmt::format("    at {}", location(kernel, s)));
    out.line(fmt::format("    by thread {} in block {}", dim3(s["thread"]), dim3(block)));
    if (kind == "double_free" || kind == "invalid_free") out.line(fmt::format("    Address 0x{:x}", address));
    if (kind == "heap_out_of_bounds" || kind == "shared_out_of_bounds" || kind == "local_out_of_bounds")
      out.line(fmt::format("    Access to 0x{:x} is out of bounds", address));
    if (kind == "heap_out_of_bounds") out.line("    and is located in the device heap");
    out.stack(launch.value("host_stack", json()), "kernel launch time");
    out.end();
  }
  return errors;
}

}  // namespace

SanitizeText sanitize_text(const json& report, const SanitizeOptions& o) {
  Out out(o.print_limit, o.show_backtrace == "yes" || o.show_backtrace == "host");
  std::uint64_t errors = 0;
  const json& san = report.contains("sanitizer") ? report["sanitizer"] : json::object();
  const json api_errors = san.value("api_errors", json::array());
  const json& launches = report::array_member(report, "launches");
  RaceTotals race;
  // API errors are memcheck's, each where it happened among the launches; so are initcheck's
  // host copies of unwritten bytes (tests/hw/data/h200/sanitize/initcheck.txt, mode d2h).
  const json api_accesses = san.value("api_accesses", json::array());
  auto api_before = [&](std::uint64_t launch) {
    if (o.tool == "initcheck") {
      for (const json& e : api_accesses) {
        if (e.value("after_launch", std::uint64_t{0}) != launch) continue;
        ++errors;
        const std::string head = fmt::format("Host API memory access error at host access to 0x{:x} of size {} bytes",
                                             e.value("address", std::uint64_t{0}), e.value("size", std::uint64_t{0}));
        ojson r = xml_record("InitcheckApiError");
        r["what"] = {{"text", head},
                     {"api", e.value("api", "")},
                     {"address", hex(e.value("access", std::uint64_t{0}))},
                     {"size", e.value("size", std::uint64_t{0})}};
        if (!out.report(std::move(r))) continue;
        out.line(head);
        out.line(fmt::format("    Uninitialized access to 0x{:x} on access by {} {}", e.value("access", std::uint64_t{0}),
                             e.value("api", ""), e.value("direction", "source")));
        out.stack(e.value("host_stack", json()), "error");
        out.end();
      }
    }
    if (o.tool != "memcheck") return;
    for (const json& e : api_errors) {
      if (e.value("after_launch", std::uint64_t{0}) != launch) continue;
      ++errors;
      const std::string head = fmt::format("Program hit {} (error {}) due to \"{}\" on CUDA API call to {}.",
                                           e.value("name", ""), e.value("code", 0), e.value("string", ""),
                                           e.value("api", ""));
      ojson r = xml_record("Api");  // tests/hw/data/h200/sanitize/xml/xml_api_error.xml
      r["what"] = {{"text", head},
                   {"api", e.value("api", "")},
                   {"error", e.value("name", "")},
                   {"message", e.value("string", "")},
                   {"result", e.value("code", 0)}};
      if (!out.report(std::move(r))) continue;
      out.line(head);
      out.stack(e.value("host_stack", json()), "error");
      out.end();
    }
  };
  for (std::size_t i = 0; i < launches.size(); ++i) {
    api_before(i);
    const json& l = launches[i];
    const std::string kernel = sanitizer_kernel_name(l);
    std::uint64_t device_errors = 0;  // memcheck's reports of the fault that ended the launch
    if (o.tool == "memcheck") {
      const json m = l.value("memcheck", json::object());
      errors += m.value("errors", std::uint64_t{0});
      for (const json& e : m.value("first", json::array())) {
        const std::string sp = e.value("space", "global");
        const std::string space = sp == "const" ? "__constant__" : sp == "local" ? "__local__" : "__global__";
        const std::string head = fmt::format("Invalid {} {} of size {} bytes", space, e.value("access", ""), e.value("size", 0u));
        // The H200's layout of an invalid __global__ access (tests/hw/data/h200/sanitize/heap/
        // xml_write_elem.xml, one in the device heap).
        ojson r = xml_record("Precise", "Error");
        r["who"] = who(e["thread"], e["block"]);
        r["what"] = {{"text", head + " is out of bounds"},
                     {"space", space},
                     {"size", e.value("size", 0u)},
                     {"direction", e.value("access", "")},
                     {"error", "out of bounds"},
                     {"address", hex(e.value("address", std::uint64_t{0}))}};
        r["where"] = where(kernel, e);
        if (!out.report(std::move(r))) continue;
        out.line(head);
        out.line(fmt::format("    at {}", location(kernel, e)));
        out.line(fmt::format("    by thread {} in block {}", dim3(e["thread"]), dim3(e["block"])));
        out.line(fmt::format("    Access to 0x{:x} is out of bounds", e.value("address", std::uint64_t{0})));
        const json& a = e["allocation"];
        if (a.value("size", std::uint64_t{0}) != 0) {
          // The H200 counts "after" from the allocation's last byte: an access 2180 bytes past its
          // end is "2,181 bytes after" (tests/hw/data/h200/sanitize/heap, write_far).
          const bool before = e.value("before", false);
          out.line(fmt::format("    and is {} bytes {} the nearest allocation at 0x{:x} of size {} bytes",
                               grouped(e.value("distance", std::uint64_t{0}) + (before ? 0 : 1)),
                               before ? "before" : "after", a.value("base", std::uint64_t{0}),
                               grouped(a.value("size", std::uint64_t{0}))));
        }
        if (const std::uint64_t n = e.value("count", std::uint64_t{0}); n > 1) {
          out.line(fmt::format("    (warpscope: {} such thread accesses by this instruction in this launch; the "
                               "first is shown)", n));
        }
        out.stack(l.value("host_stack", json()), "kernel launch time");
        out.end();
      }
      device_errors = memcheck_device_errors(l, out);
      errors += device_errors;
    } else if (o.tool == "racecheck") {
      const json f = l.value("sanitizer", json::array());
      for (const json& g : f) {
        if (g.value("kind", "") == "incomplete") out.line("Warning: " + g.value("detail", std::string()));
      }
      if (o.racecheck_report == "hazard" || o.racecheck_report == "all") racecheck_hazards(l, f, out, race);
      if (o.racecheck_report == "analysis" || o.racecheck_report == "all") racecheck_analysis(l, f, out, race);
    } else if (o.tool == "initcheck") {
      // One report per thread access, as compute-sanitizer's (tests/hw/data/h200/sanitize).
      for (const json& f : l.value("sanitizer", json::array())) {
        if (f.value("tool", "") != "initcheck") continue;
        if (f.value("kind", "") == "unkept") {
          const std::uint64_t n = f.value("count", std::uint64_t{0});
          errors += n;
          if (!out.full()) {
            out.line(fmt::format("(warpscope: {} more uninitialized reads in this launch are counted, not shown)", n));
            out.end();
          }
          continue;
        }
        ++errors;
        // --initcheck-memory all: shared memory too (warpscope's addition), in the same layout.
        const std::string head = fmt::format("Uninitialized __{}__ memory read of size {} bytes",
                                             f.value("space", "global") == "shared" ? "shared" : "global",
                                             f.value("size", 0u));
        const json& s = f["first"];
        ojson r = xml_record("Initcheck");  // tests/hw/data/h200/sanitize/xml/xml_uninit.xml
        r["who"] = who(s["thread"], f["block"]);
        r["what"] = {{"text", head}, {"address", hex(f.value("address", std::uint64_t{0}))}, {"size", f.value("size", 0u)}};
        r["where"] = where(kernel, s);
        if (!out.report(std::move(r))) continue;
        out.line(head);
        out.line(fmt::format("    at {}", location(kernel, s)));
        out.line(fmt::format("    by thread {} in block {}", dim3(s["thread"]), dim3(f["block"])));
        out.line(fmt::format("    Address 0x{:x}", f.value("address", std::uint64_t{0})));
        out.stack(l.value("host_stack", json()), "kernel launch time");
        out.end();
      }
    } else if (o.tool == "synccheck") {
      for (const json& f : l.value("sanitizer", json::array())) {
        if (f.value("tool", "") != "synccheck") continue;
        errors += f.value("count", std::uint64_t{0});
        const std::string head = fmt::format("Barrier error detected. {}", sync_class(f.value("kind", "")));
        const json& s = f["first"];
        ojson r = xml_record("Synccheck");
        r["who"] = who(s["thread"], f["block"]);
        r["what"] = {{"text", head}};
        r["where"] = where(kernel, s);
        if (!out.report(std::move(r))) continue;
        out.line(head);
        out.line(fmt::format("    at {}", location(kernel, s)));
        out.line(fmt::format("    by thread {} in block {}", dim3(s["thread"]), dim3(f["block"])));
        out.stack(l.value("host_stack", json()), "kernel launch time");
        out.end();
      }
    }
    // A launch that faulted: the interpreter's message (the sticky error's API reports follow).
    // compute-sanitizer's racecheck, initcheck and synccheck report no faults (tests/hw/data/h200/
    // sanitize: sanitize.txt's misaligned run under synccheck, acceptance/simpleAssert.synccheck.txt).
    const WarpAssert asserted = l.contains("error") && o.tool == "memcheck"
                                    ? warp_assert(l["error"].get<std::string>()) : WarpAssert{};
    for (const json& t : asserted.threads) {
      ++errors;
      ojson r = xml_record("WarpAssert");
      r["who"] = who(t, asserted.block);
      r["what"] = {{"text", "Warp assert"}};
      r["where"] = where(kernel, asserted.site);
      if (!out.report(std::move(r))) continue;
      out.line("Warp assert");
      out.line(fmt::format("    at {}", location(kernel, asserted.site)));
      out.line(fmt::format("    by thread {} in block {}", dim3(t), dim3(asserted.block)));
      out.stack(l.value("host_stack", json()), "kernel launch time");
      out.end();
    }
    if (l.contains("error") && o.tool == "memcheck" && asserted.threads.empty() && device_errors == 0) {
      ++errors;
      const std::string head =
          fmt::format("Error: kernel {} (launch #{}) failed: {}", kernel, i, l["error"].get<std::string>());
      ojson r = xml_record("LaunchFault");
      r["what"] = {{"text", head}};
      if (out.report(std::move(r))) {
        out.line(head);
        out.end();
      }
    }
  }
  api_before(launches.size());
  if (o.tool == "memcheck" && o.leak_check == "full") {
    std::uint64_t bytes = 0, count = 0;
    for (const json& k : san.value("leaks", json::array())) {
      bytes += k.value("size", std::uint64_t{0});
      ++count;
      ++errors;
      // "Leaked 1,000 bytes" (grouped), while the summary line is not (tests/hw/data/h200/sanitize).
      // A device-side malloc's block: "on the device heap", type deviceheap, no host stack
      // (tests/hw/data/h200/sanitize/heap: heap_sanitize.txt, xml_leak.xml).
      const bool heap = k.value("device_heap", false);
      const std::string head = fmt::format("Leaked {} bytes at 0x{:x}{}", grouped(k.value("size", std::uint64_t{0})),
                                           k.value("address", std::uint64_t{0}), heap ? " on the device heap" : "");
      // The XML's text is not grouped and has no address (tests/hw/data/h200/sanitize/xml/xml_leak.xml).
      ojson r = xml_record("Leak");
      r["what"] = {{"text", fmt::format("Leaked {} bytes", k.value("size", std::uint64_t{0}))},
                   {"address", hex(k.value("address", std::uint64_t{0}))},
                   {"size", k.value("size", std::uint64_t{0})},
                   {"type", heap ? "deviceheap" : "generic"}};
      if (!out.report(std::move(r))) continue;
      out.line(head);
      out.stack(k.value("host_stack", json()), "allocation time");
      out.end();
    }
    out.line(fmt::format("LEAK SUMMARY: {} bytes leaked in {} allocations", bytes, count));
  }
  if (o.tool == "initcheck" && o.track_unused_memory == "yes") {
    // --track-unused-memory: one error per allocation with bytes nothing wrote, at its cudaFree
    // or at exit (the layout of the H200's compute-sanitizer, tests/hw/data/h200/sanitize/
    // initcheck.txt).
    for (const json& u : san.value("unused", json::array())) {
      ++errors;
      const std::uint64_t base = u.value("address", std::uint64_t{0}), size = u.value("size", std::uint64_t{0});
      const std::string head = fmt::format(" Unused memory in allocation 0x{:x} of size {} bytes", base, grouped(size));
      ojson rec = xml_record("UnusedMemory");
      rec["what"] = {{"text", head.substr(1)}, {"address", hex(base)}, {"size", size}};
      if (!out.report(std::move(rec))) continue;
      std::uint64_t unwritten = 0;
      out.line(head);
      const json runs = u.value("unwritten", json::array());
      for (const json& r : runs) unwritten += r.at(1).get<std::uint64_t>();
      if (size != 0 && unwritten == size) {
        out.line("    Not written any memory.");  // the H200's words for a wholly unused allocation
      } else {
        for (const json& r : runs) {
          const std::uint64_t off = r.at(0).get<std::uint64_t>(), n = r.at(1).get<std::uint64_t>();
          out.line(fmt::format("    Not written {} bytes at offset 0x{:x} (0x{:x})", grouped(n), off, base + off));
        }
      }
      out.line(fmt::format("    {}% of allocation were unused.", size == 0 ? 0 : unwritten * 100 / size));
      out.stack(u.value("host_stack", json()), "allocation time");
      out.end();
    }
  }
  if (o.tool == "racecheck") {
    out.line(fmt::format("RACECHECK SUMMARY: {} hazard{} displayed ({} error{}, {} warning{})", race.displayed,
                         race.displayed == 1 ? "" : "s", race.errors, race.errors == 1 ? "" : "s", race.warnings,
                         race.warnings == 1 ? "" : "s"));
    errors = race.errors;
  } else {
    out.line(fmt::format("ERROR SUMMARY: {} error{}", errors, errors == 1 ? "" : "s"));
    // Past --print-limit, the H200's second summary line (tests/hw/data/h200/sanitize/initcheck.txt,
    // "half initcheck print-limit 2").
    if (out.unprinted() != 0 && errors > out.records.size()) {
      const std::uint64_t n = errors - out.records.size();
      out.line(fmt::format("ERROR SUMMARY: {} error{} not printed. Use --print-limit option to adjust the number of "
                           "printed errors", n, n == 1 ? " was" : "s were"));
    }
  }
  return {out.text, errors, std::move(out.records)};
}

void add_sanitize_command(CLI::App& app, SanitizeOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "sanitize", "Run a CUDA program (or a .cu file) under compute-sanitizer's checks: memcheck, racecheck, "
                  "initcheck, synccheck (docs/sanitize.md)");
  cmd->add_option("--tool", o.tool, "memcheck (default), racecheck, initcheck, synccheck")
      ->check(CLI::IsMember({"memcheck", "racecheck", "initcheck", "synccheck"}))
      ->capture_default_str();
  cmd->add_option("--leak-check", o.leak_check, "full: report device allocations never freed (memcheck)")
      ->check(CLI::IsMember({"full", "no"}))
      ->capture_default_str();
  cmd->add_option("--error-exitcode", o.error_exitcode,
                  "Exit with N when the program succeeded but the tool found errors");
  cmd->add_option("--print-limit", o.print_limit, "Stop printing reports after N (0: unlimited); all are counted")
      ->capture_default_str();
  cmd->add_option("--racecheck-report", o.racecheck_report,
                  "hazard (one report per hazard), analysis (grouped per location, default) or all")
      ->check(CLI::IsMember({"hazard", "analysis", "all"}))
      ->capture_default_str();
  cmd->add_option("--racecheck-memory", o.racecheck_memory,
                  "shared (compute-sanitizer's scope, default) or all: also global-memory hazards between CTAs "
                  "of a launch (docs/sanitize.md)")
      ->check(CLI::IsMember({"shared", "all"}))
      ->capture_default_str();
  cmd->add_option("--initcheck-memory", o.initcheck_memory,
                  "global (compute-sanitizer's scope, default) or all: initcheck also reports reads of a CTA's "
                  "shared memory that no thread of the CTA wrote before (docs/sanitize.md)")
      ->check(CLI::IsMember({"global", "all"}))
      ->capture_default_str();
  cmd->add_flag("--track-unused-memory{yes}", o.track_unused_memory,
                "initcheck: report allocations whose bytes were not all written (at cudaFree and at exit)")
      ->check(CLI::IsMember({"yes", "no"}));
  cmd->add_option("--check-api-memory-access", o.check_api_memory_access,
                  "yes (default): initcheck reports copies of unwritten device memory to the host; no: not checked")
      ->check(CLI::IsMember({"yes", "no"}));
  cmd->add_option("--show-backtrace", o.show_backtrace,
                  "yes (default) or host: each report's host call stack; device or no: none (warpscope has no "
                  "device call stacks)")
      ->check(CLI::IsMember({"yes", "host", "device", "no"}));
  cmd->add_option("--log-file", o.log_file, "Write the tool's output to FILE instead of stdout");
  cmd->add_option("--save", o.save,
                  "Write the run's JSON report (with the tool's findings) to FILE; with --xml, the reports as XML");
  cmd->add_flag("--xml", o.xml, "With --save FILE: write the printed reports to FILE as XML (docs/sanitize.md)");
  cmd->add_option("--arch", o.arch, arch_option_help())->capture_default_str();
  cmd->add_option("--threads", o.threads, "Host threads that run CTAs (0: one per core); findings are the same");
  cmd->add_option("--cudart-dir", o.cudart_dir, "Directory holding warpscope's libcudart.so.13");
  cmd->add_option("--cache-dir", o.cache_dir, "Build cache for `sanitize app.cu`");
  cmd->add_option("--nvcc-flags", o.nvcc_flags, "Extra nvcc flags for `sanitize app.cu`");
  cmd->add_option("command", o.command, "The program and its arguments (after --), or a .cu file")
      ->allow_extra_args();
  cmd->positionals_at_end(true);
  cmd->callback([&o] {
    if (!o.command.empty() && o.command.front() == "--") o.command.erase(o.command.begin());
    const auto& first = o.command.empty() ? std::string() : o.command.front();
    if (first.size() > 3 && first.substr(first.size() - 3) == ".cu" && o.command.size() > 1 && o.command[1] == "--")
      o.command.erase(o.command.begin() + 1);
  });
}

int run_sanitize(const SanitizeOptions& o) {
  if (o.xml && o.save.empty()) fail(ErrorKind::kUsage, "sanitize --xml: the XML goes to --save FILE; give one");
  const arch::Profile profile = resolve_profile(o.arch, "");
  std::vector<std::string> command = o.command;
  if (command.empty()) fail(ErrorKind::kUsage, "sanitize: no program given");
  const bool cu = command[0].size() > 3 && command[0].substr(command[0].size() - 3) == ".cu";
  if (cu) command[0] = compile_cu(command[0], profile, o.nvcc_flags, o.cache_dir);
  const std::string exe = resolve_executable(command[0]);
  check_program_path(exe, command[0]);
  const BinaryCheck check = check_binary(exe, profile);
  if (!check.runnable || !check.message.empty()) fail(ErrorKind::kUsage, "{}", check.message);
  const std::string lib_dir = check.kind == BinaryCheck::Kind::kWarpscopeStatic ? "" : find_cudart_dir(o.cudart_dir);
  std::ofstream log;
  if (!o.log_file.empty()) {
    log.open(o.log_file, std::ios::trunc);
    if (!log) fail(ErrorKind::kIo, "--log-file {}: cannot write: {}", o.log_file, std::strerror(errno));
  }
  std::ostream& out = o.log_file.empty() ? std::cout : log;
  if (!o.save.empty()) {
    std::ofstream probe(o.save, std::ios::app);
    if (!probe) fail(ErrorKind::kIo, "--save {}: cannot write: {}", o.save, std::strerror(errno));
  }
  // Every process writes into this folder as `warpscope run`'s do (docs/runtime.md, "Processes and
  // the report's life"); the documents are merged below.
  const ReportFolder folder("warpscope-sanitize");
  const std::string& report_dir = folder.path();
  out << kPrefix << "COMPUTE-SANITIZER\n" << std::flush;
  ChildSignals signals;
  const pid_t pid = fork();
  if (pid < 0) fail(ErrorKind::kIo, "fork: {}", std::strerror(errno));
  if (pid == 0) {
    signals.in_child();
    if (!lib_dir.empty()) {
      const char* old = std::getenv("LD_LIBRARY_PATH");
      const std::string path = old == nullptr || *old == '\0' ? lib_dir : lib_dir + ":" + old;
      setenv("LD_LIBRARY_PATH", path.c_str(), 1);
    }
    setenv("WARPSCOPE_ARCH", profile.name.c_str(), 1);
    folder.export_to_child();
    const unsigned threads = o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    setenv("WARPSCOPE_THREADS", std::to_string(threads).c_str(), 1);
    // No memory model, no ptxas: the checks need neither (and without ptxas's machine code every
    // record reaches the race checker as the PTX makes it).
    setenv("WARPSCOPE_NO_STATS", "1", 1);
    setenv("WARPSCOPE_PTXAS", "none", 1);
    setenv("WARPSCOPE_MEMCHECK", "off", 1);  // counted in the report, printed here
    setenv("WARPSCOPE_QUIET", "1", 1);
    setenv("WARPSCOPE_SANITIZE", o.tool.c_str(), 1);
    if (o.leak_check == "full") setenv("WARPSCOPE_LEAK_CHECK", "full", 1);
    if (o.racecheck_memory == "all") setenv("WARPSCOPE_RACECHECK_MEMORY", "all", 1);
    if (o.initcheck_memory == "all") setenv("WARPSCOPE_INITCHECK_MEMORY", "all", 1);
    if (o.tool == "initcheck" && o.track_unused_memory == "yes") setenv("WARPSCOPE_TRACK_UNUSED", "1", 1);
    if (o.show_backtrace == "yes" || o.show_backtrace == "host") setenv("WARPSCOPE_HOST_BACKTRACE", "1", 1);
    if (o.check_api_memory_access == "no") setenv("WARPSCOPE_CHECK_API_MEMORY_ACCESS", "no", 1);
    if (cu && profile.cc_major * 10 + profile.cc_minor < 75) setenv("WARPSCOPE_ANY_PTX", "1", 1);
    std::vector<char*> argv;
    for (auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "warpscope: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  signals.child_started(pid);
  const int status = signals.wait(pid).status;
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const json j = report::merge_process_reports(report::read_process_reports(report_dir, nullptr));
  if (!o.save.empty() && !j.is_null() && !o.xml) {
    std::ofstream save(o.save, std::ios::trunc);
    save << j.dump(1) << "\n";
    if (!save.flush()) fail(ErrorKind::kIo, "--save {}: the report could not be written", o.save);
  }
  if (j.is_null()) {
    if (o.xml) std::ofstream(o.save, std::ios::trunc) << sanitize_xml({});
    out << kPrefix << "warpscope: no report from the program (it used no CUDA, or ended abruptly)\n" << std::flush;
    return rc;
  }
  const SanitizeText t = sanitize_text(j, o);
  out << t.text << std::flush;
  if (o.xml) {
    std::ofstream save(o.save, std::ios::trunc);
    save << sanitize_xml(t.records);
    if (!save.flush()) fail(ErrorKind::kIo, "--save {}: the XML could not be written", o.save);
  }
  if (log.is_open() && !log.flush()) {
    std::fprintf(stderr, "warpscope: --log-file %s: the output could not be written\n", o.log_file.c_str());
    return rc != 0 ? rc : 1;
  }
  if (rc == 0 && t.errors != 0 && o.error_exitcode != 0) return o.error_exitcode;
  return rc;
}

}  // namespace warpscope::cli
