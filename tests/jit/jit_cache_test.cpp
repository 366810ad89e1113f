// The JIT's on-disk code cache (src/jit/cache.hpp): a second compiler over the same PTX loads the
// first one's object instead of compiling, with the same results; a corrupt or truncated entry is
// ignored with one line and compiled again; a directory that cannot be made means no cache, one
// line, and correct results; the cache's directory from the environment.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/segments.hpp"
#include "jit/jit.hpp"
#include "warpscope/warpscope.hpp"

namespace {

namespace fs = std::filesystem;
using warpscope::Device;
using warpscope::Dim3;
namespace jit = warpscope::jit;

// y[i] = a * x[i] + y[i] for 64 threads: one straight-line run (loads, fma, store) after the
// parameter loads.
constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry saxpy(.param .u64 px, .param .u64 py, .param .f32 a)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<7>;
  .reg .f32 %f<5>;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  ld.param.f32 %f1, [a];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r1, %r2, %r3, %r1;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.f32 %f2, [%rd6];
  add.s64 %rd6, %rd4, %rd5;
  ld.global.f32 %f3, [%rd6];
  fma.rn.f32 %f4, %f1, %f2, %f3;
  st.global.f32 [%rd6], %f4;
  ret;
}
)";

constexpr std::uint32_t kN = 64;

/// The kernel run on a fresh Device (a fresh kernel image: compiled, or loaded, again); y after it.
std::vector<float> run_saxpy() {
  Device dev;
  const warpscope::Module m = dev.load_ptx(kPtx, "saxpy.ptx");
  std::vector<float> x(kN), y(kN);
  for (std::uint32_t i = 0; i < kN; ++i) {
    x[i] = 0.25f * float(i) - 3.0f;
    y[i] = 1.0f / float(i + 1);
  }
  const warpscope::DevicePtr dx = dev.malloc(kN * 4), dy = dev.malloc(kN * 4);
  dev.copy_to_device(dx, x.data(), kN * 4);
  dev.copy_to_device(dy, y.data(), kN * 4);
  const float a = 1.75f;
  const warpscope::KernelArg args[] = {warpscope::arg(dx), warpscope::arg(dy), warpscope::arg(a)};
  dev.launch(m, "saxpy", Dim3{2, 1, 1}, Dim3{32, 1, 1}, args, 0);
  dev.copy_to_host(y.data(), dy, kN * 4);
  return y;
}

/// The interpreter's answer.
std::vector<float> interpreted() {
  warpscope::exec::set_jit_enabled(false);
  std::vector<float> y = run_saxpy();
  warpscope::exec::set_jit_enabled(true);
  return y;
}

/// A compiler of its own for the test's launches; the process's JIT again afterwards.
class Scoped {
 public:
  explicit Scoped(const jit::Options& o) : c_(jit::make_compiler(o)) {
    warpscope::exec::set_segment_compiler(c_.get());
    warpscope::exec::set_jit_enabled(true);
  }
  ~Scoped() { jit::install(); }
  Scoped(const Scoped&) = delete;
  Scoped& operator=(const Scoped&) = delete;

 private:
  std::unique_ptr<warpscope::exec::SegmentCompiler> c_;
};

/// What one compiler did for one run of the kernel: the stats' differences, stderr, the output.
struct Pass {
  jit::Stats d;
  std::string err;
  std::vector<float> y;
};
Pass pass(const jit::Options& o) {
  const jit::Stats before = jit::stats();
  Scoped s(o);
  ::testing::internal::CaptureStderr();
  Pass p;
  p.y = run_saxpy();
  p.err = ::testing::internal::GetCapturedStderr();
  const jit::Stats after = jit::stats();
  p.d.kernels = after.kernels - before.kernels;
  p.d.cache_loads = after.cache_loads - before.cache_loads;
  p.d.cache_stores = after.cache_stores - before.cache_stores;
  p.d.cache_rejects = after.cache_rejects - before.cache_rejects;
  return p;
}

