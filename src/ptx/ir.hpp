// The typed PTX IR: what the front end (src/ptx) produces and the interpreter (src/exec) decodes.
//
// Pipeline (docs/ptx.md): text -> tokens (lexer.hpp) -> syntax tree (syntax.hpp, parser.hpp)
// -> IR (builder.hpp) -> verified IR (verifier.hpp). `load_module` in ptx.hpp runs all of it.
//
// Contract the interpreter may rely on once a Module has been verified:
// - Every RegId indexes Function::registers of the function that holds the instruction; every
//   SymbolRef indexes the table its kind names; every label operand's `target` is a valid
//   instruction index (< instructions.size()) of the same function.
// - Operand counts and kinds match the opcode as documented on each Opcode enumerator below;
//   vector operands have exactly `vec` elements for ld/st/ldu/atom/red, 2 or 4 for mov pack/unpack.
// - Modifiers the front end does not know were rejected (ErrorKind::kUnsupported); every field
//   below has its "none" value when the PTX did not spell the modifier.
//
// Stability: this header only grows. Fields and enumerators are added, never renamed or removed,
// so a `switch` over one of these enums should have a `default:` to keep compiling.
// The IR favours clarity over speed; the interpreter decodes it once into its own form.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::ptx {

// ------------------------------------------------------------------------------------------------
// Scalar types and state spaces
// ------------------------------------------------------------------------------------------------

/// A PTX fundamental type as written in a type suffix (`.f32`) or declaration (`.reg .b64`).
enum class Type : std::uint8_t {
  kNone,  // no type given / not applicable
  kPred,
  kB8, kB16, kB32, kB64, kB128,
  kU8, kU16, kU32, kU64,
  kS8, kS16, kS32, kS64,
  kF16, kF16x2, kBF16, kBF16x2, kTF32, kF32, kF64,
  kE4M3, kE5M2, kE4M3x2, kE5M2x2,  // fp8 (cvt only)
  kU16x2, kS16x2,                  // packed 16-bit integers (add/sub/min/max .u16x2/.s16x2)
};

/// Size of one value of the type in bytes (kPred: 1, kNone: 0).
std::uint32_t type_bytes(Type t);
/// Size in bits (kPred: 1).
std::uint32_t type_bits(Type t);
bool is_signed_int(Type t);    // .s8 .. .s64 (not .s16x2)
bool is_unsigned_int(Type t);  // .u8 .. .u64 (not .u16x2)
bool is_packed_int(Type t);    // .u16x2 .s16x2
bool is_bits(Type t);          // .b8 .. .b128
bool is_float(Type t);         // .f16 .f16x2 .bf16 .bf16x2 .tf32 .f32 .f64 and fp8
std::string_view to_string(Type t);  // "f32", "pred", ... ("" for kNone)

/// A state space (`.global`, ...). kGeneric means "no space given" on ld/st/atom/cvta, i.e. a
/// generic address; on declarations it is never used.
enum class StateSpace : std::uint8_t {
  kGeneric,
  kReg,
  kSReg,
  kConst,
  kGlobal,
  kLocal,
  kParam,
  kShared,         // .shared and .shared::cta
  kSharedCluster,  // .shared::cluster (rejected by the builder for now; kept for completeness)
  kTex,
};
std::string_view to_string(StateSpace s);

enum class Linkage : std::uint8_t { kInternal, kVisible, kWeak, kExtern, kCommon };
std::string_view to_string(Linkage l);

/// The opaque types of module-scope variables (PTX ISA 5.3, "Texture Sampler and Surface Types"):
/// `.texref`, `.surfref`, `.samplerref`. Such a variable is no memory: its value is a handle.
enum class OpaqueKind : std::uint8_t { kNone, kTexRef, kSurfRef, kSamplerRef };

// ------------------------------------------------------------------------------------------------
// Source locations
// ------------------------------------------------------------------------------------------------

inline constexpr std::uint32_t kNone32 = std::numeric_limits<std::uint32_t>::max();

/// A position in the PTX text itself (1-based line and column).
struct PtxPos {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool operator==(const PtxPos&) const = default;
};

/// A position in the CUDA source, from `.loc`. `file` is an index into Module::files (the `.file`
/// number resolved to its path), kNone32 when no `.loc` was in effect. `inlined_at` is an index
/// into Module::inline_sites when this location lies in a function inlined into another one
/// (`.loc F L C, function_name $L__info_stringN, inlined_at F2 L2 C2`), else kNone32.
struct SourceLoc {
  std::uint32_t file = kNone32;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t inlined_at = kNone32;
  bool valid() const { return file != kNone32; }
  bool operator==(const SourceLoc&) const = default;
};

/// Where an inlined function was inlined. `call_site` is the location of the call in the caller;
/// its own `inlined_at` continues the chain when the caller was itself inlined. Walking
/// loc -> inline_sites[loc.inlined_at].call_site -> ... ends at the outermost (non-inlined)
/// call-site line, which is the line a per-source-line report of the kernel wants.
struct InlineSite {
  SourceLoc call_site;
  std::string callee_label;  // the `$L__info_stringN` label as written
  std::string callee;        // its text from `.section .debug_str` (mangled name), "" if unknown
};

