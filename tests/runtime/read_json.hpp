// Reads a JSON file (the report a program under warpscope leaves) for the runtime tests.
#pragma once

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace rt_test {

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  nlohmann::json j;
  in >> j;
  return j;
}

}  // namespace rt_test
