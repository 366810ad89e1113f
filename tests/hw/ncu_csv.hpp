// Reading Nsight Compute's CSV exports (tests/hw/data): shared by the tests that compare
// warpscope with the committed captures.
#pragma once

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

}  // namespace ncu_csv
