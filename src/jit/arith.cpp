// The arithmetic of native segments (arith.hpp).
#include "jit/arith.hpp"

#include <utility>

#include <llvm/IR/Intrinsics.h>

#include "ptx/ir.hpp"

namespace warpscope::jit {

using exec::Inst;
using exec::JitDesc;
using exec::JitOp;

namespace {
constexpr unsigned kN = exec::kLanes;
}  // namespace

Arith::Arith(llvm::IRBuilder<>& b, std::function<llvm::Value*(std::uint32_t)> load)
    : b_(b), load_(std::move(load)), v64_(llvm::FixedVectorType::get(b.getInt64Ty(), kN)) {}

llvm::Type* Arith::vint(unsigned bits) { return llvm::FixedVectorType::get(b_.getIntNTy(bits), kN); }
llvm::Value* Arith::splat64(std::uint64_t v) { return llvm::ConstantInt::get(v64_, v); }
llvm::Value* Arith::trunc(llvm::Value* v, unsigned bits) { return bits >= 64 ? v : b_.CreateTrunc(v, vint(bits)); }
llvm::Value* Arith::zext64(llvm::Value* v) {
  return llvm::cast<llvm::VectorType>(v->getType())->getElementType()->getIntegerBitWidth() >= 64 ? v
                                                                                                : b_.CreateZExt(v, v64_);
}

llvm::Type* Arith::vf32() { return llvm::FixedVectorType::get(b_.getFloatTy(), kN); }
llvm::Value* Arith::f32(std::uint32_t slot) { return b_.CreateBitCast(trunc(load(slot), 32), vf32()); }
llvm::Type* Arith::vf64() { return llvm::FixedVectorType::get(b_.getDoubleTy(), kN); }
llvm::Value* Arith::f64(std::uint32_t slot) { return b_.CreateBitCast(load(slot), vf64()); }
/// put<double>(canon(r)): NaN results become 0x7fffffffffffffff.
llvm::Value* Arith::canon64(llvm::Value* r) {
  llvm::Value* bits = b_.CreateBitCast(r, v64_);
  return b_.CreateSelect(b_.CreateFCmpUNO(r, r), splat64(0x7fffffffffffffffull), bits);
}

/// round_integral (ops_cvt.cpp) of a double vector: 1 nearest even, 2 toward zero, 3 down, 4 up.
llvm::Value* Arith::integral(llvm::Value* v, std::uint8_t rnd) {
  switch (rnd) {
    case 1: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, v);
    case 2: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, v);
    case 3: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, v);
    case 4: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, v);
    default: return v;
  }
}

/// FMin / FMax (ops_float.hpp) before canon: a NaN operand gives the other one; equal operands
/// (+0 and -0) give the negative one for min, the positive one for max; else the smaller/larger.
llvm::Value* Arith::fminmax(bool max, llvm::Value* a, llvm::Value* b) {
  llvm::Value* pick_a = max ? b_.CreateFCmpOGT(a, b) : b_.CreateFCmpOLT(a, b);
  llvm::Value* r = b_.CreateSelect(pick_a, a, b);
  llvm::Type* it = llvm::cast<llvm::VectorType>(a->getType())->getElementType()->isDoubleTy() ? vint(64) : vint(32);
  llvm::Value* a_neg = b_.CreateICmpSLT(b_.CreateBitCast(a, it), llvm::Constant::getNullValue(it));
  llvm::Value* on_equal = max ? b_.CreateSelect(a_neg, b, a) : b_.CreateSelect(a_neg, a, b);
  r = b_.CreateSelect(b_.CreateFCmpOEQ(a, b), on_equal, r);
  r = b_.CreateSelect(b_.CreateFCmpUNO(b, b), a, r);
  return b_.CreateSelect(b_.CreateFCmpUNO(a, a), b, r);
}

