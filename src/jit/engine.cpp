// The JIT's engine: LLVM's ORC LLJIT for the host CPU, one module per kernel, optimized with
// LLVM's O1 pipeline before code generation (jit.hpp), compiled to an object file that is kept in
// the disk cache (cache.hpp) and loaded into the JIT; a kernel whose object is cached is loaded
// without LLVM compiling anything. WARPSCOPE_JIT_DUMP=1 prints each module's
// optimized IR on stderr.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "jit/cache.hpp"
#include "jit/emit.hpp"
#include "jit/jit.hpp"

namespace warpscope::jit {

namespace {

std::mutex g_stats_mutex;
Stats g_stats;

class LlvmCompiler final : public exec::SegmentCompiler {
 public:
  static std::unique_ptr<LlvmCompiler> create(const Options& options) {
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
    c->jit_ = std::shared_ptr<llvm::orc::LLJIT>(std::move(*jit));
    // What the code depends on besides the kernel: the JIT's version and layouts (emit_key), LLVM,
    // the CPU.
    c->env_key_ = fmt::format("warpscope-jit {}\nllvm {}\n{}\n{}\n{}\n{}\n", kCodeVersion, LLVM_VERSION_STRING,
                              c->jit_->getTargetTriple().str(), c->tm_->getTargetCPU().str(),
                              c->tm_->getTargetFeatureString().str(), emit_key());
    if (options.cache && !options.cache_dir.empty()) {
      c->cache_ = std::make_unique<CodeCache>(options.cache_dir, options.notes);
    }
    c->notes_ = options.notes;
    return c;
  }

  std::unique_ptr<exec::SegmentTable> compile(const exec::KernelImage& k) override {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<Run> runs = find_runs(k);
    if (runs.empty()) return nullptr;
    std::lock_guard lock(mutex_);
    // The same code (a module loaded again, by another Device or test) reuses its segments:
    // compiled code refers to instructions through SegFrame::code only.
    const Digest key = sha256(env_key_ + code_key(k));
    const std::string name = hex(key);
    if (auto it = done_.find(name); it != done_.end()) {
      auto table = new_table(k);
      for (const auto& [pc, seg] : it->second) table->at[pc] = seg;
      return table;
    }
    // Symbols named by the key: a cached object defines the names it was compiled with.
    std::string prefix = "ws" + name.substr(0, 32);
    std::uint64_t native = 0;
    std::unique_ptr<exec::SegmentTable> table;
    Stats add;
    bool renamed = false;  // a cached object LLVM could not load took the key's names
    if (cache_ != nullptr) {
      bool rejected = false;
      if (auto entry = cache_->load(key, rejected)) {
        table = link(entry->object, prefix, k, runs);
        if (table != nullptr) {
          native = entry->native;
          add.cache_loads = 1;
        } else {
          if (notes_) {
            std::fprintf(stderr, "warpscope: JIT cache: ignoring %s (LLVM could not load it); compiling the kernel again\n",
                         cache_->path(key).c_str());
          }
          rejected = renamed = true;
          prefix += "r";  // the failed object's names may be taken (and this object is not stored)
        }
      }
      add.cache_rejects = rejected ? 1 : 0;
    }
    if (table == nullptr) {
      std::string object;
      if (!build(k, runs, prefix, object, native)) return nullptr;
      table = link(object, prefix, k, runs);
      if (table == nullptr) return nullptr;
      if (cache_ != nullptr && !renamed && cache_->store(key, object, native)) add.cache_stores = 1;
    }
    auto& kept = done_[name];
    std::uint64_t insts = 0;
    for (const Run& r : runs) {
      kept.emplace_back(r.begin, table->at[r.begin]);
      insts += r.end - r.begin;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard slock(g_stats_mutex);
    g_stats.kernels += 1;
    g_stats.segments += runs.size();
    g_stats.instructions += insts;
    g_stats.native += native;
    g_stats.compile_seconds += secs;
    g_stats.cache_loads += add.cache_loads;
    g_stats.cache_stores += add.cache_stores;
    g_stats.cache_rejects += add.cache_rejects;
    return table;
  }

 private:
  LlvmCompiler() = default;

  std::unique_ptr<exec::SegmentTable> new_table(const exec::KernelImage& k) const {
    auto table = std::make_unique<exec::SegmentTable>();
    table->at.resize(k.code.size());
    table->code = k.code.data();
    table->owner = jit_;  // the compiled code lives while a kernel uses it
    return table;
  }

  /// The kernel's segments as one object file (LLVM IR, O1, machine code for this CPU).
  bool build(const exec::KernelImage& k, const std::vector<Run>& runs, const std::string& prefix, std::string& object,
             std::uint64_t& native) {
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto mod = std::make_unique<llvm::Module>(prefix, *ctx);
    mod->setDataLayout(jit_->getDataLayout());
    mod->setTargetTriple(jit_->getTargetTriple().str());
    native = emit_segments(*mod, k, runs, prefix);
    for (llvm::Function& f : *mod) {
      f.addFnAttr("target-cpu", tm_->getTargetCPU());
      f.addFnAttr("target-features", tm_->getTargetFeatureString());
      // 32 lanes of 32 or 64 bits: whole 512-bit registers where the CPU has them.
      if (tm_->getTargetFeatureString().contains("+avx512f")) f.addFnAttr("prefer-vector-width", "512");
    }
    if (llvm::verifyModule(*mod, &llvm::errs())) return false;
    optimize(*mod);
    if (std::getenv("WARPSCOPE_JIT_DUMP") != nullptr) mod->print(llvm::errs(), nullptr);  // debugging aid
    auto obj = llvm::orc::SimpleCompiler(*tm_)(*mod);
    if (!obj) {
      llvm::consumeError(obj.takeError());
      return false;
    }
    object = (*obj)->getBuffer().str();
    return true;
  }

  /// Adds an object file to the JIT and finds its segment functions `<prefix>_<begin>` (the
  /// linker resolves what the code refers to, at load: no address is kept in the object).
  std::unique_ptr<exec::SegmentTable> link(const std::string& object, const std::string& prefix,
                                           const exec::KernelImage& k, const std::vector<Run>& runs) {
    if (auto err = jit_->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(object, prefix))) {
      llvm::consumeError(std::move(err));
      return nullptr;
    }
    auto table = new_table(k);
    for (const Run& r : runs) {
      auto addr = jit_->lookup(fmt::format("{}_{}", prefix, r.begin));
      if (!addr) {
        llvm::consumeError(addr.takeError());
        return nullptr;
      }
      table->at[r.begin] = exec::Segment{addr->toPtr<exec::SegFn>(), r.end};
    }
    return table;
  }

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

