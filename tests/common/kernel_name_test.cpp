// Kernel names as Nsight Compute writes them (src/common/kernel_name.hpp). The expected
// demangled names are the "Kernel Name" column of Nsight Compute 2025.3's CSV exports from the
// H100 (tests/hw/data/h100: ncu_patterns_*.csv, accuracy/*_metrics.csv, examples/*_metrics.csv,
// texture/texture_traffic.csv, red/*.csv); the symbols are the same kernels' from the captures' PTX and SASS
// (patterns.ptx, accuracy/*.sass, texture/texture_traffic.sass) or, for the examples, nvcc 13's
// mangling of examples/*.cu. The remaining cases apply the Itanium ABI's rules by hand.
#include <gtest/gtest.h>

#include <string>

#include "common/kernel_filter.hpp"
#include "common/kernel_name.hpp"
#include "common/nearest.hpp"
#include "warpscope/error.hpp"

namespace {

using warpscope::kernel_names;

struct Case {
  const char* symbol;
  const char* function;
  const char* demangled;
};

class NcuNames : public ::testing::TestWithParam<Case> {};

TEST_P(NcuNames, AsTheH100CaptureWritesThem) {
  const Case& c = GetParam();
  const auto n = kernel_names(c.symbol);
  EXPECT_EQ(n.mangled, c.symbol);
  EXPECT_EQ(n.function, c.function);
  EXPECT_EQ(n.demangled, c.demangled);
  EXPECT_TRUE(n.ncu_form);
}

INSTANTIATE_TEST_SUITE_P(
    H100, NcuNames,
    ::testing::Values(
        // ncu_patterns_1x32.csv / patterns.ptx: a template parameter's type is written T1, also
        // through a substitution (S0_, S1_ after a class-type argument).
        Case{"_Z12load_defaultIhEvPKT_PS0_xxxx", "load_default",
             "void load_default<unsigned char>(const T1 *, T1 *, long long, long long, long long, long long)"},
        Case{"_Z7load_cgIyEvPKT_PS0_xxxx", "load_cg",
             "void load_cg<unsigned long long>(const T1 *, T1 *, long long, long long, long long, long long)"},
        Case{"_Z12load_defaultI4int4EvPKT_PS1_xxxx", "load_default",
             "void load_default<int4>(const T1 *, T1 *, long long, long long, long long, long long)"},
        Case{"_Z13store_patternItEvPT_xxxx", "store_pattern",
             "void store_pattern<unsigned short>(T1 *, long long, long long, long long, long long)"},
        Case{"_Z13shared_strideI4int2EvPT_i", "shared_stride", "void shared_stride<int2>(T1 *, int)"},
        Case{"_Z11local_arrayI4int4Li16EEvPKiPT_i", "local_array", "void local_array<int4, 16>(const int *, T1 *, int)"},
        // accuracy/*_metrics.csv and *.sass
        Case{"_Z12matmul_naivePKfS0_Pfi", "matmul_naive", "matmul_naive(const float *, const float *, float *, int)"},
        Case{"_Z11hist_globalPKhiPj", "hist_global", "hist_global(const unsigned char *, int, unsigned int *)"},
        Case{"_Z15transpose_tiledILi1EEvPfPKfi", "transpose_tiled", "void transpose_tiled<1>(float *, const float *, int)"},
        Case{"_Z11local_arrayPKjPKiPji", "local_array",
             "local_array(const unsigned int *, const int *, unsigned int *, int)"},
        Case{"_Z4copyPfPKfi", "copy", "copy(float *, const float *, int)"},
        // red/red_classes_alias_generic.csv (tests/hw/red_classes_alias.cu: unsigned* const* p): a
        // qualifier on a pointer follows its declarator
        Case{"_Z7red_ptrPKPj", "red_ptr", "red_ptr(unsigned int *const *)"},
        // texture/texture_traffic.csv
        Case{"_Z12fetch_float4yP6float4i", "fetch_float4", "fetch_float4(unsigned long long, float4 *, int)"},
        // examples/saxpy_metrics.csv, examples/nbody_metrics.csv
        Case{"_Z6saxpy1PfS_fm", "saxpy1", "saxpy1(float *, float *, float, unsigned long)"},
        Case{"_Z9integrateI6body12EvPT_S2_S2_S2_if", "integrate",
             "void integrate<body12>(T1 *, T1 *, T1 *, T1 *, int, float)"}));

TEST(NcuNamesByRule, NamespacesReferencesQualifiersAndLiterals) {
  auto d = [](const char* s) { return kernel_names(s).demangled; };
  EXPECT_EQ(d("_ZN2ws5scaleEPffi"), "ws::scale(float *, float, int)");
  EXPECT_EQ(kernel_names("_ZN2ws5scaleEPffi").function, "scale");
  // An anonymous namespace is "<unnamed>".
  EXPECT_EQ(d("_ZN12_GLOBAL__N_16kernelEPi"), "<unnamed>::kernel(int *)");
  EXPECT_EQ(d("_Z1fPPf"), "f(float **)");
  EXPECT_EQ(d("_Z1fRKi"), "f(const int &)");
  EXPECT_EQ(d("_Z1fPVi"), "f(volatile int *)");
  // Template arguments: unsigned and bool literals as plain numbers, negative with a minus.
  EXPECT_EQ(d("_Z7reduce7IiLj256ELb1EEvPKT_PS0_j"), "void reduce7<int, 256, 1>(const T1 *, T1 *, unsigned int)");
  EXPECT_EQ(d("_Z1kILin3EEvv"), "void k<-3>()");
  // A class template as a parameter, and the second template parameter (T0_ is T2).
  EXPECT_EQ(d("_Z4fillPP9ContainerIiE"), "fill(Container<int> **)");
  EXPECT_EQ(d("_Z3twoIifEvT_T0_"), "void two<int, float>(T1, T2)");
  // No parameters.
  EXPECT_EQ(d("_Z6kernelv"), "kernel()");
  // A member of a class template in a namespace.
  EXPECT_EQ(d("_ZN2ns3boxIiE3getEv"), "ns::box<int>::get()");
}

TEST(NcuNamesByRule, ExternCKernelsAreTheirOwnNames) {
  const auto n = kernel_names("reduceSinglePassMultiBlockCG");
  EXPECT_EQ(n.function, "reduceSinglePassMultiBlockCG");
  EXPECT_EQ(n.demangled, "reduceSinglePassMultiBlockCG");
  EXPECT_TRUE(n.ncu_form);
}

TEST(NcuNamesByRule, ConstructsOutsideTheRulesFallBackToLibstdcxx) {
  // A variadic template (an argument pack, J...E): libstdc++'s demangling, marked as such.
  const auto n = kernel_names("_Z1kIJifEEvDpT_");
  EXPECT_FALSE(n.ncu_form);
  EXPECT_EQ(n.function, "k");
  EXPECT_EQ(n.demangled, "void k<int, float>(int, float)");
}

// The launch filter (src/common/kernel_filter.hpp), on a sequence of launches.
std::vector<bool> decide(warpscope::KernelFilterOptions o, const std::vector<std::string>& launches) {
  warpscope::KernelFilter f(std::move(o));
  std::vector<bool> out;
  for (const auto& s : launches) out.push_back(f.select(s).profiled);
  return out;
}

const std::vector<std::string> kSequence = {"_Z1av", "_Z1bv", "_Z1av", "_Z1av", "_Z1bv", "_Z1av"};

TEST(KernelFilter, SkipAndCountApplyToMatchingLaunchesOnly) {
  warpscope::KernelFilterOptions o;
  o.kernel_name = "a";
  o.launch_skip = 1;
  o.launch_count = 2;
  // a runs at 0, 2, 3, 5: skip 0, profile 2 and 3, not 5.
  EXPECT_EQ(decide(o, kSequence), (std::vector<bool>{false, false, true, true, false, false}));
  o.kernel_name.clear();
  o.launch_skip = 2;
  o.launch_count = 1;
  EXPECT_EQ(decide(o, kSequence), (std::vector<bool>{false, false, true, false, false, false}));
  o.launch_count.reset();
  EXPECT_EQ(decide(o, kSequence), (std::vector<bool>{false, false, true, true, true, true}));
}

TEST(KernelFilter, NamesAndBases) {
  warpscope::KernelFilterOptions o;
  o.kernel_name = "regex:^b";
  EXPECT_EQ(decide(o, kSequence), (std::vector<bool>{false, true, false, false, true, false}));
  o.kernel_name = "a()";
  o.base = "demangled";
  EXPECT_EQ(decide(o, kSequence), (std::vector<bool>{true, false, true, true, false, true}));
  o.kernel_name = "_Z1bv";
  o.base = "mangled";
  EXPECT_EQ(decide(o, kSequence), (std::vector<bool>{false, true, false, false, true, false}));
  // The function base compares the name alone, exactly.
  o.base = "function";
  o.kernel_name = "load_default";
  EXPECT_TRUE(warpscope::KernelFilter(o).name_matches("_Z12load_defaultIhEvPKT_PS0_xxxx"));
  o.kernel_name = "load";
  EXPECT_FALSE(warpscope::KernelFilter(o).name_matches("_Z12load_defaultIhEvPKT_PS0_xxxx"));
}

TEST(KernelFilter, ReasonsSayWhichOption) {
  warpscope::KernelFilterOptions o;
  o.kernel_name = "a";
  o.launch_skip = 1;
  o.launch_count = 1;
  warpscope::KernelFilter f(o);
  EXPECT_EQ(f.select("_Z1av").reason, "--launch-skip 1 skips the first matching launch");
  EXPECT_EQ(f.select("_Z1bv").reason, "--kernel-name a does not match the kernel's function name");
  EXPECT_TRUE(f.select("_Z1av").profiled);
  EXPECT_EQ(f.select("_Z1av").reason, "--launch-count 1: 1 matching launch was profiled already");
}

TEST(KernelFilter, BadOptionsAreUsageErrors) {
  warpscope::KernelFilterOptions o;
  o.kernel_name = "regex:(";
  EXPECT_THROW(warpscope::KernelFilter{o}, warpscope::Error);
  o.kernel_name = "regex:";
  EXPECT_THROW(warpscope::KernelFilter{o}, warpscope::Error);
  o.kernel_name = "a";
  o.base = "demangle";
  try {
    warpscope::KernelFilter f(o);
    ADD_FAILURE() << "no error";
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("--kernel-name-base demangle"), std::string::npos) << e.what();
  }
}

TEST(Nearest, EditDistanceAndSuggestions) {
  EXPECT_EQ(warpscope::edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(warpscope::edit_distance("", "abc"), 3u);
  EXPECT_EQ(warpscope::nearest("--kernal-name", {"--csv", "--kernel-name", "--kernel-name-base"}),
            std::vector<std::string>{"--kernel-name"});
  EXPECT_EQ(warpscope::nearest("--launch-cont", {"--launch-skip", "--launch-count", "--csv"}),
            (std::vector<std::string>{"--launch-count", "--launch-skip"}));  // nearest first
  EXPECT_TRUE(warpscope::nearest("--zzzzzz", {"--csv", "--kernel-name"}).empty());
}

}  // namespace
