// The exception warpscope throws for every user-facing problem: bad input, a fault in the user's
// kernel, a malformed profile. The message already names what it is about (file and line,
// kernel, block and thread, address, field); kind() lets callers react by category.
#pragma once

#include <stdexcept>
#include <string>

namespace warpscope {

enum class ErrorKind {
  kUsage,        // bad command-line or API arguments
  kParse,        // a text input (expression, PTX, profile) is malformed
  kProfile,      // an architecture profile is invalid
  kUnsupported,  // a valid input that warpscope does not implement
  kMisaligned,   // a memory access not aligned to its width
  kOutOfBounds,  // a memory access outside any allocation
  kDeadlock,     // a barrier that can never complete
  kTrap,         // the kernel executed trap (or a failed assert)
  kUndefined,    // the kernel did what the PTX ISA leaves undefined (e.g. an invalid membermask)
  kIllegalInstruction,  // the kernel did what the H200 was measured to stop with an illegal
                        // instruction (cudaErrorIllegalInstruction: named-barrier thread counts)
  kInterrupted,  // a launch stopped on request (a signal, a timeout) before its end
  kIo,           // a file could not be read or written
  kInternal,     // a broken invariant inside warpscope
};

const char* to_string(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace warpscope
