#include "run_cmd.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "child_signals.hpp"
#include "common/error.hpp"
#include "export_cmd.hpp"
#include "help.hpp"
#include "profile_option.hpp"
#include "report/html.hpp"
#include "report/json_access.hpp"
#include "report/ncu_sections.hpp"
#include "report/processes.hpp"
#include "report/text.hpp"
#include "common/elf_file.hpp"
#include "runtime/fatbin.hpp"

namespace warpscope::cli {
namespace fs = std::filesystem;
namespace fb = runtime::fatbin;

namespace {

std::string env_or(const char* name, const std::string& fallback = {}) {
  const char* v = std::getenv(name);
  return v == nullptr || *v == '\0' ? fallback : std::string(v);
}

}  // namespace

/// The path execvp would run for `cmd`.
std::string resolve_executable(const std::string& cmd) {
  if (cmd.find('/') != std::string::npos) return cmd;
  std::stringstream path(env_or("PATH", "/usr/bin:/bin"));
  std::string dir;
  while (std::getline(path, dir, ':')) {
    const fs::path p = fs::path(dir.empty() ? "." : dir) / cmd;
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return cmd;
}

namespace {

std::string find_nvcc() {
  std::vector<std::string> candidates;
  if (auto home = env_or("CUDA_HOME"); !home.empty()) candidates.push_back(home + "/bin/nvcc");
  if (auto home = env_or("CUDA_PATH"); !home.empty()) candidates.push_back(home + "/bin/nvcc");
  candidates.push_back("/usr/local/cuda/bin/nvcc");
  for (const auto& c : candidates)
    if (access(c.c_str(), X_OK) == 0) return c;
  const std::string p = resolve_executable("nvcc");
  if (p != "nvcc") return p;
  fail(ErrorKind::kIo, "nvcc not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH)");
}

/// Runs a command, capturing stdout and stderr together; returns the exit status.
int capture(const std::vector<std::string>& argv, std::string& output) {
  int fds[2];
  if (pipe(fds) != 0) fail(ErrorKind::kIo, "pipe: {}", std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) fail(ErrorKind::kIo, "fork: {}", std::strerror(errno));
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  std::array<char, 4096> buf;
  ssize_t n;
  while ((n = read(fds[0], buf.data(), buf.size())) > 0) output.append(buf.data(), static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::uint64_t fnv1a(std::string_view data, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

/// The -arch nvcc 13 can target for this profile: the profile's own, or sm_75 (the oldest nvcc
/// 13 supports) for older profiles, which then need WARPSCOPE_ANY_PTX.
std::string nvcc_arch(const arch::Profile& p) {
  const int cc = p.cc_major * 10 + p.cc_minor;
  return cc < 75 ? "sm_75" : p.ptx_target;
}

}  // namespace

/// The program must be an executable regular file (a directory, a device such as /dev/zero or an
/// empty name is refused before anything runs).
void check_program_path(const std::string& exe, const std::string& given) {
  if (given.empty()) fail(ErrorKind::kUsage, "run: the program's name is empty");
  struct stat st {};
  if (stat(exe.c_str(), &st) != 0) {
    if (given.find('/') == std::string::npos)
      fail(ErrorKind::kUsage, "run: {}: no such program (not a file, and not found on PATH)", given);
    fail(ErrorKind::kUsage, "run: {}: {}", given, std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) fail(ErrorKind::kUsage, "run: {} is a directory, not a program", given);
  if (!S_ISREG(st.st_mode)) fail(ErrorKind::kUsage, "run: {} is not a regular file (a device, pipe or socket), not a program", given);
  if (access(exe.c_str(), X_OK) != 0) fail(ErrorKind::kUsage, "run: {} is not executable (chmod +x, or run a .cu file)", given);
}

namespace {

/// Report paths are checked before the program starts: a report that cannot be written must not
/// be found out after the run.
void check_report_paths(const RunOptions& o) {
  if (!o.json_path.empty()) {
    // The runtime writes the report there and warpscope reads it back: it must be a file.
    std::error_code ec;
    const auto st = fs::status(o.json_path, ec);
    if (!ec && fs::exists(st) && !fs::is_regular_file(st))
      fail(ErrorKind::kUsage, "--json {}: not a regular file (the report is written there and read back; give a file "
           "name)", o.json_path);
    std::ofstream probe(o.json_path, std::ios::app);
    if (!probe) fail(ErrorKind::kIo, "--json {}: cannot write: {}", o.json_path, std::strerror(errno));
  }
  if (!o.html_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.html_dir, ec);
    if (ec || !fs::is_directory(o.html_dir))
      fail(ErrorKind::kIo, "--html {}: cannot create the directory: {}", o.html_dir, ec ? ec.message() : "not a directory");
    if (access(o.html_dir.c_str(), W_OK) != 0)
      fail(ErrorKind::kIo, "--html {}: cannot write into it: {}", o.html_dir, std::strerror(errno));
  }
}

/// Whether a program's fatbinaries hold kernels: PTX, or a cubin with a .text.<kernel> section. nvcc
/// gives a program with no device code a device-link fatbinary whose cubin is empty.
bool fatbin_has_kernels(const ElfFile& elf, const std::string& path) {
  const auto section = elf.section(".nv_fatbin");
  if (!section) return false;
  try {
    for (const auto& f : fb::parse_all(elf.section_bytes(*section), path + ":.nv_fatbin")) {
      for (const auto& e : f.entries) {
        if (e.is_ptx()) return true;
        if (!e.is_elf()) continue;
        const std::string cubin = fb::contents(e, path);
        const ElfFile code(std::span(reinterpret_cast<const std::uint8_t*>(cubin.data()), cubin.size()), path);
        for (const auto& s : code.sections())
          if (s.name.rfind(".text.", 0) == 0) return true;
      }
    }
  } catch (const Error&) {
    return true;  // unreadable: assume it has
  }
  return false;
}

}  // namespace

std::string rebuild_flags(const arch::Profile& profile) {
  return fmt::format("nvcc -cudart shared -lineinfo -arch={}", nvcc_arch(profile));
}

BinaryCheck check_binary(const std::string& path, const arch::Profile& profile) {
  BinaryCheck c;
  std::vector<std::uint8_t> bytes;
  try {
    bytes = read_file_bytes(path);
  } catch (const Error&) {
    c.kind = BinaryCheck::Kind::kNotElf;
    return c;  // let exec report it
  }
  std::optional<ElfFile> elf;
  try {
    elf.emplace(std::span<const std::uint8_t>(bytes), path);
  } catch (const Error&) {
    c.kind = BinaryCheck::Kind::kNotElf;
    return c;  // a script: run it, its programs load the library themselves
  }
  const auto& needed = elf->needed();
  const bool shared = std::find(needed.begin(), needed.end(), "libcudart.so.13") != needed.end();
  std::string other;
  for (const auto& n : needed)
    if (n.rfind("libcudart.so", 0) == 0 && n != "libcudart.so.13") other = n;
  const auto fatbin_section = elf->section(".nv_fatbin");
  // The static runtime's code in the program (its registration or API functions).
  const bool static_runtime = elf->has_symbol("__cudaRegisterFatBinary") || elf->has_symbol("cudaMalloc") ||
                              elf->has_symbol("cudaLaunchKernel");
  const bool is_cuda = fatbin_section.has_value() || static_runtime;
  // The driver API (-lcuda): warpscope's libcuda.so.1 is the same library as its runtime.
  const bool driver = std::find(needed.begin(), needed.end(), "libcuda.so.1") != needed.end();
  const std::string flags = rebuild_flags(profile);
  if (shared) {
    c.kind = BinaryCheck::Kind::kShared;
  } else if (!other.empty()) {
    c.kind = BinaryCheck::Kind::kOtherCudart;
    c.runnable = false;
    c.message = fmt::format(
        "{} is linked with {}, another CUDA version's runtime; warpscope replaces libcudart.so.13 (CUDA 13). "
        "Rebuild it with CUDA 13: {} ...",
        path, other, flags);
    return c;
  } else if (elf->has_symbol("warpscope_cudart_static_marker")) {
    c.kind = BinaryCheck::Kind::kWarpscopeStatic;
  } else if (is_cuda && !(driver && !fatbin_has_kernels(*elf, path))) {
    // NVIDIA's static runtime (nvcc's default, -cudart static): it loads libcuda.so.1, warpscope's
    // driver, and reaches it through cuGetProcAddress and the driver's export tables (docs/runtime.md
    // "The static CUDA runtime"); its kernels arrive as libraries (cuLibraryLoadData).
    c.kind = BinaryCheck::Kind::kNvidiaStatic;
  } else if (driver) {
    // A driver API program. Built by nvcc with its defaults it also carries NVIDIA's static runtime
    // and a device-link fatbinary without kernels: the kernels come from the modules the program
    // loads (a runtime call would reach the same driver, as above).
    c.kind = BinaryCheck::Kind::kDriver;
    return c;
  } else {
    c.kind = BinaryCheck::Kind::kNotCuda;
    return c;
  }
  if (!fatbin_section) return c;
  // A program with no kernels of its own (host code compiled by nvcc, e.g. one that only calls a
  // library) still gets a fatbinary from the device link, with an empty cubin and no PTX; it is
  // never registered, since nothing imports __cudaRegisterFatBinary: nothing to check.
  if (c.kind == BinaryCheck::Kind::kShared && !elf->has_symbol("__cudaRegisterFatBinary")) return c;
  try {
    auto fbs = fb::parse_all(elf->section_bytes(*fatbin_section), path + ":.nv_fatbin");
    // A -rdc=true build (CMake's CUDA_SEPARABLE_COMPILATION): the linked image in .nv_fatbin has
    // machine code only; each translation unit's fatbinary, with its PTX, is in __nv_relfatbin,
    // and the runtime links those (docs/runtime.md, "Relocatable device code").
    if (const auto rel = elf->section("__nv_relfatbin")) {
      auto units = fb::parse_all(elf->section_bytes(*rel), path + ":__nv_relfatbin");
      fbs.insert(fbs.end(), std::make_move_iterator(units.begin()), std::make_move_iterator(units.end()));
    }
    std::string why;
    if (fb::choose_ptx(fbs, profile.cc_major, profile.cc_minor, &why) == nullptr) {
      bool any_ptx = false;
      for (const auto& f : fbs)
        for (const auto& e : f.entries) any_ptx = any_ptx || e.is_ptx();
      if (any_ptx) {
        c.message = fmt::format("{}: {} (set --any-ptx to run it with the newer PTX anyway)", path, why);
      } else {
        c.runnable = false;
        c.message = fmt::format("{} was built without PTX for the {} profile: {}. Rebuild it with: {} ...", path,
                                profile.name, why, flags);
      }
    }
  } catch (const Error& e) {
    c.message = fmt::format("{}: cannot read its fatbinary ({}); running it anyway", path, e.what());
  }
  return c;
}

std::string compile_cu(const std::string& source, const arch::Profile& profile, const std::string& extra_flags,
                       const std::string& cache_dir) {
  std::ifstream in(source, std::ios::binary);
  if (!in) fail(ErrorKind::kIo, "cannot read {}", source);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string nvcc = find_nvcc();
  std::string version;
  capture({nvcc, "--version"}, version);
  std::vector<std::string> args = {nvcc, "-cudart", "shared", "-lineinfo", "-arch=" + nvcc_arch(profile)};
  for (auto& w : split_words(extra_flags)) args.push_back(w);
  std::string key_text = text + "\n" + version + "\n" + fs::absolute(source).parent_path().string();
  for (const auto& a : args) key_text += "\n" + a;
  const std::string key = fmt::format("{:016x}", fnv1a(key_text));
  fs::path dir = cache_dir;
  if (dir.empty()) dir = env_or("WARPSCOPE_CACHE_DIR");
  if (dir.empty()) {
    const std::string xdg = env_or("XDG_CACHE_HOME");
    dir = xdg.empty() ? fs::path(env_or("HOME", "/tmp")) / ".cache" / "warpscope" : fs::path(xdg) / "warpscope";
  }
  dir /= "build";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) fail(ErrorKind::kIo, "cannot create the build cache {}: {}", dir.string(), ec.message());
  const fs::path exe = dir / (fs::path(source).stem().string() + "-" + key);
  if (fs::exists(exe)) return exe.string();
  const fs::path tmp = exe.string() + fmt::format(".tmp{}", getpid());
  args.push_back("-o");
  args.push_back(tmp.string());
  args.push_back(source);
  std::string out;
  const int rc = capture(args, out);
  if (rc != 0) {
    fs::remove(tmp, ec);
    std::string cmdline;
    for (const auto& a : args) cmdline += (cmdline.empty() ? "" : " ") + a;
    fail(ErrorKind::kIo, "nvcc failed (exit {}):\n  {}\n{}", rc, cmdline, out);
  }
  if (!out.empty()) std::cerr << out;
  fs::rename(tmp, exe, ec);
  if (ec) fail(ErrorKind::kIo, "cannot store {} in the build cache: {}", exe.string(), ec.message());
  return exe.string();
}

ReportFolder::ReportFolder(const char* prefix) {
  std::string tmpl = fmt::format("/tmp/{}-XXXXXX", prefix);
  if (mkdtemp(tmpl.data()) == nullptr)
    fail(ErrorKind::kIo, "cannot create a temporary folder for the report: {}", std::strerror(errno));
  path_ = tmpl;
}

ReportFolder::~ReportFolder() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void ReportFolder::export_to_child() const {
  unsetenv("WARPSCOPE_REPORT");
  setenv("WARPSCOPE_REPORT_DIR", path_.c_str(), 1);
  setenv("WARPSCOPE_ROOT_PID", std::to_string(getpid()).c_str(), 1);
}

std::string find_cudart_dir(const std::string& option) {
  std::vector<fs::path> candidates;
  if (!option.empty()) candidates.emplace_back(option);
  if (auto e = env_or("WARPSCOPE_CUDART_DIR"); !e.empty()) candidates.emplace_back(e);
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(self.parent_path().parent_path() / "lib" / "warpscope");
    candidates.push_back(self.parent_path() / "lib" / "warpscope");
  }
  for (const auto& c : candidates)
    if (fs::exists(c / "libcudart.so.13")) return fs::absolute(c).string();
  std::string looked;
  for (const auto& c : candidates) looked += "\n  " + c.string();
  fail(ErrorKind::kIo, "warpscope's libcudart.so.13 not found; looked in:{}\n(build the warpscope_cudart target, "
       "or give --cudart-dir)", looked);
}

std::string summary_text(const nlohmann::json& report, bool all_launches) {
  report::TextOptions t;
  t.all_launches = all_launches;
  return report::text_report(report, t);
}

void add_run_command(CLI::App& app, RunOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "run", "Run a CUDA program (or compile and run a .cu file) on the emulated GPU and report each kernel launch");
  cmd->add_option("--arch", o.arch, arch_option_help())
      ->capture_default_str();
  cmd->add_option("--arch-file", o.arch_file, "A profile file of your own (JSON, fields as src/arch/profiles/*.json)");
  cmd->add_option("--json", o.json_path, "Write the report (JSON, docs/report.md) to FILE");
  cmd->add_option("--html", o.html_dir, "Write the HTML report (index.html, a page per launch) into DIR");
  cmd->add_option("--compare-arch", o.compare_arch,
                  "Also run the memory models of these built-in profiles (A,B,..., names as --arch) in the same "
                  "execution and report them side by side");
  cmd->add_option("--cudart-dir", o.cudart_dir, "Directory holding warpscope's libcudart.so.13");
  cmd->add_option("--cache-dir", o.cache_dir, "Build cache for `run app.cu` (default ~/.cache/warpscope)");
  cmd->add_option("--nvcc-flags", o.nvcc_flags, "Extra nvcc flags for `run app.cu`");
  cmd->add_option("--threads", o.threads,
                  "Host threads that run CTAs (default 0: one per core). The counters are the same for any count")
      ->capture_default_str();
  cmd->add_flag("--no-stats", o.no_stats,
                "Run without the memory model: the report has instruction counts only"
#if WARPSCOPE_HAVE_JIT
                ". Launches without statistics (every one here, or those outside -k/-s/-c) run as native code "
                "compiled by the JIT (src/jit), same results and counts; WARPSCOPE_JIT=0 interprets them. The "
                "compiled code is kept in the cache directory's jit/ (WARPSCOPE_JIT_CACHE=0: not kept)"
#else
                ". This build has no JIT (LLVM 16 was not found): launches are interpreted"
#endif
                );
  cmd->add_option("--sample-ctas", o.sample_ctas,
                  "Fraction of CTAs (0 < F <= 1) whose accesses feed the memory model; every CTA still runs. "
                  "Counters are scaled and marked estimated")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--event-time", o.event_time,
                  "What cudaEventElapsedTime returns: predicted (default: the time model's GPU time of the launches "
                  "between the events, docs/time.md) or wall (the emulator's own time)")
      ->check(CLI::IsMember({"predicted", "wall"}))
      ->capture_default_str();
  cmd->add_option("--memcheck", o.memcheck,
                  "Global accesses outside every allocation: report (default: where the GPU maps the address they "
                  "proceed, each instruction's first is printed and all are counted), off (the same, not printed, still "
                  "counted), strict (the launch faults at the first)")
      ->check(CLI::IsMember({"report", "off", "strict"}))
      ->capture_default_str();
  cmd->add_option("--timeout", o.timeout,
                  "Stop a launch that runs longer than SECONDS: the report marks it incomplete with the loop its "
                  "warps are in, and warpscope exits with 124 (e.g. --timeout 30)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--quiet", o.quiet, "No notes from the runtime on stderr, and no progress line");
  cmd->add_flag("--no-summary", o.no_summary, "Do not print the per-launch summary");
  cmd->add_flag("--all-launches", o.all_launches, "One summary line per launch, however many");
  cmd->add_flag("--any-ptx", o.any_ptx, "Run PTX made for a newer GPU than the profile's (with a warning)");
  cmd->add_option("--error-exitcode", o.error_exitcode,
                  "Exit with N when memcheck reported errors (compute-sanitizer's option; 0: the program's own code)");
  cmd->add_option("--import", o.import_path,
                  "Read a report saved with --json and print it again (text, --csv, --metrics, --section, --page, "
                  "--html) without running a program");
  add_ncu_options(*cmd, o.ncu);
  // Everything from the program on is the program's: `run [options] [--] ./app args...`.
  cmd->add_option("command", o.command, "The program and its arguments (after --), or a .cu file")
      ->allow_extra_args();
  cmd->positionals_at_end(true);
  cmd->footer(run_help_footer());
  cmd->callback([&o] {
    if (!o.command.empty() && o.command.front() == "--") o.command.erase(o.command.begin());
    // `run app.cu -- args`: that -- separates the file from its arguments.
    const auto& first = o.command.empty() ? std::string() : o.command.front();
    if (first.size() > 3 && first.substr(first.size() - 3) == ".cu" && o.command.size() > 1 && o.command[1] == "--") {
      o.command.erase(o.command.begin() + 1);
    }
  });
}

int run_run(const RunOptions& o) {
  const arch::Profile profile = resolve_profile(o.arch, o.arch_file);
  if (!(o.sample_ctas > 0.0 && o.sample_ctas <= 1.0)) fail(ErrorKind::kUsage, "--sample-ctas must be in (0, 1]");
  // --compare-arch names built-in profiles; a wrong one is an error before the program runs.
  for (std::size_t start = 0; start < o.compare_arch.size();) {
    const std::size_t end = std::min(o.compare_arch.find(',', start), o.compare_arch.size());
    const std::string name = o.compare_arch.substr(start, end - start);
    if (!name.empty()) (void)arch::builtin_profile(name);
    start = end + 1;
  }
  NcuRunOptions ncu = o.ncu;
  check_ncu_options(ncu, profile);
  if (ncu.query_metrics) {
    std::cout << report::query_metrics_text() << std::flush;
    return 0;
  }
  // --log-file: checked before the program runs; warpscope's output goes there.
  std::ofstream log_stream;
  if (!ncu.log_file.empty()) {
    log_stream.open(ncu.log_file, std::ios::trunc);
    if (!log_stream) fail(ErrorKind::kIo, "--log-file {}: cannot write: {}", ncu.log_file, std::strerror(errno));
  }
  std::ostream& ncu_out = ncu.log_file.empty() ? std::cout : log_stream;
  std::ostream& summary_out = ncu.log_file.empty() ? std::cerr : log_stream;
  if (!o.import_path.empty()) {
    if (!o.command.empty()) fail(ErrorKind::kUsage, "--import {}: give no program (the report is read, not made)", o.import_path);
    std::ifstream in(o.import_path);
    if (!in) fail(ErrorKind::kIo, "--import {}: cannot read: {}", o.import_path, std::strerror(errno));
    nlohmann::json j;
    try {
      in >> j;
    } catch (const std::exception& e) {
      fail(ErrorKind::kIo, "--import {}: not a warpscope JSON report: {}", o.import_path, e.what());
    }
    if (!j.is_object() || !j.contains("launches"))
      fail(ErrorKind::kIo, "--import {}: not a warpscope JSON report (no \"launches\")", o.import_path);
    // The report's own profile, unless it is not a built-in one.
    arch::Profile reported = profile;
    if (j.contains("arch") && j["arch"].is_string()) {
      try {
        reported = arch::builtin_profile(j["arch"].get<std::string>());
      } catch (const Error&) {
      }
    }
    const std::string export_path = check_export_path(ncu);
    if (ncu.ncu_output()) {
      print_ncu_results(j, ncu, 0, fs::path(o.import_path).stem().string(), reported, ncu_out);
    } else if (!o.no_summary) {
      summary_out << summary_text(j, o.all_launches) << std::flush;
    }
    if (!o.html_dir.empty()) report::write_html_report(j, o.html_dir);
    if (!o.json_path.empty()) {
      std::ofstream out(o.json_path);
      if (!(out << j.dump(2) << "\n")) fail(ErrorKind::kIo, "--json {}: cannot write", o.json_path);
    }
    if (!export_path.empty()) (void)write_export(export_path, j, reported, 0, fs::path(o.import_path).stem().string(), {});
    return 0;
  }
  std::vector<std::string> command = o.command;
  if (command.empty()) fail(ErrorKind::kUsage, "run: no program given");
  if (command[0].size() > 3 && command[0].substr(command[0].size() - 3) == ".cu") {
    command[0] = compile_cu(command[0], profile, o.nvcc_flags, o.cache_dir);
  }
  bool any_ptx = o.any_ptx;
  if (profile.cc_major * 10 + profile.cc_minor < 75 && command[0] != o.command[0]) any_ptx = true;
  const std::string exe = resolve_executable(command[0]);
  check_program_path(exe, command[0]);
  check_report_paths(o);
  const std::string export_path = check_export_path(ncu);
  const BinaryCheck check = check_binary(exe, profile);
  if (!check.runnable) fail(ErrorKind::kUsage, "{}", check.message);
  if (!check.message.empty() && !any_ptx) fail(ErrorKind::kUsage, "{}", check.message);
  const std::string lib_dir = check.kind == BinaryCheck::Kind::kWarpscopeStatic ? "" : find_cudart_dir(o.cudart_dir);

  // Every process that uses CUDA writes its launches into this folder as they end, and its whole
  // document when it exits (src/profile/report_writer.cpp); they are merged below.
  const ReportFolder folder("warpscope-run");
  const std::string& report_dir = folder.path();
  if (!o.json_path.empty()) {
    // An old report of a previous run goes (check_report_paths made sure it is a regular file:
    // a device such as /dev/null is never removed).
    std::error_code ec;
    if (fs::is_regular_file(o.json_path, ec)) fs::remove(o.json_path, ec);
  }

  // SIGINT and SIGTERM go on to the program, which ends its run with a report (child_signals.hpp).
  ChildSignals signals;
  const pid_t pid = fork();
  if (pid < 0) fail(ErrorKind::kIo, "fork: {}", std::strerror(errno));
  if (pid == 0) {
    signals.in_child();
    if (!lib_dir.empty()) {
      const std::string old = env_or("LD_LIBRARY_PATH");
      setenv("LD_LIBRARY_PATH", (old.empty() ? lib_dir : lib_dir + ":" + old).c_str(), 1);
    }
    if (!o.arch_file.empty()) setenv("WARPSCOPE_ARCH_FILE", fs::absolute(o.arch_file).c_str(), 1);
    setenv("WARPSCOPE_ARCH", profile.name.c_str(), 1);
    if (!o.compare_arch.empty()) setenv("WARPSCOPE_COMPARE_ARCH", o.compare_arch.c_str(), 1);
    if (o.sample_ctas < 1.0) setenv("WARPSCOPE_SAMPLE_CTAS", fmt::format("{}", o.sample_ctas).c_str(), 1);
    folder.export_to_child();
    const unsigned threads = o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    setenv("WARPSCOPE_THREADS", std::to_string(threads).c_str(), 1);
    if (o.no_stats) setenv("WARPSCOPE_NO_STATS", "1", 1);
    setenv("WARPSCOPE_MEMCHECK", o.memcheck.c_str(), 1);
    setenv("WARPSCOPE_EVENT_TIME", o.event_time.c_str(), 1);
    if (o.quiet) setenv("WARPSCOPE_QUIET", "1", 1);
    if (o.timeout > 0) setenv("WARPSCOPE_TIMEOUT", fmt::format("{}", o.timeout).c_str(), 1);
    if (any_ptx) setenv("WARPSCOPE_ANY_PTX", "1", 1);
    export_ncu_environment(ncu);
    // --nvtx: NVTX 3 loads warpscope's runtime library as its injection (src/profile/nvtx.hpp).
    if (ncu.nvtx && !lib_dir.empty()) setenv("NVTX_INJECTION64_PATH", (lib_dir + "/libcudart.so.13").c_str(), 1);
    std::vector<char*> argv;
    for (auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "warpscope: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  signals.child_started(pid);
  const ChildSignals::End end = signals.wait(pid);
  const int status = end.status;
  int rc = 0;
  std::string stopped;  // said after the summary
  if (WIFEXITED(status)) {
    rc = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    // 128 + the signal, as shells report it: 130 for SIGINT, 143 for SIGTERM.
    const int sig = WTERMSIG(status);
    rc = 128 + sig;
    if (end.killed) {
      stopped = fmt::format("warpscope: {} did not stop within 5 s of {}; it was killed (SIGKILL)\n", command[0],
                            sigabbrev_np(end.signal));
    } else if (sig == SIGINT || sig == SIGTERM) {
      stopped = fmt::format("warpscope: stopped by SIG{} (exit code {})\n", sigabbrev_np(sig), rc);
    } else {
      std::fprintf(stderr, "warpscope: %s was killed by signal %d (%s)\n", command[0].c_str(), sig, strsignal(sig));
    }
  }
  std::vector<std::string> notes;
  nlohmann::json j = report::merge_process_reports(report::read_process_reports(report_dir, &notes));
  for (const auto& n : notes) std::fprintf(stderr, "warpscope: %s\n", n.c_str());
  if (j.is_null()) {
    if (!o.no_summary && rc != 127) {
      std::fprintf(stderr, "warpscope: no report from the program (it used no CUDA, or ended abruptly before its "
                           "first launch ended)\n");
    }
    std::cerr << stopped;
    return rc;
  }
  if (WIFSIGNALED(status) && !end.killed && WTERMSIG(status) != SIGINT && WTERMSIG(status) != SIGTERM) {
    std::size_t finished = j["launches"].size();
    std::fprintf(stderr, "warpscope: the report holds the %zu launch%s that finished before it ended\n", finished,
                 finished == 1 ? "" : "es");
  }
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path, std::ios::trunc);
    out << j.dump(1) << "\n";
    out.flush();
    if (!out) {
      std::fprintf(stderr, "warpscope: --json %s: the report could not be written (%s)\n", o.json_path.c_str(),
                   std::strerror(errno));
      std::cerr << stopped;
      return rc != 0 ? rc : 1;
    }
  }
  if (ncu.ncu_output()) {
    // A .cu file's program is named after the file, not its cached build (name-hash).
    const std::string shown = command[0] != o.command[0] ? o.command[0].substr(0, o.command[0].size() - 3) : exe;
    print_ncu_results(j, ncu, static_cast<long>(pid), shown, profile, ncu_out);
  } else if (!o.no_summary) {
    summary_out << summary_text(j, o.all_launches) << std::flush;
  }
  if (!export_path.empty()) {
    const std::string shown = command[0] != o.command[0] ? o.command[0].substr(0, o.command[0].size() - 3) : exe;
    const bool written = write_export(export_path, j, profile, static_cast<long>(pid), shown,
                                      std::vector<std::string>(command.begin() + 1, command.end()));
    if (!o.quiet && written) std::cerr << "warpscope: Nsight Compute report in " << export_path << "\n";
  }
  if (!o.html_dir.empty()) {
    report::write_html_report(j, o.html_dir);
    if (!o.no_summary) std::cerr << "warpscope: HTML report in " << (fs::path(o.html_dir) / "index.html").string() << "\n";
  }
  std::cerr << stopped;
  // A log file that could not take the output (a full disk, /dev/full): said, and the run fails.
  if (log_stream.is_open() && !log_stream.flush()) {
    std::fprintf(stderr, "warpscope: --log-file %s: the output could not be written (%s)\n", ncu.log_file.c_str(),
                 std::strerror(errno));
    return rc != 0 ? rc : 1;
  }
  // --error-exitcode N: memcheck's errors (accesses outside every allocation, faults) fail the run
  // with N, as compute-sanitizer's option does.
  if (o.error_exitcode != 0) {
    std::uint64_t errors = 0;
    for (const auto& l : report::array_member(j, "launches")) {
      errors += l.value("memcheck", nlohmann::json::object()).value("errors", std::uint64_t{0});
      if (l.contains("error")) ++errors;
    }
    if (errors != 0) {
      std::cerr << fmt::format("warpscope: memcheck: {} error{} (exit code {}, --error-exitcode)\n", errors,
                               errors == 1 ? "" : "s", o.error_exitcode);
      return o.error_exitcode;
    }
  }
  return rc;
}

}  // namespace warpscope::cli
