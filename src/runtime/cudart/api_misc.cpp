// The error log API (cudaLogs*) and two registration entry points of nvcc's host code
// (docs/runtime.md "Every runtime call").
//
// CUDA's error log keeps the driver's messages about failed calls. warpscope says what it has to
// say on stderr (one line per thing, WARPSCOPE_QUIET silences it) and keeps no log: the log is
// always empty, so an iterator is 0, a dump writes nothing and a registered callback is never
// called.
#include <cstdio>
#include <set>

#include "runtime/cudart/api.hpp"

using namespace warpscope::cudart;  // NOLINT: the C entry points below

namespace {
std::set<void*>& log_callbacks() {
  static auto& s = *new std::set<void*>;
  return s;
}
}  // namespace

// caveat: registered, never called: the log stays empty (warpscope's messages go to stderr)
WS_API cudaError_t cudaLogsRegisterCallback(void* fn, void* user, void** handle) {
  return call("cudaLogsRegisterCallback", [&](Runtime&) {
    if (fn == nullptr || handle == nullptr) return kErrInvalidValue;
    *handle = new char{0};
    log_callbacks().insert(*handle);
    (void)user;
    return kSuccess;
  });
}

WS_API cudaError_t cudaLogsUnregisterCallback(void* handle) {
  return call("cudaLogsUnregisterCallback", [&](Runtime&) {
    if (log_callbacks().erase(handle) == 0) return kErrInvalidValue;
    delete static_cast<char*>(handle);
    return kSuccess;
  });
}

// caveat: the log is always empty: the iterator is 0
WS_API cudaError_t cudaLogsCurrent(unsigned* iterator, unsigned flags) {
  return call("cudaLogsCurrent", [&](Runtime&) {
    if (iterator == nullptr || flags != 0) return kErrInvalidValue;
    *iterator = 0;
    return kSuccess;
  });
}

// caveat: the log is always empty: the file is created empty
WS_API cudaError_t cudaLogsDumpToFile(unsigned* iterator, const char* path, unsigned flags) {
  return call("cudaLogsDumpToFile", [&](Runtime&) {
    if (path == nullptr || flags != 0) return kErrInvalidValue;
    std::FILE* f = std::fopen(path, "w");
    if (f == nullptr) return kErrInvalidValue;
    std::fclose(f);
    if (iterator != nullptr) *iterator = 0;
    return kSuccess;
  });
}

// caveat: the log is always empty: *size becomes 0
WS_API cudaError_t cudaLogsDumpToMemory(unsigned* iterator, char* buffer, std::size_t* size, unsigned flags) {
  return call("cudaLogsDumpToMemory", [&](Runtime&) {
    if (buffer == nullptr || size == nullptr || flags != 0) return kErrInvalidValue;
    if (*size > 0) buffer[0] = '\0';
    *size = 0;
    if (iterator != nullptr) *iterator = 0;
    return kSuccess;
  });
}

// caveat: accepted and ignored: the host-side variables nvcc registers this way have no device copy to keep
WS_API void __cudaRegisterHostVar(void**, const char*, char*, std::size_t) {}

// caveat: accepted and ignored: no unified functions are called through a table here
WS_API void __cudaRegisterUnifiedTable(void**, void*) {}