/// A new empty directory under the system's temporary one.
std::string temp_dir() {
  std::string t = (fs::temp_directory_path() / "warpscope-jit-cache-XXXXXX").string();
  if (::mkdtemp(t.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return t;
}

/// The files in dir (names).
std::vector<std::string> files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}
void write(const fs::path& p, const std::string& data) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

class JitCache : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!jit::install()) GTEST_SKIP() << "no JIT in this build";
    dir_ = temp_dir();
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  jit::Options opts() const { return jit::Options{true, dir_}; }
  std::string dir_;
};

TEST_F(JitCache, SecondCompilerLoadsTheFirstOnesCode) {
  const std::vector<float> want = interpreted();
  const Pass cold = pass(opts());
  EXPECT_EQ(cold.d.kernels, 1u);
  EXPECT_EQ(cold.d.cache_loads, 0u);
  EXPECT_EQ(cold.d.cache_stores, 1u);
  EXPECT_EQ(cold.err, "");
  EXPECT_EQ(cold.y, want);
  const std::vector<std::string> names = files(dir_);
  ASSERT_EQ(names.size(), 1u);  // one entry, no temporary file left
  EXPECT_EQ(names[0].size(), 64u + 2u) << names[0];  // SHA-256 in hex, ".o"
  EXPECT_TRUE(names[0].ends_with(".o")) << names[0];

  const Pass warm = pass(opts());
  EXPECT_EQ(warm.d.kernels, 1u);
  EXPECT_EQ(warm.d.cache_loads, 1u);
  EXPECT_EQ(warm.d.cache_stores, 0u);
  EXPECT_EQ(warm.d.cache_rejects, 0u);
  EXPECT_EQ(warm.err, "");
  EXPECT_EQ(warm.y, want);
  EXPECT_EQ(files(dir_), names);
}

TEST_F(JitCache, TheObjectHoldsNoAddressOfTheInterpreter) {
  pass(opts());
  const std::vector<std::string> names = files(dir_);
  ASSERT_EQ(names.size(), 1u);
  const std::string data = read(fs::path(dir_) / names[0]);
  // The semantic functions are reached through SegFrame::call and SegFrame::code only.
  const auto addr = reinterpret_cast<std::uintptr_t>(&warpscope::exec::segment_call);
  std::string bytes(sizeof addr, '\0');
  std::memcpy(bytes.data(), &addr, sizeof addr);
  EXPECT_EQ(data.find(bytes), std::string::npos);
  EXPECT_EQ(data.substr(0, 8), "WSJITOBJ");
  EXPECT_EQ(data.substr(96, 4), "\x7f" "ELF");  // the object after the 96-byte header
}

TEST_F(JitCache, ACorruptEntryIsCompiledAgain) {
  const std::vector<float> want = interpreted();
  pass(opts());
  const std::vector<std::string> names = files(dir_);
  ASSERT_EQ(names.size(), 1u);
  const fs::path entry = fs::path(dir_) / names[0];
  std::string data = read(entry);
  data[data.size() / 2] = static_cast<char>(data[data.size() / 2] ^ 0x40);  // one bit of the object
  write(entry, data);

  const Pass again = pass(opts());
  EXPECT_EQ(again.d.cache_rejects, 1u);
  EXPECT_EQ(again.d.cache_loads, 0u);
  EXPECT_EQ(again.d.cache_stores, 1u);  // rewritten
  EXPECT_EQ(lines(again.err), 1u) << again.err;
  EXPECT_NE(again.err.find("SHA-256"), std::string::npos) << again.err;
  EXPECT_EQ(again.y, want);

  // Truncated to its header and half the object.
  data = read(entry);
  write(entry, data.substr(0, 96 + (data.size() - 96) / 2));
  const Pass cut = pass(opts());
  EXPECT_EQ(cut.d.cache_rejects, 1u);
  EXPECT_EQ(cut.d.cache_stores, 1u);
  EXPECT_EQ(lines(cut.err), 1u) << cut.err;
  EXPECT_EQ(cut.y, want);

  const Pass loaded = pass(opts());
  EXPECT_EQ(loaded.d.cache_loads, 1u);
  EXPECT_EQ(loaded.d.cache_rejects, 0u);
  EXPECT_EQ(loaded.err, "");
  EXPECT_EQ(loaded.y, want);
}

