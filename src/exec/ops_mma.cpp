// Warp-level matrix instructions (PTX ISA 9.0, 9.7.14): decoding, wmma.mma and mma.sync, and
// movmatrix. The memory instructions (wmma.load/store, ldmatrix/stmatrix) are in
// ops_mma_mem.cpp; fragment layouts in mma_fragments.cpp; the arithmetic in mma_numerics.cpp.
//
// An mma gathers the logical matrices A, B and C from the lanes' fragment registers (the first
// copy of a repeated .f16 register, as the H100 reads), computes each element of D with the
// H100's rule for its types, and scatters D into the destination fragment. Every thread of the
// warp must execute it (.sync.aligned): a divergent or partial warp is kUndefined.
#include <algorithm>
#include <vector>

#include "exec/fault.hpp"
#include "exec/mma_desc.hpp"
#include "exec/mma_numerics.hpp"
#include "exec/ops_common.hpp"
#include "ptx/mma.hpp"

namespace warpscope::exec {

using ptx::MmaType;
using ptx::Opcode;

void require_full_warp(const Ctx& x, const Inst& in, std::uint32_t mask, const char* what) {
  const std::uint64_t threads = std::uint64_t{x.ntid.x} * x.ntid.y * x.ntid.z;
  const std::uint64_t first = std::uint64_t{x.warp_index} * kLanes;
  const std::uint32_t exists = threads >= first + kLanes ? kFullMask
                               : threads <= first       ? 0u
                                                        : static_cast<std::uint32_t>((std::uint64_t{1} << (threads - first)) - 1);
  if (mask == kFullMask && exists == kFullMask) return;
  const unsigned lane = static_cast<unsigned>(__builtin_ctz(mask));
  lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
             fmt::format("{} executed by {} of warp {} (the other lanes {}): .sync.aligned needs every thread of the "
                         "warp, and the PTX ISA leaves anything else undefined",
                         what, lanes_text(mask), x.warp_index,
                         exists == kFullMask ? "are inactive or have exited" : "do not exist in this partial warp"));
}

