// The arithmetic of native segments (internal to src/jit; includes LLVM's headers): the value an
// instruction that exec::describe describes computes for a warp's 32 lanes, bit for bit what its
// semantic function writes (each case names the function it reproduces). emit.cpp builds the
// segments around it: guards, masks, memory, calls.
#pragma once

#include <cstdint>
#include <functional>

#include <llvm/IR/IRBuilder.h>

#include "exec/segments.hpp"

namespace warpscope::jit {

class Arith {
 public:
  /// `load(slot)`: the slot's 32 lanes as a <32 x i64>, at the builder's insertion point.
  Arith(llvm::IRBuilder<>& b, std::function<llvm::Value*(std::uint32_t)> load);

  /// The <32 x i64> an arithmetic instruction writes to in.d, or nullptr when it is not native.
  llvm::Value* compute(const exec::Inst& in, const exec::JitDesc& d);

 private:
  llvm::Value* load(std::uint32_t slot) { return load_(slot); }
  llvm::Type* vint(unsigned bits);
  llvm::Value* splat64(std::uint64_t v);
  llvm::Value* trunc(llvm::Value* v, unsigned bits);
  llvm::Type* vf32();
  llvm::Type* vf64();
  llvm::Value* f32(std::uint32_t slot);
  llvm::Value* f64(std::uint32_t slot);
  llvm::Value* zext64(llvm::Value* v);
  llvm::Value* canon(llvm::Value* r);
  llvm::Value* canon64(llvm::Value* r);
  llvm::Value* integral(llvm::Value* v, std::uint8_t rnd);
  llvm::Value* fminmax(bool max, llvm::Value* a, llvm::Value* b);
  llvm::Value* icmp(std::uint8_t c, bool sgn, llvm::Value* a, llvm::Value* b);
  llvm::Value* fcmp(std::uint8_t c, llvm::Value* a, llvm::Value* b);

  llvm::IRBuilder<>& b_;
  std::function<llvm::Value*(std::uint32_t)> load_;
  llvm::FixedVectorType* v64_;
};

}  // namespace warpscope::jit
