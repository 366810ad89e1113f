#include "ptx/ir.hpp"

#include <fmt/format.h>

namespace warpscope::ptx {

std::uint32_t type_bits(Type t) {
  switch (t) {
    case Type::kNone: return 0;
    case Type::kPred: return 1;
    case Type::kB8: case Type::kU8: case Type::kS8: case Type::kE4M3: case Type::kE5M2: return 8;
    case Type::kB16: case Type::kU16: case Type::kS16: case Type::kF16: case Type::kBF16:
    case Type::kE4M3x2: case Type::kE5M2x2: return 16;
    case Type::kB32: case Type::kU32: case Type::kS32: case Type::kF32: case Type::kF16x2:
    case Type::kBF16x2: case Type::kTF32: case Type::kU16x2: case Type::kS16x2: return 32;
    case Type::kB64: case Type::kU64: case Type::kS64: case Type::kF64: return 64;
    case Type::kB128: return 128;
  }
  return 0;
}

std::uint32_t type_bytes(Type t) {
  if (t == Type::kPred) return 1;
  return type_bits(t) / 8;
}

bool is_signed_int(Type t) {
  return t == Type::kS8 || t == Type::kS16 || t == Type::kS32 || t == Type::kS64;
}
bool is_unsigned_int(Type t) {
  return t == Type::kU8 || t == Type::kU16 || t == Type::kU32 || t == Type::kU64;
}
bool is_packed_int(Type t) { return t == Type::kU16x2 || t == Type::kS16x2; }
bool is_bits(Type t) {
  return t == Type::kB8 || t == Type::kB16 || t == Type::kB32 || t == Type::kB64 || t == Type::kB128;
}
bool is_float(Type t) {
  switch (t) {
    case Type::kF16: case Type::kF16x2: case Type::kBF16: case Type::kBF16x2: case Type::kTF32:
    case Type::kF32: case Type::kF64: case Type::kE4M3: case Type::kE5M2: case Type::kE4M3x2:
    case Type::kE5M2x2: return true;
    default: return false;
  }
}

std::string_view to_string(Type t) {
  switch (t) {
    case Type::kNone: return "";
    case Type::kPred: return "pred";
    case Type::kB8: return "b8";
    case Type::kB16: return "b16";
    case Type::kB32: return "b32";
    case Type::kB64: return "b64";
    case Type::kB128: return "b128";
    case Type::kU8: return "u8";
    case Type::kU16: return "u16";
    case Type::kU32: return "u32";
    case Type::kU64: return "u64";
    case Type::kS8: return "s8";
    case Type::kS16: return "s16";
    case Type::kS32: return "s32";
    case Type::kS64: return "s64";
    case Type::kF16: return "f16";
    case Type::kF16x2: return "f16x2";
    case Type::kBF16: return "bf16";
    case Type::kBF16x2: return "bf16x2";
    case Type::kTF32: return "tf32";
    case Type::kF32: return "f32";
    case Type::kF64: return "f64";
    case Type::kE4M3: return "e4m3";
    case Type::kE5M2: return "e5m2";
    case Type::kE4M3x2: return "e4m3x2";
    case Type::kE5M2x2: return "e5m2x2";
    case Type::kU16x2: return "u16x2";
    case Type::kS16x2: return "s16x2";
  }
  return "?";
}

std::string_view to_string(StateSpace s) {
  switch (s) {
    case StateSpace::kGeneric: return "";
    case StateSpace::kReg: return "reg";
    case StateSpace::kSReg: return "sreg";
    case StateSpace::kConst: return "const";
    case StateSpace::kGlobal: return "global";
    case StateSpace::kLocal: return "local";
    case StateSpace::kParam: return "param";
    case StateSpace::kShared: return "shared";
    case StateSpace::kSharedCluster: return "shared::cluster";
    case StateSpace::kTex: return "tex";
  }
  return "?";
}

std::string_view to_string(Linkage l) {
  switch (l) {
    case Linkage::kInternal: return "";
    case Linkage::kVisible: return "visible";
    case Linkage::kWeak: return "weak";
    case Linkage::kExtern: return "extern";
    case Linkage::kCommon: return "common";
  }
  return "?";
}

std::string_view to_string(TexGeom g) {
  switch (g) {
    case TexGeom::kNone: return "";
    case TexGeom::k1d: return "1d";
    case TexGeom::k2d: return "2d";
    case TexGeom::k3d: return "3d";
    case TexGeom::kA1d: return "a1d";
    case TexGeom::kA2d: return "a2d";
    case TexGeom::kCube: return "cube";
    case TexGeom::kACube: return "acube";
  }
  return "?";
}

std::uint32_t tex_coord_count(TexGeom g) {
  switch (g) {
    case TexGeom::kNone: return 0;
    case TexGeom::k1d: return 1;
    case TexGeom::k2d: return 2;
    case TexGeom::kA1d: return 2;
    case TexGeom::k3d:
    case TexGeom::kA2d:
    case TexGeom::kCube:
    case TexGeom::kACube: return 4;
  }
  return 0;
}

std::string_view to_string(Opcode op) {
  switch (op) {
    case Opcode::kInvalid: return "<invalid>";
    case Opcode::kMov: return "mov";
    case Opcode::kLd: return "ld";
    case Opcode::kLdu: return "ldu";
    case Opcode::kSt: return "st";
    case Opcode::kCvta: return "cvta";
    case Opcode::kCvt: return "cvt";
    case Opcode::kCvtPack: return "cvt.pack";
    case Opcode::kPrefetch: return "prefetch";
    case Opcode::kPrefetchu: return "prefetchu";
    case Opcode::kIsspacep: return "isspacep";
    case Opcode::kAdd: return "add";
    case Opcode::kSub: return "sub";
    case Opcode::kAddc: return "addc";
    case Opcode::kSubc: return "subc";
    case Opcode::kMul: return "mul";
    case Opcode::kMad: return "mad";
    case Opcode::kMadc: return "madc";
    case Opcode::kMul24: return "mul24";
    case Opcode::kMad24: return "mad24";
    case Opcode::kSad: return "sad";
    case Opcode::kDiv: return "div";
    case Opcode::kRem: return "rem";
    case Opcode::kAbs: return "abs";
    case Opcode::kNeg: return "neg";
    case Opcode::kMin: return "min";
    case Opcode::kMax: return "max";
    case Opcode::kPopc: return "popc";
    case Opcode::kClz: return "clz";
    case Opcode::kBrev: return "brev";
    case Opcode::kBfind: return "bfind";
    case Opcode::kBfe: return "bfe";
    case Opcode::kBfi: return "bfi";
    case Opcode::kPrmt: return "prmt";
    case Opcode::kDp4a: return "dp4a";
    case Opcode::kDp2a: return "dp2a";
    case Opcode::kFns: return "fns";
    case Opcode::kBmsk: return "bmsk";
    case Opcode::kSzext: return "szext";
    case Opcode::kAnd: return "and";
    case Opcode::kOr: return "or";
    case Opcode::kXor: return "xor";
    case Opcode::kNot: return "not";
    case Opcode::kCnot: return "cnot";
    case Opcode::kLop3: return "lop3";
    case Opcode::kShl: return "shl";
    case Opcode::kShr: return "shr";
    case Opcode::kShf: return "shf";
    case Opcode::kFma: return "fma";
    case Opcode::kRcp: return "rcp";
    case Opcode::kSqrt: return "sqrt";
    case Opcode::kRsqrt: return "rsqrt";
    case Opcode::kSin: return "sin";
    case Opcode::kCos: return "cos";
    case Opcode::kLg2: return "lg2";
    case Opcode::kEx2: return "ex2";
    case Opcode::kTanh: return "tanh";
    case Opcode::kCopysign: return "copysign";
    case Opcode::kTestp: return "testp";
    case Opcode::kSetp: return "setp";
    case Opcode::kSet: return "set";
    case Opcode::kSelp: return "selp";
    case Opcode::kSlct: return "slct";
    case Opcode::kBra: return "bra";
    case Opcode::kBrxIdx: return "brx.idx";
    case Opcode::kCall: return "call";
    case Opcode::kRet: return "ret";
    case Opcode::kExit: return "exit";
    case Opcode::kTrap: return "trap";
    case Opcode::kBrkpt: return "brkpt";
    case Opcode::kBarSync: return "bar.sync";
    case Opcode::kBarArrive: return "bar.arrive";
    case Opcode::kBarRed: return "bar.red";
    case Opcode::kBarWarpSync: return "bar.warp.sync";
    case Opcode::kMembar: return "membar";
    case Opcode::kFence: return "fence";
    case Opcode::kAtom: return "atom";
    case Opcode::kRed: return "red";
    case Opcode::kNanosleep: return "nanosleep";
    case Opcode::kShfl: return "shfl";
    case Opcode::kVote: return "vote";
    case Opcode::kActivemask: return "activemask";
    case Opcode::kMatch: return "match";
    case Opcode::kRedux: return "redux";
    case Opcode::kElect: return "elect";
    case Opcode::kBarrierClusterArrive: return "barrier.cluster.arrive";
    case Opcode::kBarrierClusterWait: return "barrier.cluster.wait";
    case Opcode::kMapa: return "mapa";
    case Opcode::kSetmaxnregInc: return "setmaxnreg.inc";
    case Opcode::kSetmaxnregDec: return "setmaxnreg.dec";
    case Opcode::kGriddepLaunchDependents: return "griddepcontrol.launch_dependents";
    case Opcode::kGriddepWait: return "griddepcontrol.wait";
    case Opcode::kGetctarank: return "getctarank";
    case Opcode::kStAsync: return "st.async";
    case Opcode::kRedAsync: return "red.async";
    case Opcode::kStacksave: return "stacksave";
    case Opcode::kStackrestore: return "stackrestore";
    case Opcode::kAlloca: return "alloca";
    case Opcode::kPmevent: return "pmevent";
    case Opcode::kCreatepolicy: return "createpolicy";
    case Opcode::kApplypriority: return "applypriority";
    case Opcode::kDiscard: return "discard";
    case Opcode::kTex: return "tex";
    case Opcode::kTld4: return "tld4";
    case Opcode::kTxq: return "txq";
    case Opcode::kSuld: return "suld";
    case Opcode::kSust: return "sust";
    case Opcode::kSured: return "sured";
    case Opcode::kSuq: return "suq";
    case Opcode::kIstypep: return "istypep";
    case Opcode::kCpAsync: return "cp.async";
    case Opcode::kCpAsyncCommitGroup: return "cp.async.commit_group";
    case Opcode::kCpAsyncWaitGroup: return "cp.async.wait_group";
    case Opcode::kCpAsyncWaitAll: return "cp.async.wait_all";
    case Opcode::kCpAsyncMbarrierArrive: return "cp.async.mbarrier.arrive";
    case Opcode::kCpAsyncBulk: return "cp.async.bulk";
    case Opcode::kCpAsyncBulkTensor: return "cp.async.bulk.tensor";
    case Opcode::kCpAsyncBulkCommitGroup: return "cp.async.bulk.commit_group";
    case Opcode::kCpAsyncBulkWaitGroup: return "cp.async.bulk.wait_group";
    case Opcode::kCpReduceAsyncBulk: return "cp.reduce.async.bulk";
    case Opcode::kCpAsyncBulkPrefetch: return "cp.async.bulk.prefetch";
    case Opcode::kMbarrierInit: return "mbarrier.init";
    case Opcode::kMbarrierArrive: return "mbarrier.arrive";
    case Opcode::kMbarrierArriveDrop: return "mbarrier.arrive_drop";
    case Opcode::kMbarrierExpectTx: return "mbarrier.expect_tx";
    case Opcode::kMbarrierCompleteTx: return "mbarrier.complete_tx";
    case Opcode::kMbarrierTestWait: return "mbarrier.test_wait";
    case Opcode::kMbarrierTryWait: return "mbarrier.try_wait";
    case Opcode::kMbarrierPendingCount: return "mbarrier.pending_count";
    case Opcode::kMbarrierInval: return "mbarrier.inval";
    case Opcode::kWmmaLoad: return "wmma.load";
    case Opcode::kWmmaStore: return "wmma.store";
    case Opcode::kWmmaMma: return "wmma.mma";
    case Opcode::kMma: return "mma";
    case Opcode::kLdmatrix: return "ldmatrix";
    case Opcode::kStmatrix: return "stmatrix";
    case Opcode::kMovmatrix: return "movmatrix";
    case Opcode::kWgmmaMma: return "wgmma.mma_async";
    case Opcode::kWgmmaFence: return "wgmma.fence";
    case Opcode::kWgmmaCommit: return "wgmma.commit_group";
    case Opcode::kWgmmaWait: return "wgmma.wait_group";
    case Opcode::kVadd: return "vadd";
    case Opcode::kVsub: return "vsub";
    case Opcode::kVabsdiff: return "vabsdiff";
    case Opcode::kVmin: return "vmin";
    case Opcode::kVmax: return "vmax";
    case Opcode::kVshl: return "vshl";
    case Opcode::kVshr: return "vshr";
    case Opcode::kVmad: return "vmad";
    case Opcode::kVset: return "vset";
    case Opcode::kVadd2: return "vadd2";
    case Opcode::kVsub2: return "vsub2";
    case Opcode::kVavrg2: return "vavrg2";
    case Opcode::kVabsdiff2: return "vabsdiff2";
    case Opcode::kVmin2: return "vmin2";
    case Opcode::kVmax2: return "vmax2";
    case Opcode::kVset2: return "vset2";
    case Opcode::kVadd4: return "vadd4";
    case Opcode::kVsub4: return "vsub4";
    case Opcode::kVavrg4: return "vavrg4";
    case Opcode::kVabsdiff4: return "vabsdiff4";
    case Opcode::kVmin4: return "vmin4";
    case Opcode::kVmax4: return "vmax4";
    case Opcode::kVset4: return "vset4";
  }
  return "?";
}

std::string_view to_string(CmpOp c) {
  static constexpr std::string_view k[] = {"",   "eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                           "lo", "ls",  "hi",  "hs",  "equ", "neu", "ltu",
                                           "leu", "gtu", "geu", "num", "nan"};
  return k[static_cast<unsigned>(c)];
}
std::string_view to_string(BoolOp b) {
  static constexpr std::string_view k[] = {"", "and", "or", "xor"};
  return k[static_cast<unsigned>(b)];
}
std::string_view to_string(Rounding r) {
  static constexpr std::string_view k[] = {"", "rn", "rz", "rm", "rp", "rna", "rs",
                                           "rni", "rzi", "rmi", "rpi"};
  return k[static_cast<unsigned>(r)];
}
std::string_view to_string(MulMode m) {
  static constexpr std::string_view k[] = {"", "lo", "hi", "wide"};
  return k[static_cast<unsigned>(m)];
}
std::string_view to_string(MemOrder o) {
  static constexpr std::string_view k[] = {"", "weak", "volatile", "relaxed", "acquire",
                                           "release", "acq_rel", "sc", "mmio"};
  return k[static_cast<unsigned>(o)];
}
std::string_view to_string(Scope s) {
  static constexpr std::string_view k[] = {"", "cta", "cluster", "gpu", "sys"};
  return k[static_cast<unsigned>(s)];
}
std::string_view to_string(CacheOperator c) {
  static constexpr std::string_view k[] = {"", "ca", "cg", "cs", "lu", "cv", "wb", "wt"};
  return k[static_cast<unsigned>(c)];
}
std::string_view to_string(Eviction e) {
  static constexpr std::string_view k[] = {"", "evict_normal", "evict_unchanged", "evict_first",
                                           "evict_last", "no_allocate"};
  return k[static_cast<unsigned>(e)];
}
std::string_view to_string(ReduceOp r) {
  static constexpr std::string_view k[] = {"", "add", "min", "max", "inc", "dec", "and",
                                           "or", "xor", "exch", "cas", "popc"};
  return k[static_cast<unsigned>(r)];
}
std::string_view to_string(ShflMode m) {
  static constexpr std::string_view k[] = {"", "up", "down", "bfly", "idx"};
  return k[static_cast<unsigned>(m)];
}
std::string_view to_string(VoteMode m) {
  static constexpr std::string_view k[] = {"", "all", "any", "uni", "ballot"};
  return k[static_cast<unsigned>(m)];
}
std::string_view to_string(PrmtMode m) {
  static constexpr std::string_view k[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
  return k[static_cast<unsigned>(m)];
}
std::string_view to_string(TestpOp t) {
  static constexpr std::string_view k[] = {"", "finite", "infinite", "number", "notanumber",
                                           "normal", "subnormal"};
  return k[static_cast<unsigned>(t)];
}

std::string_view to_string(SpecialReg r) {
  switch (r) {
    case SpecialReg::kNone: return "";
    case SpecialReg::kTid: return "tid";
    case SpecialReg::kNtid: return "ntid";
    case SpecialReg::kCtaid: return "ctaid";
    case SpecialReg::kNctaid: return "nctaid";
    case SpecialReg::kLaneid: return "laneid";
    case SpecialReg::kWarpid: return "warpid";
    case SpecialReg::kNwarpid: return "nwarpid";
    case SpecialReg::kSmid: return "smid";
    case SpecialReg::kNsmid: return "nsmid";
    case SpecialReg::kGridid: return "gridid";
    case SpecialReg::kLanemaskEq: return "lanemask_eq";
    case SpecialReg::kLanemaskLt: return "lanemask_lt";
    case SpecialReg::kLanemaskLe: return "lanemask_le";
    case SpecialReg::kLanemaskGt: return "lanemask_gt";
    case SpecialReg::kLanemaskGe: return "lanemask_ge";
    case SpecialReg::kClock: return "clock";
    case SpecialReg::kClock64: return "clock64";
    case SpecialReg::kClockHi: return "clock_hi";
    case SpecialReg::kGlobaltimer: return "globaltimer";
    case SpecialReg::kGlobaltimerLo: return "globaltimer_lo";
    case SpecialReg::kGlobaltimerHi: return "globaltimer_hi";
    case SpecialReg::kDynamicSmemSize: return "dynamic_smem_size";
    case SpecialReg::kTotalSmemSize: return "total_smem_size";
    case SpecialReg::kAggrSmemSize: return "aggr_smem_size";
    case SpecialReg::kClusterid: return "clusterid";
    case SpecialReg::kNclusterid: return "nclusterid";
    case SpecialReg::kClusterCtaid: return "cluster_ctaid";
    case SpecialReg::kClusterNctaid: return "cluster_nctaid";
    case SpecialReg::kClusterCtarank: return "cluster_ctarank";
    case SpecialReg::kClusterNctarank: return "cluster_nctarank";
    case SpecialReg::kIsExplicitCluster: return "is_explicit_cluster";
    case SpecialReg::kEnvreg: return "envreg";
    case SpecialReg::kPm: return "pm";
    case SpecialReg::kPm64: return "pm";
    case SpecialReg::kReservedSmemOffset: return "reserved_smem_offset_";
    case SpecialReg::kReservedSmemOffsetBegin: return "reserved_smem_offset_begin";
    case SpecialReg::kReservedSmemOffsetEnd: return "reserved_smem_offset_end";
    case SpecialReg::kReservedSmemOffsetCap: return "reserved_smem_offset_cap";
    case SpecialReg::kCurrentGraphExec: return "current_graph_exec";
  }
  return "?";
}

std::uint32_t Function::find_label(std::string_view n) const {
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i].name == n) return static_cast<std::uint32_t>(i);
  return kNone32;
}

