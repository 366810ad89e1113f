#include "analysis/ptxas.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.hpp"

extern char** environ;

namespace warpscope::analysis::ptxas {
namespace {

namespace fs = std::filesystem;

// ---- Text helpers: every one is total (no out-of-range access, no exceptions). ----------------

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// Removes `prefix` from the front of `s` when it is there.
bool consume(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

/// A leading decimal number and what follows it (trimmed); nullopt when there is none or it
/// does not fit in 64 bits.
std::optional<std::uint64_t> leading_number(std::string_view& s) {
  std::uint64_t v = 0;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr == first) return std::nullopt;
  s = trim(s.substr(static_cast<std::size_t>(ptr - first)));
  return v;
}

/// The text between the first pair of single quotes at or after `from`; nullopt if none.
std::optional<std::string_view> quoted(std::string_view s, std::size_t from = 0) {
  const auto open = s.find('\'', from);
  if (open == std::string_view::npos) return std::nullopt;
  const auto close = s.find('\'', open + 1);
  if (close == std::string_view::npos) return std::nullopt;
  return s.substr(open + 1, close - open - 1);
}

int clamp_int(std::uint64_t v) { return v > 0x7fffffffu ? 0x7fffffff : static_cast<int>(v); }

/// "cmem[3]" -> 3.
std::optional<int> cmem_bank(std::string_view unit) {
  if (!consume(unit, "cmem[") || unit.empty() || unit.back() != ']') return std::nullopt;
  unit.remove_suffix(1);
  std::string_view digits = unit;
  auto bank = leading_number(digits);
  if (!bank || !digits.empty() || *bank > 1000) return std::nullopt;
  return static_cast<int>(*bank);
}

/// One comma-separated item of a "Used ..." or "N bytes stack frame, ..." line, applied to `f`.
/// Items it does not know (textures, samplers, surfaces) are ignored.
void apply_function_item(std::string_view item, FunctionUsage& f) {
  item = trim(item);
  if (consume(item, "Used ") || consume(item, "used ")) item = trim(item);
  auto n = leading_number(item);
  if (!n) return;
  if (item == "registers" || item == "register") f.registers = clamp_int(*n);
  else if (item == "barriers" || item == "barrier") f.barriers = clamp_int(*n);
  else if (consume(item, "bytes ")) {
    item = trim(item);
    if (item == "stack frame") f.stack_frame_bytes = *n;
    else if (item == "spill stores") f.spill_store_bytes = *n;
    else if (item == "spill loads") f.spill_load_bytes = *n;
    else if (item == "cumulative stack size") f.cumulative_stack_bytes = *n;
    else if (item == "smem") f.shared_bytes = *n;
    else if (item == "lmem") f.lmem_bytes = *n;
    else if (auto bank = cmem_bank(item)) f.const_bank_bytes[*bank] = *n;
  }
}

template <class Fn>
void for_each_item(std::string_view list, Fn&& fn) {
  while (true) {
    const auto comma = list.find(',');
    fn(list.substr(0, comma));
    if (comma == std::string_view::npos) return;
    list.remove_prefix(comma + 1);
  }
}

/// "ptxas info    : message" -> ("info", "message"); nullopt for other lines.
struct Tagged {
  std::string_view kind, message;
};
std::optional<Tagged> split_tag(std::string_view line) {
  if (!consume(line, "ptxas")) return std::nullopt;
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return Tagged{trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

class Parser {
 public:
  Usage run(std::string_view text) {
    while (!text.empty()) {
      const auto nl = text.find('\n');
      line(text.substr(0, nl));
      if (nl == std::string_view::npos) break;
      text.remove_prefix(nl + 1);
    }
    return std::move(u_);
  }

 private:
  Usage u_;
  std::unordered_map<std::string, std::size_t> index_;
  std::optional<std::size_t> current_;     // the function "Used ..." lines describe
  std::optional<std::size_t> properties_;  // the function the next "N bytes stack frame" line describes

  std::size_t function(std::string_view name) {
    auto [it, inserted] = index_.try_emplace(std::string(name), u_.functions.size());
    if (inserted) {
      u_.functions.emplace_back();
      u_.functions.back().name = std::string(name);
    }
    return it->second;
  }

  void unparsed(std::string_view l) { u_.unparsed.emplace_back(l); }

  void line(std::string_view raw) {
    const std::string_view l = trim(raw);
    if (l.empty()) return;
    if (auto t = split_tag(l)) {
      if (t->kind == "info") info(t->message, l);
      else if (t->kind == "warning") warning(t->message);
      else if (t->kind == "error" || t->kind == "fatal") u_.errors.emplace_back(t->message);
      else unparsed(l);
      return;
    }
    // An indented continuation: "N bytes stack frame, N bytes spill stores, N bytes spill loads".
    if (properties_ && l.find("bytes stack frame") != std::string_view::npos) {
      FunctionUsage& f = u_.functions[*properties_];
      for_each_item(l, [&](std::string_view item) { apply_function_item(item, f); });
      properties_.reset();
      return;
    }
    unparsed(l);
  }

  void info(std::string_view m, std::string_view l) {
    std::string_view rest = m;
    if (consume(rest, "Compiling entry function ") || consume(rest, "Compiling function ")) {
      const bool entry = m.starts_with("Compiling entry ");
      auto name = quoted(rest);
      if (!name || name->empty()) return unparsed(l);
      const std::size_t i = function(*name);
      FunctionUsage& f = u_.functions[i];
      f.entry = f.entry || entry;
      const auto for_at = rest.find(" for ", name->size());
      if (for_at != std::string_view::npos) {
        if (auto target = quoted(rest, for_at)) f.target = std::string(*target);
      }
      current_ = i;
      properties_.reset();
      return;
    }
    if (consume(rest, "Function properties for ")) {
      rest = trim(rest);
      if (auto q = quoted(rest)) rest = *q;
      if (rest.empty()) return unparsed(l);
      const std::size_t i = function(rest);
      current_ = i;
      properties_ = i;
      return;
    }
    if (rest.starts_with("Used ")) {
      if (!current_) return unparsed(l);
      FunctionUsage& f = u_.functions[*current_];
      for_each_item(rest, [&](std::string_view item) { apply_function_item(item, f); });
      return;
    }
    if (rest.find("bytes gmem") != std::string_view::npos) {
      for_each_item(rest, [&](std::string_view item) {
        item = trim(item);
        auto n = leading_number(item);
        if (!n || !consume(item, "bytes ")) return;
        item = trim(item);
        if (item == "gmem") u_.gmem_bytes = *n;
        else if (auto bank = cmem_bank(item)) u_.module_const_bank_bytes[*bank] = *n;
      });
      return;
    }
    if (consume(rest, "Compile time")) return;
    unparsed(l);
  }

  void warning(std::string_view m) {
    u_.warnings.emplace_back(m);
    // The function a warning is about: "... function 'NAME' ..." or "... entry NAME ...". Other
    // warnings (options, module-wide) stay in Usage::warnings only.
    std::optional<std::string_view> name;
    if (const auto at = m.find("function '"); at != std::string_view::npos) {
      name = quoted(m, at);
    } else if (const auto e = m.find("entry "); e != std::string_view::npos) {
      std::string_view rest = trim(m.substr(e + 6));
      rest = rest.substr(0, rest.find_first_of(" ,"));
      if (rest.size() >= 2 && rest.front() == '\'' && rest.back() == '\'') rest = rest.substr(1, rest.size() - 2);
      name = rest;
    }
    if (!name || name->empty()) return;
    FunctionUsage& f = u_.functions[function(*name)];
    f.warnings.emplace_back(m);
    if (m.starts_with("Local memory used for function")) {
      const auto at = m.find("size of stack frame:");
      if (at != std::string_view::npos) {
        std::string_view num = trim(m.substr(at + 20));
        if (auto n = leading_number(num)) f.lmem_warning_frame_bytes = *n;
      }
      if (!f.lmem_warning_frame_bytes) f.lmem_warning_frame_bytes = 0;
    } else if (m.starts_with("Registers are spilled to local memory")) {
      f.spill_warning = true;
    }
  }
};

// ---- Running ptxas -----------------------------------------------------------------------------

std::string env_or(const char* name, const char* fallback = "") {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : std::string(fallback);
}

bool is_executable_file(const std::string& p) {
  struct stat st {};
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

bool valid_target(std::string_view t) {
  if (!consume(t, "sm_") || t.empty()) return false;
  if (t.back() == 'a' || t.back() == 'f') t.remove_suffix(1);
  if (t.empty() || t.size() > 4) return false;
  for (char c : t)
    if (c < '0' || c > '9') return false;
  return true;
}

/// Runs argv[0] with argv (no shell), stdin from /dev/null, stdout and stderr together into
/// `output`. Returns the wait status.
int spawn_capture(const std::vector<std::string>& argv, std::string& output) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail(ErrorKind::kIo, "ptxas: pipe: {}", std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    fail(ErrorKind::kIo, "cannot run {}: {}", argv[0], std::strerror(rc));
  }
  char buf[4096];
  while (true) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) output.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) fail(ErrorKind::kIo, "{}: waitpid: {}", argv[0], std::strerror(errno));
  }
  return status;
}

/// Removes a file when it goes out of scope.
struct TempFile {
  std::string path;
  ~TempFile() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

std::string write_temp_ptx(std::string_view ptx) {
  std::string tmpl = env_or("TMPDIR", "/tmp") + "/warpscope-ptxas-XXXXXX.ptx";
  const int fd = ::mkstemps(tmpl.data(), 4);
  if (fd < 0) fail(ErrorKind::kIo, "cannot create a temporary file for ptxas ({}): {}", tmpl, std::strerror(errno));
  std::size_t done = 0;
  while (done < ptx.size()) {
    const ssize_t n = ::write(fd, ptx.data() + done, ptx.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      fail(ErrorKind::kIo, "cannot write {}: {}", tmpl, std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return tmpl;
}

constexpr std::string_view kCacheMagic = "warpscope ptxas cache 1";

/// The cache file's first line: it repeats part of the key so that a hash collision is noticed.
std::string cache_header(std::string_view target, std::size_t ptx_bytes) {
  return fmt::format("{} {} {}\n", kCacheMagic, target, ptx_bytes);
}

std::optional<std::string> read_cache(const fs::path& file, const std::string& header) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.compare(0, header.size(), header) != 0) return std::nullopt;
  return text.substr(header.size());
}

void write_cache(const fs::path& dir, const fs::path& file, const std::string& content) {
  static std::atomic<unsigned> counter{0};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  const fs::path tmp = file.string() + fmt::format(".tmp{}.{}", ::getpid(), counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

const std::vector<std::string>& ptxas_flags() {
  static const std::vector<std::string>& flags =
      *new std::vector<std::string>{"-v", "-warn-lmem-usage", "-warn-spills"};  // never destroyed
  return flags;
}

}  // namespace

const FunctionUsage* Usage::find(std::string_view name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

Usage parse(std::string_view text) { return Parser().run(text); }

SearchPaths SearchPaths::from_environment() {
  SearchPaths s;
  s.cuda_home = env_or("CUDA_HOME");
  s.path = env_or("PATH");
  return s;
}

Located find_ptxas(const SearchPaths& where) {
  std::vector<std::string> looked;
  if (!where.cuda_home.empty()) {
    const std::string p = where.cuda_home + "/bin/ptxas";
    if (is_executable_file(p)) return {p, ""};
    looked.push_back(p);
  } else {
    looked.emplace_back("$CUDA_HOME/bin (CUDA_HOME is not set)");
  }
  std::string_view path = where.path;
  bool any_dir = false;
  while (!path.empty()) {
    const auto colon = path.find(':');
    const std::string_view dir = path.substr(0, colon);
    const std::string p = std::string(dir.empty() ? "." : dir) + "/ptxas";
    if (is_executable_file(p)) return {p, ""};
    any_dir = true;
    if (colon == std::string_view::npos) break;
    path.remove_prefix(colon + 1);
  }
  looked.emplace_back(any_dir ? "every PATH directory" : "PATH (empty)");
  if (!where.fallback.empty()) {
    if (is_executable_file(where.fallback)) return {where.fallback, ""};
    looked.push_back(where.fallback);
  }
  std::string reason = "ptxas not found (looked at ";
  for (std::size_t i = 0; i < looked.size(); ++i) reason += (i ? ", " : "") + looked[i];
  return {"", reason + "); install the CUDA toolkit or set CUDA_HOME"};
}

std::string cache_dir() {
  std::string dir = env_or("WARPSCOPE_CACHE_DIR");
  if (!dir.empty()) return dir;
  const std::string xdg = env_or("XDG_CACHE_HOME");
  if (!xdg.empty()) return xdg + "/warpscope";
  return env_or("HOME", "/tmp") + "/.cache/warpscope";
}

std::uint64_t fnv1a64(std::string_view data, std::uint64_t h) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;  // the 64-bit FNV prime
  }
  return h;
}

Result analyze(std::string_view ptx, std::string_view target, const Options& options) {
  if (!valid_target(target))
    fail(ErrorKind::kUsage, "ptxas target '{}' is not of the form sm_<number> (e.g. sm_90)", target);
  Result r;
  if (options.ptxas.empty()) {
    const Located found = find_ptxas();
    if (!found.found()) {
      r.unavailable_reason = found.reason;
      return r;
    }
    r.ptxas_path = found.path;
  } else {
    if (!is_executable_file(options.ptxas)) {
      r.unavailable_reason = fmt::format("{} is not an executable file", options.ptxas);
      return r;
    }
    r.ptxas_path = options.ptxas;
  }
  r.available = true;

  // The key: this ptxas (path, size, modification time), the target, the flags and the PTX.
  struct stat st {};
  ::stat(r.ptxas_path.c_str(), &st);
  std::string key_text = fmt::format("ptxas {}\nsize {}\nmtime {}.{}\ntarget {}\n", r.ptxas_path,
                                     static_cast<long long>(st.st_size), static_cast<long long>(st.st_mtim.tv_sec),
                                     static_cast<long long>(st.st_mtim.tv_nsec), target);
  for (const auto& f : ptxas_flags()) key_text += f + "\n";
  if (options.cubin) key_text += "-lineinfo\ncubin\n";
  if (options.compile_only) key_text += "--compile-only\n";
  std::uint64_t h = fnv1a64(key_text);
  h = fnv1a64("\nptx\n", h);
  h = fnv1a64(ptx, h);
  const fs::path dir = options.cache_dir.empty() ? fs::path(cache_dir()) / "ptxas" : fs::path(options.cache_dir);
  const fs::path file = dir / fmt::format("{:016x}.txt", h);
  const fs::path cubin_file = dir / fmt::format("{:016x}.cubin", h);
  const std::string header = cache_header(target, ptx.size());
  auto read_cubin_file = [&](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return false;
    r.cubin.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !r.cubin.empty();
  };
  if (options.use_cache) {
    if (auto cached = read_cache(file, header); cached && (!options.cubin || read_cubin_file(cubin_file))) {
      r.from_cache = true;
      r.output = std::move(*cached);
      r.usage = parse(r.output);
      return r;
    }
  }

  TempFile input{write_temp_ptx(ptx)};
  std::vector<std::string> argv = {r.ptxas_path, fmt::format("-arch={}", target)};
  for (const auto& f : ptxas_flags()) argv.push_back(f);
  // The cubin goes to a temporary file next to the PTX, then into the cache.
  const std::string cubin_out = input.path + ".cubin";
  TempFile cubin_tmp{options.cubin ? cubin_out : std::string()};  // removed on every way out
  if (options.cubin) argv.push_back("-lineinfo");
  if (options.compile_only) argv.push_back("--compile-only");
  argv.insert(argv.end(), {"-o", options.cubin ? cubin_out : std::string("/dev/null"), input.path});
  const int status = spawn_capture(argv, r.output);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string how = WIFEXITED(status) ? fmt::format("exit {}", WEXITSTATUS(status))
                                              : fmt::format("signal {}", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    fail(ErrorKind::kIo, "ptxas -arch={} failed ({}): {}", target, how, trim(r.output));
  }
  r.usage = parse(r.output);
  if (options.cubin) {
    if (!read_cubin_file(cubin_out)) fail(ErrorKind::kIo, "ptxas -arch={} wrote no cubin at {}", target, cubin_out);
    if (options.use_cache) write_cache(dir, cubin_file, std::string(r.cubin.begin(), r.cubin.end()));
  }
  if (options.use_cache) write_cache(dir, file, header + r.output);
  return r;
}

}  // namespace warpscope::analysis::ptxas
