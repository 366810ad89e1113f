// Integration tests: real CUDA kernels (tests/ptx/kernels/*.cu) compiled by nvcc at build time
// with `-arch=sm_90 -lineinfo -ptx` (NAME.ptx) and `-arch=sm_90 -G -ptx` (NAME.G.ptx).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "ptx/ptx.hpp"
#include "warpscope/error.hpp"

namespace warpscope::ptx {
namespace {

#ifdef WARPSCOPE_PTX_KERNEL_DIR
constexpr bool kHaveKernels = true;
constexpr const char* kKernelDir = WARPSCOPE_PTX_KERNEL_DIR;
#else
constexpr bool kHaveKernels = false;
constexpr const char* kKernelDir = "";
#endif

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ptx_path(const std::string& name, bool debug) {
  return std::string(kKernelDir) + "/" + name + (debug ? ".G.ptx" : ".ptx");
}

Module load_kernel_ptx(const std::string& name, bool debug) {
  std::string path = ptx_path(name, debug);
  std::string text = read_file(path);
  EXPECT_FALSE(text.empty()) << path;
  return load_module(text, path);
}

/// 1-based line of the first line of tests/ptx/kernels/<file> that contains `needle`.
std::uint32_t source_line(const std::string& file, const std::string& needle) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/ptx/kernels/" + file);
  std::string line;
  for (std::uint32_t n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  ADD_FAILURE() << needle << " not in " << file;
  return 0;
}

const Function& function(const Module& m, std::string_view name) {
  const Function* f = m.find_function(name);
  if (f == nullptr) throw std::runtime_error("no function " + std::string(name));
  return *f;
}

std::vector<const Instruction*> all(const Function& f, Opcode op) {
  std::vector<const Instruction*> out;
  for (const auto& in : f.instructions)
    if (in.op == op) out.push_back(&in);
  return out;
}

std::vector<const Instruction*> all(const Module& m, Opcode op) {
  std::vector<const Instruction*> out;
  for (const auto& f : m.functions)
    for (const auto* in : all(f, op)) out.push_back(in);
  return out;
}

#define SKIP_WITHOUT_NVCC()                                \
  if (!kHaveKernels) {                                     \
    GTEST_SKIP() << "nvcc was not found at configure time"; \
  }                                                        \
  static_assert(true)

const char* const kKernels[] = {"saxpy",     "reduce",  "local_array", "device_func",
                                "printf",    "atomics", "warp",        "double_math",
                                "const_array", "dyn_shared", "half", "float_modes"};
// misc.cu holds several kernels; it is checked by PtxKernels.Misc.

class EveryKernel : public testing::TestWithParam<std::tuple<const char*, bool>> {};

TEST_P(EveryKernel, LoadsVerifiesAndHasSourceLines) {
  SKIP_WITHOUT_NVCC();
  auto [name, debug] = GetParam();
  Module m = load_kernel_ptx(name, debug);
  EXPECT_EQ(m.version_major, 9u);
  EXPECT_EQ(m.target.front(), "sm_90");
  if (debug) {
      EXPECT_EQ(m.target.back(), "debug");
    }
  EXPECT_EQ(m.address_size, 64u);
  std::size_t entries = 0, with_loc = 0, total = 0;
  for (const auto& f : m.functions) {
    for (const auto& in : f.instructions) {
      if (in.loc.valid()) {
        ASSERT_LT(in.loc.file, m.files.size());
      }
    }
    if (f.kind != FunctionKind::kEntry) continue;  // -G keeps header functions out of line
    ++entries;
    for (const auto& in : f.instructions) {
      ++total;
      if (!in.loc.valid()) continue;
      ++with_loc;
      SourceLoc outer = m.outermost(in.loc);
      // The outermost call site of everything in a kernel is in the kernel's own .cu file.
      EXPECT_NE(m.file_path(outer).find(std::string(name) + ".cu"), std::string::npos)
          << m.describe(outer) << ": " << format_instruction(m, f, in);
    }
  }
  EXPECT_EQ(entries, 1u);
  EXPECT_GT(total, 5u);
  EXPECT_GE(with_loc * 10, total * 9) << with_loc << " of " << total;
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryKernel,
                         testing::Combine(testing::ValuesIn(kKernels), testing::Bool()),
                         [](const auto& tp) {
                           return std::string(std::get<0>(tp.param)) +
                                  (std::get<1>(tp.param) ? "_G" : "_lineinfo");
                         });

TEST(PtxKernels, SaxpyParamsAndTheLoadsLine) {
  SKIP_WITHOUT_NVCC();
  std::uint32_t stmt = source_line("saxpy.cu", "y[i] = a * x[i] + y[i]");
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("saxpy", debug);
    const Function& k = function(m, "_Z5saxpyifPKfPf");
    EXPECT_EQ(k.kind, FunctionKind::kEntry);
    EXPECT_EQ(k.linkage, Linkage::kVisible);
    ASSERT_EQ(k.params.size(), 4u);
    EXPECT_EQ(k.params[0].size, 4u);
    EXPECT_EQ(k.params[1].type, Type::kF32);
    EXPECT_EQ(k.params[2].size, 8u);
    EXPECT_EQ(k.params[3].offset, 16u);
    EXPECT_EQ(k.param_bytes, 24u);
    // Both loads (x[i], y[i]) and the store map to the statement's line.
    std::size_t loads = 0, stores = 0;
    for (const auto& in : k.instructions) {
      if (in.op != Opcode::kLd && in.op != Opcode::kSt) continue;
      if (in.space == StateSpace::kParam) continue;
      EXPECT_EQ(in.loc.line, stmt) << format_instruction(m, k, in);
      EXPECT_TRUE(m.file_path(in.loc).ends_with("saxpy.cu"));
      EXPECT_EQ(in.type, Type::kF32);
      (in.op == Opcode::kLd ? loads : stores)++;
      if (!debug) {
      EXPECT_EQ(in.space, StateSpace::kGlobal);
    }
    }
    EXPECT_EQ(loads, 2u);
    EXPECT_EQ(stores, 1u);
  }
}

TEST(PtxKernels, ReductionUsesSharedMemoryAndBarriers) {
  SKIP_WITHOUT_NVCC();
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("reduce", debug);
    const Function& k = function(m, "_Z10reduce_sumPKfPfi");
    auto bars = all(k, Opcode::kBarSync);
    EXPECT_GE(bars.size(), 2u);
    for (const auto* b : bars) EXPECT_TRUE(b->aligned);
    std::uint32_t sync_line = source_line("reduce.cu", "__syncthreads();");
    EXPECT_EQ(bars.front()->loc.line, sync_line);
    // nvcc declares a kernel's static __shared__ arrays inside the kernel's body.
    const Variable* buf = nullptr;
    for (const auto& v : k.variables)
      if (v.space == StateSpace::kShared) buf = &v;
    ASSERT_NE(buf, nullptr);
    EXPECT_EQ(buf->size, 1024u);
    bool shared_access = false;
    for (const auto& in : k.instructions)
      if ((in.op == Opcode::kLd || in.op == Opcode::kSt) && in.space == StateSpace::kShared) shared_access = true;
    if (!debug) {
      EXPECT_TRUE(shared_access);
    }
  }
}

