// Runs a program under warpscope's CUDA runtime and captures what it did.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace rt_test {

inline std::string prog(const std::string& name) { return std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/" + name; }

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Result {
  int exit_code = -1;
  std::string out, err;
};

/// Runs `command` (a shell command line) with `env` prefixed (e.g. "LD_LIBRARY_PATH=... ").
inline Result run_shell(const std::string& command) {
  static int counter = 0;
  const std::string base = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/.run" + std::to_string(getpid()) + "_" +
                           std::to_string(counter++);
  const std::string cmd = command + " > " + base + ".out 2> " + base + ".err";
  const int status = std::system(cmd.c_str());
  Result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

/// Runs a program under lib/warpscope/libcudart.so.13, writing the report to `report` if given.
inline Result run_under_warpscope(const std::string& program_and_args, const std::string& report = "",
                                  const std::string& extra_env = "") {
  std::string env = std::string("LD_LIBRARY_PATH=") + WARPSCOPE_CUDART_DIR + " ";
  if (!report.empty()) env += "WARPSCOPE_REPORT=" + report + " ";
  return run_shell(env + extra_env + " " + program_and_args);
}

/// The output without the lines that carry timings.
inline std::string without_timings(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind("[timing]", 0) != 0) out += line + "\n";
  return out;
}

}  // namespace rt_test