/// One `.file N "path"[, timestamp, size]` directive.
struct SourceFile {
  std::uint32_t number = 0;  // N as written
  std::string path;
  std::uint64_t timestamp = 0;
  std::uint64_t size = 0;
};

// ------------------------------------------------------------------------------------------------
// Registers, symbols, variables
// ------------------------------------------------------------------------------------------------

/// Index into Function::registers.
using RegId = std::uint32_t;
inline constexpr RegId kNoReg = kNone32;

/// One virtual register. `.reg .b32 %r<6>` declares %r0 .. %r5 as six entries. Registers declared
/// in nested `{ }` scopes (inline asm, call sequences) get their own entries even when their names
/// repeat; `scope` is the nesting depth (0 = function body).
struct Register {
  std::string name;
  Type type = Type::kNone;
  std::uint32_t scope = 0;
  PtxPos pos;
};

enum class SymbolKind : std::uint8_t {
  kNone,
  kModuleVar,    // index into Module::variables
  kFunctionVar,  // index into Function::variables of the enclosing function
  kParam,        // index into Function::params of the enclosing function
  kReturn,       // index into Function::returns of the enclosing function (.func return values)
  kFunction,     // index into Module::functions
};

struct SymbolRef {
  SymbolKind kind = SymbolKind::kNone;
  std::uint32_t index = kNone32;
  bool operator==(const SymbolRef&) const = default;
};

/// A pointer-sized slot of a variable's initializer that holds the address of a symbol
/// (`.global .u64 p = generic(x) + 8;` or `= x;`).
struct Relocation {
  std::uint64_t offset = 0;   // byte offset inside the variable's initial data
  std::uint32_t bytes = 8;    // width of the slot
  SymbolRef symbol;           // a module variable or function
  std::int64_t addend = 0;
  bool generic = false;       // written as generic(sym): a generic address rather than a space one
};

/// A variable in any addressable state space: module-scope `.global`/`.const`/`.shared`, and
/// function-scope `.local` (including `__local_depot0`), `.shared` and `.param` (call-sequence
/// arguments declared inside `{ }`).
struct Variable {
  std::string name;
  StateSpace space = StateSpace::kGlobal;
  Type type = Type::kNone;          // element type
  std::uint32_t vec = 1;            // .v2/.v4 element vectors
  std::uint32_t align = 0;          // .align N, else 0 (natural alignment of the element)
  std::vector<std::uint64_t> dims;  // array dimensions; empty for a scalar
  bool unsized = false;             // declared with `[]` (dynamic extern shared memory)
  std::uint64_t size = 0;           // bytes: element size * vec * product(dims); 0 when unsized
  Linkage linkage = Linkage::kInternal;
  bool has_init = false;
  std::vector<std::uint8_t> init;   // little-endian initial bytes (size bytes) when has_init
  std::vector<Relocation> relocations;
  std::uint32_t scope = 0;          // nesting depth for function variables
  PtxPos pos;
  bool managed = false;             // `.attribute(.managed)` (__managed__ variables)
  OpaqueKind opaque = OpaqueKind::kNone;  // `.texref`/`.surfref`: type kU64, the reference's handle
};

/// A parameter of a kernel or function, or a `.func` return value.
struct Param {
  std::string name;
  StateSpace space = StateSpace::kParam;  // kParam; kReg for `.reg` parameters of a .func
  Type type = Type::kNone;
  std::uint32_t align = 0;          // .align N, else 0 (natural)
  std::vector<std::uint64_t> dims;  // `.param .align 8 .b8 p[24]`
  std::uint64_t size = 0;           // bytes
  std::uint64_t offset = 0;         // byte offset in the parameter buffer (natural layout)
  StateSpace ptr_space = StateSpace::kGeneric;  // `.ptr .global` annotation, if any
  std::uint32_t ptr_align = 0;      // `.ptr ... .align N`
  RegId reg = kNoReg;               // for space == kReg: the register that holds it
  PtxPos pos;
};

// ------------------------------------------------------------------------------------------------
// Instructions
// ------------------------------------------------------------------------------------------------