namespace {

/// Element e of register r of a fragment operand, lane l (raw element bits).
inline std::uint64_t frag_get(const Ctx& x, std::uint32_t slot, unsigned lane, unsigned e, unsigned bits) {
  const std::uint64_t v = x.reg(slot)[lane];
  if (bits >= 32) return bits == 64 ? v : (v & 0xffffffffu);
  return (v >> (e * bits)) & ((std::uint64_t{1} << bits) - 1);
}

/// The logical matrix a fragment holds: element (row, col) at [row * cols + col].
void gather(const Ctx& x, const Inst& in, const MmaDesc& d, unsigned op, const FragmentLayout& f,
            std::vector<std::uint64_t>& out, std::uint32_t lanes = kFullMask) {
  out.assign(std::size_t(f.rows) * f.cols, 0);
  for (unsigned r = 0; r < f.regs; ++r) {
    if (f.repeats[r] >= 0) continue;
    const std::uint32_t slot = mma_slot(x, in, d, op, r);
    for (unsigned l = 0; l < kLanes; ++l) {
      if (!((lanes >> l) & 1)) continue;
      for (unsigned e = 0; e < f.per_reg; ++e) {
        const FragmentLayout::Pos& p = f.at(l, r, e);
        out[std::size_t(p.row) * f.cols + p.col] = frag_get(x, slot, l, e, f.bits);
      }
    }
  }
}

/// Writes the logical matrix D into the destination fragment (operand 0).
void scatter(Ctx& x, const Inst& in, const MmaDesc& d, const FragmentLayout& f, const std::vector<std::uint64_t>& val,
             std::uint32_t lanes = kFullMask) {
  for (unsigned r = 0; r < f.regs; ++r) {
    std::uint64_t* reg = x.reg(mma_slot(x, in, d, 0, r));
    for (unsigned l = 0; l < kLanes; ++l) {
      if (!((lanes >> l) & 1)) continue;
      std::uint64_t w = 0;
      for (unsigned e = 0; e < f.per_reg; ++e) {
        const FragmentLayout::Pos& p = f.at(l, r, e);
        const std::uint64_t v = val[std::size_t(p.row) * f.cols + p.col];
        w |= f.bits >= 64 ? v : (v & ((std::uint64_t{1} << f.bits) - 1)) << (e * f.bits);
      }
      reg[l] = w;
    }
  }
}

/// D = A * B + C on logical matrices (A m x k, B k x n, C and D m x n).
void compute(const MmaDesc& d, unsigned m, unsigned n, unsigned k, const std::vector<std::uint64_t>& a,
             const std::vector<std::uint64_t>& b, const std::vector<std::uint64_t>& c, std::vector<std::uint64_t>& out,
             bool q884) {
  out.assign(std::size_t(m) * n, 0);
  std::vector<std::uint32_t> row(k), col(k);
  std::vector<std::uint64_t> row64(k), col64(k);
  const bool is_float = d.a == MmaType::kF16 || d.a == MmaType::kBF16 || d.a == MmaType::kTF32;
  // HMMA groups: all of k at once, except wmma m16n16k8 .tf32 (two HMMA.1684).
  const unsigned group = d.a == MmaType::kTF32 && d.kind == MmaDesc::Kind::kWmmaMma ? 4 : k;
  for (unsigned i = 0; i < m; ++i)
    for (unsigned j = 0; j < n; ++j) {
      for (unsigned kk = 0; kk < k; ++kk) {
        row[kk] = static_cast<std::uint32_t>(a[std::size_t(i) * k + kk]);
        col[kk] = static_cast<std::uint32_t>(b[std::size_t(kk) * n + j]);
        row64[kk] = a[std::size_t(i) * k + kk];
        col64[kk] = b[std::size_t(kk) * n + j];
      }
      const std::uint64_t cv = c[std::size_t(i) * n + j];
      std::uint64_t r;
      if (d.a == MmaType::kF64) {
        r = mma_math::fma_chain_f64(row64.data(), col64.data(), k, cv, d.rnd);
      } else if (q884) {
        r = mma_math::chain_884(row.data(), col.data(), d.c, static_cast<std::uint32_t>(cv), d.d);
      } else if (d.fp8) {
        r = mma_math::fp8_dot(d.a, d.b, row.data(), col.data(), k, static_cast<std::uint32_t>(cv), d.d);
      } else if (is_float) {
        r = mma_math::fused_dot(d.a, row.data(), col.data(), k, group, d.c, static_cast<std::uint32_t>(cv), d.d);
      } else {
        r = mma_math::int_dot(d.a, d.b, row.data(), col.data(), k, static_cast<std::uint32_t>(cv), d.satfinite, d.bitop);
      }
      out[std::size_t(i) * n + j] = r;
    }
}

void exec_mma(const Inst& in, Ctx& x, std::uint32_t mask) {
  const MmaDesc d = mma_desc(x, in);
  require_full_warp(x, in, mask, d.kind == MmaDesc::Kind::kMma ? "mma" : "wmma.mma");
  const bool q884 = d.kind == MmaDesc::Kind::kMma && d.m == 8 && d.n == 8 && d.k == 4 && d.a == MmaType::kF16;
  std::vector<std::uint64_t> a, b, c, out;
  if (!q884) {
    gather(x, in, d, 1, *d.layout[1], a);
    gather(x, in, d, 2, *d.layout[2], b);
    gather(x, in, d, 3, *d.layout[3], c);
    compute(d, d.m, d.n, d.k, a, b, c, out, false);
    scatter(x, in, d, *d.layout[0], out);
    return;
  }
  // Four independent 8x8x4 products, one per quad pair (lanes 4q..4q+3 and 16+4q..16+4q+3).
  for (unsigned q = 0; q < 4; ++q) {
    const std::uint32_t lanes = (0xfu << (4 * q)) | (0xfu << (16 + 4 * q));
    gather(x, in, d, 1, *d.layout[1], a, lanes);
    gather(x, in, d, 2, *d.layout[2], b, lanes);
    gather(x, in, d, 3, *d.layout[3], c, lanes);
    compute(d, 8, 8, 4, a, b, c, out, true);
    scatter(x, in, d, *d.layout[0], out, lanes);
  }
}

// movmatrix.sync.aligned.m8n8.trans.b16 d, a: lane l's a holds row l/4, columns 2(l%4) and +1
// of an 8x8 matrix; d gets the same of its transpose.
void exec_movmatrix(const Inst& in, Ctx& x, std::uint32_t mask) {
  require_full_warp(x, in, mask, "movmatrix");
  const std::uint64_t* a = x.reg(in.a);
  std::uint16_t m[8][8];
  for (unsigned l = 0; l < kLanes; ++l)
    for (unsigned e = 0; e < 2; ++e) m[ldsm_row(l)][ldsm_col(l, e)] = static_cast<std::uint16_t>(a[l] >> (16 * e));
  std::uint64_t* d = x.reg(in.d);
  for (unsigned l = 0; l < kLanes; ++l)
    d[l] = std::uint64_t{m[ldsm_col(l, 0)][ldsm_row(l)]} | (std::uint64_t{m[ldsm_col(l, 1)][ldsm_row(l)]} << 16);
}

}  // namespace