TEST(PtxKernels, LocalArrayLivesInTheDepot) {
  SKIP_WITHOUT_NVCC();
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("local_array", debug);
    const Function& k = function(m, "_Z11local_arrayPKiPi");
    std::uint32_t depot = k.find_variable("__local_depot0");
    ASSERT_NE(depot, kNone32);
    EXPECT_EQ(k.variables[depot].space, StateSpace::kLocal);
    EXPECT_GE(k.variables[depot].size, 128u);
    EXPECT_NE(k.find_register("%SPL"), kNoReg);
    std::size_t local_ops = 0;
    for (const auto& in : k.instructions)
      if ((in.op == Opcode::kLd || in.op == Opcode::kSt) && in.space == StateSpace::kLocal) ++local_ops;
    if (!debug) {
      EXPECT_GE(local_ops, 2u);
    }
    // The depot's address is taken with mov (symbol operand).
    bool takes_address = false;
    for (const auto& in : all(k, Opcode::kMov))
      if (in->operands[1].kind == OperandKind::kSymbol &&
          in->operands[1].symbol == SymbolRef{SymbolKind::kFunctionVar, depot})
        takes_address = true;
    EXPECT_TRUE(takes_address);
  }
}

TEST(PtxKernels, NoinlineDeviceFunctionIsCalled) {
  SKIP_WITHOUT_NVCC();
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("device_func", debug);
    const Function& f = function(m, "_Z5scaleffPi");
    EXPECT_EQ(f.kind, FunctionKind::kFunc);
    ASSERT_EQ(f.returns.size(), 1u);
    EXPECT_EQ(f.returns[0].size, 4u);
    EXPECT_GE(f.params.size(), 2u);  // nvcc may specialise the constant argument away
    const Function& k = function(m, "_Z9call_funcPfPi");
    bool found = false;
    for (const auto* c : all(k, Opcode::kCall)) {
      const Function& callee = m.functions[c->operands[0].symbol.index];
      if (callee.name != "_Z5scaleffPi") continue;
      found = true;
      EXPECT_EQ(c->call_args.size(), f.params.size());
      EXPECT_EQ(c->call_results.size(), 1u);
      EXPECT_EQ(c->loc.line, source_line("device_func.cu", "data[i] = scale("));
    }
    EXPECT_TRUE(found);
    auto atoms = all(m, Opcode::kAtom);  // with -G, atomicAdd is a function of its own
    ASSERT_FALSE(atoms.empty());
    EXPECT_EQ(atoms[0]->reduce, ReduceOp::kAdd);
    if (!debug) {
      // atomicAdd is inlined from a CUDA header into scale(): the call site is device_func.cu.
      ASSERT_NE(atoms[0]->loc.inlined_at, kNone32);
      const InlineSite& site = m.inline_sites[atoms[0]->loc.inlined_at];
      EXPECT_EQ(site.call_site.line, source_line("device_func.cu", "atomicAdd(count, 1)"));
      EXPECT_NE(site.callee.find("atomicAdd"), std::string::npos) << site.callee;
      EXPECT_TRUE(m.file_path(atoms[0]->loc).ends_with("device_atomic_functions.hpp"));
    }
  }
}

