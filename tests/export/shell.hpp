// Running a command line in the export tests: its exit code and its stdout and stderr together.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace export_tests {

struct Shell {
  int code = -1;
  std::string out;  // stdout and stderr
};

inline Shell shell(const std::string& cmd) {
  Shell r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace export_tests
