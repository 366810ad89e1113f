#include "common/access.hpp"

namespace warpscope {

std::string_view to_string(Space s) {
  switch (s) {
    case Space::kGlobal: return "global";
    case Space::kLocal: return "local";
    case Space::kShared: return "shared";
    case Space::kConst: return "const";
  }
  return "?";
}

std::string_view to_string(Op o) {
  switch (o) {
    case Op::kLoad: return "load";
    case Op::kStore: return "store";
    case Op::kAtomic: return "atomic";
    case Op::kReduction: return "reduction";
  }
  return "?";
}

std::string_view to_string(CacheOp c) {
  switch (c) {
    case CacheOp::kDefault: return "default";
    case CacheOp::kCa: return "ca";
    case CacheOp::kCg: return "cg";
  }
  return "?";
}

}  // namespace warpscope