/// PTX opcodes. Operands are listed in PTX order, destinations first; `d2` is Instruction::dest2,
/// `[a]` an address operand, `{}` a vector operand, `imm` an immediate.
enum class Opcode : std::uint16_t {
  kInvalid,
  // data movement
  kMov,          // d, a       a: reg, imm, special reg, symbol (its address); d or a may be a vector
                 //            (pack `mov.b64 %rd, {%r1,%r2}` / unpack `mov.b64 {%r1,%r2}, %rd`)
  kLd,           // d, [a]     d: reg or {} of vec regs; optional trailing cache-policy operand
  kLdu,          // d, [a]
  kSt,           // [a], b     b: reg/imm or {}; optional trailing cache-policy operand
  kCvta,         // d, a       to_space=false: space->generic, true (cvta.to): generic->space
  kCvt,          // d, a       type = destination type, src_type = source type
  kCvtPack,      // d, a, b[, c]  cvt.pack.sat.{u8,s8,u16,s16}.s32[.b32]
  kPrefetch,     // [a]
  kPrefetchu,    // [a]
  kIsspacep,     // p, a
  // integer arithmetic
  kAdd, kSub,    // d, a, b    (.cc sets carry_out; also float forms)
  kAddc, kSubc,  // d, a, b    with carry in (and carry out with .cc)
  kMul,          // d, a, b    mul mode lo/hi/wide for integers
  kMad,          // d, a, b, c
  kMadc,         // d, a, b, c with carry in
  kMul24,        // d, a, b
  kMad24,        // d, a, b, c
  kSad,          // d, a, b, c
  kDiv, kRem,    // d, a, b
  kAbs, kNeg,    // d, a
  kMin, kMax,    // d, a, b
  kPopc, kClz, kBrev,  // d, a
  kBfind,        // d, a       shiftamt flag
  kBfe,          // d, a, b, c
  kBfi,          // d, a, b, c, e   (insert a into b at position c, length e)
  kPrmt,         // d, a, b, c  prmt mode
  kDp4a, kDp2a,  // d, a, b, c  type = a's type, src_type = b's type; dp2a has lo/hi in mul mode
  kFns,          // d, mask, base, offset
  kBmsk,         // d, a, b     clamp flag (else wrap)
  kSzext,        // d, a, b     clamp flag (else wrap)
  // logic and shifts
  kAnd, kOr, kXor,  // d, a, b   (also on .pred)
  kNot, kCnot,   // d, a
  kLop3,         // d, a, b, c, immLut
  kShl, kShr,    // d, a, b
  kShf,          // d, a, b, c  shf_left, clamp
  // floating point (kAdd/kSub/kMul/kMad/kMin/kMax/kAbs/kNeg above are shared with integers)
  kFma,          // d, a, b, c
  kRcp, kSqrt, kRsqrt, kSin, kCos, kLg2, kEx2, kTanh,  // d, a
  kCopysign,     // d, a, b
  kTestp,        // p, a       testp op
  // comparison and selection
  kSetp,         // p[|d2], a, b[, c]   cmp, bool_op (c is the predicate combined with bool_op)
  kSet,          // d, a, b[, c]        type = destination type, src_type = compared type
  kSelp,         // d, a, b, c (c: predicate)
  kSlct,         // d, a, b, c          type = d/a/b type, src_type = c's type
  // control flow
  kBra,          // label
  kBrxIdx,       // index, label-list (not produced yet; reserved)
  kCall,         // operands[0] = callee (function symbol, or register for indirect calls);
                 // call_results / call_args hold the parenthesised lists (param symbols/regs)
  kRet,
  kExit,
  kTrap,
  kBrkpt,
  // synchronisation
  kBarSync,      // a[, b]     bar.sync / barrier.sync (aligned flag); a = barrier id, b = count
  kBarArrive,    // a, b
  kBarRed,       // d, a[, b], c   reduce = popc/and/or; c the predicate input (maybe negated)
  kBarWarpSync,  // membermask
  kMembar,       // (scope)
  kFence,        // (order, scope; proxy flag for fence.proxy.*)
  kAtom,         // d, [a], b[, c]  reduce op; c for cas
  kRed,          // [a], b
  kNanosleep,    // a
  // warp level
  kShfl,         // d[|d2], a, b, c, membermask   shfl mode
  kVote,         // d, a(pred, maybe negated), membermask   vote mode
  kActivemask,   // d
  kMatch,        // d[|d2], a, membermask   vote = kAny / kAll
  kRedux,        // d, a, membermask   reduce op
  kElect,        // d|d2, membermask
  // thread-block clusters and launch control (issue 18)
  kBarrierClusterArrive,  // (none)   barrier.cluster.arrive[.release|.relaxed][.aligned]
  kBarrierClusterWait,    // (none)   barrier.cluster.wait[.acquire][.aligned]
  kMapa,                  // d, a, b  mapa[.shared::cluster].u32/.u64: a's address in CTA rank b
  kSetmaxnregInc,         // imm      setmaxnreg.inc.sync.aligned.u32 N
  kSetmaxnregDec,         // imm      setmaxnreg.dec.sync.aligned.u32 N
  kGriddepLaunchDependents,  // griddepcontrol.launch_dependents
  kGriddepWait,              // griddepcontrol.wait
  kGetctarank,    // d, a      getctarank{.shared::cluster}.u32/.u64: the cluster rank owning address a
  kStAsync,       // [a], b, [mbar]   st.async{.weak}{.shared::cluster}.mbarrier::complete_tx::bytes{.vN}.type
  kRedAsync,      // [a], b, [mbar]   red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type
  // misc
  kStacksave,    // d
  kStackrestore, // a
  kAlloca,       // d, size[, align]
  kPmevent,      // a
  // L2 cache policies and hints (docs/exec.md "Cache policies and hints")
  kCreatepolicy,   // d{, fraction} (.fractional) | d, [a], primary-size, total-size (.range) |
                   // d, access-property (.cvt.L2)   policy_kind, l2_eviction, l2_secondary
  kApplypriority,  // [a], size      applypriority{.global}.L2::evict_normal
  kDiscard,        // [a], size      discard{.global}.L2
  // textures and surfaces (object handles in registers: the unified mode of CUDA 11+)
  kTex,          // d, [h, {coords}][, lod | , {dPdx}, {dPdy}]   d: {4 regs}; tex_geom, tex_mode
  kTld4,         // d, [h, {coords}]                 tld4 gather; tex_comp = channel (0..3)
  kTxq,          // d, [h][, lod]                    txq; tex_query
  kSuld,         // d, [h, {coords}]                 suld.b; d: reg or {v regs}; surf_clamp
  kSust,         // [h, {coords}], a                 sust.b / sust.p (surf_formatted)
  kSured,        // [h, {coords}], a                 sured.b / .p with reduce
  kSuq,          // d, [h]                           suq; tex_query
  kIstypep,      // p, a                             istypep; opaque_type (the handle's kind)
  // asynchronous copies and mbarriers (space = destination, src_space = source of a copy)
  kCpAsync,             // [dst], [src], cp-size{, src-size | ignore-src}{, policy}   .ca/.cg
  kCpAsyncCommitGroup,  // (none)
  kCpAsyncWaitGroup,    // N (immediate)
  kCpAsyncWaitAll,      // (none)
  kCpAsyncMbarrierArrive,  // [mbar]                          noinc
  kCpAsyncBulk,         // [dst], [src], size{, [mbar]}{, policy}  .mbarrier::complete_tx::bytes | .bulk_group
  kCpAsyncBulkTensor,   // load: [dst], [tmap, {coords}], [mbar]{, im2col offsets}{, policy}
                        // store: [tmap, {coords}], [src]{, policy}          tensor_dims, tensor_mode
  kCpAsyncBulkCommitGroup,  // (none)
  kCpAsyncBulkWaitGroup,    // N (immediate)                   wait_read
  kCpReduceAsyncBulk,   // [dst], [src], size{, [mbar]}  reduce, type; .tensor: [tmap, {coords}], [src]
  kCpAsyncBulkPrefetch, // [src], size{, policy}; .tensor: [tmap, {coords}]{, offsets}{, policy}
  kMbarrierInit,        // [mbar], count
  kMbarrierArrive,      // state|_, [mbar]{, count | txCount}   no_complete, expect_tx
  kMbarrierArriveDrop,  // state|_, [mbar]{, count}
  kMbarrierExpectTx,    // [mbar], txCount
  kMbarrierCompleteTx,  // [mbar], txCount
  kMbarrierTestWait,    // p, [mbar], state | phaseParity         parity
  kMbarrierTryWait,     // p, [mbar], state | phaseParity{, suspendTimeHint}   parity
  kMbarrierPendingCount,  // d, state
  kMbarrierInval,       // [mbar]
  // warp-level matrix instructions (Instruction::mma holds their qualifiers; src/ptx/mma.hpp)
  kWmmaLoad,     // {d..}, [a][, stride]      wmma.load.{a,b,c}
  kWmmaStore,    // [a], {s..}[, stride]      wmma.store.d
  kWmmaMma,      // {d..}, {a..}, {b..}, {c..}
  kMma,          // {d..}, {a..}, {b..}, {c..}   mma.sync
  kLdmatrix,     // {d..}, [a]
  kStmatrix,     // [a], {s..}
  kMovmatrix,    // d, a
  // warpgroup matrix instructions (src/ptx/wgmma.cpp)
  kWgmmaMma,     // {d..}, a-desc | {a..}, b-desc, scale-d{, imm-scale-a, imm-scale-b{, imm-trans-a}{, imm-trans-b}}
  kWgmmaFence,   // (none)                    wgmma.fence.sync.aligned
  kWgmmaCommit,  // (none)                    wgmma.commit_group.sync.aligned
  kWgmmaWait,    // N                         wgmma.wait_group.sync.aligned
  // video instructions (PTX ISA "Scalar Video Instructions", "SIMD Video Instructions"):
  // type = dtype, src_type = atype, src2_type = btype (vset: type = atype, src_type = btype);
  // operand selectors (`%r1.b0`, `%r2.h10`, `%r3.b7654`) are in Operand::sel; `reduce` is the
  // secondary operation (.add/.min/.max), `clamp`/`video_wrap` vshl/vshr's mode
  kVadd, kVsub, kVabsdiff, kVmin, kVmax,  // d[.dsel], a[.asel], b[.bsel][, c]
  kVshl, kVshr,  // d[.dsel], a[.asel], b[.bsel][, c]   .clamp / .wrap
  kVmad,         // d, [-]a[.asel], [-]b[.bsel], [-]c   .po, .shr7/.shr15 (video_scale)
  kVset,         // d[.dsel], a[.asel], b[.bsel][, c]   cmp
  kVadd2, kVsub2, kVavrg2, kVabsdiff2, kVmin2, kVmax2,  // d[.mask], a[.asel], b[.bsel], c
  kVset2,        // d[.mask], a[.asel], b[.bsel], c   cmp
  kVadd4, kVsub4, kVavrg4, kVabsdiff4, kVmin4, kVmax4,  // d[.mask], a[.asel], b[.bsel], c
  kVset4,        // d[.mask], a[.asel], b[.bsel], c   cmp
};
/// True for the scalar and SIMD video instructions (kVadd .. kVset4).
constexpr bool is_video(Opcode op) { return op >= Opcode::kVadd && op <= Opcode::kVset4; }
std::string_view to_string(Opcode op);  // the PTX mnemonic head ("ld", "bar.sync", ...)

