// ptxas resource usage (src/analysis/ptxas.hpp): the parser on ptxas -v output captured on an
// H100 machine (nvcc 13.0.88, tests/hw/data/h100/), on malformed and truncated text, the search
// for ptxas, the cache, and the real ptxas on kernels nvcc compiled at build time
// (kernels/ptxas_kernels.cu).
#include "analysis/ptxas.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "warpscope/error.hpp"

namespace ptxas = warpscope::analysis::ptxas;
namespace fs = std::filesystem;
using ptxas::FunctionUsage;
using ptxas::Usage;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  EXPECT_TRUE(in.good()) << p;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

fs::path h100(const std::string& name) { return fs::path(WARPSCOPE_SOURCE_DIR) / "tests/hw/data/h100" / name; }

const FunctionUsage& fn(const Usage& u, const std::string& name) {
  const FunctionUsage* f = u.find(name);
  if (f == nullptr) {
    ADD_FAILURE() << "no function " << name;
    static const FunctionUsage none;
    return none;
  }
  return *f;
}

/// A fresh directory under the build tree, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::path(WARPSCOPE_BINARY_DIR) / "tests/analysis" /
           ("ptxas_tmp_" + std::to_string(getpid()) + "_" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

/// A stand-in ptxas: a shell script that records its arguments and prints `output`.
fs::path fake_ptxas(const fs::path& dir, const std::string& output, int exit_code = 0) {
  fs::create_directories(dir);
  const fs::path exe = dir / "ptxas";
  std::ofstream out(exe);
  out << "#!/bin/sh\n"
      << "echo \"$@\" >> '" << (dir / "args.txt").string() << "'\n"
      << "cat <<'WS_EOF' >&2\n" << output << "WS_EOF\n"
      << "exit " << exit_code << "\n";
  out.close();
  fs::permissions(exe, fs::perms::owner_all);
  return exe;
}

constexpr const char* kPtx = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// Environment variable set for the scope of a test.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const char* n, const char* value) : name(n) {
    if (const char* v = std::getenv(n)) old = v;
    if (value) ::setenv(n, value, 1);
    else ::unsetenv(n);
  }
  ~ScopedEnv() {
    if (old) ::setenv(name.c_str(), old->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

}  // namespace

// ---- The parser on real output -------------------------------------------------------------------

TEST(PtxasParse, LocalArraysExample) {
  const Usage u = ptxas::parse(slurp(h100("examples/local_arrays_ptxas.txt")));
  EXPECT_TRUE(u.unparsed.empty());
  EXPECT_TRUE(u.warnings.empty());
  EXPECT_EQ(u.gmem_bytes, 0u);
  ASSERT_EQ(u.functions.size(), 5u);
  // "_Z7kernel3Pfi ... 24 bytes stack frame ... Used 31 registers, used 0 barriers, 24 bytes cumulative stack size"
  const FunctionUsage& k3 = fn(u, "_Z7kernel3Pfi");
  EXPECT_TRUE(k3.entry);
  EXPECT_EQ(k3.target, "sm_90");
  EXPECT_EQ(k3.registers, 31);
  EXPECT_EQ(k3.barriers, 0);
  EXPECT_EQ(k3.stack_frame_bytes, 24u);
  EXPECT_EQ(k3.spill_store_bytes, 0u);
  EXPECT_EQ(k3.spill_load_bytes, 0u);
  EXPECT_EQ(k3.cumulative_stack_bytes, 24u);
  EXPECT_EQ(k3.shared_bytes, 0u);
  const FunctionUsage& k4 = fn(u, "_Z7kernel4Pf");
  EXPECT_EQ(k4.registers, 14);
  EXPECT_EQ(k4.stack_frame_bytes, 24u);
  EXPECT_EQ(k4.cumulative_stack_bytes, 24u);
  EXPECT_EQ(fn(u, "_Z7kernel2Pf").registers, 9);
  EXPECT_EQ(fn(u, "_Z7kernel2Pf").stack_frame_bytes, 0u);
  EXPECT_EQ(fn(u, "_Z7kernel1Pf").registers, 10);
  EXPECT_EQ(fn(u, "_Z3lapPf").registers, 16);
  EXPECT_EQ(fn(u, "_Z3lapPf").cumulative_stack_bytes, 0u);
  // In order of first mention.
  EXPECT_EQ(u.functions[0].name, "_Z3lapPf");
  EXPECT_EQ(u.functions[4].name, "_Z7kernel1Pf");
}

TEST(PtxasParse, RuntimeProbeSpillsAndSharedMemory) {
  const Usage u = ptxas::parse(slurp(h100("runtime_probe_ptxas.txt")));
  EXPECT_TRUE(u.unparsed.empty());
  ASSERT_EQ(u.functions.size(), 13u);
  // "48 bytes stack frame, 72 bytes spill stores, 76 bytes spill loads"
  // "Used 96 registers, used 0 barriers, 48 bytes cumulative stack size"
  const FunctionUsage& r96 = fn(u, "_Z11regs_kernelILi96EEvPKfPfi");
  EXPECT_EQ(r96.registers, 96);
  EXPECT_EQ(r96.stack_frame_bytes, 48u);
  EXPECT_EQ(r96.spill_store_bytes, 72u);
  EXPECT_EQ(r96.spill_load_bytes, 76u);
  EXPECT_EQ(r96.cumulative_stack_bytes, 48u);
  const FunctionUsage& r40 = fn(u, "_Z11regs_kernelILi40EEvPKfPfi");
  EXPECT_EQ(r40.registers, 40);
  EXPECT_EQ(r40.stack_frame_bytes, 72u);
  EXPECT_EQ(r40.spill_store_bytes, 148u);
  EXPECT_EQ(r40.spill_load_bytes, 152u);
  const FunctionUsage& r32 = fn(u, "_Z11regs_kernelILi32EEvPKfPfi");
  EXPECT_EQ(r32.registers, 32);
  EXPECT_EQ(r32.stack_frame_bytes, 136u);
  EXPECT_EQ(r32.spill_store_bytes, 340u);
  EXPECT_EQ(r32.spill_load_bytes, 344u);
  EXPECT_EQ(fn(u, "_Z11regs_kernelILi255EEvPKfPfi").registers, 102);
  EXPECT_EQ(fn(u, "_Z11regs_kernelILi255EEvPKfPfi").spill_store_bytes, 0u);
  EXPECT_EQ(fn(u, "_Z11regs_kernelILi72EEvPKfPfi").registers, 66);
  // "Used 21 registers, used 1 barriers, 16384 bytes smem"
  const FunctionUsage& smem = fn(u, "_Z23regs_static_smem_kernelILi128EEvPKfPfi");
  EXPECT_EQ(smem.registers, 21);
  EXPECT_EQ(smem.barriers, 1);
  EXPECT_EQ(smem.shared_bytes, 16384u);
  EXPECT_EQ(smem.stack_frame_bytes, 0u);
  // "ptxas warning : For entry _Z11regs_kernelILi16EEvPKfPfi adjusting per thread register count
  // of 16 to lower bound of 24": attached to that kernel, which then uses 24.
  ASSERT_EQ(u.warnings.size(), 1u);
  const FunctionUsage& r16 = fn(u, "_Z11regs_kernelILi16EEvPKfPfi");
  ASSERT_EQ(r16.warnings.size(), 1u);
  EXPECT_EQ(r16.warnings[0],
            "For entry _Z11regs_kernelILi16EEvPKfPfi adjusting per thread register count of 16 to lower bound of 24");
  EXPECT_EQ(r16.registers, 24);
  EXPECT_EQ(r16.stack_frame_bytes, 184u);
  EXPECT_EQ(r16.spill_store_bytes, 504u);
  EXPECT_EQ(r16.spill_load_bytes, 508u);
  EXPECT_FALSE(r16.spill_warning);  // nvcc -Xptxas -v alone: no -warn-spills
  EXPECT_TRUE(r16.entry);
}

TEST(PtxasParse, PatternsProbe) {
  const Usage u = ptxas::parse(slurp(h100("patterns_ptxas.txt")));
  EXPECT_TRUE(u.unparsed.empty());
  EXPECT_EQ(u.functions.size(), 20u);
  const FunctionUsage& la = fn(u, "_Z11local_arrayI4int4Li16EEvPKiPT_i");
  EXPECT_EQ(la.registers, 18);
  EXPECT_EQ(la.stack_frame_bytes, 256u);
  EXPECT_EQ(la.cumulative_stack_bytes, 256u);
  EXPECT_EQ(fn(u, "_Z11local_arrayIiLi16EEvPKiPT_i").stack_frame_bytes, 64u);
  const FunctionUsage& s4 = fn(u, "_Z13shared_strideI4int4EvPT_i");
  EXPECT_EQ(s4.registers, 18);
  EXPECT_EQ(s4.barriers, 1);
  EXPECT_EQ(s4.shared_bytes, 16384u);
  EXPECT_EQ(fn(u, "_Z13shared_strideI4int2EvPT_i").shared_bytes, 8192u);
  EXPECT_EQ(fn(u, "_Z13shared_strideIiEvPT_i").shared_bytes, 4096u);
  EXPECT_EQ(fn(u, "_Z12load_defaultIhEvPKT_PS0_xxxx").registers, 20);
}

TEST(PtxasParse, EveryCapturedFile) {
  // Every kernel of every capture: an sm_90 entry with its registers, and nothing unrecognised.
  const std::pair<const char*, int> files[] = {
      {"examples/aos_soa_ptxas.txt", 2},        {"examples/local_arrays_ptxas.txt", 5},
      {"examples/misaligned_copy_ptxas.txt", 2}, {"examples/nbody_ptxas.txt", 5},
      {"examples/padding2d_ptxas.txt", 1},      {"examples/saxpy_ptxas.txt", 5},
      {"patterns_ptxas.txt", 20},               {"runtime_probe_ptxas.txt", 13}};
  for (const auto& [file, count] : files) {
    const Usage u = ptxas::parse(slurp(h100(file)));
    EXPECT_TRUE(u.unparsed.empty()) << file << ": " << (u.unparsed.empty() ? "" : u.unparsed[0]);
    EXPECT_TRUE(u.errors.empty()) << file;
    EXPECT_EQ(u.functions.size(), static_cast<std::size_t>(count)) << file;
    for (const auto& f : u.functions) {
      EXPECT_TRUE(f.entry) << file << " " << f.name;
      EXPECT_EQ(f.target, "sm_90") << file << " " << f.name;
      EXPECT_GT(f.registers, 0) << file << " " << f.name;
    }
  }
  const Usage nbody = ptxas::parse(slurp(h100("examples/nbody_ptxas.txt")));
  EXPECT_EQ(fn(nbody, "_Z16integrate_sharedP6float4S0_S0_S0_if").registers, 32);
  EXPECT_EQ(fn(nbody, "_Z16integrate_sharedP6float4S0_S0_S0_if").barriers, 1);
  EXPECT_EQ(fn(nbody, "_Z9integrateI6float4EvPT_S2_S2_S2_if").registers, 34);
  const Usage aos = ptxas::parse(slurp(h100("examples/aos_soa_ptxas.txt")));
  EXPECT_EQ(fn(aos, "_Z9scale_soa6pointsfi").registers, 20);
  EXPECT_EQ(fn(aos, "_Z9scale_aosP5pointfi").registers, 14);
  EXPECT_EQ(fn(ptxas::parse(slurp(h100("examples/padding2d_ptxas.txt"))), "_Z7add_onePfiii").registers, 8);
}

// ptxas 13.0.88 -arch=sm_90 -v -warn-lmem-usage -warn-spills on kernels/ptxas_kernels.cu (abridged).
constexpr const char* kWarnings =
    "ptxas warning : Local memory used for function '_Z5callsPfi', size of stack frame: 64 bytes\n"
    "ptxas warning : Local memory used for function '_Z5spillPKfPfi', size of stack frame: 432 bytes\n"
    "ptxas warning : Registers are spilled to local memory in function '_Z5spillPKfPfi', 812 bytes spill "
    "stores, 812 bytes spill loads\n"
    "ptxas info    : 64 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z5callsPfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5callsPfi\n"
    "    64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 26 registers, used 1 barriers, 64 bytes cumulative stack size, 1024 bytes smem\n"
    "ptxas info    : Compile time = 17.809 ms\n"
    "ptxas info    : Function properties for _Z6helperPfi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function '_Z5spillPKfPfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5spillPKfPfi\n"
    "    432 bytes stack frame, 812 bytes spill stores, 812 bytes spill loads\n"
    "ptxas info    : Used 64 registers, used 0 barriers, 432 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 225.394 ms\n";

TEST(PtxasParse, WarningsAndNonInlinedFunctions) {
  const Usage u = ptxas::parse(kWarnings);
  EXPECT_TRUE(u.unparsed.empty());
  EXPECT_EQ(u.gmem_bytes, 64u);
  EXPECT_EQ(u.warnings.size(), 3u);
  ASSERT_EQ(u.functions.size(), 3u);
  const FunctionUsage& calls = fn(u, "_Z5callsPfi");
  EXPECT_TRUE(calls.entry);
  EXPECT_EQ(calls.registers, 26);
  EXPECT_EQ(calls.barriers, 1);
  EXPECT_EQ(calls.shared_bytes, 1024u);
  EXPECT_EQ(calls.stack_frame_bytes, 64u);
  EXPECT_EQ(calls.lmem_warning_frame_bytes, std::optional<std::uint64_t>(64));
  EXPECT_FALSE(calls.spill_warning);
  // The .func: properties, but no "Used" line of its own (the entry's line is not its).
  const FunctionUsage& helper = fn(u, "_Z6helperPfi");
  EXPECT_FALSE(helper.entry);
  EXPECT_EQ(helper.registers, -1);
  EXPECT_EQ(helper.target, "");
  EXPECT_EQ(helper.stack_frame_bytes, 0u);
  const FunctionUsage& spill = fn(u, "_Z5spillPKfPfi");
  EXPECT_EQ(spill.registers, 64);
  EXPECT_EQ(spill.stack_frame_bytes, 432u);
  EXPECT_EQ(spill.spill_store_bytes, 812u);
  EXPECT_EQ(spill.spill_load_bytes, 812u);
  EXPECT_TRUE(spill.spill_warning);
  EXPECT_EQ(spill.lmem_warning_frame_bytes, std::optional<std::uint64_t>(432));
  EXPECT_EQ(spill.warnings.size(), 2u);
}

TEST(PtxasParse, ConstantBanksOfOlderPtxas) {
  // The layout ptxas printed before CUDA 13 (constant banks per function and per module, lmem).
  const Usage u = ptxas::parse(
      "ptxas info    : 0 bytes gmem, 24 bytes cmem[3]\n"
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_52'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 8 registers, 16 bytes lmem, 328 bytes cmem[0], 4 bytes cmem[2], 1 textures\n");
  EXPECT_TRUE(u.unparsed.empty());
  EXPECT_EQ(u.module_const_bank_bytes.at(3), 24u);
  const FunctionUsage& k = fn(u, "_Z1kPf");
  EXPECT_EQ(k.target, "sm_52");
  EXPECT_EQ(k.registers, 8);
  EXPECT_EQ(k.lmem_bytes, 16u);
  EXPECT_EQ(k.const_bank_bytes.at(0), 328u);
  EXPECT_EQ(k.const_bank_bytes.at(2), 4u);
  EXPECT_EQ(k.stack_frame_bytes, 8u);
  EXPECT_EQ(k.spill_store_bytes, 4u);
}

TEST(PtxasParse, ErrorsAndUnknownLines) {
  const Usage u = ptxas::parse(
      "ptxas fatal   : SM version specified by .target is higher than default SM version assumed\n"
      "ptxas error   : Entry function 'x' uses too much shared data\n"
      "something else\r\n"
      "ptxas info    : a message this parser does not know\n"
      "ptxas unknown : kind\n\n   \n");
  EXPECT_EQ(u.errors.size(), 2u);
  EXPECT_EQ(u.errors[0], "SM version specified by .target is higher than default SM version assumed");
  EXPECT_EQ(u.unparsed.size(), 3u);
  EXPECT_EQ(u.unparsed[0], "something else");
  EXPECT_TRUE(u.functions.empty());
  // A warning that names no function is kept, attached to none.
  const Usage w = ptxas::parse("ptxas warning : Unknown option value 'x'\n"
                               "ptxas warning : Value of threads per SM for entry _Z1kv is out of range\n");
  EXPECT_EQ(w.warnings.size(), 2u);
  ASSERT_EQ(w.functions.size(), 1u);
  EXPECT_EQ(w.functions[0].name, "_Z1kv");
  EXPECT_EQ(w.functions[0].warnings.size(), 1u);
}

TEST(PtxasParse, MalformedLinesDoNotCrash) {
  const char* lines[] = {
      "ptxas info    : Used",
      "ptxas info    : Used 99999999999999999999999999 registers",
      "ptxas info    : Used 4294967296 registers, used 99999999999 barriers",
      "ptxas info    : Used -3 registers, , ,,",
      "ptxas info    : Function properties for",
      "ptxas info    : Function properties for ''",
      "ptxas info    : Compiling entry function '",
      "ptxas info    : Compiling entry function 'abc",
      "ptxas info    : Compiling entry function '' for 'sm_90'",
      "ptxas info    : Compiling entry function 'x' for '",
      "ptxas warning : '",
      "ptxas warning : For entry ",
      "ptxas warning : For entry",
      "ptxas warning : Local memory used for function 'f', size of stack frame:",
      "ptxas warning : Local memory used for function 'f'",
      "ptxas info    : bytes gmem, x bytes cmem[, 3 bytes cmem[99999999999999999999], 3 bytes cmem[]",
      "    12 bytes stack frame",
      "    bytes stack frame, 12",
      "ptxas",
      "ptxas :",
      ":",
      "'",
      "ptxas info    : 12 bytes gmem, 4 bytes cmem[",
  };
  for (const char* l : lines) {
    std::string text = std::string("ptxas info    : Compiling entry function 'k' for 'sm_90'\n") + l + "\n";
    EXPECT_NO_THROW(ptxas::parse(text)) << l;
    EXPECT_NO_THROW(ptxas::parse(l)) << l;
  }
  const Usage u = ptxas::parse("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                               "ptxas info    : Used 99999999999999999999999999 registers, used 7 barriers\n");
  EXPECT_EQ(fn(u, "k").registers, -1);  // a number that does not fit is not taken
  EXPECT_EQ(fn(u, "k").barriers, 7);
  const Usage v = ptxas::parse("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                               "ptxas info    : Used 4294967296 registers\n");
  EXPECT_EQ(fn(v, "k").registers, 0x7fffffff);
}

TEST(PtxasParse, TruncatedAndMutatedTextDoesNotCrash) {
  std::string text = slurp(h100("runtime_probe_ptxas.txt")) + kWarnings;
  // Every prefix: output cut off anywhere.
  for (std::size_t n = 0; n <= text.size(); ++n) {
    const Usage u = ptxas::parse(std::string_view(text).substr(0, n));
    for (const auto& f : u.functions) ASSERT_FALSE(f.name.empty()) << n;
  }
  // Every suffix, and random byte edits (deterministic seed).
  for (std::size_t n = 0; n <= text.size(); n += 7) (void)ptxas::parse(std::string_view(text).substr(n));
  std::mt19937 rng(12345);
  const std::string alphabet = "0123456789 ,:'[]\n\t-abcdefsx\xff";
  for (int round = 0; round < 3000; ++round) {
    std::string t = text;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits && !t.empty(); ++e) {
      const std::size_t at = rng() % t.size();
      switch (rng() % 3) {
        case 0: t[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: t.erase(at, 1 + rng() % 40); break;
        default: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    EXPECT_NO_THROW((void)ptxas::parse(t));
  }
}

// ---- Finding ptxas, the cache directory, the hash ------------------------------------------------

TEST(PtxasFind, CudaHomeThenPathThenFallback) {
  TempDir tmp;
  const fs::path home = tmp.path / "cuda", dir1 = tmp.path / "bin1", dir2 = tmp.path / "bin2";
  fake_ptxas(home / "bin", "");
  fake_ptxas(dir2, "");
  fs::create_directories(dir1);
  // A non-executable file named ptxas, and a directory named ptxas, are skipped.
  std::ofstream(dir1 / "ptxas") << "not a program";
  fs::create_directories(tmp.path / "bin3" / "ptxas");
  const fs::path fallback = fake_ptxas(tmp.path / "fallback", "");

  ptxas::SearchPaths s;
  s.cuda_home = home.string();
  s.path = dir1.string() + ":" + (tmp.path / "bin3").string() + ":" + dir2.string();
  s.fallback = fallback.string();
  EXPECT_EQ(ptxas::find_ptxas(s).path, (home / "bin/ptxas").string());
  s.cuda_home = (tmp.path / "nothing").string();
  EXPECT_EQ(ptxas::find_ptxas(s).path, (dir2 / "ptxas").string());
  s.path = dir1.string();
  EXPECT_EQ(ptxas::find_ptxas(s).path, fallback.string());
  s.fallback = (tmp.path / "none/ptxas").string();
  const ptxas::Located none = ptxas::find_ptxas(s);
  EXPECT_FALSE(none.found());
  EXPECT_NE(none.reason.find("ptxas not found"), std::string::npos) << none.reason;
  EXPECT_NE(none.reason.find((tmp.path / "nothing/bin/ptxas").string()), std::string::npos) << none.reason;
  EXPECT_NE(none.reason.find("PATH"), std::string::npos) << none.reason;
  s.cuda_home.clear();
  s.path.clear();
  EXPECT_NE(ptxas::find_ptxas(s).reason.find("CUDA_HOME is not set"), std::string::npos);
}

TEST(PtxasCache, DirectoryRule) {
  ScopedEnv home("HOME", "/home/u");
  {
    ScopedEnv a("WARPSCOPE_CACHE_DIR", "/c/ws");
    ScopedEnv b("XDG_CACHE_HOME", "/c/xdg");
    EXPECT_EQ(ptxas::cache_dir(), "/c/ws");
  }
  {
    ScopedEnv a("WARPSCOPE_CACHE_DIR", nullptr);
    ScopedEnv b("XDG_CACHE_HOME", "/c/xdg");
    EXPECT_EQ(ptxas::cache_dir(), "/c/xdg/warpscope");
  }
  {
    ScopedEnv a("WARPSCOPE_CACHE_DIR", "");
    ScopedEnv b("XDG_CACHE_HOME", nullptr);
    EXPECT_EQ(ptxas::cache_dir(), "/home/u/.cache/warpscope");
  }
}

TEST(PtxasCache, Fnv1a64KnownValues) {
  // The reference values of the FNV-1a 64-bit hash.
  EXPECT_EQ(ptxas::fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(ptxas::fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(ptxas::fnv1a64("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(ptxas::fnv1a64("bar", ptxas::fnv1a64("foo")), ptxas::fnv1a64("foobar"));
}

// ---- Running ptxas (a stand-in) ------------------------------------------------------------------

TEST(PtxasAnalyze, UnavailableIsAResultNotAnError) {
  ptxas::Options o;
  o.ptxas = "/nonexistent/ptxas";
  const ptxas::Result r = ptxas::analyze(kPtx, "sm_90", o);
  EXPECT_FALSE(r.available);
  EXPECT_NE(r.unavailable_reason.find("/nonexistent/ptxas"), std::string::npos);
  EXPECT_TRUE(r.usage.functions.empty());
}

TEST(PtxasAnalyze, BadTargetIsRejected) {
  ptxas::Options o;
  o.ptxas = "/nonexistent/ptxas";
  for (const char* t : {"", "sm_", "compute_90", "sm_90 -o x", "sm_9x", "90"}) {
    try {
      ptxas::analyze(kPtx, t, o);
      ADD_FAILURE() << t;
    } catch (const warpscope::Error& e) {
      EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUsage);
    }
  }
  EXPECT_NO_THROW(ptxas::analyze(kPtx, "sm_90a", o));
  EXPECT_NO_THROW(ptxas::analyze(kPtx, "sm_100f", o));
}

TEST(PtxasAnalyze, RunsWithoutShellAndCachesAtomically) {
  TempDir tmp;
  const fs::path exe = fake_ptxas(tmp.path / "bin", kWarnings);
  ptxas::Options o;
  o.ptxas = exe.string();
  o.cache_dir = (tmp.path / "cache").string();
  const ptxas::Result first = ptxas::analyze(kPtx, "sm_90", o);
  ASSERT_TRUE(first.available);
  EXPECT_FALSE(first.from_cache);
  EXPECT_EQ(first.ptxas_path, exe.string());
  EXPECT_EQ(fn(first.usage, "_Z5spillPKfPfi").spill_store_bytes, 812u);
  // The arguments ptxas got: the target, the flags, output to /dev/null, a temporary .ptx file
  // that is gone afterwards.
  std::string args = slurp(tmp.path / "bin/args.txt");
  EXPECT_EQ(args.rfind("-arch=sm_90 -v -warn-lmem-usage -warn-spills -o /dev/null ", 0), 0u) << args;
  const std::string input = args.substr(args.rfind(' ') + 1, args.size() - args.rfind(' ') - 2);
  EXPECT_EQ(fs::path(input).extension(), ".ptx");
  EXPECT_FALSE(fs::exists(input));
  // One cache file named by the 16 hex digits of the hash, no temporary file left.
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(tmp.path / "cache")) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].filename().string().size(), 16u + 4u);
  EXPECT_EQ(files[0].extension(), ".txt");

  const ptxas::Result second = ptxas::analyze(kPtx, "sm_90", o);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.output, first.output);
  EXPECT_EQ(fn(second.usage, "_Z5callsPfi").registers, 26);
  EXPECT_EQ(slurp(tmp.path / "bin/args.txt"), args);  // ptxas did not run again

  // Another target or other PTX text is another key.
  EXPECT_FALSE(ptxas::analyze(kPtx, "sm_80", o).from_cache);
  EXPECT_FALSE(ptxas::analyze(std::string(kPtx) + "\n", "sm_90", o).from_cache);
  // A damaged cache file is ignored and rewritten.
  std::ofstream(files[0], std::ios::trunc) << "garbage";
  EXPECT_FALSE(ptxas::analyze(kPtx, "sm_90", o).from_cache);
  EXPECT_TRUE(ptxas::analyze(kPtx, "sm_90", o).from_cache);
  // Without the cache, ptxas always runs.
  o.use_cache = false;
  EXPECT_FALSE(ptxas::analyze(kPtx, "sm_90", o).from_cache);
}

TEST(PtxasAnalyze, UnwritableCacheOnlyCostsARun) {
  TempDir tmp;
  ptxas::Options o;
  o.ptxas = fake_ptxas(tmp.path / "bin", kWarnings).string();
  o.cache_dir = "/proc/warpscope-no-such-cache";
  const ptxas::Result r = ptxas::analyze(kPtx, "sm_90", o);
  EXPECT_TRUE(r.available);
  EXPECT_EQ(r.usage.functions.size(), 3u);
}

TEST(PtxasAnalyze, NonZeroExitIsAnErrorWithPtxasMessage) {
  TempDir tmp;
  ptxas::Options o;
  o.ptxas = fake_ptxas(tmp.path / "bin", "ptxas fatal   : Unresolved extern function 'f'\n", 255).string();
  o.cache_dir = (tmp.path / "cache").string();
  try {
    ptxas::analyze(kPtx, "sm_90", o);
    FAIL() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kIo);
    const std::string m = e.what();
    EXPECT_NE(m.find("exit 255"), std::string::npos) << m;
    EXPECT_NE(m.find("Unresolved extern function 'f'"), std::string::npos) << m;
  }
  EXPECT_FALSE(fs::exists(tmp.path / "cache"));  // failures are not cached
}

// ---- The real ptxas ------------------------------------------------------------------------------

class RealPtxas : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(WARPSCOPE_PTXAS_TEST_PTX).empty()) GTEST_SKIP() << "nvcc was not found at build time";
    if (!ptxas::find_ptxas().found()) GTEST_SKIP() << ptxas::find_ptxas().reason;
    ptx_ = slurp(WARPSCOPE_PTXAS_TEST_PTX);
  }
  std::string ptx_;
};

TEST_F(RealPtxas, LocalArraysSpillsAndCalls) {
  TempDir tmp;
  ptxas::Options o;
  o.cache_dir = (tmp.path / "cache").string();
  const ptxas::Result r = ptxas::analyze(ptx_, "sm_90", o);
  ASSERT_TRUE(r.available) << r.unavailable_reason;
  EXPECT_TRUE(r.usage.unparsed.empty()) << r.output;
  // A private array with a run-time index lives in local memory; constant indices keep it in
  // registers.
  const FunctionUsage& dyn = fn(r.usage, "_Z13local_dynamicPfi");
  EXPECT_TRUE(dyn.entry);
  EXPECT_EQ(dyn.target, "sm_90");
  EXPECT_GT(dyn.stack_frame_bytes, 0u);
  EXPECT_TRUE(dyn.lmem_warning_frame_bytes.has_value());
  EXPECT_EQ(dyn.spill_store_bytes, 0u);
  const FunctionUsage& cst = fn(r.usage, "_Z11const_indexPf");
  EXPECT_EQ(cst.stack_frame_bytes, 0u);
  EXPECT_FALSE(cst.lmem_warning_frame_bytes.has_value());
  EXPECT_GT(cst.registers, 0);
  // __launch_bounds__(1024, 1) caps registers at 64; 192 live values spill.
  const FunctionUsage& sp = fn(r.usage, "_Z5spillPKfPfi");
  EXPECT_LE(sp.registers, 64);
  EXPECT_GT(sp.spill_store_bytes, 0u);
  EXPECT_GT(sp.spill_load_bytes, 0u);
  EXPECT_TRUE(sp.spill_warning);
  EXPECT_GE(sp.stack_frame_bytes, 4u);
  // A call to a .func kept out of line: static shared memory and a barrier on the entry.
  const FunctionUsage& calls = fn(r.usage, "_Z5callsPfi");
  EXPECT_EQ(calls.shared_bytes, 1024u);
  EXPECT_EQ(calls.barriers, 1);
  const FunctionUsage& helper = fn(r.usage, "_Z6helperPfi");
  EXPECT_FALSE(helper.entry);
  // The second time, the same answer from the cache.
  const ptxas::Result again = ptxas::analyze(ptx_, "sm_90", o);
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(fn(again.usage, "_Z5spillPKfPfi").spill_store_bytes, sp.spill_store_bytes);
}

TEST_F(RealPtxas, RejectedPtxIsAnErrorWithItsMessage) {
  ptxas::Options o;
  o.use_cache = false;
  // PTX for sm_90 assembled for an older GPU.
  try {
    ptxas::analyze(ptx_, "sm_75", o);
    FAIL() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_NE(std::string(e.what()).find("ptxas -arch=sm_75 failed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(".target"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ptxas::analyze(".version 9.0\n.target sm_90\nthis is not PTX\n", "sm_90", o), warpscope::Error);
}
