// LLVM IR of one kernel's segments (emit.hpp). Each segment function takes a SegFrame*; a
// register slot is a <32 x i64> vector in the warp's register file, the execution mask an i32
// (and a <32 x i1> for selects, gathers and scatters). The body is emitted twice: once for a
// full warp (mask constant, no selects) and once for any mask. What an arithmetic instruction
// computes is arith.cpp's. In a profiled launch (SegFrame::traced) loads and stores take their
// slow path, a call of the semantic function, which makes the access records; everything else is
// the same code.
#include "jit/emit.hpp"

#include <bit>
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>

#include "exec/memory.hpp"
#include "jit/arith.hpp"

namespace warpscope::jit {

using exec::Inst;
using exec::JitDesc;
using exec::JitOp;
using exec::kLanes;
using exec::kNoSlot;

namespace {

constexpr unsigned kN = kLanes;

class Emitter {
 public:
  Emitter(llvm::Module& m, const exec::KernelImage& k)
      : m_(m), k_(k), c_(m.getContext()), b_(c_), arith_(b_, [this](std::uint32_t slot) { return load(slot); }) {
    i1_ = b_.getInt1Ty();
    i8_ = b_.getInt8Ty();
    i32_ = b_.getInt32Ty();
    i64_ = b_.getInt64Ty();
    ptr_ = llvm::PointerType::get(c_, 0);
    v64_ = llvm::FixedVectorType::get(i64_, kN);
    vmask_ = llvm::FixedVectorType::get(i1_, kN);
    llvm::MDBuilder md(c_);
    llvm::MDNode* domain = md.createAnonymousAliasScopeDomain("ws");
    llvm::MDNode* regs = md.createAnonymousAliasScope(domain, "regs");
    llvm::MDNode* mem = md.createAnonymousAliasScope(domain, "mem");
    regs_scope_ = llvm::MDNode::get(c_, {regs});
    mem_scope_ = llvm::MDNode::get(c_, {mem});
    // Where each slot is named (any operand field of any instruction), and the slots something
    // other than instructions reads or writes: calls' argument and result copies, constants,
    // special registers, the carry flag; with per-instruction operand lists (matrix
    // instructions), every slot.
    first_ref_.assign(k.num_slots, exec::kNoPc);
    last_ref_.assign(k.num_slots, 0);
    external_.assign(k.num_slots, k.operand_lists.empty() ? 0 : 1);
    for (std::uint32_t pc = 0; pc < k.code.size(); ++pc) {
      for (std::uint32_t slot : fields(k.code[pc])) {
        if (slot >= k.num_slots) continue;
        first_ref_[slot] = std::min(first_ref_[slot], pc);
        last_ref_[slot] = std::max(last_ref_[slot], pc);
      }
    }
    auto ext = [&](std::uint32_t slot) {
      if (slot < k.num_slots) external_[slot] = 1;
    };
    for (const exec::CallInfo& ci : k.calls) {
      for (const auto* list : {&ci.args, &ci.results}) {
        for (const exec::CallInfo::Copy& c : *list) {
          ext(c.caller_slot);
          ext(c.callee_slot);
        }
      }
    }
    for (const auto& [slot, value] : k.consts) ext(slot);
    for (const exec::SregSlot& r : k.sregs) ext(r.slot);
    ext(k.cc_slot);
  }

  /// Emits the segment [begin, end) as function `name`; counts its native instructions.
  void segment(const std::string& name, std::uint32_t begin, std::uint32_t end, std::uint64_t& native) {
    auto* fty = llvm::FunctionType::get(i32_, {ptr_}, false);
    fn_ = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, name, m_);
    fn_->addFnAttr(llvm::Attribute::NoUnwind);
    fn_->addParamAttr(0, llvm::Attribute::NoAlias);
    frame_ = fn_->getArg(0);
    auto* entry = llvm::BasicBlock::Create(c_, "entry", fn_);
    b_.SetInsertPoint(entry);
    x_ = field(offsetof(exec::SegFrame, x), ptr_);
    code_ = field(offsetof(exec::SegFrame, code), ptr_);
    call_ = field(offsetof(exec::SegFrame, call), ptr_);
    regs_ = field(offsetof(exec::SegFrame, regs), ptr_);
    pct_ = field(offsetof(exec::SegFrame, pc_thread), ptr_);
    count_ = field(offsetof(exec::SegFrame, count), i64_);
    auto* active = field(offsetof(exec::SegFrame, active), i32_);
    run_lanes_ = b_.CreateZExt(field(offsetof(exec::SegFrame, run_lanes), i32_), i64_);
    traced_ = b_.CreateICmpNE(field(offsetof(exec::SegFrame, traced), i32_), b_.getInt32(0));
    shared_ = b_.CreateLoad(ptr_, b_.CreateConstInBoundsGEP1_64(i8_, x_, offsetof(exec::Ctx, shared)));
    shared_size_ = b_.CreateLoad(i64_, b_.CreateConstInBoundsGEP1_64(i8_, x_, offsetof(exec::Ctx, shared_size)));
    locals_.clear();
    for (std::uint32_t slot : segment_locals(begin, end)) locals_[slot] = b_.CreateAlloca(v64_);
    find_chains(begin, end);
    auto* full = llvm::BasicBlock::Create(c_, "full", fn_);
    auto* part = llvm::BasicBlock::Create(c_, "part", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(active, b_.getInt32(~0u)), full, part);
    for (int pass = 0; pass < 2; ++pass) {
      b_.SetInsertPoint(pass == 0 ? full : part);
      if (pass == 1 && !partial_) {
        // Only full warps run natively: a split warp interprets (half the code to compile).
        b_.CreateRet(b_.getInt32(exec::kSegNotRun));
        break;
      }
      active_ = pass == 0 ? static_cast<llvm::Value*>(b_.getInt32(~0u)) : active;
      lanes_ = b_.getInt64(0);
      std::uint64_t n = 0;
      for (std::uint32_t pc = begin; pc < end; ++pc) n += instruction(pc, pc - begin);
      b_.CreateStore(lanes_, fpt(offsetof(exec::SegFrame, lanes)));
      b_.CreateRet(b_.getInt32(0));
      if (pass == 0) native += n;
    }
  }