enum class CmpOp : std::uint8_t {
  kNone,
  kEq, kNe, kLt, kLe, kGt, kGe,          // signed / ordered float
  kLo, kLs, kHi, kHs,                    // unsigned
  kEqu, kNeu, kLtu, kLeu, kGtu, kGeu,    // unordered float
  kNum, kNan,
};
std::string_view to_string(CmpOp c);

enum class BoolOp : std::uint8_t { kNone, kAnd, kOr, kXor };
std::string_view to_string(BoolOp b);

/// Rounding modifier. kRn..kRp round a float result; kRni..kRpi round to an integral value
/// (cvt float->float, or the int rounding of float->int conversions); kRna/kRs for special cvts.
enum class Rounding : std::uint8_t { kNone, kRn, kRz, kRm, kRp, kRna, kRs, kRni, kRzi, kRmi, kRpi };
std::string_view to_string(Rounding r);

enum class MulMode : std::uint8_t { kNone, kLo, kHi, kWide };
std::string_view to_string(MulMode m);

/// Memory ordering of ld/st/atom/red/fence. kNone means weak (the default).
enum class MemOrder : std::uint8_t { kNone, kWeak, kVolatile, kRelaxed, kAcquire, kRelease, kAcqRel, kSc, kMmio };
std::string_view to_string(MemOrder o);

