// Reading members of the report's JSON without copying them: nlohmann's value(key, default)
// returns a copy, which for a report's "launches" is the whole report (tens of MB for a program
// with a few hundred launches).
#pragma once

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// obj[key] when obj is an object holding an array there; an empty array otherwise.
inline const nlohmann::json& array_member(const nlohmann::json& obj, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  if (!obj.is_object()) return empty;
  const auto it = obj.find(key);
  return it != obj.end() && it->is_array() ? *it : empty;
}

}  // namespace warpscope::report
