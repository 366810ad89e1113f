// One report from every process of a run (docs/runtime.md, "Processes and the report's life").
// Under `warpscope run` each process that uses CUDA leaves, in the run's report folder,
// <pid>.stream.jsonl (a header line, then one line per launch as it ended) and, when it exits
// normally, <pid>.json (the whole document). These functions turn them into one document with a
// "processes" list and a "process" object on every launch, launches ordered by when they ended.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// A process's document rebuilt from its launch stream: the header's fields, every whole launch
/// line (a line cut short by a crash is dropped) and the last line's totals; "report_source" is
/// "stream". Null when the stream has no header line.
nlohmann::json report_from_stream(std::istream& in);

/// The documents of every process in `dir`: <pid>.json where it is whole ("report_source":
/// "document"; launches its stream has beyond it are appended), else the stream's. One note per
/// file that could not be read.
std::vector<nlohmann::json> read_process_reports(const std::string& dir, std::vector<std::string>* notes);

/// One document from several processes' documents. The first process (by start, the root first)
/// gives the header; launches of all processes in the order they ended (host_time_ns), numbered
/// again ("index"; "process_index" keeps the process's own number; event_time_from_launch and
/// stopped.launch follow); "processes" lists each (pid, ppid, name, exe, args, root, launches,
/// report_source, sticky_error, stopped). One document comes back with the same additions.
nlohmann::json merge_process_reports(std::vector<nlohmann::json> docs);

/// The number of processes a (merged) document lists; 1 for a document without "processes".
std::size_t process_count(const nlohmann::json& report);

}  // namespace warpscope::report