bool decode_mma(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  MmaDesc d;
  switch (ins.op) {
    case Opcode::kWmmaLoad: d.kind = MmaDesc::Kind::kWmmaLoad; break;
    case Opcode::kWmmaStore: d.kind = MmaDesc::Kind::kWmmaStore; break;
    case Opcode::kWmmaMma: d.kind = MmaDesc::Kind::kWmmaMma; break;
    case Opcode::kMma: d.kind = MmaDesc::Kind::kMma; break;
    case Opcode::kLdmatrix: d.kind = MmaDesc::Kind::kLdmatrix; break;
    case Opcode::kStmatrix: d.kind = MmaDesc::Kind::kStmatrix; break;
    case Opcode::kMovmatrix: d.kind = MmaDesc::Kind::kMovmatrix; break;
    default: return false;
  }
  const ptx::MmaForm f = ptx::mma_form(ins, dc.module().text_origin(dc.function()));
  const ptx::MmaQualifiers& q = ins.mma;
  d.m = f.m;
  d.n = f.n;
  d.k = f.k;
  d.a = f.a;
  d.b = f.b;
  d.c = f.c;
  d.d = f.d;
  d.matrix = q.matrix;
  d.col = q.a_col;
  d.a_col = q.a_col;
  d.b_col = q.b_col;
  d.num = q.num;
  d.trans = q.trans;
  d.bitop = q.bitop;
  d.satfinite = ins.satfinite;
  d.wide = f.wide;
  d.rnd = ins.rounding;
  d.fp8 = f.a == MmaType::kE4M3 || f.a == MmaType::kE5M2;
  for (unsigned i = 0; i < 4; ++i) d.regs[i] = f.regs[i];

  // Fragment operands -> slots, in operand order.
  std::vector<std::uint32_t> slots;
  auto fragment = [&](const ptx::Operand& o, bool dest) {
    if (o.kind == ptx::OperandKind::kVector) {
      for (const ptx::Operand& e : o.elements) slots.push_back(dest ? dc.dst(e) : dc.src(e, f.wide ? ptx::Type::kB64 : ptx::Type::kB32));
    } else {
      slots.push_back(dest ? dc.dst(o) : dc.src(o, f.wide ? ptx::Type::kB64 : ptx::Type::kB32));
    }
  };
  const auto& ops = ins.operands;
  out.fn = nullptr;
  switch (d.kind) {
    case MmaDesc::Kind::kWmmaLoad:
    case MmaDesc::Kind::kWmmaStore: {
      const bool load = d.kind == MmaDesc::Kind::kWmmaLoad;
      const ptx::MmaType t = load ? (q.matrix == 'a' ? f.a : q.matrix == 'b' ? f.b : f.c) : f.d;
      d.layout[0] = wmma_fragment(q.matrix, f.m, f.n, f.k, t);
      d.space = resolve_space(dc, ins, ops[load ? 1 : 0], out);
      if (d.space != MemSpace::kGlobal && d.space != MemSpace::kShared && d.space != MemSpace::kGeneric)
        dc.unsupported("wmma.load/store outside global and shared memory");
      fragment(ops[load ? 0 : 1], load);
      if (ops.size() == 3) d.stride_slot = dc.src(ops[2], ptx::Type::kU32);
      out.mem_op = load ? Op::kLoad : Op::kStore;
      out.fn = load ? &exec_wmma_load : &exec_wmma_store;
      break;
    }
    case MmaDesc::Kind::kWmmaMma:
    case MmaDesc::Kind::kMma: {
      for (unsigned i = 0; i < 4; ++i) fragment(ops[i], i == 0);
      const char mats[4] = {'d', 'a', 'b', 'c'};
      const MmaType types[4] = {f.d, f.a, f.b, f.c};
      for (unsigned i = 0; i < 4; ++i)
        d.layout[i] = d.kind == MmaDesc::Kind::kWmmaMma ? wmma_fragment(mats[i], f.m, f.n, f.k, types[i])
                                                        : mma_fragment(mats[i], f.m, f.n, f.k, types[i], q.a_col, !q.b_col);
      out.fn = &exec_mma;
      break;
    }
    case MmaDesc::Kind::kLdmatrix:
    case MmaDesc::Kind::kStmatrix: {
      const bool load = d.kind == MmaDesc::Kind::kLdmatrix;
      d.space = resolve_space(dc, ins, ops[load ? 1 : 0], out);
      if (d.space != MemSpace::kShared && d.space != MemSpace::kGeneric)
        dc.unsupported("ldmatrix/stmatrix outside shared memory");
      fragment(ops[load ? 0 : 1], load);
      out.mem_op = load ? Op::kLoad : Op::kStore;
      out.fn = load ? &exec_ldmatrix : &exec_stmatrix;
      break;
    }
    case MmaDesc::Kind::kMovmatrix:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], ptx::Type::kB32);
      out.fn = &exec_movmatrix;
      break;
  }
  out.ctl = Ctl::kNone;
  std::vector<std::uint32_t> words(kMmaDescWords, 0);
  std::memcpy(words.data(), static_cast<const void*>(&d), sizeof d);
  words.insert(words.end(), slots.begin(), slots.end());
  out.aux2 = dc.add_operand_list(words);
  return true;
}

}  // namespace warpscope::exec
