// Internal helpers around the public warpscope::Error (include/warpscope/error.hpp).
#pragma once

#include <string>

#include <fmt/format.h>

#include "warpscope/error.hpp"

namespace warpscope {

template <class... Args>
[[noreturn]] void fail(ErrorKind kind, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(kind, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace warpscope
