// `warpscope run` stopped (docs/runtime.md, "Stopping, hangs, progress"): SIGINT to the whole
// process group (as a terminal's Ctrl-C sends it), SIGTERM to warpscope alone, SIGINT while the
// program runs host code, --timeout, and a spin on a flag nobody sets. Each checks the exit
// status, the incomplete launch in the JSON report, and that no process is left behind; the
// progress line shows on a terminal only. Program: tests/runtime/programs/stop.cu.
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace {

using Clock = std::chrono::steady_clock;

/// The line of stop.cu that carries `// @name`.
unsigned marker_line(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/stop.cu");
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (line.find("// @" + name) != std::string::npos) return n;
  }
  ADD_FAILURE() << "no marker @" << name;
  return 0;
}

struct StopRun {
  int status = 0;
  double seconds_after_signal = 0;  // from the signal (or the start) to warpscope's end
  std::string out, err;
  nlohmann::json report;
  bool group_empty = false;  // no process of the run's process group was left
};

class Stop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }

  /// Runs `warpscope run <options> -- stop <mode>` in a process group of its own. When `sig` is
  /// set, waits for the program's "started" line and half a second more, then sends `sig` to
  /// the group (`to_group`) or to warpscope alone.
  StopRun run(const std::string& tag, const std::vector<std::string>& options, const std::string& mode, int sig,
          bool to_group) {
    const std::string base = rt_test::prog("stop_" + tag);
    const std::string json = base + ".json", out = base + ".out", err = base + ".err";
    for (const std::string& f : {json, out, err}) std::filesystem::remove(f);  // no "started" of a run before
    std::vector<std::string> args = {exe_, "run", "--json", json};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--", rt_test::prog("stop"), mode});
    const pid_t pid = fork();
    if (pid == 0) {
      setpgid(0, 0);
      if (!freopen(out.c_str(), "w", stdout) || !freopen(err.c_str(), "w", stderr)) _exit(126);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    setpgid(pid, pid);
    StopRun r;
    auto t0 = Clock::now();
    if (sig != 0) {
      // The program prints "started" just before its long part.
      for (int i = 0; i < 600 && rt_test::slurp(out).find("started") == std::string::npos; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      EXPECT_NE(rt_test::slurp(out).find("started"), std::string::npos) << rt_test::slurp(err);
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      t0 = Clock::now();
      kill(to_group ? -pid : pid, sig);
    }
    // Bounded wait: a run that does not stop is killed and fails the test.
    for (;;) {
      const pid_t w = waitpid(pid, &r.status, WNOHANG);
      if (w == pid) break;
      if (Clock::now() - t0 > std::chrono::seconds(60)) {
        kill(-pid, SIGKILL);
        waitpid(pid, &r.status, 0);
        ADD_FAILURE() << "warpscope did not end";
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    r.seconds_after_signal = std::chrono::duration<double>(Clock::now() - t0).count();
    // Nothing is left in the group (kill(-pgid, 0) fails with ESRCH once every member is gone).
    for (int i = 0; i < 100; ++i) {
      if (kill(-pid, 0) != 0 && errno == ESRCH) {
        r.group_empty = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!r.group_empty) kill(-pid, SIGKILL);
    r.out = rt_test::slurp(out);
    r.err = rt_test::slurp(err);
    std::ifstream in(json);
    if (in) r.report = nlohmann::json::parse(in, nullptr, false);
    return r;
  }

  /// The launch `forever` that was interrupted: incomplete, its warps in the loop of stop.cu.
  void expect_interrupted_forever(const StopRun& r, const std::string& reason) {
    ASSERT_TRUE(r.report.is_object()) << r.err;
    ASSERT_EQ(r.report["launches"].size(), 2u) << r.err;
    EXPECT_FALSE(r.report["launches"][0].contains("incomplete"));
    const auto& l = r.report["launches"][1];
    EXPECT_EQ(l["name"], "forever(unsigned int*, long long)");
    ASSERT_TRUE(l.contains("incomplete")) << l.dump(1);
    const auto& inc = l["incomplete"];
    EXPECT_EQ(inc["reason"], reason);
    EXPECT_EQ(inc["ctas_total"], 4);
    EXPECT_EQ(inc["ctas_done"], 0);  // no block of `forever` ends
    ASSERT_FALSE(inc["places"].empty());
    std::uint64_t warps = 0;
    for (const auto& p : inc["places"]) {
      EXPECT_EQ(p["state"], "running");
      warps += p["warps"].get<std::uint64_t>();
      ASSERT_TRUE(p["loop"].is_object()) << p.dump();
      EXPECT_EQ(p["loop"]["first_line"], marker_line("forever-first"));
      EXPECT_EQ(p["loop"]["last_line"], marker_line("forever-last"));
      EXPECT_NE(p["file"].get<std::string>().find("stop.cu"), std::string::npos);
    }
    EXPECT_GE(warps, 2u);  // at least block 0's two warps (more with several host threads)
    EXPECT_EQ(r.report["stopped"]["launch"], 1);
    EXPECT_EQ(r.out.find("after the launch"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("incomplete"), std::string::npos) << r.err;  // the summary says so
  }

  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
};

TEST_F(Stop, SigintToTheProcessGroupStopsWithAReport) {
  const std::string html = rt_test::prog("stop_sigint_html");
  std::filesystem::remove_all(html);
  const StopRun r = run("sigint", {"--threads", "2", "--html", html}, "forever", SIGINT, true);
  ASSERT_TRUE(WIFEXITED(r.status)) << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 130) << r.err;
  EXPECT_LT(r.seconds_after_signal, 2.0);
  EXPECT_TRUE(r.group_empty);
  expect_interrupted_forever(r, "signal");
  EXPECT_EQ(r.report["launches"][1]["incomplete"]["signal"], "SIGINT");
  EXPECT_EQ(r.report["stopped"]["reason"], "signal");
  EXPECT_EQ(r.report["stopped"]["exit_code"], 130);
  EXPECT_NE(r.err.find("stopped by SIGINT (exit code 130)"), std::string::npos) << r.err;
  // The HTML pages say so too.
  EXPECT_NE(rt_test::slurp(html + "/index.html").find("id=\"stopped\""), std::string::npos);
  EXPECT_NE(rt_test::slurp(html + "/index.html").find(">incomplete</span>"), std::string::npos);
  const std::string page = rt_test::slurp(html + "/launch_1.html");
  EXPECT_NE(page.find("id=\"launch-incomplete\""), std::string::npos);
  EXPECT_NE(page.find("interrupted by SIGINT"), std::string::npos);
}

TEST_F(Stop, SigtermToWarpscopeAloneReachesTheProgram) {
  const StopRun r = run("sigterm", {"--threads", "1"}, "forever", SIGTERM, false);
  ASSERT_TRUE(WIFEXITED(r.status)) << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 143) << r.err;
  EXPECT_LT(r.seconds_after_signal, 2.0);
  EXPECT_TRUE(r.group_empty);
  expect_interrupted_forever(r, "signal");
  EXPECT_EQ(r.report["launches"][1]["incomplete"]["signal"], "SIGTERM");
  EXPECT_EQ(r.report["stopped"]["exit_code"], 143);
}

TEST_F(Stop, SigintDuringHostCodeWritesTheFinishedLaunches) {
  const StopRun r = run("host", {}, "host", SIGINT, false);
  ASSERT_TRUE(WIFEXITED(r.status)) << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 130) << r.err;
  EXPECT_LT(r.seconds_after_signal, 2.0);
  EXPECT_TRUE(r.group_empty);
  ASSERT_TRUE(r.report.is_object()) << r.err;
  ASSERT_EQ(r.report["launches"].size(), 1u);
  EXPECT_FALSE(r.report["launches"][0].contains("incomplete"));
  EXPECT_EQ(r.report["stopped"]["signal"], "SIGINT");
  EXPECT_TRUE(r.report["stopped"]["launch"].is_null());
}

TEST_F(Stop, TimeoutEndsALaunchThatRunsTooLong) {
  const StopRun r = run("timeout", {"--timeout", "1"}, "forever", 0, false);
  ASSERT_TRUE(WIFEXITED(r.status)) << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 124) << r.err;
  EXPECT_TRUE(r.group_empty);
  expect_interrupted_forever(r, "timeout");
  const auto& inc = r.report["launches"][1]["incomplete"];
  EXPECT_EQ(inc["timeout_s"], 1.0);
  EXPECT_GE(inc["elapsed_s"].get<double>(), 1.0);
  EXPECT_EQ(r.report["stopped"]["reason"], "timeout");
  EXPECT_EQ(r.report["stopped"]["exit_code"], 124);
  // The message names the loop; stderr is a file: no progress line.
  const std::string loop = "in the loop at ";
  EXPECT_NE(r.err.find("timed out after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(loop), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("warp inst/s"), std::string::npos) << r.err;
}

TEST_F(Stop, SpinOnAFlagNobodySetsIsAHangAtOnce) {
  const StopRun r = run("hang", {}, "hang", 0, false);
  ASSERT_TRUE(WIFEXITED(r.status)) << r.err;
  EXPECT_EQ(WEXITSTATUS(r.status), 1) << r.out << r.err;  // the program saw cudaErrorLaunchFailure
  EXPECT_LT(r.seconds_after_signal, 30.0);
  EXPECT_TRUE(r.group_empty);
  EXPECT_NE(r.out.find("hang: cudaErrorLaunchFailure"), std::string::npos) << r.out;
  ASSERT_TRUE(r.report.is_object()) << r.err;
  ASSERT_EQ(r.report["launches"].size(), 2u);
  const auto& l = r.report["launches"][1];
  ASSERT_TRUE(l.contains("incomplete")) << l.dump(1);
  EXPECT_NE(l["error"].get<std::string>().find("hang in kernel spin_on_flag"), std::string::npos);
  const auto& inc = l["incomplete"];
  EXPECT_EQ(inc["reason"], "hang");
  EXPECT_EQ(inc["ctas_done"], 0);
  EXPECT_EQ(inc["ctas_total"], 1);
  ASSERT_EQ(inc["places"].size(), 1u);
  const auto& p = inc["places"][0];
  EXPECT_EQ(p["state"], "spinning");
  EXPECT_EQ(p["warps"], 2);
  EXPECT_EQ(p["line"], marker_line("spin"));
  EXPECT_NE(p["ptx"].get<std::string>().find("ld.volatile.global"), std::string::npos);
  EXPECT_FALSE(r.report.contains("stopped"));  // the run went on: the program ended it
}

/// Runs warpscope on a pseudo-terminal; returns what it wrote there and its exit status.
std::pair<std::string, int> run_on_terminal(const std::vector<std::string>& args) {
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto a : args) argv.push_back(strdup(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child's side is closed
    }
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  return {text, status};
}

TEST_F(Stop, ProgressLineOnATerminalOnlyAndNotWithQuiet) {
  const std::string prog = rt_test::prog("stop");
  const auto [shown, status] = run_on_terminal({exe_, "run", "--no-summary", "--timeout", "3", "--", prog, "forever"});
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 124);
  // "warpscope: forever: 0/4 CTAs, 123.4M warp inst/s, 2.0 s", redrawn in place.
  EXPECT_NE(shown.find("\rwarpscope: forever: 0/4 CTAs, "), std::string::npos) << shown;
  EXPECT_NE(shown.find(" warp inst/s, 2."), std::string::npos) << shown;
  const auto [quiet, quiet_status] =
      run_on_terminal({exe_, "run", "--no-summary", "--quiet", "--timeout", "3", "--", prog, "forever"});
  EXPECT_EQ(WEXITSTATUS(quiet_status), 124);
  EXPECT_EQ(quiet.find("warp inst/s"), std::string::npos) << quiet;
}

}  // namespace