 private:
  llvm::Value* fpt(std::size_t off) { return b_.CreateConstInBoundsGEP1_64(i8_, frame_, off); }
  llvm::Value* field(std::size_t off, llvm::Type* t) { return b_.CreateLoad(t, fpt(off)); }
  /// Every slot an instruction names.
  static std::vector<std::uint32_t> fields(const Inst& in) {
    std::vector<std::uint32_t> f = {in.guard, in.d, in.d2, in.a, in.b, in.c, in.e, in.v[0], in.v[1], in.v[2], in.v[3]};
    std::erase(f, kNoSlot);
    return f;
  }

  /// The slots that live only inside the segment [begin, end): named by no instruction outside
  /// it and by nothing but native arithmetic inside it, and written (by an unguarded instruction)
  /// before each read. They live in the function's own memory (promoted to SSA values by LLVM)
  /// instead of the register file: nothing after the segment can read them.
  std::vector<std::uint32_t> segment_locals(std::uint32_t begin, std::uint32_t end) {
    std::vector<char> ok(k_.num_slots, 0), written(k_.num_slots, 0);
    for (std::uint32_t slot = 0; slot < k_.num_slots; ++slot) {
      ok[slot] = !external_[slot] && first_ref_[slot] >= begin && first_ref_[slot] != exec::kNoPc && last_ref_[slot] < end;
    }
    for (std::uint32_t pc = begin; pc < end; ++pc) {
      const Inst& in = k_.code[pc];
      const JitDesc d = exec::describe(k_, pc);
      if (d.op == JitOp::kNone) {
        for (std::uint32_t slot : fields(in)) ok[slot] = 0;  // read from the register file
        continue;
      }
      // (A load's or store's semantic function, its slow path, gets its slots through the
      // register file: memory() copies them there and back.)
      const bool load = d.op == JitOp::kLd;
      for (std::uint32_t slot : {in.guard, in.a, in.b, in.c, in.e, in.d2}) {
        if (slot != kNoSlot && !written[slot]) ok[slot] = 0;
      }
      std::vector<std::uint32_t> defs;
      for (std::uint32_t slot : in.v) {
        if (slot == kNoSlot) continue;
        if (load) defs.push_back(slot);
        else if (!written[slot]) ok[slot] = 0;
      }
      if (!load && d.op != JitOp::kSt) defs.push_back(in.d);
      for (std::uint32_t slot : defs) {
        if (in.guard != kNoSlot && !written[slot]) ok[slot] = 0;  // a guarded write keeps lanes
      }
      for (std::uint32_t slot : defs) written[slot] = 1;
    }
    std::vector<std::uint32_t> out;
    for (std::uint32_t slot = 0; slot < k_.num_slots; ++slot) {
      if (ok[slot]) out.push_back(slot);
    }
    return out;
  }

  llvm::Value* slot_ptr(std::uint32_t slot) {
    if (auto it = locals_.find(slot); it != locals_.end()) return it->second;
    return b_.CreateConstInBoundsGEP1_64(i8_, regs_, std::uint64_t(slot) * kN * 8);
  }
  llvm::Value* load(std::uint32_t slot) {
    auto* l = b_.CreateAlignedLoad(v64_, slot_ptr(slot), llvm::Align(8));
    l->setMetadata(llvm::LLVMContext::MD_alias_scope, regs_scope_);
    l->setMetadata(llvm::LLVMContext::MD_noalias, mem_scope_);
    return l;
  }
  /// Writes v to the slot's active lanes (mvec: null for all).
  void store(std::uint32_t slot, llvm::Value* v, llvm::Value* mvec) {
    if (mvec != nullptr) v = b_.CreateSelect(mvec, v, load(slot));
    auto* s = b_.CreateAlignedStore(v, slot_ptr(slot), llvm::Align(8));
    s->setMetadata(llvm::LLVMContext::MD_alias_scope, regs_scope_);
    s->setMetadata(llvm::LLVMContext::MD_noalias, mem_scope_);
  }
  llvm::Type* vint(unsigned bits) { return llvm::FixedVectorType::get(b_.getIntNTy(bits), kN); }
  llvm::Value* splat64(std::uint64_t v) { return llvm::ConstantInt::get(v64_, v); }
  llvm::Value* trunc(llvm::Value* v, unsigned bits) { return bits >= 64 ? v : b_.CreateTrunc(v, vint(bits)); }
  llvm::Value* popcount(llvm::Value* m) {
    return b_.CreateZExt(b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, m), i64_);
  }
  llvm::Value* is_full(llvm::Value* m) {
    auto* c = llvm::dyn_cast<llvm::ConstantInt>(m);
    return c != nullptr && c->getZExtValue() == 0xffffffffu ? b_.getTrue() : nullptr;
  }

