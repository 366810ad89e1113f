// The corpus as a whole: every PTX file nvcc built from kernels/*.cu loads, lists exactly the
// kernels this table names (the inventory docs/corpus.md describes), and reports parameter
// sizes as the CUDA declarations imply.
#include "corpus.hpp"

#include <algorithm>

namespace corpus {
namespace {

struct ModuleKernels {
  const char* module;
  std::vector<std::string> kernels;
};

const std::vector<ModuleKernels>& inventory() {
  static const std::vector<ModuleKernels> table = {
      {"atomics", {"atomic_max_f32", "atomic_ops", "atomic_tickets"}},
      {"bitonic", {"bitonic_sort_block"}},
      {"constant", {"const_poly", "const_lookup", "device_globals"}},
      {"device_functions", {"call_chain", "struct_return"}},
      {"dyn_shared", {"dyn_shared_reverse", "dyn_shared_two_arrays", "dyn_shared_mixed"}},
      {"grid", {"grid_2d", "grid_3d"}},
      {"half", {"half_from_float", "half_from_float_rz", "half_to_float", "half_round_trip"}},
      {"histogram", {"histogram_shared", "histogram_global"}},
      {"index64", {"index64_math", "index64_pointers"}},
      {"integer", {"divmod_s32", "divmod_u32", "divmod_s64", "divmod_u64", "divmod_const"}},
      {"local_arrays",
       {"local_static", "local_unrolled", "local_uniform_dynamic", "local_per_thread",
        "local_ut3"}},
      {"math",
       {"math_sqrtf", "math_expf", "math_logf", "math_sinf", "math_cosf", "math_rsqrtf",
        "math_powf", "math_fdividef", "math_divf", "math_fabs_fminmax", "math_sqrt_f64",
        "math_exp_f64", "math_log_f64", "math_sin_f64"}},
      {"matmul", {"matmul_naive", "matmul_tiled"}},
      {"nbody",
       {"nbody_struct12", "nbody_float3", "nbody_struct16", "nbody_float4",
        "nbody_float4_shared"}},
      {"printf", {"printf_formats", "printf_threads", "printf_string_arg"}},
      {"reduce", {"reduce_tree", "reduce_warp_shuffle"}},
      {"saxpy",
       {"saxpy_plain", "saxpy_even", "saxpy_ifelse", "saxpy_ifelse_other", "saxpy_regs",
        "saxpy_half"}},
      {"scan", {"scan_block_inclusive", "scan_block_shuffle"}},
      {"stencil", {"lap", "scale2d_pitched"}},
      {"transpose", {"transpose_naive", "transpose_tiled", "transpose_tiled_padded"}},
      {"types",
       {"copy_i8", "copy_i16", "copy_f64", "copy_int4", "char_ops", "short_ops", "double_ops",
        "longlong_ops", "float4_axpy", "int4_ops"}},
      {"warp", {"warp_vote", "warp_activemask", "bit_ops", "warp_shuffle", "warp_shuffle_width"}},
  };
  return table;
}

TEST(Corpus, EveryModuleLoadsWithItsKernels) {
  std::size_t total = 0;
  for (const ModuleKernels& entry : inventory()) {
    Device device;
    Module module = load(device, entry.module);
    std::vector<std::string> got = module.kernels(), want = entry.kernels;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << entry.module;
    total += want.size();
  }
  EXPECT_GE(total, 40u);
}

std::vector<std::size_t> param_sizes(const Module& module, std::string_view kernel) {
  std::vector<std::size_t> sizes;
  for (const warpscope::ParamInfo& p : module.params(kernel)) sizes.push_back(p.size);
  return sizes;
}

TEST(Corpus, ParameterSizesFollowTheDeclarations) {
  Device device;
  // saxpy_plain(float*, float*, float, unsigned long)
  EXPECT_EQ(param_sizes(load(device, "saxpy"), "saxpy_plain"),
            (std::vector<std::size_t>{8, 8, 4, 8}));
  // printf_formats(int, unsigned, long long, unsigned long long, float, double, char)
  EXPECT_EQ(param_sizes(load(device, "printf"), "printf_formats"),
            (std::vector<std::size_t>{4, 4, 8, 8, 4, 8, 1}));
  // nbody_struct12(body12*, body12*, body12*, body12*, int, float)
  EXPECT_EQ(param_sizes(load(device, "nbody"), "nbody_struct12"),
            (std::vector<std::size_t>{8, 8, 8, 8, 4, 4}));
  EXPECT_THROW((void)load(device, "saxpy").params("no_such_kernel"), warpscope::Error);
}

// A launch whose arguments do not match the PTX parameters is refused, not run.
TEST(Corpus, ArgumentSizeMismatchIsRefused) {
  Device device;
  Module module = load(device, "saxpy");
  Buffer<float> x(device, 32), y(device, 32);
  const int wrong_n = 32;  // the kernel takes an 8-byte `unsigned long`
  EXPECT_THROW(launch(device, module, "saxpy_plain", Dim3{1}, Dim3{32}, x.ptr(), y.ptr(), 2.0f,
                      wrong_n),
               warpscope::Error);
}

}  // namespace
}  // namespace corpus