enum class Scope : std::uint8_t { kNone, kCta, kCluster, kGpu, kSys };
std::string_view to_string(Scope s);

/// Cache operator of ld/st (`.ca/.cg/.cs/.lu/.cv` loads, `.wb/.cg/.cs/.wt` stores).
enum class CacheOperator : std::uint8_t { kNone, kCa, kCg, kCs, kLu, kCv, kWb, kWt };
std::string_view to_string(CacheOperator c);

/// `.L1::evict_*` / `.L2::evict_*` / `.L1::no_allocate` qualifiers.
enum class Eviction : std::uint8_t { kNone, kNormal, kUnchanged, kFirst, kLast, kNoAllocate };
std::string_view to_string(Eviction e);

/// The form of createpolicy.
enum class PolicyKind : std::uint8_t { kNone, kFractional, kRange, kCvt };

/// Operation of atom, red, redux.sync and bar.red.
enum class ReduceOp : std::uint8_t { kNone, kAdd, kMin, kMax, kInc, kDec, kAnd, kOr, kXor, kExch, kCas, kPopc };
std::string_view to_string(ReduceOp r);

enum class ShflMode : std::uint8_t { kNone, kUp, kDown, kBfly, kIdx };
std::string_view to_string(ShflMode m);

/// vote.sync mode; also match.sync (kAny / kAll).
enum class VoteMode : std::uint8_t { kNone, kAll, kAny, kUni, kBallot };
std::string_view to_string(VoteMode m);

enum class PrmtMode : std::uint8_t { kNone, kF4e, kB4e, kRc8, kEcl, kEcr, kRc16 };
std::string_view to_string(PrmtMode m);

enum class TestpOp : std::uint8_t { kNone, kFinite, kInfinite, kNumber, kNotANumber, kNormal, kSubnormal };
std::string_view to_string(TestpOp t);

/// Texture and surface geometry (`.1d .2d .3d .a1d .a2d .cube .acube`; `.2dms/.a2dms` rejected).
enum class TexGeom : std::uint8_t { kNone, k1d, k2d, k3d, kA1d, kA2d, kCube, kACube };
std::string_view to_string(TexGeom g);
/// Coordinates a geometry takes in the address vector (PTX pads 3-element ones to 4).
std::uint32_t tex_coord_count(TexGeom g);
/// tex level-of-detail mode: `.level` (explicit LOD operand), `.grad` (gradients), `.base`.
enum class TexMode : std::uint8_t { kNone, kLevel, kGrad, kBase };
/// Out-of-range handling of suld/sust/sured: `.trap` (the default), `.clamp`, `.zero`.
enum class SurfClamp : std::uint8_t { kTrap, kClamp, kZero };
/// What txq/suq ask.
enum class TexQuery : std::uint8_t {
  kNone, kWidth, kHeight, kDepth, kChannelDataType, kChannelOrder, kNormalizedCoords, kFilterMode,
  kAddrMode0, kAddrMode1, kAddrMode2, kArraySize, kNumMipmapLevels, kNumSamples, kMemoryLayout,
  kForceUnnormalizedCoords,
};

