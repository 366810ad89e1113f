#include "child_signals.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace warpscope::cli {
namespace {

volatile sig_atomic_t g_child = 0;   // the pid to forward to (0: none yet)
volatile sig_atomic_t g_signal = 0;  // the first signal received

extern "C" void warpscope_forward_signal(int sig) {
  const int saved = errno;
  if (g_signal == 0) g_signal = sig;
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
  errno = saved;
}

constexpr auto kGrace = std::chrono::seconds(5);

}  // namespace

struct ChildSignals::Saved {
  struct sigaction old_int {}, old_term {}, old_quit {};
  sigset_t old_mask;
};

ChildSignals::ChildSignals() : saved_(new Saved) {
  g_child = 0;
  g_signal = 0;
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigprocmask(SIG_BLOCK, &block, &saved_->old_mask);
  struct sigaction forward {}, ignore {};
  forward.sa_handler = warpscope_forward_signal;
  sigemptyset(&forward.sa_mask);
  forward.sa_flags = 0;  // no SA_RESTART: waitpid returns, and the grace period starts
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, nullptr, &saved_->old_int);
  sigaction(SIGTERM, nullptr, &saved_->old_term);
  if (saved_->old_int.sa_handler != SIG_IGN) sigaction(SIGINT, &forward, nullptr);
  if (saved_->old_term.sa_handler != SIG_IGN) sigaction(SIGTERM, &forward, nullptr);
  sigaction(SIGQUIT, &ignore, &saved_->old_quit);
}

ChildSignals::~ChildSignals() {
  g_child = 0;
  sigaction(SIGINT, &saved_->old_int, nullptr);
  sigaction(SIGTERM, &saved_->old_term, nullptr);
  sigaction(SIGQUIT, &saved_->old_quit, nullptr);
  sigprocmask(SIG_SETMASK, &saved_->old_mask, nullptr);
  delete saved_;
}

void ChildSignals::in_child() const {
  sigaction(SIGINT, &saved_->old_int, nullptr);
  sigaction(SIGTERM, &saved_->old_term, nullptr);
  sigaction(SIGQUIT, &saved_->old_quit, nullptr);
  sigprocmask(SIG_SETMASK, &saved_->old_mask, nullptr);
}

void ChildSignals::child_started(pid_t pid) {
  g_child = pid;
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, SIGINT);
  sigaddset(&unblock, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &unblock, nullptr);  // a signal that came meanwhile is forwarded now
}

ChildSignals::End ChildSignals::wait(pid_t pid) {
  End end;
  std::chrono::steady_clock::time_point deadline{};
  for (;;) {
    const bool stopping = g_signal != 0;
    const pid_t r = waitpid(pid, &end.status, stopping ? WNOHANG : 0);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;  // no such child
    if (!g_signal) continue;
    const auto now = std::chrono::steady_clock::now();
    if (deadline == std::chrono::steady_clock::time_point{}) deadline = now + kGrace;
    if (now >= deadline && !end.killed) {
      kill(pid, SIGKILL);
      end.killed = true;
    }
    if (r == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  end.signal = g_signal;
  return end;
}

}  // namespace warpscope::cli
