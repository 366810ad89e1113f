// Runs tests/exec/kernels/ptx_forms.cu on a GPU: every case of tests/exec/ptx_forms_cases.hpp (fns,
// bmsk, szext, dp4a, dp2a, the f16x2/bf16x2/tf32/8-bit-float packing conversions, cvt.pack) against
// the result the PTX ISA defines, and the dynamic stack (alloca, stacksave, stackrestore) against
// what tests/exec/ptx_forms_test.cpp expects of the interpreter. Prints every result, each mismatch,
// and a summary; exit status 1 when anything differs.
//   nvcc -arch=sm_90 -o ptx_forms tests/hw/ptx/ptx_forms.cu && ./ptx_forms
#include <cstdio>
#include <vector>

#include "../../exec/kernels/ptx_forms.cu"

namespace {

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::printf("%s failed: %s\n", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

int main() {
  using ptx_forms::kCaseCount;
  using ptx_forms::kCases;
  int bad = 0;
  // The instruction forms: one case per thread.
  std::vector<unsigned> in, out(kCaseCount);
  for (const auto& c : kCases) in.insert(in.end(), {c.form, c.a, c.b, c.c});
  unsigned *din = nullptr, *dout = nullptr, *dstack = nullptr;
  if (!check(cudaMalloc(&din, in.size() * 4), "cudaMalloc") || !check(cudaMalloc(&dout, out.size() * 4), "cudaMalloc") ||
      !check(cudaMalloc(&dstack, 64 * 8 * 4), "cudaMalloc"))
    return 2;
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  run_forms<<<(kCaseCount + 63) / 64, 64>>>(din, dout, kCaseCount);
  if (!check(cudaDeviceSynchronize(), "run_forms")) return 2;
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < kCaseCount; ++i) {
    const auto& c = kCases[i];
    const bool ok = out[i] == c.expect;
    bad += !ok;
    std::printf("%s case %u form %u a=0x%08x b=0x%08x c=0x%08x gpu=0x%08x isa=0x%08x\n", ok ? "ok      " : "MISMATCH", i,
                c.form, c.a, c.b, c.c, out[i], c.expect);
  }
  // The dynamic stack: two CTAs of 64 threads; both write the same 64 x 8 words (indexed by
  // threadIdx), with the same values.
  stack_ops<<<2, 64>>>(dstack);
  if (!check(cudaDeviceSynchronize(), "stack_ops")) return 2;
  std::vector<unsigned> st(64 * 8);
  cudaMemcpy(st.data(), dstack, st.size() * 4, cudaMemcpyDeviceToHost);
  int stack_bad = 0;
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned* o = st.data() + 8 * t;
    const unsigned want[6] = {316800u, 0u, 1u, 1u, t + 7, 1u};
    for (int k = 0; k < 6; ++k)
      if (o[k] != want[k]) {
        ++stack_bad;
        std::printf("MISMATCH stack_ops thread %u word %d gpu=%u expected=%u\n", t, k, o[k], want[k]);
      }
  }
  std::printf("%s stack_ops: 64 threads x 6 words, %d differ\n", stack_bad ? "MISMATCH" : "ok      ", stack_bad);
  bad += stack_bad;
  std::printf("%s: %u cases and the stack checks, %d mismatches\n", bad ? "FAIL" : "OK", kCaseCount, bad);
  return bad ? 1 : 0;
}