TEST(PtxKernels, PrintfCallsExternVprintf) {
  SKIP_WITHOUT_NVCC();
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("printf", debug);
    const Function& vp = function(m, "vprintf");
    EXPECT_TRUE(vp.is_declaration);
    EXPECT_EQ(vp.linkage, Linkage::kExtern);
    EXPECT_EQ(vp.params.size(), 2u);
    const Variable* str = m.find_variable("$str");
    ASSERT_NE(str, nullptr);
    ASSERT_TRUE(str->has_init);
    std::string text(str->init.begin(), str->init.end());
    EXPECT_EQ(text.substr(0, 7), "thread ");
    EXPECT_EQ(text.back(), '\0');
    bool calls = false;
    for (const auto* c : all(m, Opcode::kCall))
      if (m.functions[c->operands[0].symbol.index].name == "vprintf") calls = true;
    EXPECT_TRUE(calls);
  }
}

TEST(PtxKernels, AtomicsCoverEveryOperation) {
  SKIP_WITHOUT_NVCC();
  Module m = load_kernel_ptx("atomics", false);
  std::set<ReduceOp> ops;
  std::set<StateSpace> spaces;
  std::set<Type> types;
  for (const auto* in : all(m, Opcode::kAtom)) {
    ops.insert(in->reduce);
    spaces.insert(in->space);
    types.insert(in->type);
  }
  for (const auto* in : all(m, Opcode::kRed)) {
    ops.insert(in->reduce);
    spaces.insert(in->space);
    types.insert(in->type);
  }
  for (ReduceOp op : {ReduceOp::kAdd, ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kInc, ReduceOp::kDec,
                      ReduceOp::kAnd, ReduceOp::kOr, ReduceOp::kXor, ReduceOp::kExch, ReduceOp::kCas})
    EXPECT_TRUE(ops.contains(op)) << to_string(op);
  EXPECT_TRUE(spaces.contains(StateSpace::kShared));
  EXPECT_TRUE(spaces.contains(StateSpace::kGlobal));
  EXPECT_TRUE(types.contains(Type::kF32));
  EXPECT_TRUE(types.contains(Type::kF64));
  EXPECT_TRUE(types.contains(Type::kU64));
}

TEST(PtxKernels, WarpShufflesVotesMatchRedux) {
  SKIP_WITHOUT_NVCC();
  Module m = load_kernel_ptx("warp", false);
  std::set<ShflMode> modes;
  for (const auto* in : all(m, Opcode::kShfl)) {
    modes.insert(in->shfl);
    EXPECT_TRUE(in->sync);
    EXPECT_EQ(in->operands.size(), 5u);
    EXPECT_EQ(in->dest2.kind, OperandKind::kReg);
  }
  EXPECT_EQ(modes.size(), 4u);
  std::set<VoteMode> votes;
  for (const auto* in : all(m, Opcode::kVote)) votes.insert(in->vote);
  EXPECT_TRUE(votes.contains(VoteMode::kBallot));
  EXPECT_TRUE(votes.contains(VoteMode::kAll));
  EXPECT_TRUE(votes.contains(VoteMode::kAny));
  EXPECT_EQ(all(m, Opcode::kActivemask).size(), 1u);
  std::set<VoteMode> matches;
  for (const auto* in : all(m, Opcode::kMatch)) matches.insert(in->vote);
  EXPECT_EQ(matches.size(), 2u);
  std::set<ReduceOp> redux;
  for (const auto* in : all(m, Opcode::kRedux)) redux.insert(in->reduce);
  EXPECT_TRUE(redux.contains(ReduceOp::kAdd));
  EXPECT_TRUE(redux.contains(ReduceOp::kMin));
}