TEST_F(JitCache, ADirectoryThatCannotBeMadeMeansNoCache) {
  const std::vector<float> want = interpreted();
  // Below a regular file: no one can create it (root included).
  write(fs::path(dir_) / "file", "x");
  const jit::Options o{true, dir_ + "/file/jit"};
  const Pass first = pass(o);
  EXPECT_EQ(first.d.kernels, 1u);
  EXPECT_EQ(first.d.cache_stores, 0u);
  EXPECT_EQ(first.d.cache_loads, 0u);
  EXPECT_EQ(first.d.cache_rejects, 0u);
  EXPECT_EQ(lines(first.err), 1u) << first.err;
  EXPECT_NE(first.err.find("not cached"), std::string::npos) << first.err;
  EXPECT_EQ(first.y, want);
}

TEST_F(JitCache, OffWritesNothing) {
  const std::vector<float> want = interpreted();
  const Pass p = pass(jit::Options{false, dir_});
  EXPECT_EQ(p.d.kernels, 1u);
  EXPECT_EQ(p.d.cache_stores, 0u);
  EXPECT_EQ(p.y, want);
  EXPECT_TRUE(files(dir_).empty());
}

/// Sets (or, for nullopt, unsets) an environment variable for the scope.
class Env {
 public:
  Env(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* v = std::getenv(name)) old_ = v;
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~Env() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(JitCacheEnv, DirectoryAndSwitches) {
  // The `jit` folder of warpscope's cache directory (analysis::cache_dir's rule).
  Env a("WARPSCOPE_CACHE_DIR", "/tmp/ws-a");
  Env b("XDG_CACHE_HOME", "/tmp/xdg");
  Env c("HOME", "/home/someone");
  Env d("WARPSCOPE_JIT_CACHE", std::nullopt);
  Env q("WARPSCOPE_QUIET", std::nullopt);
  EXPECT_EQ(jit::cache_dir_from_env(), "/tmp/ws-a/jit");
  EXPECT_TRUE(jit::options_from_env().cache);
  EXPECT_TRUE(jit::options_from_env().notes);
  {
    Env off("WARPSCOPE_JIT_CACHE", "0");
    EXPECT_FALSE(jit::options_from_env().cache);
    EXPECT_EQ(jit::options_from_env().cache_dir, "/tmp/ws-a/jit");
  }
  {
    Env on("WARPSCOPE_JIT_CACHE", "1");
    EXPECT_TRUE(jit::options_from_env().cache);
  }
  {
    Env quiet("WARPSCOPE_QUIET", "1");
    EXPECT_FALSE(jit::options_from_env().notes);
  }
  {
    Env none("WARPSCOPE_CACHE_DIR", std::nullopt);
    EXPECT_EQ(jit::cache_dir_from_env(), "/tmp/xdg/warpscope/jit");
    Env no_xdg("XDG_CACHE_HOME", std::nullopt);
    EXPECT_EQ(jit::cache_dir_from_env(), "/home/someone/.cache/warpscope/jit");
    Env no_home("HOME", std::nullopt);
    EXPECT_EQ(jit::cache_dir_from_env(), "/tmp/.cache/warpscope/jit");
  }
}

TEST_F(JitCache, QuietMeansNoNotes) {
  write(fs::path(dir_) / "file", "x");
  const Pass p = pass(jit::Options{true, dir_ + "/file/jit", false});
  EXPECT_EQ(p.d.kernels, 1u);
  EXPECT_EQ(p.err, "");
}

}  // namespace