/// put<float>(canon(r)): NaN results become 0x7fffffff, the upper half 0.
llvm::Value* Arith::canon(llvm::Value* r) {
  llvm::Value* bits = b_.CreateBitCast(r, vint(32));
  llvm::Value* nan = b_.CreateFCmpUNO(r, r);
  bits = b_.CreateSelect(nan, llvm::ConstantInt::get(vint(32), 0x7fffffffu), bits);
  return b_.CreateZExt(bits, v64_);
}

/// The value an arithmetic instruction writes to in.d, or nullptr when it is not native.
llvm::Value* Arith::compute(const Inst& in, const JitDesc& d) {
  const unsigned bits = d.bits;
  auto ib = [&](std::uint32_t slot) { return trunc(load(slot), bits); };
  switch (d.op) {
    case JitOp::kMov: return bits >= 64 ? load(in.a) : b_.CreateAnd(load(in.a), splat64((1ull << bits) - 1));
    case JitOp::kAdd: return zext64(b_.CreateAdd(ib(in.a), ib(in.b)));
    case JitOp::kSub: return zext64(b_.CreateSub(ib(in.a), ib(in.b)));
    case JitOp::kMulLo: return zext64(b_.CreateMul(ib(in.a), ib(in.b)));
    case JitOp::kMadLo: return zext64(b_.CreateAdd(b_.CreateMul(ib(in.a), ib(in.b)), ib(in.c)));
    case JitOp::kAnd: return zext64(b_.CreateAnd(ib(in.a), ib(in.b)));
    case JitOp::kOr: return zext64(b_.CreateOr(ib(in.a), ib(in.b)));
    case JitOp::kXor: return zext64(b_.CreateXor(ib(in.a), ib(in.b)));
    case JitOp::kMulWide: {
      llvm::Type* w = vint(bits * 2);
      llvm::Value* a = d.sgn ? b_.CreateSExt(ib(in.a), w) : b_.CreateZExt(ib(in.a), w);
      llvm::Value* bb = d.sgn ? b_.CreateSExt(ib(in.b), w) : b_.CreateZExt(ib(in.b), w);
      return zext64(b_.CreateMul(a, bb));
    }
    case JitOp::kShl:
    case JitOp::kShr: {
      llvm::Value* amt = trunc(load(in.b), 32);  // the shift amount is .u32
      llvm::Value* big = b_.CreateICmpUGE(amt, llvm::ConstantInt::get(vint(32), bits));
      llvm::Value* a = ib(in.a);
      llvm::Type* t = a->getType();
      auto fit = [&](llvm::Value* v) { return bits == 32 ? v : bits > 32 ? b_.CreateZExt(v, t) : b_.CreateTrunc(v, t); };
      if (d.op == JitOp::kShr && d.sgn) {
        llvm::Value* s = b_.CreateSelect(big, llvm::ConstantInt::get(vint(32), bits - 1), amt);
        return zext64(b_.CreateAShr(a, fit(s)));
      }
      llvm::Value* s = fit(b_.CreateAnd(amt, llvm::ConstantInt::get(vint(32), bits - 1)));
      llvm::Value* r = d.op == JitOp::kShl ? b_.CreateShl(a, s) : b_.CreateLShr(a, s);
      return zext64(b_.CreateSelect(big, llvm::Constant::getNullValue(t), r));
    }
    case JitOp::kSetp: {
      llvm::Value* r = !d.flt      ? icmp(d.cmp, d.sgn, ib(in.a), ib(in.b))
                       : bits == 64 ? fcmp(d.cmp, f64(in.a), f64(in.b))
                                    : fcmp(d.cmp, f32(in.a), f32(in.b));
      return r == nullptr ? nullptr : b_.CreateZExt(r, v64_);
    }
    case JitOp::kMin:
    case JitOp::kMax: {
      using P = llvm::CmpInst::Predicate;
      const P p = d.op == JitOp::kMin ? (d.sgn ? P::ICMP_SLT : P::ICMP_ULT) : (d.sgn ? P::ICMP_SGT : P::ICMP_UGT);
      llvm::Value* a = ib(in.a);
      llvm::Value* bv = ib(in.b);
      return zext64(b_.CreateSelect(b_.CreateICmp(p, a, bv), a, bv));
    }
    case JitOp::kAbs: {
      llvm::Value* a = ib(in.a);
      llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
      return zext64(b_.CreateSelect(b_.CreateICmpSLT(a, zero), b_.CreateSub(zero, a), a));
    }
    case JitOp::kCvtInt: {
      llvm::Value* v = trunc(load(in.a), d.src_bits);
      if (bits > d.src_bits) v = d.src_sgn ? b_.CreateSExt(v, vint(bits)) : b_.CreateZExt(v, vint(bits));
      else if (bits < d.src_bits) v = b_.CreateTrunc(v, vint(bits));
      if (bits < 64) v = d.sgn ? b_.CreateSExt(v, v64_) : b_.CreateZExt(v, v64_);
      return v;
    }
    case JitOp::kCvtIF: {
      llvm::Value* v = trunc(load(in.a), d.src_bits);
      llvm::Type* ft = bits == 64 ? vf64() : vf32();
      llvm::Value* f = d.src_sgn ? b_.CreateSIToFP(v, ft) : b_.CreateUIToFP(v, ft);
      return bits == 64 ? b_.CreateBitCast(f, v64_) : b_.CreateZExt(b_.CreateBitCast(f, vint(32)), v64_);
    }
    case JitOp::kCvtFF: {
      llvm::Value* v = integral(d.src_bits == 64 ? f64(in.a) : b_.CreateFPExt(f32(in.a), vf64()), d.rnd);
      return bits == 64 ? canon64(v) : canon(b_.CreateFPTrunc(v, vf32()));
    }
    case JitOp::kCvtFI: {
      llvm::Value* v = integral(d.src_bits == 64 ? f64(in.a) : b_.CreateFPExt(f32(in.a), vf64()), d.rnd);
      v = b_.CreateIntrinsic(d.sgn ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat, {vint(bits), vf64()}, {v});
      if (bits < 64) v = d.sgn ? b_.CreateSExt(v, v64_) : b_.CreateZExt(v, v64_);
      return v;
    }
    case JitOp::kDAdd: return canon64(b_.CreateFAdd(f64(in.a), f64(in.b)));
    case JitOp::kDSub: return canon64(b_.CreateFSub(f64(in.a), f64(in.b)));
    case JitOp::kDMul: return canon64(b_.CreateFMul(f64(in.a), f64(in.b)));
    case JitOp::kDDiv: return canon64(b_.CreateFDiv(f64(in.a), f64(in.b)));
    case JitOp::kDFma:
      return canon64(b_.CreateIntrinsic(llvm::Intrinsic::fma, {vf64()}, {f64(in.a), f64(in.b), f64(in.c)}));
    case JitOp::kFAbs:
    case JitOp::kFNeg: {
      const std::uint64_t sign = bits == 64 ? 1ull << 63 : 1ull << 31;
      llvm::Value* a = bits == 64 ? load(in.a) : b_.CreateAnd(load(in.a), splat64(0xffffffffu));
      return d.op == JitOp::kFAbs ? b_.CreateAnd(a, splat64(~sign)) : b_.CreateXor(a, splat64(sign));
    }
    case JitOp::kFMin:
    case JitOp::kFMax: {
      const bool max = d.op == JitOp::kFMax;
      return bits == 64 ? canon64(fminmax(max, f64(in.a), f64(in.b))) : canon(fminmax(max, f32(in.a), f32(in.b)));
    }
    case JitOp::kSelp:
      return b_.CreateSelect(b_.CreateTrunc(load(in.c), vint(1)), load(in.a), load(in.b));
    case JitOp::kFAdd: return canon(b_.CreateFAdd(f32(in.a), f32(in.b)));
    case JitOp::kFSub: return canon(b_.CreateFSub(f32(in.a), f32(in.b)));
    case JitOp::kFMul: return canon(b_.CreateFMul(f32(in.a), f32(in.b)));
    case JitOp::kFDiv: return canon(b_.CreateFDiv(f32(in.a), f32(in.b)));
    case JitOp::kFFma:
      return canon(b_.CreateIntrinsic(llvm::Intrinsic::fma, {vf32()}, {f32(in.a), f32(in.b), f32(in.c)}));
    case JitOp::kFRcp: return canon(b_.CreateFDiv(llvm::ConstantFP::get(vf32(), 1.0), f32(in.a)));
    case JitOp::kFSqrt: return canon(b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, f32(in.a)));
    case JitOp::kFRsqrt:
      return canon(b_.CreateFDiv(llvm::ConstantFP::get(vf32(), 1.0),
                                 b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, f32(in.a))));
    default: return nullptr;
  }
}

