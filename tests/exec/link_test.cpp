// Linking PTX modules into one program (Device::link_ptx, src/ptx/link.hpp): relocatable device
// code, where kernels of one translation unit call functions and read variables of another.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// Calls twice() and reads gval, both defined in kMath; its own internal string $str is "A".
const std::string kMain = std::string(kHeader) + R"(
.extern .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0);
.extern .global .align 4 .u32 gval;
.global .align 1 .b8 $str[2] = {65, 0};

.visible .entry ka(.param .u64 ka_out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [ka_out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [gval];
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), twice, (param0);
  ld.param.b32 %r2, [retval0+0];
  }
  ld.global.u8 %r3, [$str];
  add.s32 %r4, %r2, %r3;
  st.global.u32 [%rd2], %r4;
  ret;
}
)";

// Defines twice() and gval; its own $str is "B", read by kb.
const std::string kMath = std::string(kHeader) + R"(
.visible .global .align 4 .u32 gval = 21;
.global .align 1 .b8 $str[2] = {66, 0};

.visible .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [twice_param_0];
  shl.b32 %r2, %r1, 1;
  st.param.b32 [func_retval0+0], %r2;
  ret;
}

.visible .entry kb(.param .u64 kb_out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [kb_out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u8 %r1, [$str];
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

// Writes gval through its extern declaration.
const std::string kSetter = std::string(kHeader) + R"(
.extern .global .align 4 .u32 gval;

.visible .entry kc(.param .u32 kc_value)
{
  .reg .b32 %r<2>;
  ld.param.u32 %r1, [kc_value];
  st.global.u32 [gval], %r1;
  ret;
}
)";

int run1(Device& dev, const Module& m, const char* kernel) {
  const DevicePtr out = dev.malloc(4);
  const KernelArg args[] = {arg(out)};
  dev.launch(m, kernel, {1}, {1}, args);
  const int v = download<int>(dev, out, 1)[0];
  dev.free(out);
  return v;
}

std::string link_error(const std::vector<PtxSource>& sources) {
  Device dev;
  try {
    dev.link_ptx(sources, "program");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kParse) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "linked";
  return {};
}

TEST(Link, ExternFunctionsAndVariablesResolveAcrossModules) {
  Device dev;
  const std::vector<PtxSource> sources = {{kMain, "main.ptx"}, {kMath, "math.ptx"}, {kSetter, "setter.ptx"}};
  const Module m = dev.link_ptx(sources, "program");
  EXPECT_THAT(m.kernels(), ::testing::UnorderedElementsAre("ka", "kb", "kc"));
  EXPECT_EQ(run1(dev, m, "ka"), 2 * 21 + 'A');  // each module sees its own $str
  EXPECT_EQ(run1(dev, m, "kb"), 'B');
  // One gval: written by kc (declared extern there), read by ka, and by the host.
  const int five = 5;
  const KernelArg args[] = {arg(five)};
  dev.launch(m, "kc", {1}, {1}, args);
  EXPECT_EQ(run1(dev, m, "ka"), 2 * 5 + 'A');
  int host = 0;
  dev.copy_from_symbol(&host, m, "gval", 4);
  EXPECT_EQ(host, 5);
  const int seven = 7;
  dev.copy_to_symbol(m, "gval", &seven, 4);
  EXPECT_EQ(run1(dev, m, "ka"), 2 * 7 + 'A');
  // The internal strings share a name: not found by name, but each module's code has its own.
  EXPECT_THROW((void)dev.symbol_address(m, "$str"), Error);
  // Instructions keep their own module's PTX lines.
  bool found = false;
  for (const InstructionInfo& i : m.instructions("ka")) {
    if (i.function == "twice") {
      found = true;
      EXPECT_GT(i.ptx_line, 0u);
    }
  }
  EXPECT_TRUE(found);
}

TEST(Link, AnUnresolvedSymbolNamesItAndItsModules) {
  const std::string msg = link_error({{kMain, "main.ptx"}, {kSetter, "setter.ptx"}});
  EXPECT_THAT(msg, AllOf(HasSubstr("cannot link the device code of program (main.ptx, setter.ptx)"),
                         HasSubstr("unresolved extern function 'twice' (declared in main.ptx; no module defines it)"),
                         HasSubstr("unresolved extern variable 'gval' (declared in main.ptx, setter.ptx; no module "
                                   "defines it)")));
}

TEST(Link, ASymbolDefinedTwiceNamesBothModules) {
  const std::string msg = link_error({{kMath, "math.ptx"}, {kMain, "main.ptx"}, {kMath, "math2.ptx"}});
  EXPECT_THAT(msg, AllOf(HasSubstr("'gval' is defined in both math.ptx and math2.ptx"),
                         HasSubstr("'twice' is defined in both math.ptx and math2.ptx"),
                         HasSubstr("'kb' is defined in both math.ptx and math2.ptx")));
}

TEST(Link, WeakDefinitionsCollapseToOne) {
  // nvcc makes template kernels and inline functions .weak in every unit that uses them.
  const std::string weak = std::string(kHeader) + R"(
.weak .global .align 4 .u32 wval = 3;
.weak .entry kw(.param .u64 kw_out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [kw_out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [wval];
  st.global.u32 [%rd2], %r1;
  ret;
}
)";
  Device dev;
  const std::vector<PtxSource> sources = {{weak, "one.ptx"}, {weak, "two.ptx"}};
  const Module m = dev.link_ptx(sources, "program");
  EXPECT_EQ(m.kernels().size(), 1u);
  EXPECT_EQ(run1(dev, m, "kw"), 3);
}

TEST(Link, OneModuleMustDefineItsExternVariables) {
  Device dev;
  try {
    dev.load_ptx(kSetter, "setter.ptx");
    ADD_FAILURE() << "loaded";
  } catch (const Error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("unresolved extern variable 'gval' (declared in setter.ptx"));
  }
}

}  // namespace
}  // namespace warpscope::exec::test