TEST(PtxKernels, DoubleMath) {
  SKIP_WITHOUT_NVCC();
  Module m = load_kernel_ptx("double_math", false);
  std::size_t f64_fma = 0;
  for (const auto* in : all(m, Opcode::kFma))
    if (in->type == Type::kF64) ++f64_fma;
  EXPECT_GT(f64_fma, 10u);
  bool sqrt = false;
  for (const auto* in : all(m, Opcode::kSqrt)) sqrt = sqrt || in->type == Type::kF64;
  EXPECT_TRUE(sqrt);
  EXPECT_FALSE(all(m, Opcode::kMadc).empty());  // sin's argument reduction uses carries
}

TEST(PtxKernels, ConstantArrayAndInitializedGlobal) {
  SKIP_WITHOUT_NVCC();
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("const_array", debug);
    const Variable* c = m.find_variable("coeffs");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->space, StateSpace::kConst);
    EXPECT_EQ(c->size, 64u);
    ASSERT_TRUE(c->has_init);
    float v[16];
    std::memcpy(v, c->init.data(), 64);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[i], static_cast<float>(i + 1));
    const Variable* counter = m.find_variable("counter");
    ASSERT_NE(counter, nullptr);
    EXPECT_EQ(counter->space, StateSpace::kGlobal);
    ASSERT_EQ(counter->init.size(), 4u);
    EXPECT_EQ(counter->init[0], 7u);
    if (!debug) {
      bool ld_const = false;
      for (const auto* in : all(m, Opcode::kLd)) ld_const = ld_const || in->space == StateSpace::kConst;
      EXPECT_TRUE(ld_const);
    }
  }
}

TEST(PtxKernels, DynamicSharedMemory) {
  SKIP_WITHOUT_NVCC();
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("dyn_shared", debug);
    const Variable* d = m.find_variable("dyn");
    ASSERT_NE(d, nullptr);
    EXPECT_TRUE(d->unsized);
    EXPECT_EQ(d->linkage, Linkage::kExtern);
    EXPECT_EQ(d->space, StateSpace::kShared);
    EXPECT_GE(d->align, 4u);
  }
}

TEST(PtxKernels, HalfAndBfloat16Conversions) {
  SKIP_WITHOUT_NVCC();
  Module m = load_kernel_ptx("half", false);
  std::set<std::pair<Type, Type>> pairs;
  for (const auto* in : all(m, Opcode::kCvt)) pairs.insert({in->type, in->src_type});
  EXPECT_TRUE(pairs.contains({Type::kF16, Type::kF32}));
  EXPECT_TRUE(pairs.contains({Type::kBF16, Type::kF32}));
  EXPECT_TRUE(pairs.contains({Type::kF32, Type::kF16}));
  EXPECT_TRUE(pairs.contains({Type::kF32, Type::kBF16}));
  EXPECT_TRUE(pairs.contains({Type::kF16x2, Type::kF32}));
  bool unpack = false;
  for (const auto* in : all(m, Opcode::kMov)) unpack = unpack || in->operands[0].kind == OperandKind::kVector;
  EXPECT_TRUE(unpack);
  bool half_add = false;
  for (const auto* in : all(m, Opcode::kAdd)) half_add = half_add || in->type == Type::kF16;
  EXPECT_TRUE(half_add);
}

