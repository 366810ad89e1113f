// `warpscope run` waits for the program it runs; the signals that ask to stop must reach the
// program, whose runtime (src/profile/monitor.hpp) ends its run and writes the report.
// A terminal's Ctrl-C sends SIGINT to the whole process group, so both get it; `kill PID` sends
// it to warpscope alone. While the child runs, SIGINT and SIGTERM are forwarded to it (unless
// warpscope was started with them ignored), SIGQUIT is ignored (as system() does), and a child
// still there 5 seconds after the first such signal is killed (SIGKILL): no process is left.
#pragma once

#include <sys/types.h>

namespace warpscope::cli {

class ChildSignals {
 public:
  /// Installs the forwarding handlers; SIGINT and SIGTERM stay blocked until child_started.
  ChildSignals();
  /// Restores what warpscope had.
  ~ChildSignals();
  ChildSignals(const ChildSignals&) = delete;
  ChildSignals& operator=(const ChildSignals&) = delete;

  /// In the child, before exec: the dispositions and the signal mask warpscope had.
  void in_child() const;
  void child_started(pid_t pid);

  struct End {
    int status = 0;     // waitpid's
    int signal = 0;     // the first SIGINT/SIGTERM warpscope received (0: none)
    bool killed = false;  // the child did not end within the grace period and was killed
  };
  /// Waits for the child.
  End wait(pid_t pid);

 private:
  struct Saved;
  Saved* saved_;
};

}  // namespace warpscope::cli
