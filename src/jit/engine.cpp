// The JIT's engine: LLVM's ORC LLJIT for the host CPU, one module per kernel, optimized with
// LLVM's O1 pipeline before code generation (jit.hpp). WARPSCOPE_JIT_DUMP=1 prints each module's
// optimized IR on stderr.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "jit/emit.hpp"
#include "jit/jit.hpp"

namespace warpscope::jit {

namespace {

std::mutex g_stats_mutex;
Stats g_stats;

class LlvmCompiler final : public exec::SegmentCompiler {
 public:
  static std::unique_ptr<LlvmCompiler> create() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) {
      llvm::consumeError(jtmb.takeError());
      return nullptr;
    }
    // Chosen on bench/jit_bench and the corpus tests (a loaded 2-core machine, so roughly): LLVM's
    // O1 pipeline and default code generation. O2 and aggressive code generation took longer to
    // compile and gave no measurably faster code; no code-generation optimization compiled in
    // half the time but ran matmul at half the speed.
    jtmb->setCodeGenOptLevel(llvm::CodeGenOpt::Default);
    auto tm = jtmb->createTargetMachine();
    if (!tm) {
      llvm::consumeError(tm.takeError());
      return nullptr;
    }
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*jtmb).create();
    if (!jit) {
      llvm::consumeError(jit.takeError());
      return nullptr;
    }
    auto c = std::unique_ptr<LlvmCompiler>(new LlvmCompiler);
    c->tm_ = std::move(*tm);
    c->jit_ = std::move(*jit);
    return c;
  }

  std::unique_ptr<exec::SegmentTable> compile(const exec::KernelImage& k) override {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<Run> runs = find_runs(k);
    if (runs.empty()) return nullptr;
    std::lock_guard lock(mutex_);
    // The same code (a module loaded again, by another Device or test) reuses its segments:
    // compiled code refers to instructions through SegFrame::code only.
    const std::string key = code_key(k);
    if (auto it = done_.find(key); it != done_.end()) {
      auto table = std::make_unique<exec::SegmentTable>();
      table->at.resize(k.code.size());
      table->code = k.code.data();
      for (const auto& [pc, seg] : it->second) table->at[pc] = seg;
      return table;
    }
    const std::string prefix = fmt::format("ws{}", next_++);
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto mod = std::make_unique<llvm::Module>(prefix, *ctx);
    mod->setDataLayout(jit_->getDataLayout());
    mod->setTargetTriple(jit_->getTargetTriple().str());
    const std::uint64_t native = emit_segments(*mod, k, runs, prefix);
    for (llvm::Function& f : *mod) {
      f.addFnAttr("target-cpu", tm_->getTargetCPU());
      f.addFnAttr("target-features", tm_->getTargetFeatureString());
      // 32 lanes of 32 or 64 bits: whole 512-bit registers where the CPU has them.
      if (tm_->getTargetFeatureString().contains("+avx512f")) f.addFnAttr("prefer-vector-width", "512");
    }
    if (llvm::verifyModule(*mod, &llvm::errs())) return nullptr;
    optimize(*mod);
    if (std::getenv("WARPSCOPE_JIT_DUMP") != nullptr) mod->print(llvm::errs(), nullptr);  // debugging aid
    if (auto err = jit_->addIRModule(llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx)))) {
      llvm::consumeError(std::move(err));
      return nullptr;
    }
    auto table = std::make_unique<exec::SegmentTable>();
    table->at.resize(k.code.size());
    table->code = k.code.data();
    std::uint64_t insts = 0;
    for (const Run& r : runs) {
      auto addr = jit_->lookup(fmt::format("{}_{}", prefix, r.begin));
      if (!addr) {
        llvm::consumeError(addr.takeError());
        return nullptr;
      }
      table->at[r.begin] = exec::Segment{addr->toPtr<exec::SegFn>(), r.end};
      insts += r.end - r.begin;
    }
    auto& kept = done_[key];
    for (const Run& r : runs) kept.emplace_back(r.begin, table->at[r.begin]);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard slock(g_stats_mutex);
    g_stats.kernels += 1;
    g_stats.segments += runs.size();
    g_stats.instructions += insts;
    g_stats.native += native;
    g_stats.compile_seconds += secs;
    return table;
  }

 private:
  LlvmCompiler() = default;

  void optimize(llvm::Module& m) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm_.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1);
    mpm.run(m, mam);
  }

  /// Everything the segments' code depends on: per instruction its control class, branch
  /// target and reconvergence point, guard, operand slots, immediate, vector length and
  /// description (exec::describe), and the functions' entries.
  static std::string code_key(const exec::KernelImage& k) {
    std::string key;
    auto put = [&](const auto& v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
    put(k.code.size());
    for (std::uint32_t pc = 0; pc < k.code.size(); ++pc) {
      const exec::Inst& in = k.code[pc];
      const exec::JitDesc d = exec::describe(k, pc);
      put(in.ctl);
      put(in.guard);
      put(in.guard_neg);
      put(in.flags);
      put(in.vec);
      put(in.d);
      put(in.d2);
      put(in.a);
      put(in.b);
      put(in.c);
      put(in.e);
      put(in.v);
      put(in.imm);
      put(in.target);
      put(in.aux);
      put(in.aux2);
      put(d.op);
      put(d.bits);
      put(d.sgn);
      put(d.flt);
      put(d.cmp);
      put(d.space);
      put(d.elem);
    }
    for (const exec::FuncImage& f : k.funcs) put(f.begin);
    return key;
  }

  std::mutex mutex_;
  std::uint64_t next_ = 0;
  std::map<std::string, std::vector<std::pair<std::uint32_t, exec::Segment>>> done_;
  std::unique_ptr<llvm::TargetMachine> tm_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

/// Sets LLVM up on the first kernel compiled, so that a process that never launches without
/// statistics pays nothing for it.
class LazyCompiler final : public exec::SegmentCompiler {
 public:
  std::unique_ptr<exec::SegmentTable> compile(const exec::KernelImage& k) override {
    std::call_once(once_, [&] { compiler_ = LlvmCompiler::create().release(); });
    return compiler_ != nullptr ? compiler_->compile(k) : nullptr;
  }

 private:
  std::once_flag once_;
  LlvmCompiler* compiler_ = nullptr;  // never destroyed: compiled code lives until the process ends
};

}  // namespace

bool install() {
  static LazyCompiler* const compiler = new LazyCompiler;
  exec::set_segment_compiler(compiler);
  return true;
}

bool built_in() { return true; }

std::string describe() {
  return "native segments (LLVM JIT) for launches without a sanitizer (profiled ones once their kernel has run "
         "2^26 warp instructions, WARPSCOPE_JIT_TRACED_AFTER); WARPSCOPE_JIT=0 turns them off";
}

Stats stats() {
  std::lock_guard lock(g_stats_mutex);
  return g_stats;
}

}  // namespace warpscope::jit