  /// Emits instruction pc (index i in the segment); returns 1 when it is native code.
  unsigned instruction(std::uint32_t pc, std::uint32_t i) {
    const Inst& in = k_.code[pc];
    llvm::Value* m = active_;
    if (in.guard != kNoSlot) {
      llvm::Value* g = b_.CreateBitCast(b_.CreateTrunc(load(in.guard), vmask_), i32_);
      if (in.guard_neg) g = b_.CreateNot(g);
      m = b_.CreateAnd(m, g);
      // warp.cpp: the lanes the guard turned off leave this pc's thread count.
      llvm::Value* off = b_.CreateSub(run_lanes_, popcount(m));
      llvm::Value* p0 = b_.CreateConstInBoundsGEP1_64(i64_, pct_, pc);
      llvm::Value* p1 = b_.CreateConstInBoundsGEP1_64(i64_, pct_, pc + 1);
      b_.CreateStore(b_.CreateSub(b_.CreateLoad(i64_, p0), off), p0);
      b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, p1), off), p1);
    }
    lanes_ = b_.CreateAdd(lanes_, popcount(m));
    const JitDesc d = exec::describe(k_, pc);
    llvm::Value* mvec = is_full(m) != nullptr ? nullptr : b_.CreateBitCast(m, vmask_);
    if (d.op == JitOp::kLd || d.op == JitOp::kSt) {
      auto it = chain_of_.find(pc);
      if (it != chain_of_.end() && mvec == nullptr) {
        Chain& c = chains_[it->second];
        if (c.head == pc) check_chain(c);
        chained(in, d, m, pc, i, c);
      } else {
        memory(in, d, m, mvec, pc, i);
      }
      return 1;
    }
    llvm::Value* r = arith_.compute(in, d);
    if (r == nullptr) {
      callout(pc, i, m);
      return 0;
    }
    store(in.d, r, mvec);
    return 1;
  }

  /// A call of the instruction's semantic function for mask m (skipped when m is 0); a fault
  /// returns i + 1 from the segment.
  void callout(std::uint32_t pc, std::uint32_t i, llvm::Value* m) {
    llvm::BasicBlock* call = llvm::BasicBlock::Create(c_, "call", fn_);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(c_, "next", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(m, b_.getInt32(0)), call, next);
    b_.SetInsertPoint(call);
    emit_call(pc, i, m, next);
    b_.SetInsertPoint(next);
  }
  void emit_call(std::uint32_t pc, std::uint32_t i, llvm::Value* m, llvm::BasicBlock* next) {
    auto* cty = llvm::FunctionType::get(i32_, {ptr_, ptr_, i32_, i64_}, false);
    llvm::Value* inst = b_.CreateConstInBoundsGEP1_64(i8_, code_, std::uint64_t(pc) * sizeof(Inst));
    llvm::Value* count = b_.CreateAdd(count_, b_.getInt64(i + 1));
    llvm::CallInst* r = b_.CreateCall(cty, call_, {inst, frame_, m, count});
    llvm::BasicBlock* fault = llvm::BasicBlock::Create(c_, "fault", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(r, b_.getInt32(0)), fault, next);
    b_.SetInsertPoint(fault);
    b_.CreateStore(lanes_, fpt(offsetof(exec::SegFrame, lanes)));
    b_.CreateRet(b_.getInt32(i + 1));
  }

  /// Region::contains(addr, w) for every active lane of `mv`, and aligned, for the allocation at
  /// `region` (false when it is null): {all fine, host base, addr - base}.
  std::tuple<llvm::Value*, llvm::Value*, llvm::Value*> region_check(llvm::Value* region, llvm::Value* addr,
                                                                    llvm::Value* aligned, llvm::Value* mv, unsigned w) {
    llvm::BasicBlock* have = llvm::BasicBlock::Create(c_, "mregion", fn_);
    llvm::BasicBlock* none = llvm::BasicBlock::Create(c_, "mnone", fn_);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(c_, "mjoin", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(region, llvm::ConstantPointerNull::get(ptr_)), none, have);
    b_.SetInsertPoint(have);
    llvm::Value* base = b_.CreateLoad(i64_, b_.CreateConstInBoundsGEP1_64(i8_, region, offsetof(exec::Region, base)));
    llvm::Value* size = b_.CreateLoad(i64_, b_.CreateConstInBoundsGEP1_64(i8_, region, offsetof(exec::Region, size)));
    llvm::Value* host = b_.CreateLoad(ptr_, b_.CreateConstInBoundsGEP1_64(i8_, region, offsetof(exec::Region, host)));
    // addr >= base, addr - base <= size - w, size >= w
    llvm::Value* index = b_.CreateSub(addr, b_.CreateVectorSplat(kN, base));
    llvm::Value* above = b_.CreateICmpUGE(addr, b_.CreateVectorSplat(kN, base));
    llvm::Value* room = b_.CreateSub(size, b_.getInt64(w));
    llvm::Value* fits = b_.CreateICmpUGE(size, b_.getInt64(w));
    llvm::Value* ok = b_.CreateAnd(aligned, b_.CreateAnd(above, b_.CreateICmpULE(index, b_.CreateVectorSplat(kN, room))));
    ok = b_.CreateAnd(ok, b_.CreateVectorSplat(kN, fits));
    llvm::Value* bad = b_.CreateAnd(mv, b_.CreateNot(ok));
    llvm::Value* good = b_.CreateICmpEQ(b_.CreateBitCast(bad, i32_), b_.getInt32(0));
    llvm::BasicBlock* from = b_.GetInsertBlock();
    b_.CreateBr(join);
    b_.SetInsertPoint(none);
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    llvm::PHINode* g = b_.CreatePHI(i1_, 2);
    g->addIncoming(good, from);
    g->addIncoming(b_.getFalse(), none);
    llvm::PHINode* h = b_.CreatePHI(ptr_, 2);
    h->addIncoming(host, from);
    h->addIncoming(llvm::ConstantPointerNull::get(ptr_), none);
    llvm::PHINode* ix = b_.CreatePHI(v64_, 2);
    ix->addIncoming(index, from);
    ix->addIncoming(llvm::PoisonValue::get(v64_), none);
    return {g, h, ix};
  }

  /// The access itself, every active lane's address known good: lane l at host + index[l].
  /// `uniform` / `consec` (full warps; null: tested here): each group of 8 lanes on one address /
  /// on consecutive elements.
  void access(const Inst& in, const JitDesc& d, llvm::Value* host, llvm::Value* index, llvm::Value* mvec,
              llvm::Value* mv, llvm::BasicBlock* next, llvm::Value* uniform, llvm::Value* consec) {
    const unsigned e = d.elem;
    const unsigned w = e * in.vec;
    llvm::Type* et = b_.getIntNTy(e * 8);
    llvm::Type* evt = vint(e * 8);
    if (mvec == nullptr && (d.op == JitOp::kLd || in.vec == 1)) {
      // A full warp whose groups of 8 lanes each read one address (broadcasts: a load per group)
      // or each touch consecutive elements (a vector load or store per group, in lane order);
      // other shapes gather and scatter.
      constexpr unsigned kG = 8, kGroups = kN / kG;
      std::vector<int> base_mask(kN), spread(kN);
      std::vector<llvm::Constant*> offs;
      for (unsigned l = 0; l < kN; ++l) {
        base_mask[l] = static_cast<int>(l / kG * kG);
        spread[l] = static_cast<int>(l / kG);
        offs.push_back(b_.getInt64(std::uint64_t(l % kG) * w));
      }
      llvm::Value* base = b_.CreateShuffleVector(index, base_mask);
      auto all = [&](llvm::Value* cmp) { return b_.CreateICmpEQ(b_.CreateBitCast(cmp, i32_), b_.getInt32(~0u)); };
      llvm::Value* p[kGroups];
      for (unsigned g = 0; g < kGroups; ++g) p[g] = b_.CreateGEP(i8_, host, b_.CreateExtractElement(index, std::uint64_t(g * kG)));
      auto tag = [&](llvm::Instruction* ins) {
        ins->setMetadata(llvm::LLVMContext::MD_alias_scope, mem_scope_);
        ins->setMetadata(llvm::LLVMContext::MD_noalias, regs_scope_);
      };
      auto ext = [&](llvm::Value* v, llvm::Type* to) {
        return e == 8 ? v : d.sgn ? b_.CreateSExt(v, to) : b_.CreateZExt(v, to);
      };
      llvm::BasicBlock* gen = llvm::BasicBlock::Create(c_, "mgeneral", fn_);
      llvm::BasicBlock* seq = llvm::BasicBlock::Create(c_, "mseq", fn_);
      llvm::Type* gvt = llvm::FixedVectorType::get(et, kG);
      if (d.op == JitOp::kLd) {
        llvm::BasicBlock* bcast = llvm::BasicBlock::Create(c_, "mbcast", fn_);
        llvm::BasicBlock* test2 = llvm::BasicBlock::Create(c_, "mtest", fn_);
        b_.CreateCondBr(uniform != nullptr ? uniform : all(b_.CreateICmpEQ(index, base)), bcast, test2);
        b_.SetInsertPoint(bcast);
        llvm::Value* vals[4] = {};
        for (unsigned k = 0; k < in.vec; ++k) {
          llvm::Value* four = llvm::PoisonValue::get(llvm::FixedVectorType::get(i64_, kGroups));
          for (unsigned g = 0; g < kGroups; ++g) {
            auto* l = b_.CreateAlignedLoad(et, b_.CreateConstInBoundsGEP1_64(i8_, p[g], k * e), llvm::Align(e));
            tag(l);
            four = b_.CreateInsertElement(four, ext(l, i64_), std::uint64_t(g));
          }
          vals[k] = b_.CreateShuffleVector(four, spread);
        }
        for (unsigned k = 0; k < in.vec; ++k) store(in.v[k], vals[k], nullptr);
        b_.CreateBr(next);
        b_.SetInsertPoint(test2);
      }
      llvm::Value* consecutive = b_.CreateICmpEQ(index, b_.CreateAdd(base, llvm::ConstantVector::get(offs)));
      b_.CreateCondBr(in.vec != 1 ? b_.getFalse() : consec != nullptr ? consec : all(consecutive), seq, gen);
      b_.SetInsertPoint(seq);
      if (d.op == JitOp::kLd) {
        llvm::Value* part[kGroups];
        for (unsigned g = 0; g < kGroups; ++g) {
          auto* l = b_.CreateAlignedLoad(gvt, p[g], llvm::Align(e));
          tag(l);
          part[g] = l;
        }
        std::vector<int> cat16(2 * kG), cat32(kN);
        for (unsigned l = 0; l < 2 * kG; ++l) cat16[l] = static_cast<int>(l);
        for (unsigned l = 0; l < kN; ++l) cat32[l] = static_cast<int>(l);
        llvm::Value* lo = b_.CreateShuffleVector(part[0], part[1], cat16);
        llvm::Value* hi = b_.CreateShuffleVector(part[2], part[3], cat16);
        store(in.v[0], ext(b_.CreateShuffleVector(lo, hi, cat32), v64_), nullptr);
      } else {
        llvm::Value* v = e == 8 ? load(in.v[0]) : b_.CreateTrunc(load(in.v[0]), evt);
        for (unsigned g = 0; g < kGroups; ++g) {  // groups in lane order: the highest lane's store wins
          std::vector<int> slice(kG);
          for (unsigned l = 0; l < kG; ++l) slice[l] = static_cast<int>(g * kG + l);
          tag(b_.CreateAlignedStore(b_.CreateShuffleVector(v, slice), p[g], llvm::Align(e)));
        }
      }
      b_.CreateBr(next);
      b_.SetInsertPoint(gen);
    }
    llvm::Value* ptrs = b_.CreateGEP(i8_, host, index);
    if (d.op == JitOp::kLd) {
      llvm::Value* vals[4] = {};
      for (unsigned k = 0; k < in.vec; ++k) {
        llvm::Value* p = k == 0 ? ptrs : b_.CreateGEP(i8_, ptrs, b_.getInt64(k * e));
        auto* g = b_.CreateMaskedGather(evt, p, llvm::Align(e), mv, llvm::PoisonValue::get(evt));
        g->setMetadata(llvm::LLVMContext::MD_alias_scope, mem_scope_);
        g->setMetadata(llvm::LLVMContext::MD_noalias, regs_scope_);
        vals[k] = e == 8 ? static_cast<llvm::Value*>(g) : d.sgn ? b_.CreateSExt(g, v64_) : b_.CreateZExt(g, v64_);
      }
      for (unsigned k = 0; k < in.vec; ++k) store(in.v[k], vals[k], mvec);
    } else {
      for (unsigned k = 0; k < in.vec; ++k) {
        llvm::Value* p = k == 0 ? ptrs : b_.CreateGEP(i8_, ptrs, b_.getInt64(k * e));
        llvm::Value* v = e == 8 ? load(in.v[k]) : b_.CreateTrunc(load(in.v[k]), evt);
        auto* s = b_.CreateMaskedScatter(v, p, llvm::Align(e), mv);
        s->setMetadata(llvm::LLVMContext::MD_alias_scope, mem_scope_);
        s->setMetadata(llvm::LLVMContext::MD_noalias, regs_scope_);
      }
    }
    b_.CreateBr(next);
  }

  /// Loads and stores of one space through one address register that no instruction between
  /// them writes (`[%r8]`, `[%r8+64]`, ...): one check of the register's lanes at the first
  /// (aligned to the widest access, every access inside the window or allocation) stands for the
  /// checks of all; each access whose check fails takes its own path (memory()).
  struct Chain {
    std::uint8_t space = 0;
    std::uint32_t a = kNoSlot, head = 0;
    std::uint64_t end = 0;   // max over the members of imm + width
    unsigned maxw = 1;
    std::vector<unsigned> widths;  // of the members with one element
    llvm::Value *ok = nullptr, *host = nullptr, *index = nullptr, *uniform = nullptr;
    std::unordered_map<unsigned, llvm::Value*> consec;
  };

  void find_chains(std::uint32_t begin, std::uint32_t end) {
    chains_.clear();
    chain_of_.clear();
    std::unordered_map<std::uint64_t, std::size_t> open;  // (space, slot) -> chain
    std::vector<std::pair<std::uint32_t, std::size_t>> members;
    for (std::uint32_t pc = begin; pc < end; ++pc) {
      const Inst& in = k_.code[pc];
      const JitDesc d = exec::describe(k_, pc);
      const bool mem = d.op == JitOp::kLd || d.op == JitOp::kSt;
      const unsigned w = d.elem * in.vec;
      if (mem && in.guard == kNoSlot && in.imm >= 0 && in.imm < (1 << 20) && w != 0 && in.imm % w == 0) {
        const std::uint64_t key = (std::uint64_t(d.space) << 32) | in.a;
        auto it = open.find(key);
        if (it == open.end()) {
          Chain c;
          c.space = d.space;
          c.a = in.a;
          c.head = pc;
          chains_.push_back(c);
          it = open.emplace(key, chains_.size() - 1).first;
        }
        Chain& c = chains_[it->second];
        c.end = std::max<std::uint64_t>(c.end, std::uint64_t(in.imm) + w);
        c.maxw = std::max(c.maxw, w);
        if (in.vec == 1) c.widths.push_back(w);
        members.emplace_back(pc, it->second);
      }
      // What the instruction may write closes the chains on it (a call of a semantic function:
      // any slot it names).
      std::vector<std::uint32_t> defs;
      if (d.op == JitOp::kNone) defs = fields(in);
      else if (d.op == JitOp::kLd) defs.assign(std::begin(in.v), std::end(in.v));
      else if (d.op != JitOp::kSt) defs.push_back(in.d);
      for (std::uint32_t slot : defs) {
        if (slot == kNoSlot) continue;
        std::erase_if(open, [&](const auto& kv) { return (kv.first & 0xffffffffu) == slot; });
      }
    }
    std::vector<unsigned> size(chains_.size(), 0);
    for (const auto& [pc, c] : members) ++size[c];
    for (const auto& [pc, c] : members) {
      if (size[c] >= 2) chain_of_[pc] = c;
    }
  }

  /// At the chain's first access (full warps): whether every lane of the address register is
  /// aligned to the widest access and a + end stays inside the window or allocation.
  void check_chain(Chain& c) {
    llvm::Value* a = load(c.a);
    llvm::Value* aligned = b_.CreateICmpEQ(b_.CreateAnd(a, splat64(c.maxw - 1)), splat64(0));
    auto all = [&](llvm::Value* cmp) { return b_.CreateICmpEQ(b_.CreateBitCast(cmp, i32_), b_.getInt32(~0u)); };
    llvm::Value* bound = nullptr;
    llvm::Value* base = nullptr;
    if (c.space == 1) {
      bound = shared_size_;
      c.host = shared_;
      c.index = a;
      base = b_.getInt64(0);
    } else {
      llvm::Value* region = b_.CreateLoad(ptr_, b_.CreateConstInBoundsGEP1_64(i8_, x_, offsetof(exec::Ctx, gcache)));
      llvm::Value* has = b_.CreateICmpNE(region, llvm::ConstantPointerNull::get(ptr_));
      // A null region reads as an empty one at a dummy: the check fails.
      llvm::Value* safe = b_.CreateSelect(has, region, b_.CreateConstInBoundsGEP1_64(i8_, frame_, offsetof(exec::SegFrame, lanes)));
      base = b_.CreateSelect(has, b_.CreateLoad(i64_, b_.CreateConstInBoundsGEP1_64(i8_, safe, offsetof(exec::Region, base))),
                             b_.getInt64(0));
      bound = b_.CreateSelect(has, b_.CreateLoad(i64_, b_.CreateConstInBoundsGEP1_64(i8_, safe, offsetof(exec::Region, size))),
                              b_.getInt64(0));
      c.host = b_.CreateSelect(has, b_.CreateLoad(ptr_, b_.CreateConstInBoundsGEP1_64(i8_, safe, offsetof(exec::Region, host))),
                               llvm::ConstantPointerNull::get(ptr_));
      c.index = b_.CreateSub(a, b_.CreateVectorSplat(kN, base));
    }
    // a >= base, (a - base) <= bound - end, bound >= end
    llvm::Value* above = b_.CreateICmpUGE(a, b_.CreateVectorSplat(kN, base));
    llvm::Value* inside = b_.CreateICmpULE(c.index, b_.CreateVectorSplat(kN, b_.CreateSub(bound, b_.getInt64(c.end))));
    llvm::Value* fits = b_.CreateICmpUGE(bound, b_.getInt64(c.end));
    c.ok = b_.CreateAnd(fits, all(b_.CreateAnd(aligned, b_.CreateAnd(above, inside))));
    c.ok = b_.CreateAnd(c.ok, b_.CreateNot(traced_));  // traced: each member calls (memory())
    // Access shapes: the same for every member (the immediates shift all lanes alike).
    std::vector<int> base_mask(kN);
    for (unsigned l = 0; l < kN; ++l) base_mask[l] = static_cast<int>(l / 8 * 8);
    llvm::Value* first = b_.CreateShuffleVector(c.index, base_mask);
    c.uniform = all(b_.CreateICmpEQ(c.index, first));
    c.consec.clear();
    for (unsigned w : c.widths) {
      if (c.consec.count(w)) continue;
      std::vector<llvm::Constant*> offs;
      for (unsigned l = 0; l < kN; ++l) offs.push_back(b_.getInt64(std::uint64_t(l % 8) * w));
      c.consec[w] = all(b_.CreateICmpEQ(c.index, b_.CreateAdd(first, llvm::ConstantVector::get(offs))));
    }
  }

  /// A member of a checked chain (full warp, unguarded).
  void chained(const Inst& in, const JitDesc& d, llvm::Value* m, std::uint32_t pc, std::uint32_t i, const Chain& c) {
    llvm::BasicBlock* fast = llvm::BasicBlock::Create(c_, "cfast", fn_);
    llvm::BasicBlock* own = llvm::BasicBlock::Create(c_, "cown", fn_);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(c_, "cnext", fn_);
    b_.CreateCondBr(c.ok, fast, own);
    b_.SetInsertPoint(fast);
    llvm::Value* index = b_.CreateAdd(c.index, splat64(static_cast<std::uint64_t>(in.imm)));
    auto it = c.consec.find(d.elem * in.vec);
    access(in, d, c.host, index, nullptr, llvm::Constant::getAllOnesValue(vmask_), next, c.uniform,
           it != c.consec.end() ? it->second : b_.getFalse());
    b_.SetInsertPoint(own);
    memory(in, d, m, nullptr, pc, i);
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  }

  /// ld/st of global or shared memory: when every active lane's address is aligned and inside the
  /// shared window (or the allocation the context last used), gathers/scatters; otherwise the
  /// semantic function (which finds the allocation, or faults as the interpreter does).
  void memory(const Inst& in, const JitDesc& d, llvm::Value* m, llvm::Value* mvec, std::uint32_t pc, std::uint32_t i) {
    const unsigned e = d.elem;
    const unsigned w = e * in.vec;
    llvm::BasicBlock* check = llvm::BasicBlock::Create(c_, "mcheck", fn_);
    llvm::BasicBlock* fast = llvm::BasicBlock::Create(c_, "mfast", fn_);
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(c_, "mslow", fn_);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(c_, "mnext", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(m, b_.getInt32(0)), check, next);
    // Traced (a profiled launch): the semantic function, which makes the access's records.
    llvm::BasicBlock* untraced = llvm::BasicBlock::Create(c_, "muntraced", fn_);
    b_.SetInsertPoint(check);
    b_.CreateCondBr(traced_, slow, untraced);
    b_.SetInsertPoint(untraced);
    llvm::Value* mv = mvec != nullptr ? mvec : llvm::Constant::getAllOnesValue(vmask_);
    llvm::Value* addr = b_.CreateAdd(load(in.a), splat64(static_cast<std::uint64_t>(in.imm)));
    llvm::Value* aligned = b_.CreateICmpEQ(b_.CreateAnd(addr, splat64(w - 1)), splat64(0));
    llvm::Value* host = nullptr;
    llvm::Value* index = nullptr;
    llvm::Value* ok = nullptr;
    if (d.space == 1) {
      // off <= shared_size - w, with shared_size >= w
      llvm::Value* room = b_.CreateSub(shared_size_, b_.getInt64(w));
      llvm::Value* fits = b_.CreateICmpUGE(shared_size_, b_.getInt64(w));
      llvm::Value* in_window = b_.CreateICmpULE(addr, b_.CreateVectorSplat(kN, room));
      ok = b_.CreateAnd(aligned, in_window);
      ok = b_.CreateAnd(ok, b_.CreateVectorSplat(kN, fits));
      host = shared_;
      index = addr;
      llvm::Value* bad = b_.CreateAnd(mv, b_.CreateNot(ok));
      b_.CreateCondBr(b_.CreateICmpNE(b_.CreateBitCast(bad, i32_), b_.getInt32(0)), slow, fast);
    } else {
      // The allocation the context used last, else the one before (swapped in, as the
      // interpreter does: kernels alternate between a few arrays).
      llvm::Value* c1 = b_.CreateConstInBoundsGEP1_64(i8_, x_, offsetof(exec::Ctx, gcache));
      llvm::Value* c2 = b_.CreateConstInBoundsGEP1_64(i8_, x_, offsetof(exec::Ctx, gcache2));
      llvm::BasicBlock* second = llvm::BasicBlock::Create(c_, "mregion2", fn_);
      llvm::BasicBlock* swap = llvm::BasicBlock::Create(c_, "mswap", fn_);
      llvm::Value* r1 = b_.CreateLoad(ptr_, c1);
      auto [ok1, host1, index1] = region_check(r1, addr, aligned, mv, w);
      llvm::BasicBlock* from1 = b_.GetInsertBlock();
      b_.CreateCondBr(ok1, fast, second);
      b_.SetInsertPoint(second);
      llvm::Value* r2 = b_.CreateLoad(ptr_, c2);
      auto [ok2, host2, index2] = region_check(r2, addr, aligned, mv, w);
      b_.CreateCondBr(ok2, swap, slow);
      b_.SetInsertPoint(swap);
      b_.CreateStore(r2, c1);
      b_.CreateStore(r1, c2);
      b_.CreateBr(fast);
      b_.SetInsertPoint(fast);
      llvm::PHINode* ph = b_.CreatePHI(ptr_, 2);
      ph->addIncoming(host1, from1);
      ph->addIncoming(host2, swap);
      llvm::PHINode* pi = b_.CreatePHI(v64_, 2);
      pi->addIncoming(index1, from1);
      pi->addIncoming(index2, swap);
      host = ph;
      index = pi;
    }
    if (d.space == 1) b_.SetInsertPoint(fast);

    access(in, d, host, index, mvec, mv, next, nullptr, nullptr);

    b_.SetInsertPoint(slow);
    // The semantic function reads and writes the register file: the segment's own slots go there
    // and come back.
    auto raw = [&](std::uint32_t slot) { return b_.CreateConstInBoundsGEP1_64(i8_, regs_, std::uint64_t(slot) * kN * 8); };
    std::vector<std::uint32_t> in_slots = {in.a}, out_slots;
    for (unsigned k = 0; k < in.vec; ++k) (d.op == JitOp::kLd ? out_slots : in_slots).push_back(in.v[k]);
    for (std::uint32_t slot : in_slots) {
      if (locals_.count(slot)) b_.CreateAlignedStore(load(slot), raw(slot), llvm::Align(8));
    }
    llvm::BasicBlock* back = llvm::BasicBlock::Create(c_, "mback", fn_);
    emit_call(pc, i, m, back);
    b_.SetInsertPoint(back);
    for (std::uint32_t slot : out_slots) {
      if (locals_.count(slot)) store(slot, b_.CreateAlignedLoad(v64_, raw(slot), llvm::Align(8)), nullptr);
    }
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  }

  llvm::Module& m_;
  const exec::KernelImage& k_;
  llvm::LLVMContext& c_;
  llvm::IRBuilder<> b_;
  Arith arith_;  // the arithmetic (arith.cpp)
  llvm::Type *i1_, *i8_, *i32_, *i64_;
  llvm::PointerType* ptr_;
  llvm::FixedVectorType *v64_, *vmask_;
  llvm::MDNode *regs_scope_, *mem_scope_;
  llvm::Function* fn_ = nullptr;
  llvm::Value *frame_ = nullptr, *x_ = nullptr, *code_ = nullptr, *call_ = nullptr, *regs_ = nullptr, *pct_ = nullptr;
  llvm::Value *count_ = nullptr, *run_lanes_ = nullptr, *shared_ = nullptr, *shared_size_ = nullptr;
  llvm::Value *active_ = nullptr, *lanes_ = nullptr;
  llvm::Value* traced_ = nullptr;  // i1: SegFrame::traced (loads and stores call their functions)
  bool partial_ = std::getenv("WARPSCOPE_JIT_PARTIAL") != nullptr;  // a body for split warps too
  std::vector<std::uint32_t> first_ref_, last_ref_;
  std::vector<char> external_;
  std::unordered_map<std::uint32_t, llvm::Value*> locals_;
  std::vector<Chain> chains_;
  std::unordered_map<std::uint32_t, std::size_t> chain_of_;  // pc -> chain
};

}  // namespace

