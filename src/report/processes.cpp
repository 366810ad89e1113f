#include "report/processes.hpp"
#include "report/json_access.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace warpscope::report {
namespace fs = std::filesystem;
namespace {

std::uint64_t u64(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return 0;
  return j[key].get<std::uint64_t>();
}

nlohmann::json process_of(const nlohmann::json& doc) {
  return doc.contains("process") && doc["process"].is_object() ? doc["process"] : nlohmann::json::object();
}

/// The launch's short mark of its process: what a row of a table shows.
nlohmann::json launch_process(const nlohmann::json& process) {
  return {{"pid", process.value("pid", 0)}, {"name", process.value("name", std::string())}};
}

nlohmann::json process_entry(const nlohmann::json& doc) {
  const nlohmann::json p = process_of(doc);
  nlohmann::json e = {{"pid", p.value("pid", 0)},
                      {"ppid", p.value("ppid", 0)},
                      {"name", p.value("name", std::string())},
                      {"exe", p.value("exe", std::string())},
                      {"args", p.value("args", nlohmann::json::array())},
                      {"root", p.value("root", true)},
                      {"launches", report::array_member(doc, "launches").size()},
                      {"report_source", doc.value("report_source", std::string("document"))}};
  if (doc.contains("sticky_error")) e["sticky_error"] = doc["sticky_error"];
  if (doc.contains("stopped")) e["stopped"] = doc["stopped"];
  return e;
}

}  // namespace

nlohmann::json report_from_stream(std::istream& in) {
  nlohmann::json doc;
  nlohmann::json launches = nlohmann::json::array();
  nlohmann::json api_errors = nlohmann::json::array();
  std::string tool;
  nlohmann::json totals = {{"predicted_gpu_ns", 0.0}, {"unpredicted_launches", 0}};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) continue;  // a line a crash cut short
    if (j.contains("header") && j["header"].is_object()) {
      if (doc.is_null()) doc = j["header"];
    } else if (j.contains("api_error") && j["api_error"].is_object()) {
      // warpscope sanitize's API errors, streamed as they happened (the document has them too).
      api_errors.push_back(j["api_error"]);
      if (tool.empty()) tool = j.value("tool", std::string());
    } else if (j.contains("launch") && j["launch"].is_object()) {
      launches.push_back(j["launch"]);
      totals["predicted_gpu_ns"] = j.value("predicted_gpu_ns", 0.0);
      totals["unpredicted_launches"] = j.value("unpredicted_launches", 0);
    }
  }
  if (doc.is_null()) return doc;
  doc["launches"] = std::move(launches);
  doc.update(totals);
  doc["report_source"] = "stream";
  if (!tool.empty()) doc["sanitizer"] = {{"tool", tool}, {"api_errors", std::move(api_errors)}};
  return doc;
}

std::vector<nlohmann::json> read_process_reports(const std::string& dir, std::vector<std::string>* notes) {
  // pid -> (document path, stream path)
  std::map<long, std::pair<fs::path, fs::path>> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const std::size_t dot = name.find('.');
    if (dot == 0 || dot == std::string::npos) continue;
    const std::string stem = name.substr(0, dot), rest = name.substr(dot);
    if (!std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    const long pid = std::stol(stem);
    if (rest == ".json") files[pid].first = entry.path();
    if (rest == ".stream.jsonl") files[pid].second = entry.path();
  }
  std::vector<nlohmann::json> docs;
  for (const auto& [pid, paths] : files) {
    nlohmann::json doc;
    if (!paths.first.empty()) {
      std::ifstream in(paths.first);
      doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
      if (doc.is_discarded() || !doc.is_object() || !doc.contains("launches")) {
        if (notes != nullptr) notes->push_back(fmt::format("process {}: its report could not be read", pid));
        doc = nlohmann::json();
      } else {
        doc["report_source"] = "document";
      }
    }
    if (!paths.second.empty()) {
      std::ifstream in(paths.second);
      if (doc.is_null()) {
        doc = report_from_stream(in);
      } else {
        // Launches that ended after the document was written (the process died before writing
        // it again). The lines the document already holds (the header, then one per launch)
        // are skipped unparsed: a report of many launches is tens of MB. API error lines
        // (warpscope sanitize) come between them; the document holds those of its time too.
        auto& have = doc["launches"];
        const std::size_t known = have.size();
        const bool errors = doc.contains("sanitizer") && doc["sanitizer"].is_object() &&
                            doc["sanitizer"].contains("api_errors") && doc["sanitizer"]["api_errors"].is_array();
        const std::size_t known_errors = errors ? doc["sanitizer"]["api_errors"].size() : 0;
        std::size_t seen = 0, seen_errors = 0;
        std::string line;
        while (std::getline(in, line)) {
          // nlohmann::json writes an object's keys in order: a line's first key tells its kind.
          if (line.rfind("{\"api_error\":", 0) == 0) {
            if (seen_errors++ < known_errors || !errors) continue;
            nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
            if (!j.is_discarded() && j.is_object()) doc["sanitizer"]["api_errors"].push_back(std::move(j["api_error"]));
            continue;
          }
          if (line.rfind("{\"launch\":", 0) != 0 || seen++ < known) continue;
          nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
          if (j.is_discarded() || !j.is_object() || !j.contains("launch") || !j["launch"].is_object()) continue;
          have.push_back(std::move(j["launch"]));
          doc["predicted_gpu_ns"] = j.value("predicted_gpu_ns", 0.0);
          doc["unpredicted_launches"] = j.value("unpredicted_launches", 0);
        }
      }
    }
    if (doc.is_null()) continue;
    if (!doc.contains("process")) doc["process"] = {{"pid", pid}};
    docs.push_back(std::move(doc));
  }
  return docs;
}