llvm::Value* Arith::icmp(std::uint8_t c, bool sgn, llvm::Value* a, llvm::Value* b) {
  using P = llvm::CmpInst::Predicate;
  using ptx::CmpOp;
  switch (static_cast<CmpOp>(c)) {
    case CmpOp::kEq: return b_.CreateICmp(P::ICMP_EQ, a, b);
    case CmpOp::kNe: return b_.CreateICmp(P::ICMP_NE, a, b);
    case CmpOp::kLt: return b_.CreateICmp(sgn ? P::ICMP_SLT : P::ICMP_ULT, a, b);
    case CmpOp::kLe: return b_.CreateICmp(sgn ? P::ICMP_SLE : P::ICMP_ULE, a, b);
    case CmpOp::kGt: return b_.CreateICmp(sgn ? P::ICMP_SGT : P::ICMP_UGT, a, b);
    case CmpOp::kGe: return b_.CreateICmp(sgn ? P::ICMP_SGE : P::ICMP_UGE, a, b);
    case CmpOp::kLo: return b_.CreateICmp(P::ICMP_ULT, a, b);
    case CmpOp::kLs: return b_.CreateICmp(P::ICMP_ULE, a, b);
    case CmpOp::kHi: return b_.CreateICmp(P::ICMP_UGT, a, b);
    case CmpOp::kHs: return b_.CreateICmp(P::ICMP_UGE, a, b);
    default: return nullptr;
  }
}

