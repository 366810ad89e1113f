// fns, bmsk, szext, dp4a, dp2a, the packing conversions and cvt.pack against the results the PTX
// ISA defines (tests/exec/ptx_forms_cases.hpp, derived by hand there), and the dynamic stack
// (alloca, stacksave, stackrestore) against the ISA's rules (tests/exec/kernels/ptx_forms.cu).
#include <string>

#include "exec_test_util.hpp"
#include "ptx_forms_cases.hpp"

namespace warpscope::exec::test {
namespace {

TEST(PtxForms, EveryCaseHasTheIsaResult) {
  WS_LOAD_PTX(ptx, "ptx_forms");
  Device dev;
  Module m = dev.load_ptx(ptx, "ptx_forms.ptx");
  using ptx_forms::kCases;
  using ptx_forms::kCaseCount;
  std::vector<unsigned> in;
  for (const auto& c : kCases) in.insert(in.end(), {c.form, c.a, c.b, c.c});
  const DevicePtr din = upload(dev, in), dout = dev.malloc(kCaseCount * sizeof(unsigned));
  const unsigned n = kCaseCount;
  const KernelArg args[] = {arg(din), arg(dout), arg(n)};
  dev.launch(m, "run_forms", {(n + 63) / 64}, {64}, args);
  const auto out = download<unsigned>(dev, dout, kCaseCount);
  bool seen[ptx_forms::kFormCount] = {};
  for (unsigned i = 0; i < kCaseCount; ++i) {
    const auto& c = kCases[i];
    seen[c.form] = true;
    EXPECT_EQ(out[i], c.expect) << "case " << i << ": form " << c.form << std::hex << " a=0x" << c.a << " b=0x" << c.b
                                << " c=0x" << c.c << " got 0x" << out[i] << ", the ISA says 0x" << c.expect;
  }
  for (unsigned f = 0; f < ptx_forms::kFormCount; ++f) EXPECT_TRUE(seen[f]) << "form " << f << " has no case";
}

TEST(PtxForms, AllocaStacksaveStackrestore) {
  WS_LOAD_PTX(ptx, "ptx_forms");
  Device dev;
  Module m = dev.load_ptx(ptx, "ptx_forms.ptx");
  const DevicePtr dout = dev.malloc(64 * 8 * sizeof(unsigned));
  const KernelArg args[] = {arg(dout)};
  dev.launch(m, "stack_ops", {2}, {64}, args);
  const auto out = download<unsigned>(dev, dout, 64 * 8);
  for (unsigned t = 0; t < 64; ++t) {
    SCOPED_TRACE("thread " + std::to_string(t));
    const unsigned* o = out.data() + 8 * t;
    EXPECT_EQ(o[0], 316800u);  // 64 calls x (0 + 1 + ... + 99): each call's 400 bytes freed at its return
    EXPECT_EQ(o[1], 0u);       // aligned to 64
    EXPECT_EQ(o[2], 1u);       // stackrestore brings back the saved stack pointer
    EXPECT_EQ(o[3], 1u);       // below the saved stack pointer, with room for its size
    EXPECT_EQ(o[4], t + 7);    // what was stored there
    EXPECT_EQ(o[5], 1u);       // the second allocation does not overlap the first
  }
}

TEST(PtxForms, AllocaBeyondTheStackFaultsNamingIt) {
  WS_LOAD_PTX(ptx, "ptx_forms");
  Device dev;
  Module m = dev.load_ptx(ptx, "ptx_forms.ptx");
  const unsigned fits = 512, too_big = 4096;
  const KernelArg ok[] = {arg(fits)};
  dev.launch(m, "stack_overflow", {1}, {32}, ok);
  const KernelArg bad[] = {arg(too_big)};
  try {
    dev.launch(m, "stack_overflow", {1}, {32}, bad);
    ADD_FAILURE() << "an alloca of 4096 bytes did not fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfBounds);
    EXPECT_NE(std::string(e.what()).find("stack overflow: alloca of 4096 bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stack_overflow"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpscope::exec::test
