// The entry of every runtime call (docs/runtime.md): call() runs an API call's body under the
// runtime's lock and turns errors into CUDA's codes, after the checks a GPU makes first: a forked
// child's calls, and calls after the runtime's teardown at exit. not_supported() names a stub.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

#include <fmt/format.h>

#include "common/error.hpp"
#include "profile/profile.hpp"
#include "runtime/cudart/runtime.hpp"

namespace warpscope::cudart {

namespace {
// The runtime's teardown, as CUDA's: registered with atexit by the program's first runtime call,
// so that atexit handlers registered after that call run before it (their CUDA calls work) and
// handlers registered before it, and static destructors of objects made before it, run after it:
// their calls fail with cudaErrorCudartUnloading, as on the H200
// (tests/hw/data/h200/issue32/processes.txt, mode exit_errors).
std::atomic<bool> g_teardown_registered{false};
std::atomic<bool> g_unloading{false};

extern "C" void warpscope_runtime_teardown() {
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  rt.write_report();
  g_unloading.store(true);
}
}  // namespace

cudaError_t call(const char* api, bool ignore_sticky, const std::function<cudaError_t(Runtime&)>& body) {
  if (forked_child()) {
    // As a GPU answers a forked child of a process that initialised CUDA (the lock is not taken:
    // another thread of the parent may have held it at the fork).
    static std::atomic<bool> said{false};
    if (!said.exchange(true)) {
      std::fprintf(stderr,
                   "warpscope: %s in a child forked from a process that used CUDA: cudaErrorInitializationError, "
                   "as on a GPU (CUDA does not survive fork(); the child must exec a program to use CUDA)\n",
                   api);
    }
    last_error() = kErrInitialization;
    return kErrInitialization;
  }
  if (g_unloading.load()) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true)) {
      std::fprintf(stderr,
                   "warpscope: %s after the CUDA runtime was torn down at exit (from an atexit handler registered "
                   "before the program's first CUDA call, or a static destructor): cudaErrorCudartUnloading, as on "
                   "a GPU\n",
                   api);
    }
    last_error() = kErrCudartUnloading;
    return kErrCudartUnloading;
  }
  if (!g_teardown_registered.exchange(true)) std::atexit(warpscope_runtime_teardown);
  runtime_entered();
  Runtime& rt = Runtime::get();
  std::lock_guard lock(rt.mu);
  rt.current_api = api;
  // A signal arrived (or a launch timed out): no more calls, the run ends here.
  if (const int stop = Monitor::get().stop_code(); stop != 0) rt.finish_stopped(stop);
  if (!ignore_sticky && rt.sticky != kSuccess) {
    last_error() = rt.sticky;
    rt.note_api_error(api, rt.sticky);
    return rt.sticky;
  }
  cudaError_t e = kSuccess;
  try {
    e = body(rt);
  } catch (const Error& err) {
    bool sticky = false;
    e = map_error(err, &sticky);
    if (err.kind() == ErrorKind::kUsage && std::string(err.what()).find("out of device memory") != std::string::npos) {
      e = kErrMemoryAllocation;
    }
    rt.note(fmt::format("{}: {}", api, err.what()));
  } catch (const std::bad_alloc&) {
    e = kErrMemoryAllocation;
  }
  if (e != kSuccess) {
    last_error() = e;
    rt.note_api_error(api, e);
  }
  return e;
}

cudaError_t not_supported(const char* name) {
  static std::mutex mu;
  static std::set<std::string>& said = *new std::set<std::string>;  // never destroyed
  {
    std::lock_guard lock(mu);
    if (said.insert(name).second) {
      std::fprintf(stderr, "warpscope: %s is not supported by warpscope's CUDA runtime\n", name);
    }
  }
  last_error() = kErrNotSupported;
  return kErrNotSupported;
}

cudaError_t refuse_once(const char* name, const std::string& why, cudaError_t code) {
  static std::mutex mu;
  static std::set<std::string>& said = *new std::set<std::string>;  // never destroyed
  {
    std::lock_guard lock(mu);
    if (said.insert(name).second) std::fprintf(stderr, "warpscope: %s: %s\n", name, why.c_str());
  }
  last_error() = code;
  return code;
}

}  // namespace warpscope::cudart