nlohmann::json merge_process_reports(std::vector<nlohmann::json> docs) {
  if (docs.empty()) return nlohmann::json();
  std::stable_sort(docs.begin(), docs.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    const nlohmann::json pa = process_of(a), pb = process_of(b);
    const bool ra = pa.value("root", false), rb = pb.value("root", false);
    if (ra != rb) return ra;
    return u64(pa, "start_ns") < u64(pb, "start_ns");
  });
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : docs.front().items())
    if (key != "launches") out[key] = value;
  out["launches"] = nlohmann::json::array();
  out["processes"] = nlohmann::json::array();
  out.erase("report_source");
  double gpu_ns = 0;
  std::uint64_t unpredicted = 0;
  struct Ref {
    std::uint64_t time;
    std::size_t doc, local;
  };
  std::vector<Ref> order;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    out["processes"].push_back(process_entry(docs[d]));
    gpu_ns += docs[d].value("predicted_gpu_ns", 0.0);
    unpredicted += u64(docs[d], "unpredicted_launches");
    const auto& ls = docs[d]["launches"];
    for (std::size_t i = 0; i < ls.size(); ++i) order.push_back({u64(ls[i], "host_time_ns"), d, i});
  }
  // Each process's launches stay in their own order; between processes, by when they ended.
  std::stable_sort(order.begin(), order.end(), [](const Ref& a, const Ref& b) {
    if (a.doc == b.doc) return a.local < b.local;
    return std::tie(a.time, a.doc, a.local) < std::tie(b.time, b.doc, b.local);
  });
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> global;
  for (std::size_t g = 0; g < order.size(); ++g) global[{order[g].doc, order[g].local}] = g;
  for (const Ref& r : order) {
    nlohmann::json l = std::move(docs[r.doc]["launches"][r.local]);
    l["process"] = launch_process(process_of(docs[r.doc]));
    l["process_index"] = r.local;
    l["index"] = global[{r.doc, r.local}];
    if (l.contains("event_time_from_launch") && l["event_time_from_launch"].is_number()) {
      const auto it = global.find({r.doc, l["event_time_from_launch"].get<std::size_t>()});
      if (it != global.end()) l["event_time_from_launch"] = it->second;
    }
    out["launches"].push_back(std::move(l));
  }
  out["predicted_gpu_ns"] = gpu_ns;
  out["unpredicted_launches"] = unpredicted;
  // The run's own end (sticky error, stop) is the first process's: the root, whose exit is the run's.
  if (out.contains("stopped") && out["stopped"].contains("launch") && out["stopped"]["launch"].is_number()) {
    const auto it = global.find({0, out["stopped"]["launch"].get<std::size_t>()});
    if (it != global.end()) out["stopped"]["launch"] = it->second;
  }
  return out;
}

std::size_t process_count(const nlohmann::json& report) {
  if (report.contains("processes") && report["processes"].is_array()) return report["processes"].size();
  return 1;
}

}  // namespace warpscope::report