/// Element types of the matrix instructions (some have no fundamental Type: .s4 .u4 .b1).
enum class MmaType : std::uint8_t {
  kNone, kF16, kBF16, kTF32, kF32, kF64, kS32, kS8, kU8, kS4, kU4, kB1, kE4M3, kE5M2, kB16, kB8,
};
std::string_view to_string(MmaType t);

/// Qualifiers of wmma, mma, ldmatrix, stmatrix and movmatrix (Opcode::kWmmaLoad .. kMovmatrix).
/// The rounding mode (.f64), .satfinite, the state space, .sync and .aligned use Instruction's
/// own fields.
struct MmaQualifiers {
  std::uint16_t m = 0, n = 0, k = 0;  // .m16n8k16 (ldmatrix/stmatrix/movmatrix: .m8n8, k = 0)
  char matrix = 0;                   // wmma.load/.store: 'a', 'b', 'c' or 'd'
  // Layouts: wmma.load/store: `a_col` is the one .row/.col; mma and wmma.mma: .alayout.blayout.
  bool a_col = false, b_col = false;
  std::uint8_t layouts = 0;          // how many .row/.col were written
  std::array<MmaType, 4> types{};    // in the order written (mma: d, a, b, c; wmma.mma .f16: d, c)
  std::uint8_t ntypes = 0;
  std::uint8_t num = 0;              // ldmatrix/stmatrix .x1/.x2/.x4
  bool trans = false;                // .trans
  std::uint8_t bitop = 0;            // .b1: 1 = .xor.popc, 2 = .and.popc
};

/// prefetch level: `.L1` / `.L2`.
enum class CacheLevel : std::uint8_t { kNone, kL1, kL2 };

/// A special (read-only) register. `component` of the operand says x/y/z where applicable.
enum class SpecialReg : std::uint8_t {
  kNone,
  kTid, kNtid, kCtaid, kNctaid,           // with component 0/1/2 = .x/.y/.z
  kLaneid, kWarpid, kNwarpid, kSmid, kNsmid, kGridid,
  kLanemaskEq, kLanemaskLt, kLanemaskLe, kLanemaskGt, kLanemaskGe,
  kClock, kClock64, kClockHi, kGlobaltimer, kGlobaltimerLo, kGlobaltimerHi,
  kDynamicSmemSize, kTotalSmemSize, kAggrSmemSize,
  kClusterid, kNclusterid, kClusterCtaid, kClusterNctaid, kClusterCtarank, kClusterNctarank,
  kIsExplicitCluster,
  kEnvreg,                                // %envreg<N>: component = N
  kPm,                                    // %pm0..%pm7: component = N
  kPm64,                                  // %pm0_64..%pm7_64: component = N
  kReservedSmemOffset,                    // %reserved_smem_offset_0/_1: component = N
  kReservedSmemOffsetBegin, kReservedSmemOffsetEnd, kReservedSmemOffsetCap,
  kCurrentGraphExec,
};
std::string_view to_string(SpecialReg r);  // "tid", "laneid", ...

enum class ImmKind : std::uint8_t {
  kInt,  // integer literal; `imm` holds its two's-complement 64-bit value
  kF32,  // 0fXXXXXXXX; `imm` holds the 32 bits in its low half
  kF64,  // 0dXXXXXXXXXXXXXXXX or a decimal float literal; `imm` holds the IEEE double bits
};

enum class OperandKind : std::uint8_t {
  kNone,
  kReg,      // reg (negate: `!%p` on predicate inputs)
  kImm,      // imm_kind, imm
  kAddress,  // [base + offset]: addr_base says whether reg, symbol or nothing (absolute) is the base;
             // texture/surface addresses `[h, {c0, c1}]` keep the coordinates in `elements`
  kVector,   // elements (each kReg, kImm or kSink)
  kLabel,    // target (instruction index), label (index into Function::labels)
  kSymbol,   // symbol (+ offset): the address of a variable/param, or a function
  kSpecial,  // sreg, component
  kSink,     // `_`
};

/// The load mode of a tensor copy: .tile, .im2col and the other forms (refused by src/exec).
enum class TensorMode : std::uint8_t { kNone, kTile, kIm2col, kIm2colNoOffs, kOther };

enum class AddressBase : std::uint8_t { kNone, kReg, kSymbol };