llvm::Value* Arith::fcmp(std::uint8_t c, llvm::Value* a, llvm::Value* b) {
  using P = llvm::CmpInst::Predicate;
  using ptx::CmpOp;
  switch (static_cast<CmpOp>(c)) {
    case CmpOp::kEq: return b_.CreateFCmp(P::FCMP_OEQ, a, b);
    case CmpOp::kNe: return b_.CreateFCmp(P::FCMP_ONE, a, b);
    case CmpOp::kLt: return b_.CreateFCmp(P::FCMP_OLT, a, b);
    case CmpOp::kLe: return b_.CreateFCmp(P::FCMP_OLE, a, b);
    case CmpOp::kGt: return b_.CreateFCmp(P::FCMP_OGT, a, b);
    case CmpOp::kGe: return b_.CreateFCmp(P::FCMP_OGE, a, b);
    case CmpOp::kEqu: return b_.CreateFCmp(P::FCMP_UEQ, a, b);
    case CmpOp::kNeu: return b_.CreateFCmp(P::FCMP_UNE, a, b);
    case CmpOp::kLtu: return b_.CreateFCmp(P::FCMP_ULT, a, b);
    case CmpOp::kLeu: return b_.CreateFCmp(P::FCMP_ULE, a, b);
    case CmpOp::kGtu: return b_.CreateFCmp(P::FCMP_UGT, a, b);
    case CmpOp::kGeu: return b_.CreateFCmp(P::FCMP_UGE, a, b);
    case CmpOp::kNum: return b_.CreateFCmp(P::FCMP_ORD, a, b);
    case CmpOp::kNan: return b_.CreateFCmp(P::FCMP_UNO, a, b);
    default: return nullptr;
  }
}


}  // namespace warpscope::jit