std::vector<Run> find_runs(const exec::KernelImage& k) {
  const std::size_t n = k.code.size();
  // Where a warp may resume or reconverge: branch targets, reconvergence points, function entries.
  std::vector<char> starts(n + 1, 0);
  for (const Inst& in : k.code) {
    if (in.ctl == exec::Ctl::kBra) {
      if (in.target < n) starts[in.target] = 1;
      if (in.aux < n) starts[in.aux] = 1;
    }
  }
  for (const exec::FuncImage& f : k.funcs) {
    if (f.begin < n) starts[f.begin] = 1;
  }
  std::vector<Run> runs;
  std::uint32_t pc = 0;
  while (pc < n) {
    if (k.code[pc].ctl != exec::Ctl::kNone) {
      ++pc;
      continue;
    }
    const std::uint32_t begin = pc;
    std::uint32_t native = 0;
    do {
      if (exec::describe(k, pc).op != JitOp::kNone) ++native;
      ++pc;
    } while (pc < n && k.code[pc].ctl == exec::Ctl::kNone && !starts[pc]);
    // A single call of a semantic function gains nothing over the interpreter's.
    if (native > 0 || pc - begin >= 2) runs.push_back(Run{begin, pc});
  }
  return runs;
}

std::string emit_key() {
  using exec::Ctx;
  using exec::Region;
  using exec::SegFrame;
  return fmt::format(
      "lanes {} inst {} frame {} {} {} {} {} {} {} {} {} {} ctx {} {} {} {} region {} {} {} partial {}", kN,
      sizeof(Inst), sizeof(SegFrame), offsetof(SegFrame, x), offsetof(SegFrame, code), offsetof(SegFrame, call),
      offsetof(SegFrame, regs), offsetof(SegFrame, pc_thread), offsetof(SegFrame, count), offsetof(SegFrame, lanes),
      offsetof(SegFrame, active), offsetof(SegFrame, run_lanes), offsetof(Ctx, shared), offsetof(Ctx, shared_size),
      offsetof(Ctx, gcache), offsetof(Ctx, gcache2), offsetof(Region, base), offsetof(Region, size),
      offsetof(Region, host), std::getenv("WARPSCOPE_JIT_PARTIAL") != nullptr);
}

std::uint64_t emit_segments(llvm::Module& m, const exec::KernelImage& k, const std::vector<Run>& runs,
                            const std::string& prefix) {
  Emitter em(m, k);
  std::uint64_t native = 0;
  for (const Run& r : runs) em.segment(fmt::format("{}_{}", prefix, r.begin), r.begin, r.end, native);
  return native;
}

}  // namespace warpscope::jit