  /// Everything the segments' code depends on in the kernel (with env_key_: the disk cache's key;
  /// the PTX itself only through what it decoded to): per instruction its control class, branch
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
      put(d.src_bits);
      put(d.src_sgn);
      put(d.rnd);
    }
    for (const exec::FuncImage& f : k.funcs) put(f.begin);
    // The slots the emitter treats as external (emit.cpp: never segment-local).
    put(k.num_slots);
    put(k.cc_slot);
    put(k.operand_lists.empty());
    put(k.calls.size());
    for (const exec::CallInfo& ci : k.calls) {
      for (const auto* list : {&ci.args, &ci.results}) {
        put(list->size());
        for (const exec::CallInfo::Copy& c : *list) {
          put(c.caller_slot);
          put(c.callee_slot);
        }
      }
    }
    put(k.consts.size());
    for (const auto& [slot, value] : k.consts) put(slot);
    put(k.sregs.size());
    for (const exec::SregSlot& r : k.sregs) put(r.slot);
    return key;
  }

  std::mutex mutex_;
  std::map<std::string, std::vector<std::pair<std::uint32_t, exec::Segment>>> done_;  // by key (hex)
  std::unique_ptr<llvm::TargetMachine> tm_;
  std::shared_ptr<llvm::orc::LLJIT> jit_;
  std::string env_key_;
  std::unique_ptr<CodeCache> cache_;  // null: no disk cache
  bool notes_ = true;
};

/// Sets LLVM up on the first kernel compiled, so that a process that never launches without
/// statistics pays nothing for it.
class LazyCompiler final : public exec::SegmentCompiler {
 public:
  std::unique_ptr<exec::SegmentTable> compile(const exec::KernelImage& k) override {
    std::call_once(once_, [&] { compiler_ = LlvmCompiler::create(options_from_env()).release(); });
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

std::unique_ptr<exec::SegmentCompiler> make_compiler(const Options& options) { return LlvmCompiler::create(options); }

bool built_in() { return true; }

std::string describe() {
  return "native segments (LLVM JIT) for launches without a sanitizer (profiled ones once their kernel has run "
         "2^26 warp instructions, WARPSCOPE_JIT_TRACED_AFTER), compiled code kept in $WARPSCOPE_CACHE_DIR/jit "
         "(default ~/.cache/warpscope/jit); WARPSCOPE_JIT=0 turns them off, WARPSCOPE_JIT_CACHE=0 the cache";
}

Stats stats() {
  std::lock_guard lock(g_stats_mutex);
  return g_stats;
}

}  // namespace warpscope::jit