TEST(PtxKernels, RoundingModesAndPackedTypes) {
  SKIP_WITHOUT_NVCC();
  Module m = load_kernel_ptx("float_modes", false);
  std::set<std::tuple<Opcode, Rounding, Type>> seen;
  for (const auto& f : m.functions)
    for (const auto& in : f.instructions) seen.insert({in.op, in.rounding, in.type});
  EXPECT_TRUE(seen.contains({Opcode::kSqrt, Rounding::kRm, Type::kF32}));
  EXPECT_TRUE(seen.contains({Opcode::kAdd, Rounding::kRz, Type::kF32}));
  EXPECT_TRUE(seen.contains({Opcode::kMul, Rounding::kRp, Type::kF32}));
  EXPECT_TRUE(seen.contains({Opcode::kDiv, Rounding::kRm, Type::kF32}));
  EXPECT_TRUE(seen.contains({Opcode::kSqrt, Rounding::kRz, Type::kF64}));
  EXPECT_TRUE(seen.contains({Opcode::kCvt, Rounding::kRni, Type::kS32}));
  EXPECT_TRUE(seen.contains({Opcode::kCvt, Rounding::kRzi, Type::kF32}));
  EXPECT_TRUE(seen.contains({Opcode::kFma, Rounding::kRn, Type::kF16x2}));
  EXPECT_TRUE(seen.contains({Opcode::kAdd, Rounding::kNone, Type::kU16x2}));
  EXPECT_TRUE(seen.contains({Opcode::kSet, Rounding::kNone, Type::kF16x2}));
  bool mulhi64 = false;
  for (const auto* in : all(m, Opcode::kMul)) mulhi64 = mulhi64 || (in->mul == MulMode::kHi && in->type == Type::kU64);
  EXPECT_TRUE(mulhi64);
  EXPECT_NO_THROW(load_kernel_ptx("float_modes", true));
}

TEST(PtxKernels, Misc) {
  SKIP_WITHOUT_NVCC();
  for (bool debug : {false, true}) {
    Module m = load_kernel_ptx("misc", debug);
    std::size_t entries = 0;
    for (const auto& f : m.functions) entries += f.kind == FunctionKind::kEntry;
    EXPECT_EQ(entries, 5u);
    // A function-pointer table initialised with function addresses.
    const Variable* table = m.find_variable("fptr");
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->relocations.size(), 2u);
    EXPECT_EQ(table->relocations[0].symbol.kind, SymbolKind::kFunction);
    EXPECT_EQ(m.functions[table->relocations[1].symbol.index].name, "_Z2fbi");
    EXPECT_EQ(table->relocations[1].offset, 8u);
    EXPECT_TRUE(m.find_variable("managed_v")->managed);
    bool indirect = false, assertfail = false;
    for (const auto* c : all(m, Opcode::kCall)) {
      indirect = indirect || c->operands[0].kind == OperandKind::kReg;
      if (c->operands[0].kind == OperandKind::kSymbol)
        assertfail = assertfail || m.functions[c->operands[0].symbol.index].name == "__assertfail";
    }
    EXPECT_TRUE(indirect);
    EXPECT_TRUE(assertfail);
    EXPECT_FALSE(all(m, Opcode::kAlloca).empty());
    const Function& clus = function(m, "_Z4clusPi");
    EXPECT_TRUE(clus.explicitcluster);
    EXPECT_EQ(clus.reqnctapercluster, (std::array<std::uint32_t, 3>{2, 1, 1}));
    const Function& lb = function(m, "_Z2lbPf");
    EXPECT_EQ(lb.maxntid, (std::array<std::uint32_t, 3>{256, 1, 1}));
    EXPECT_EQ(lb.minnctapersm, 2u);
    const Function& gc = function(m, "_Z10grid_const1SPi");
    EXPECT_EQ(gc.params[0].size, 32u);
    EXPECT_EQ(gc.params[0].align, 8u);
    EXPECT_EQ(gc.params[1].offset, 32u);
    if (!debug) {
      std::set<std::pair<MemOrder, Scope>> orders;
      for (const auto* in : all(m, Opcode::kAtom)) orders.insert({in->order, in->scope});
      EXPECT_TRUE(orders.contains({MemOrder::kAcqRel, Scope::kGpu}));
      EXPECT_TRUE(orders.contains({MemOrder::kNone, Scope::kCta}));
      EXPECT_TRUE(orders.contains({MemOrder::kNone, Scope::kSys}));
      std::set<CacheOperator> caches;
      for (const auto* in : all(m, Opcode::kLd)) caches.insert(in->cache);
      for (const auto* in : all(m, Opcode::kSt)) caches.insert(in->cache);
      EXPECT_TRUE(caches.contains(CacheOperator::kCg));
      EXPECT_TRUE(caches.contains(CacheOperator::kCs));
      EXPECT_TRUE(caches.contains(CacheOperator::kWt));
      bool nc = false;
      for (const auto* in : all(m, Opcode::kLd)) nc = nc || in->non_coherent;
      EXPECT_TRUE(nc);
    }
  }
}

}  // namespace
}  // namespace warpscope::ptx
