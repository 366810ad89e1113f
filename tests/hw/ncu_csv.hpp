// Reading Nsight Compute's CSV exports (tests/hw/data): shared by the tests that compare
// warpscope with the committed captures.
#pragma once

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace ncu_csv {

/// Splits one CSV record with "quoted" fields.
inline std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

/// A number as ncu prints it, with thousands separators ("12,336").
inline double number(const std::string& s) {
  std::string digits;
  for (char c : s)
    if (c != ',') digits += c;
  return std::stod(digits);
}

/// One launch of `ncu --csv --page raw`: metric name -> value as printed.
using Row = std::map<std::string, std::string>;

/// The launches of a `--page raw` export: the rows after the header ("ID", ...) and its units
/// row, one per launch; rows with another number of fields are skipped.
inline std::vector<Row> launches(const std::string& path) {
  std::ifstream in(path);
  std::vector<Row> rows;
  std::vector<std::string> header;
  bool units = false;
  for (std::string line; std::getline(in, line);) {
    auto f = fields(line);
    if (header.empty()) {
      if (!f.empty() && f[0] == "ID") header = f;
      continue;
    }
    if (!units) {
      units = true;
      continue;
    }
    if (f.size() != header.size()) continue;
    Row row;
    for (std::size_t i = 0; i < f.size(); ++i) row[header[i]] = f[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace ncu_csv
