// How advice messages name a place: "k.cu:19" (the file's base name and the CUDA line), or
// "PTX line N" for an instruction without a source line. Shared by advice.cpp and advice_copy.cpp.
#pragma once

#include <string>

#include <fmt/format.h>

#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

inline std::string basename_of(const std::string& file) {
  const auto slash = file.find_last_of('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

inline std::string where(const InstructionInfo* info) {
  if (!info || info->line == 0) return info ? fmt::format("PTX line {}", info->ptx_line) : "";
  return fmt::format("{}:{}", basename_of(info->file), info->line);
}

}  // namespace warpscope::analysis
