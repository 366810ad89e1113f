#include "common/error.hpp"

namespace warpscope {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage: return "usage error";
    case ErrorKind::kParse: return "parse error";
    case ErrorKind::kProfile: return "profile error";
    case ErrorKind::kUnsupported: return "unsupported";
    case ErrorKind::kMisaligned: return "misaligned address";
    case ErrorKind::kOutOfBounds: return "out-of-bounds access";
    case ErrorKind::kDeadlock: return "barrier deadlock";
    case ErrorKind::kTrap: return "trap";
    case ErrorKind::kUndefined: return "undefined behavior";
    case ErrorKind::kIllegalInstruction: return "illegal instruction";
    case ErrorKind::kInterrupted: return "interrupted";
    case ErrorKind::kIo: return "I/O error";
    case ErrorKind::kInternal: return "internal error";
  }
  return "error";
}

}  // namespace warpscope