struct Operand {
  OperandKind kind = OperandKind::kNone;
  RegId reg = kNoReg;         // kReg; kAddress with addr_base kReg
  bool negate = false;        // kReg: `!%p`
  ImmKind imm_kind = ImmKind::kInt;
  std::uint64_t imm = 0;      // kImm
  AddressBase addr_base = AddressBase::kNone;
  SymbolRef symbol;           // kSymbol; kAddress with addr_base kSymbol
  std::int64_t offset = 0;    // kAddress; kSymbol (`sym+4`)
  std::uint32_t target = kNone32;  // kLabel: instruction index
  std::uint32_t label = kNone32;   // kLabel: index into Function::labels
  SpecialReg sreg = SpecialReg::kNone;
  std::uint8_t component = 0;      // kSpecial: 0,1,2 for .x,.y,.z (or the N of %envregN / %pmN)
  std::vector<Operand> elements;   // kVector; kAddress: texture/surface coordinates
  /// A video instruction's byte/half-word selector or mask written after a register, without
  /// the dot: "b0", "h1", "h32", "b3210" (`%r1.b0`); "" when none. `negate` on a vmad source is
  /// its `-`.
  std::string sel;
  PtxPos pos;
};

struct Guard {
  RegId reg = kNoReg;
  bool negated = false;  // `@!%p`
};

/// One PTX instruction with all its modifiers decoded. Fields that do not apply keep their
/// defaults. `text` is the opcode exactly as written (e.g. "ld.global.nc.v4.f32").
struct Instruction {
  Opcode op = Opcode::kInvalid;
  std::string text;
  std::optional<Guard> guard;
  std::vector<Operand> operands;     // PTX order, destinations first
  Operand dest2;                     // the `|p` second destination (kind kNone when absent)
  std::vector<Operand> call_results; // kCall: `(retval0)`
  std::vector<Operand> call_args;    // kCall: `(param0, param1)`

  // --- types
  Type type = Type::kNone;       // the instruction type (last type suffix; cvt/set: destination)
  Type src_type = Type::kNone;   // cvt/set/slct/dp4a/cvt.pack: the second type suffix
  Type src2_type = Type::kNone;  // cvt.pack: the third type suffix
  std::uint8_t pack_bits = 0;    // cvt.pack.sat.{u4,s4,u2,s2}: 4 or 2 (type is then kU8/kS8 for the sign)
  // --- memory
  StateSpace space = StateSpace::kGeneric;  // ld/st/ldu/atom/red/cvta/prefetch/isspacep
  bool to_space = false;                    // cvta.to.<space>
  std::uint32_t vec = 1;                    // .v2/.v4/.v8
  MemOrder order = MemOrder::kNone;         // .volatile/.relaxed/.acquire/.release/...
  Scope scope = Scope::kNone;               // .cta/.cluster/.gpu/.sys (membar: .cta/.gl->gpu/.sys)
  CacheOperator cache = CacheOperator::kNone;
  bool non_coherent = false;                // ld.global.nc
  Eviction l1_eviction = Eviction::kNone;
  Eviction l2_eviction = Eviction::kNone;     // createpolicy: the primary priority
  Eviction l2_secondary = Eviction::kNone;    // createpolicy: the secondary priority
  PolicyKind policy_kind = PolicyKind::kNone; // createpolicy .fractional/.range/.cvt
  bool l2_cache_hint = false;               // .L2::cache_hint: a trailing cache-policy operand
  std::uint32_t l2_prefetch_bytes = 0;      // .L2::64B/128B/256B
  CacheLevel level = CacheLevel::kNone;     // prefetch .L1/.L2
  bool proxy = false;                       // fence.proxy.*
  // --- arithmetic
  CmpOp cmp = CmpOp::kNone;
  BoolOp bool_op = BoolOp::kNone;
  Rounding rounding = Rounding::kNone;
  MulMode mul = MulMode::kNone;
  bool carry_out = false;   // .cc
  bool ftz = false;
  bool sat = false;
  bool satfinite = false;
  bool approx = false;
  bool full = false;        // div.full
  bool relu = false;
  bool nan = false;         // min/max .NaN
  bool xorsign_abs = false; // min/max .xorsign.abs
  bool noftz = false;       // atom/red .noftz
  bool shiftamt = false;    // bfind.shiftamt
  bool shf_left = false;    // shf.l (else shf.r)
  bool clamp = false;       // shf/bmsk/szext .clamp (else .wrap)
  PrmtMode prmt = PrmtMode::kNone;
  TestpOp testp = TestpOp::kNone;
  // --- warp, barriers, atomics, control
  ReduceOp reduce = ReduceOp::kNone;
  ShflMode shfl = ShflMode::kNone;
  VoteMode vote = VoteMode::kNone;
  bool sync = false;        // .sync on shfl/vote/match/redux/elect
  bool aligned = false;     // .aligned (bar.sync implies it)
  bool uni = false;         // bra.uni / call.uni / ret.uni
  // --- textures and surfaces
  TexGeom tex_geom = TexGeom::kNone;
  TexMode tex_mode = TexMode::kNone;
  std::uint8_t tex_comp = 0;          // tld4 .r/.g/.b/.a = 0..3
  // --- video instructions
  bool video_wrap = false;   // vshl/vshr .wrap (.clamp sets `clamp`)
  bool po = false;           // vmad .po
  std::uint8_t video_scale = 0;  // vmad .shr7 / .shr15: 7 or 15
  SurfClamp surf_clamp = SurfClamp::kTrap;
  bool surf_formatted = false;        // .p (else .b)
  TexQuery tex_query = TexQuery::kNone;
  OpaqueKind opaque_type = OpaqueKind::kNone;  // istypep .texref/.samplerref/.surfref
  // --- asynchronous copies and mbarriers
  StateSpace src_space = StateSpace::kGeneric;  // cp.async/cp.async.bulk: the second space (source)
  bool parity = false;       // mbarrier.test_wait/try_wait.parity
  bool no_complete = false;  // mbarrier.arrive.noComplete
  bool expect_tx = false;    // mbarrier.arrive.expect_tx
  bool noinc = false;        // cp.async.mbarrier.arrive.noinc
  bool complete_tx = false;  // cp.async.bulk .mbarrier::complete_tx::bytes
  // --- bulk copies and the Tensor Memory Accelerator (cp.async.bulk*, cp.reduce.async.bulk*)
  bool tensor = false;            // cp.async.bulk.tensor, or .tensor on prefetch / reduce
  std::uint8_t tensor_dims = 0;   // .1d ... .5d
  TensorMode tensor_mode = TensorMode::kNone;
  bool bulk_group = false;        // .bulk_group completion
  bool wait_read = false;         // cp.async.bulk.wait_group.read
  bool multicast = false;         // .multicast::cluster
  bool cta_group = false;         // .cta_group::1 / ::2
  bool tensormap = false;         // prefetch.tensormap
  // --- matrix instructions
  MmaQualifiers mma;
  // --- where it came from
  SourceLoc loc;  // the `.loc` in effect
  PtxPos ptx;     // position of the opcode in the PTX text
};