RegId Function::find_register(std::string_view n) const {
  RegId best = kNoReg;
  for (std::size_t i = 0; i < registers.size(); ++i) {
    if (registers[i].name != n) continue;
    if (best == kNoReg || registers[i].scope < registers[best].scope) best = static_cast<RegId>(i);
  }
  return best;
}

std::uint32_t Function::find_variable(std::string_view n) const {
  for (std::size_t i = 0; i < variables.size(); ++i)
    if (variables[i].name == n) return static_cast<std::uint32_t>(i);
  return kNone32;
}

std::uint32_t Function::find_param(std::string_view n) const {
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].name == n) return static_cast<std::uint32_t>(i);
  return kNone32;
}

const Function* Module::find_function(std::string_view n) const {
  const Function* decl = nullptr;
  for (const Function& f : functions) {
    if (f.name != n) continue;
    if (!f.is_declaration) return &f;
    if (decl == nullptr) decl = &f;
  }
  return decl;
}

const Variable* Module::find_variable(std::string_view n) const {
  for (const Variable& v : variables)
    if (v.name == n) return &v;
  return nullptr;
}

std::string_view Module::file_path(const SourceLoc& loc) const {
  if (loc.file >= files.size()) return {};
  return files[loc.file].path;
}

SourceLoc Module::outermost(const SourceLoc& loc) const {
  SourceLoc cur = loc;
  // The chain only points to earlier sites, so it is finite; bound it anyway.
  for (std::size_t steps = 0; cur.inlined_at < inline_sites.size() && steps <= inline_sites.size();
       ++steps)
    cur = inline_sites[cur.inlined_at].call_site;
  return cur;
}

std::string Module::describe(const SourceLoc& loc) const {
  if (!loc.valid()) return "?";
  std::string_view path = file_path(loc);
  return fmt::format("{}:{}:{}", path.empty() ? std::string_view("?") : path, loc.line, loc.column);
}

}  // namespace warpscope::ptx
