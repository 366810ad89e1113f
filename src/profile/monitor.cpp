#include "profile/monitor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>

namespace warpscope::profiling {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler stores into a lock-free atomic");

// What the signal handler touches: set before the handlers are installed, never changed after.
std::atomic<int>* g_stop = nullptr;
int g_wake_fd = -1;
bool g_installed[2] = {false, false};  // SIGINT, SIGTERM
constexpr int kSignals[2] = {SIGINT, SIGTERM};

extern "C" void warpscope_on_signal(int sig) {
  const int saved = errno;
  int expected = 0;
  g_stop->compare_exchange_strong(expected, sig);  // the first reason to stop stays
  const char byte = 1;
  const ssize_t n = write(g_wake_fd, &byte, 1);  // wakes the watcher; never blocks (O_NONBLOCK)
  (void)n;
  errno = saved;
}

/// A forked child without exec has no watcher: it gets the default actions back.
extern "C" void warpscope_after_fork_in_child() {
  for (int i = 0; i < 2; ++i) {
    if (g_installed[i]) signal(kSignals[i], SIG_DFL);
  }
}

std::string rate_text(double per_second) {
  if (per_second >= 1e9) return fmt::format("{:.2f}G", per_second / 1e9);
  if (per_second >= 1e6) return fmt::format("{:.1f}M", per_second / 1e6);
  if (per_second >= 1e3) return fmt::format("{:.1f}k", per_second / 1e3);
  return fmt::format("{:.0f}", per_second);
}

void write_stderr(const std::string& s) {
  const ssize_t n = write(2, s.data(), s.size());
  (void)n;
}

}  // namespace

Monitor& Monitor::get() {
  static Monitor* m = new Monitor();  // never destroyed: the watcher runs until the process ends
  return *m;
}

std::string Monitor::signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return fmt::format("signal {}", sig);
  }
}

void Monitor::start(double timeout_seconds, bool progress_line, std::function<void(int)> on_signal) {
  if (started_) return;
  started_ = true;
  timeout_ = timeout_seconds;
  progress_line_ = progress_line;
  on_signal_ = std::move(on_signal);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return;  // no watcher: signals act as before
  g_stop = &stop_;
  g_wake_fd = fds[1];
  for (int i = 0; i < 2; ++i) {
    struct sigaction old {};
    if (sigaction(kSignals[i], nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // ignored or taken
    struct sigaction sa {};
    sa.sa_handler = warpscope_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(kSignals[i], &sa, nullptr) == 0) g_installed[i] = true;
  }
  pthread_atfork(nullptr, nullptr, warpscope_after_fork_in_child);
  const int wake_read = fds[0];
  std::thread([this, wake_read] {
    // The watcher never runs the handlers' work: block the signals here, so that they interrupt
    // the program's threads (whose system calls restart), never this poll.
    sigset_t set;
    sigemptyset(&set);
    for (int s : kSignals) sigaddset(&set, s);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    for (;;) {
      pollfd p{wake_read, POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char buf[64];
        while (read(wake_read, buf, sizeof buf) > 0) {
        }
      }
      if (const int code = stop_code(); code > 0 && on_signal_) {
        pthread_sigmask(SIG_UNBLOCK, &set, nullptr);  // on_signal_ raises the signal again
        on_signal_(code);
      }
      std::lock_guard lock(mu_);
      tick();
    }
  }).detach();
}

void Monitor::launch_begins(const std::string& kernel, std::uint64_t ctas, const LaunchProgress* progress) {
  std::lock_guard lock(mu_);
  active_ = true;
  kernel_ = kernel;
  ctas_ = ctas;
  progress_ = progress;
  begin_ = std::chrono::steady_clock::now();
  line_shown_ = false;
}

void Monitor::launch_ends() {
  std::lock_guard lock(mu_);
  if (line_shown_) erase_line();
  active_ = false;
  progress_ = nullptr;
}

double Monitor::launch_seconds() const {
  std::lock_guard lock(mu_);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
}

void Monitor::erase_line() {
  write_stderr("\r\033[K");
  line_shown_ = false;
}

void Monitor::tick() {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - begin_).count();
  if (timeout_ > 0 && elapsed >= timeout_) {
    int expected = 0;
    stop_.compare_exchange_strong(expected, kStopTimeout);
  }
  constexpr double kProgressAfter = 2.0;
  if (!progress_line_ || progress_ == nullptr || elapsed < kProgressAfter) return;
  if (line_shown_ && now - shown_ < std::chrono::milliseconds(500)) return;
  const std::uint64_t done = progress_->ctas_done.load(std::memory_order_relaxed);
  const std::uint64_t insts = progress_->warp_instructions.load(std::memory_order_relaxed);
  std::string name = kernel_.substr(0, kernel_.find('('));
  if (name.size() > 40) name = name.substr(0, 37) + "...";
  write_stderr(fmt::format("\rwarpscope: {}: {}/{} CTAs, {} warp inst/s, {:.1f} s\033[K", name, done, ctas_,
                           rate_text(static_cast<double>(insts) / elapsed), elapsed));
  line_shown_ = true;
  shown_ = now;
}

}  // namespace warpscope::profiling