// ------------------------------------------------------------------------------------------------
// Functions and modules
// ------------------------------------------------------------------------------------------------

struct Label {
  std::string name;
  std::uint32_t target = 0;  // index of the instruction that follows it (may be instructions.size())
  PtxPos pos;
};

enum class FunctionKind : std::uint8_t { kEntry, kFunc };

struct Function {
  std::string name;
  FunctionKind kind = FunctionKind::kEntry;
  Linkage linkage = Linkage::kInternal;
  bool is_declaration = false;  // no body (`.extern .func vprintf(...)` or a prototype)
  std::vector<Param> returns;   // .func return values
  std::vector<Param> params;
  std::uint64_t param_bytes = 0;  // size of the parameter buffer (params laid out naturally)

  // performance-tuning and other header directives (0 / false when absent)
  std::array<std::uint32_t, 3> maxntid{};
  std::array<std::uint32_t, 3> reqntid{};
  std::array<std::uint32_t, 3> reqnctapercluster{};
  std::uint32_t minnctapersm = 0;
  std::uint32_t maxnctapersm = 0;
  std::uint32_t maxnreg = 0;
  std::uint32_t maxclusterrank = 0;
  bool noreturn = false;
  bool explicitcluster = false;

  std::vector<Register> registers;
  std::vector<Variable> variables;  // .local/.shared/.param declared in the body or nested scopes
  std::vector<Instruction> instructions;
  std::vector<Label> labels;
  std::vector<std::string> pragmas;  // `.pragma "nounroll";` strings, in order
  SourceLoc loc;  // first `.loc` of the body, if any
  PtxPos pos;
  /// The module whose text `pos` and the instructions' PtxPos refer to, when the function came
  /// into this module by linking (link.hpp); "" for the module's own functions.
  std::string origin;

  /// Index of the named label, kNone32 if absent.
  std::uint32_t find_label(std::string_view name) const;
  /// Index of the first register with this name (function scope first), kNoReg if absent.
  RegId find_register(std::string_view name) const;
  /// Index of the named function-scope variable, kNone32 if absent.
  std::uint32_t find_variable(std::string_view name) const;
  std::uint32_t find_param(std::string_view name) const;
};

struct Module {
  std::string origin;                 // the name the caller gave (file name, "<fatbin>", ...)
  std::uint32_t version_major = 0;    // .version 9.0
  std::uint32_t version_minor = 0;
  std::vector<std::string> target;    // .target sm_90, debug -> {"sm_90", "debug"}
  std::uint32_t address_size = 64;
  std::vector<Variable> variables;    // module-scope .global/.const/.shared
  std::vector<Function> functions;    // definitions and declarations, in text order
  std::vector<SourceFile> files;      // SourceLoc::file indexes this
  std::vector<InlineSite> inline_sites;

  const Function* find_function(std::string_view name) const;
  const Variable* find_variable(std::string_view name) const;
  /// The path of a SourceLoc's file, "" when the location is invalid.
  std::string_view file_path(const SourceLoc& loc) const;
  /// The outermost call-site location of `loc` (loc itself when it is not inlined).
  SourceLoc outermost(const SourceLoc& loc) const;
  /// "file:line:col" for diagnostics ("?" when invalid).
  std::string describe(const SourceLoc& loc) const;
  /// The name of the PTX text a function's positions refer to: its `origin`, else this module's.
  std::string_view text_origin(const Function& f) const { return f.origin.empty() ? origin : f.origin; }
};

}  // namespace warpscope::ptx
