#include "ptx/opcodes.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "ptx/mma.hpp"
#include "ptx/opcode_forms.hpp"

namespace warpscope::ptx {

namespace {

// Modifier categories. Each opcode lists the categories it accepts; a modifier is classified
// into the first accepted category whose vocabulary contains it.
enum Cat : std::uint64_t {
  kT = 1ull << 0,         // types (.f32 ...): first -> type, second -> src_type, third -> src2_type
  kRnd = 1ull << 1,       // .rn .rz .rm .rp (.rna .rs)
  kIRnd = 1ull << 2,      // .rni .rzi .rmi .rpi
  kFtz = 1ull << 3,
  kSat = 1ull << 4,
  kApprox = 1ull << 5,
  kFull = 1ull << 6,
  kRelu = 1ull << 7,
  kNaN = 1ull << 8,       // .NaN
  kXorsign = 1ull << 9,   // .xorsign .abs
  kNoftz = 1ull << 10,
  kShiftamt = 1ull << 11,
  kCc = 1ull << 12,
  kUni = 1ull << 13,
  kAligned = 1ull << 14,
  kSync = 1ull << 15,
  kNc = 1ull << 16,
  kTo = 1ull << 17,
  kOrder = 1ull << 18,    // .weak .volatile .relaxed .acquire .release .acq_rel .sc .mmio
  kScope = 1ull << 19,    // .cta .cluster .gpu .sys
  kGl = 1ull << 20,       // membar .gl (= gpu scope)
  kSpace = 1ull << 21,    // .global .shared .local .param .const
  kCacheLd = 1ull << 22,  // .ca .cg .cs .lu .cv
  kCacheSt = 1ull << 23,  // .wb .cg .cs .wt
  kEvict = 1ull << 24,    // .L1::evict_* .L2::evict_* .L1::no_allocate .L2::cache_hint .L2::NB
  kLevel = 1ull << 25,    // .L1 .L2 (prefetch)
  kVec = 1ull << 26,      // .v2 .v4 .v8
  kClamp = 1ull << 27,    // .clamp .wrap
  kLR = 1ull << 28,       // .l .r (shf)
  kPrmtMode = 1ull << 29,
  kTestp = 1ull << 30,
  kMul = 1ull << 31,      // .lo .hi .wide
  kCmp = 1ull << 32,
  kBool = 1ull << 33,     // .and .or .xor combining
  kRed = 1ull << 34,      // .add .min .max .inc .dec .and .or .xor .exch .cas
  kBarRed = 1ull << 35,   // .popc .and .or
  kShfl = 1ull << 36,
  kVote = 1ull << 37,     // .all .any .uni .ballot
  kMatch = 1ull << 38,    // .any .all
  kSatfinite = 1ull << 39,
  kProxy = 1ull << 40,    // fence.proxy kinds: .alias .async .generic ...
  kCta = 1ull << 41,      // barrier.cta
  kSpaceTo = 1ull << 42,  // cvta spaces (.global .shared .local .const .param)
  kGeom = 1ull << 43,     // .1d .2d .3d .a1d .a2d .cube .acube (textures, surfaces)
  kTexMode = 1ull << 44,  // .level .grad .base
  kTld4Comp = 1ull << 45, // .r .g .b .a
  kSurfFmt = 1ull << 46,  // .b .p
  kSuClamp = 1ull << 47,  // .trap .clamp .zero
  kTexQuery = 1ull << 48, // txq/suq queries
  kAsync = 1ull << 49,    // cp.async/mbarrier: .parity .noComplete .expect_tx .noinc
                          // .mbarrier::complete_tx::bytes
  kMmaQ = 1ull << 50,     // wmma/mma/ldmatrix/stmatrix/movmatrix qualifiers (mma.hpp)
  kBulk = 1ull << 51,     // bulk copies: .tensor .1d-.5d .tile .im2col .bulk_group .read
                          // .multicast::cluster .cta_group::N .mbarrier::complete_tx::bytes
  kVideo = 1ull << 52,    // video instructions: vmad .po .shr7 .shr15; vshl/vshr .clamp .wrap
  kPolicy = 1ull << 53,   // createpolicy .fractional .range .cvt
  kOpaque = 1ull << 54,   // istypep: .texref .samplerref .surfref
};

struct OpSpec {
  std::string_view name;  // mnemonic head, possibly two parts ("bar.sync")
  Opcode op;
  std::uint64_t cats;
};

constexpr std::uint64_t kFloatArith = kT | kRnd | kFtz | kSat;
constexpr std::uint64_t kMemLd = kT | kSpace | kVec | kOrder | kScope | kCacheLd | kNc | kEvict;

constexpr OpSpec kOps[] = {
    {"mov", Opcode::kMov, kT},
    {"ld", Opcode::kLd, kMemLd},
    {"ldu", Opcode::kLdu, kT | kSpace | kVec},
    {"st", Opcode::kSt, kT | kSpace | kVec | kOrder | kScope | kCacheSt | kEvict},
    {"cvta", Opcode::kCvta, kT | kSpaceTo | kTo},
    {"cvt", Opcode::kCvt, kT | kRnd | kIRnd | kFtz | kSat | kSatfinite | kRelu},
    {"cvt.pack", Opcode::kCvtPack, kT | kSat},
    {"prefetch", Opcode::kPrefetch, kSpace | kLevel | kEvict | kBulk},
    {"prefetchu", Opcode::kPrefetchu, kLevel},
    {"isspacep", Opcode::kIsspacep, kSpace},
    {"add", Opcode::kAdd, kFloatArith | kCc},
    {"sub", Opcode::kSub, kFloatArith | kCc},
    {"addc", Opcode::kAddc, kT | kCc},
    {"subc", Opcode::kSubc, kT | kCc},
    {"mul", Opcode::kMul, kFloatArith | kMul},
    {"mad", Opcode::kMad, kFloatArith | kMul | kCc},
    {"madc", Opcode::kMadc, kT | kMul | kCc},
    {"mul24", Opcode::kMul24, kT | kMul},
    {"mad24", Opcode::kMad24, kT | kMul | kSat},
    {"sad", Opcode::kSad, kT},
    {"div", Opcode::kDiv, kT | kRnd | kFtz | kApprox | kFull},
    {"rem", Opcode::kRem, kT},
    {"abs", Opcode::kAbs, kT | kFtz},
    {"neg", Opcode::kNeg, kT | kFtz},
    {"min", Opcode::kMin, kT | kFtz | kNaN | kXorsign | kRelu},
    {"max", Opcode::kMax, kT | kFtz | kNaN | kXorsign | kRelu},
    {"popc", Opcode::kPopc, kT},
    {"clz", Opcode::kClz, kT},
    {"brev", Opcode::kBrev, kT},
    {"bfind", Opcode::kBfind, kT | kShiftamt},
    {"bfe", Opcode::kBfe, kT},
    {"bfi", Opcode::kBfi, kT},
    {"prmt", Opcode::kPrmt, kT | kPrmtMode},
    {"dp4a", Opcode::kDp4a, kT},
    {"dp2a", Opcode::kDp2a, kT | kMul},
    {"fns", Opcode::kFns, kT},
    {"bmsk", Opcode::kBmsk, kT | kClamp},
    {"szext", Opcode::kSzext, kT | kClamp},
    {"and", Opcode::kAnd, kT},
    {"or", Opcode::kOr, kT},
    {"xor", Opcode::kXor, kT},
    {"not", Opcode::kNot, kT},
    {"cnot", Opcode::kCnot, kT},
    {"lop3", Opcode::kLop3, kT},
    {"shl", Opcode::kShl, kT},
    {"shr", Opcode::kShr, kT},
    {"shf", Opcode::kShf, kT | kLR | kClamp},
    {"fma", Opcode::kFma, kFloatArith | kRelu},
    {"rcp", Opcode::kRcp, kT | kRnd | kFtz | kApprox},
    {"sqrt", Opcode::kSqrt, kT | kRnd | kFtz | kApprox},
    {"rsqrt", Opcode::kRsqrt, kT | kFtz | kApprox},
    {"sin", Opcode::kSin, kT | kFtz | kApprox},
    {"cos", Opcode::kCos, kT | kFtz | kApprox},
    {"lg2", Opcode::kLg2, kT | kFtz | kApprox},
    {"ex2", Opcode::kEx2, kT | kFtz | kApprox},
    {"tanh", Opcode::kTanh, kT | kApprox},
    {"copysign", Opcode::kCopysign, kT},
    {"testp", Opcode::kTestp, kT | kTestp},
    {"setp", Opcode::kSetp, kT | kCmp | kBool | kFtz},
    {"set", Opcode::kSet, kT | kCmp | kBool | kFtz},
    {"selp", Opcode::kSelp, kT},
    {"slct", Opcode::kSlct, kT | kFtz},
    {"bra", Opcode::kBra, kUni},
    {"brx.idx", Opcode::kBrxIdx, kUni},
    {"call", Opcode::kCall, kUni},
    {"ret", Opcode::kRet, kUni},
    {"exit", Opcode::kExit, 0},
    {"trap", Opcode::kTrap, 0},
    {"brkpt", Opcode::kBrkpt, 0},
    {"bar.sync", Opcode::kBarSync, kAligned},
    {"bar.arrive", Opcode::kBarArrive, kAligned},
    {"bar.red", Opcode::kBarRed, kAligned | kBarRed | kT},
    {"bar.warp.sync", Opcode::kBarWarpSync, 0},
    {"barrier.sync", Opcode::kBarSync, kAligned},
    {"barrier.arrive", Opcode::kBarArrive, kAligned},
    {"barrier.red", Opcode::kBarRed, kAligned | kBarRed | kT},
    {"membar", Opcode::kMembar, kScope | kGl},
    {"fence", Opcode::kFence, kOrder | kScope},
    {"fence.proxy", Opcode::kFence, kProxy | kSpace | kOrder | kScope},
    // fence.mbarrier_init.release.cluster: orders prior mbarrier.init operations before later
    // accesses of the cluster's other threads (the only form the PTX ISA defines); a fence here.
    {"fence.mbarrier_init", Opcode::kFence, kOrder | kScope},
    {"atom", Opcode::kAtom, kT | kSpace | kOrder | kScope | kRed | kNoftz | kVec | kEvict},
    {"red", Opcode::kRed, kT | kSpace | kOrder | kScope | kRed | kNoftz | kVec | kEvict},
    {"nanosleep", Opcode::kNanosleep, kT},
    {"shfl", Opcode::kShfl, kT | kShfl | kSync},
    {"vote", Opcode::kVote, kT | kVote | kSync},
    {"activemask", Opcode::kActivemask, kT},
    {"match", Opcode::kMatch, kT | kMatch | kSync},
    {"redux", Opcode::kRedux, kT | kRed | kSync},
    {"elect", Opcode::kElect, kSync},
    {"barrier.cluster.arrive", Opcode::kBarrierClusterArrive, kAligned | kOrder},
    {"barrier.cluster.wait", Opcode::kBarrierClusterWait, kAligned | kOrder},
    {"mapa", Opcode::kMapa, kT | kSpace},
    {"setmaxnreg.inc", Opcode::kSetmaxnregInc, kT | kSync | kAligned},
    {"setmaxnreg.dec", Opcode::kSetmaxnregDec, kT | kSync | kAligned},
    {"griddepcontrol.launch_dependents", Opcode::kGriddepLaunchDependents, 0},
    {"griddepcontrol.wait", Opcode::kGriddepWait, 0},
    {"getctarank", Opcode::kGetctarank, kT | kSpace},
    {"st.async", Opcode::kStAsync, kT | kSpace | kVec | kOrder | kScope | kAsync},
    {"red.async", Opcode::kRedAsync, kT | kSpace | kOrder | kScope | kAsync | kRed},
    {"stacksave", Opcode::kStacksave, kT},
    {"stackrestore", Opcode::kStackrestore, kT},
    {"alloca", Opcode::kAlloca, kT},
    {"pmevent", Opcode::kPmevent, 0},
    // L2 cache policies and hints: .L2::evict_* (createpolicy: primary, then secondary), .L2
    {"createpolicy", Opcode::kCreatepolicy, kT | kSpace | kEvict | kLevel | kPolicy},
    {"applypriority", Opcode::kApplypriority, kSpace | kEvict},
    {"discard", Opcode::kDiscard, kSpace | kLevel},
    {"tex", Opcode::kTex, kT | kGeom | kTexMode | kVec},
    {"tld4", Opcode::kTld4, kT | kGeom | kTld4Comp | kVec},
    {"txq", Opcode::kTxq, kT | kTexMode | kTexQuery},
    {"suld", Opcode::kSuld, kT | kGeom | kSurfFmt | kSuClamp | kVec | kCacheLd},
    {"sust", Opcode::kSust, kT | kGeom | kSurfFmt | kSuClamp | kVec | kCacheSt},
    {"sured", Opcode::kSured, kT | kGeom | kSurfFmt | kSuClamp | kRed},
    {"suq", Opcode::kSuq, kT | kTexQuery},
    {"istypep", Opcode::kIstypep, kOpaque},
    // asynchronous copies and mbarriers (issue 18): a copy's first space is its destination
    {"cp.async", Opcode::kCpAsync, kCacheLd | kSpace | kEvict},
    {"cp.async.commit_group", Opcode::kCpAsyncCommitGroup, 0},
    {"cp.async.wait_group", Opcode::kCpAsyncWaitGroup, 0},
    {"cp.async.wait_all", Opcode::kCpAsyncWaitAll, 0},
    {"cp.async.mbarrier.arrive", Opcode::kCpAsyncMbarrierArrive, kT | kSpace | kAsync},
    {"cp.async.bulk", Opcode::kCpAsyncBulk, kSpace | kEvict | kAsync | kBulk},
    {"cp.async.bulk.tensor", Opcode::kCpAsyncBulkTensor, kSpace | kEvict | kAsync | kBulk},
    {"cp.async.bulk.commit_group", Opcode::kCpAsyncBulkCommitGroup, 0},
    {"cp.async.bulk.wait_group", Opcode::kCpAsyncBulkWaitGroup, kBulk},
    {"cp.reduce.async.bulk", Opcode::kCpReduceAsyncBulk, kT | kSpace | kEvict | kAsync | kBulk | kRed | kNoftz},
    {"cp.async.bulk.prefetch", Opcode::kCpAsyncBulkPrefetch, kSpace | kLevel | kEvict | kBulk},
    {"mbarrier.init", Opcode::kMbarrierInit, kT | kSpace},
    {"mbarrier.arrive", Opcode::kMbarrierArrive, kT | kSpace | kOrder | kScope | kAsync},
    {"mbarrier.arrive_drop", Opcode::kMbarrierArriveDrop, kT | kSpace | kOrder | kScope | kAsync},
    {"mbarrier.expect_tx", Opcode::kMbarrierExpectTx, kT | kSpace | kOrder | kScope},
    {"mbarrier.complete_tx", Opcode::kMbarrierCompleteTx, kT | kSpace | kOrder | kScope},
    {"mbarrier.test_wait", Opcode::kMbarrierTestWait, kT | kSpace | kOrder | kScope | kAsync},
    {"mbarrier.try_wait", Opcode::kMbarrierTryWait, kT | kSpace | kOrder | kScope | kAsync},
    {"mbarrier.pending_count", Opcode::kMbarrierPendingCount, kT},
    {"mbarrier.inval", Opcode::kMbarrierInval, kT | kSpace},
    {"wmma.load", Opcode::kWmmaLoad, kMmaQ | kSpace | kSync | kAligned},
    {"wmma.store", Opcode::kWmmaStore, kMmaQ | kSpace | kSync | kAligned},
    {"wmma.mma", Opcode::kWmmaMma, kMmaQ | kSync | kAligned | kRnd | kSatfinite},
    {"mma", Opcode::kMma, kMmaQ | kSync | kAligned | kRnd | kSatfinite},
    {"ldmatrix", Opcode::kLdmatrix, kMmaQ | kSpace | kSync | kAligned},
    {"stmatrix", Opcode::kStmatrix, kMmaQ | kSpace | kSync | kAligned},
    {"movmatrix", Opcode::kMovmatrix, kMmaQ | kSync | kAligned},
    {"wgmma.mma_async", Opcode::kWgmmaMma, kMmaQ | kSync | kAligned | kSatfinite},
    {"wgmma.fence", Opcode::kWgmmaFence, kSync | kAligned},
    {"wgmma.commit_group", Opcode::kWgmmaCommit, kSync | kAligned},
    {"wgmma.wait_group", Opcode::kWgmmaWait, kSync | kAligned},
    // video instructions: .dtype.atype.btype (vset: .atype.btype), .sat, the secondary operation
    {"vadd", Opcode::kVadd, kT | kSat | kRed},
    {"vsub", Opcode::kVsub, kT | kSat | kRed},
    {"vabsdiff", Opcode::kVabsdiff, kT | kSat | kRed},
    {"vmin", Opcode::kVmin, kT | kSat | kRed},
    {"vmax", Opcode::kVmax, kT | kSat | kRed},
    {"vshl", Opcode::kVshl, kT | kSat | kRed | kVideo},
    {"vshr", Opcode::kVshr, kT | kSat | kRed | kVideo},
    {"vmad", Opcode::kVmad, kT | kSat | kVideo},
    {"vset", Opcode::kVset, kT | kCmp | kRed},
    {"vadd2", Opcode::kVadd2, kT | kSat | kRed},
    {"vsub2", Opcode::kVsub2, kT | kSat | kRed},
    {"vavrg2", Opcode::kVavrg2, kT | kSat | kRed},
    {"vabsdiff2", Opcode::kVabsdiff2, kT | kSat | kRed},
    {"vmin2", Opcode::kVmin2, kT | kSat | kRed},
    {"vmax2", Opcode::kVmax2, kT | kSat | kRed},
    {"vset2", Opcode::kVset2, kT | kCmp | kRed},
    {"vadd4", Opcode::kVadd4, kT | kSat | kRed},
    {"vsub4", Opcode::kVsub4, kT | kSat | kRed},
    {"vavrg4", Opcode::kVavrg4, kT | kSat | kRed},
    {"vabsdiff4", Opcode::kVabsdiff4, kT | kSat | kRed},
    {"vmin4", Opcode::kVmin4, kT | kSat | kRed},
    {"vmax4", Opcode::kVmax4, kT | kSat | kRed},
    {"vset4", Opcode::kVset4, kT | kCmp | kRed},
};

template <class E>
struct Word {
  std::string_view text;
  E value;
};

constexpr Word<Type> kTypes[] = {
    {"pred", Type::kPred}, {"b8", Type::kB8},       {"b16", Type::kB16},     {"b32", Type::kB32},
    {"b64", Type::kB64},   {"b128", Type::kB128},   {"u8", Type::kU8},       {"u16", Type::kU16},
    {"u32", Type::kU32},   {"u64", Type::kU64},     {"s8", Type::kS8},       {"s16", Type::kS16},
    {"s32", Type::kS32},   {"s64", Type::kS64},     {"f16", Type::kF16},     {"f16x2", Type::kF16x2},
    {"bf16", Type::kBF16}, {"bf16x2", Type::kBF16x2}, {"tf32", Type::kTF32}, {"f32", Type::kF32},
    {"f64", Type::kF64},   {"e4m3", Type::kE4M3},   {"e5m2", Type::kE5M2},
    {"e4m3x2", Type::kE4M3x2}, {"e5m2x2", Type::kE5M2x2}, {"u16x2", Type::kU16x2},
    {"s16x2", Type::kS16x2},
};
constexpr Word<Rounding> kRoundings[] = {{"rn", Rounding::kRn}, {"rz", Rounding::kRz},
                                         {"rm", Rounding::kRm}, {"rp", Rounding::kRp},
                                         {"rna", Rounding::kRna}, {"rs", Rounding::kRs}};
constexpr Word<Rounding> kIntRoundings[] = {{"rni", Rounding::kRni}, {"rzi", Rounding::kRzi},
                                            {"rmi", Rounding::kRmi}, {"rpi", Rounding::kRpi}};
constexpr Word<MemOrder> kOrders[] = {
    {"weak", MemOrder::kWeak},       {"volatile", MemOrder::kVolatile}, {"relaxed", MemOrder::kRelaxed},
    {"acquire", MemOrder::kAcquire}, {"release", MemOrder::kRelease},   {"acq_rel", MemOrder::kAcqRel},
    {"sc", MemOrder::kSc},           {"mmio", MemOrder::kMmio}};
constexpr Word<Scope> kScopes[] = {{"cta", Scope::kCta}, {"cluster", Scope::kCluster},
                                   {"gpu", Scope::kGpu}, {"sys", Scope::kSys}};
constexpr Word<StateSpace> kSpaces[] = {
    {"global", StateSpace::kGlobal},      {"shared", StateSpace::kShared},
    {"shared::cta", StateSpace::kShared}, {"shared::cluster", StateSpace::kSharedCluster},
    {"local", StateSpace::kLocal},        {"param", StateSpace::kParam},
    {"param::entry", StateSpace::kParam}, {"param::func", StateSpace::kParam},
    {"const", StateSpace::kConst}};
constexpr Word<CacheOperator> kLdCache[] = {{"ca", CacheOperator::kCa}, {"cg", CacheOperator::kCg},
                                            {"cs", CacheOperator::kCs}, {"lu", CacheOperator::kLu},
                                            {"cv", CacheOperator::kCv}};
constexpr Word<CacheOperator> kStCache[] = {{"wb", CacheOperator::kWb}, {"cg", CacheOperator::kCg},
                                            {"cs", CacheOperator::kCs}, {"wt", CacheOperator::kWt}};
constexpr Word<Eviction> kEvictions[] = {{"evict_normal", Eviction::kNormal},
                                         {"evict_unchanged", Eviction::kUnchanged},
                                         {"evict_first", Eviction::kFirst},
                                         {"evict_last", Eviction::kLast},
                                         {"no_allocate", Eviction::kNoAllocate}};
constexpr Word<MulMode> kMulModes[] = {{"lo", MulMode::kLo}, {"hi", MulMode::kHi}, {"wide", MulMode::kWide}};
constexpr Word<CmpOp> kCmps[] = {
    {"eq", CmpOp::kEq},   {"ne", CmpOp::kNe},   {"lt", CmpOp::kLt},   {"le", CmpOp::kLe},
    {"gt", CmpOp::kGt},   {"ge", CmpOp::kGe},   {"lo", CmpOp::kLo},   {"ls", CmpOp::kLs},
    {"hi", CmpOp::kHi},   {"hs", CmpOp::kHs},   {"equ", CmpOp::kEqu}, {"neu", CmpOp::kNeu},
    {"ltu", CmpOp::kLtu}, {"leu", CmpOp::kLeu}, {"gtu", CmpOp::kGtu}, {"geu", CmpOp::kGeu},
    {"num", CmpOp::kNum}, {"nan", CmpOp::kNan}};
constexpr Word<BoolOp> kBools[] = {{"and", BoolOp::kAnd}, {"or", BoolOp::kOr}, {"xor", BoolOp::kXor}};
constexpr Word<ReduceOp> kReds[] = {{"add", ReduceOp::kAdd}, {"min", ReduceOp::kMin},
                                    {"max", ReduceOp::kMax}, {"inc", ReduceOp::kInc},
                                    {"dec", ReduceOp::kDec}, {"and", ReduceOp::kAnd},
                                    {"or", ReduceOp::kOr},   {"xor", ReduceOp::kXor},
                                    {"exch", ReduceOp::kExch}, {"cas", ReduceOp::kCas}};
constexpr Word<ReduceOp> kBarReds[] = {{"popc", ReduceOp::kPopc}, {"and", ReduceOp::kAnd},
                                       {"or", ReduceOp::kOr}};
constexpr Word<ShflMode> kShfls[] = {{"up", ShflMode::kUp}, {"down", ShflMode::kDown},
                                     {"bfly", ShflMode::kBfly}, {"idx", ShflMode::kIdx}};
constexpr Word<VoteMode> kVotes[] = {{"all", VoteMode::kAll}, {"any", VoteMode::kAny},
                                     {"uni", VoteMode::kUni}, {"ballot", VoteMode::kBallot}};
constexpr Word<VoteMode> kMatches[] = {{"all", VoteMode::kAll}, {"any", VoteMode::kAny}};
constexpr Word<PrmtMode> kPrmts[] = {{"f4e", PrmtMode::kF4e}, {"b4e", PrmtMode::kB4e},
                                     {"rc8", PrmtMode::kRc8}, {"ecl", PrmtMode::kEcl},
                                     {"ecr", PrmtMode::kEcr}, {"rc16", PrmtMode::kRc16}};
constexpr Word<TestpOp> kTestps[] = {{"finite", TestpOp::kFinite},   {"infinite", TestpOp::kInfinite},
                                     {"number", TestpOp::kNumber},   {"notanumber", TestpOp::kNotANumber},
                                     {"normal", TestpOp::kNormal},   {"subnormal", TestpOp::kSubnormal}};

constexpr Word<TexGeom> kGeoms[] = {{"1d", TexGeom::k1d},   {"2d", TexGeom::k2d},     {"3d", TexGeom::k3d},
                                    {"a1d", TexGeom::kA1d}, {"a2d", TexGeom::kA2d},   {"cube", TexGeom::kCube},
                                    {"acube", TexGeom::kACube}};
constexpr Word<TexMode> kTexModes[] = {{"level", TexMode::kLevel}, {"grad", TexMode::kGrad}, {"base", TexMode::kBase}};
constexpr Word<SurfClamp> kSuClamps[] = {{"trap", SurfClamp::kTrap}, {"clamp", SurfClamp::kClamp}, {"zero", SurfClamp::kZero}};
constexpr Word<TexQuery> kTexQueries[] = {
    {"width", TexQuery::kWidth},
    {"height", TexQuery::kHeight},
    {"depth", TexQuery::kDepth},
    {"channel_data_type", TexQuery::kChannelDataType},
    {"channel_order", TexQuery::kChannelOrder},
    {"normalized_coords", TexQuery::kNormalizedCoords},
    {"filter_mode", TexQuery::kFilterMode},
    {"addr_mode_0", TexQuery::kAddrMode0},
    {"addr_mode_1", TexQuery::kAddrMode1},
    {"addr_mode_2", TexQuery::kAddrMode2},
    {"array_size", TexQuery::kArraySize},
    {"num_mipmap_levels", TexQuery::kNumMipmapLevels},
    {"num_samples", TexQuery::kNumSamples},
    {"memory_layout", TexQuery::kMemoryLayout},
    {"force_unnormalized_coords", TexQuery::kForceUnnormalizedCoords},
};

template <class E, std::size_t N>
std::optional<E> lookup(const Word<E> (&words)[N], std::string_view s) {
  for (const auto& w : words)
    if (w.text == s) return w.value;
  return std::nullopt;
}

class Decoder {
 public:
  Decoder(std::string_view text, Instruction& inst, std::string_view origin, PtxPos pos)
      : text_(text), inst_(inst), origin_(origin), pos_(pos) {}

  void run() {
    std::vector<std::string_view> parts = split(text_);
    if (parts.empty() || parts.size() > 24) unsupported_opcode();
    // Find the longest head that names an opcode: "cp.async.mbarrier.arrive", "cvt.pack", "ld".
    const OpSpec* spec = nullptr;
    std::size_t used = 0;
    for (std::size_t n = std::min<std::size_t>(4, parts.size()); n >= 1 && spec == nullptr; --n) {
      std::string head(parts[0]);
      for (std::size_t k = 1; k < n; ++k) head += "." + std::string(parts[k]);
      for (const OpSpec& s : kOps) {
        if (s.name == head) {
          spec = &s;
          used = n;
          break;
        }
      }
    }
    // `barrier.cta.sync` = `barrier.sync`; `match.any.sync`: mode before .sync is handled below.
    if (spec == nullptr && parts.size() >= 3 && parts[0] == "barrier" && parts[1] == "cta") {
      std::string head = "barrier." + std::string(parts[2]);
      for (const OpSpec& s : kOps)
        if (s.name == head) spec = &s;
      used = 3;
    }
    if (spec == nullptr) unsupported_opcode();
    inst_.op = spec->op;
    cats_ = spec->cats;
    if (spec->name.starts_with("bar.")) inst_.aligned = true;  // bar.* = barrier.*.aligned
    if (spec->name == "fence.proxy") inst_.proxy = true;
    for (std::size_t k = used; k < parts.size(); ++k) apply(parts[k]);
    consistent();
  }

 private:
  static std::vector<std::string_view> split(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
      if (i == s.size() || s[i] == '.') {
        out.push_back(s.substr(start, i - start));
        start = i + 1;
      }
    }
    return out;
  }

  [[noreturn]] void unsupported_opcode() const {
    fail(ErrorKind::kUnsupported, "{}:{}:{}: unsupported PTX instruction '{}' (line {})", origin_,
         pos_.line, pos_.column, text_, pos_.line);
  }
  [[noreturn]] void unsupported(std::string_view mod, std::string_view why) const {
    fail(ErrorKind::kUnsupported, "{}:{}:{}: unsupported modifier '.{}' in '{}' (line {}): {}",
         origin_, pos_.line, pos_.column, mod, text_, pos_.line, why);
  }

  bool has(std::uint64_t c) const { return (cats_ & c) != 0; }

  template <class T>
  void set_once(T& field, T value, std::string_view mod) {
    if (field != T{}) unsupported(mod, "conflicts with an earlier modifier");
    field = value;
  }
  void flag(bool& f, std::string_view mod) {
    if (f) unsupported(mod, "given twice");
    f = true;
  }

  void apply(std::string_view m) {
    if (m.empty()) unsupported(m, "empty modifier");
    // cvt.pack.sat.{u4,s4,u2,s2}: sub-byte destinations (no such types elsewhere).
    if (inst_.op == Opcode::kCvtPack && inst_.type == Type::kNone && (m == "u4" || m == "s4" || m == "u2" || m == "s2")) {
      inst_.type = m[0] == 's' ? Type::kS8 : Type::kU8;
      inst_.pack_bits = static_cast<std::uint8_t>(m[1] - '0');
      return;
    }
    if (has(kMmaQ) && apply_mma_qualifier(m, inst_)) return;
    if (has(kT)) {
      if (auto t = lookup(kTypes, m)) {
        if (inst_.type == Type::kNone) {
          inst_.type = *t;
        } else if (inst_.src_type == Type::kNone) {
          inst_.src_type = *t;
        } else if (inst_.src2_type == Type::kNone && (inst_.op == Opcode::kCvtPack || is_video(inst_.op))) {
          inst_.src2_type = *t;
        } else {
          unsupported(m, "too many types");
        }
        return;
      }
    }
    if (has(kCmp)) {
      if (auto c = lookup(kCmps, m)) return set_once(inst_.cmp, *c, m);
    }
    if (has(kBool)) {
      if (auto b = lookup(kBools, m)) return set_once(inst_.bool_op, *b, m);
    }
    if (has(kMul)) {
      if (auto x = lookup(kMulModes, m)) return set_once(inst_.mul, *x, m);
    }
    if (has(kRnd)) {
      if (auto r = lookup(kRoundings, m)) return set_once(inst_.rounding, *r, m);
    }
    if (has(kIRnd)) {
      if (auto r = lookup(kIntRoundings, m)) return set_once(inst_.rounding, *r, m);
    }
    if (has(kRed)) {
      if (auto r = lookup(kReds, m)) return set_once(inst_.reduce, *r, m);
    }
    if (has(kBarRed)) {
      if (auto r = lookup(kBarReds, m)) return set_once(inst_.reduce, *r, m);
    }
    if (has(kShfl)) {
      if (auto r = lookup(kShfls, m)) return set_once(inst_.shfl, *r, m);
    }
    if (has(kVote)) {
      if (auto r = lookup(kVotes, m)) return set_once(inst_.vote, *r, m);
    }
    if (has(kMatch)) {
      if (auto r = lookup(kMatches, m)) return set_once(inst_.vote, *r, m);
    }
    if (has(kPrmtMode)) {
      if (auto r = lookup(kPrmts, m)) return set_once(inst_.prmt, *r, m);
    }
    if (has(kTestp)) {
      if (auto r = lookup(kTestps, m)) return set_once(inst_.testp, *r, m);
    }
    if (has(kOrder)) {
      if (auto r = lookup(kOrders, m)) return set_once(inst_.order, *r, m);
    }
    if (has(kScope)) {
      if (auto r = lookup(kScopes, m)) return set_once(inst_.scope, *r, m);
    }
    if (has(kGl) && m == "gl") return set_once(inst_.scope, Scope::kGpu, m);
    if (has(kSpace | kSpaceTo)) {
      if (auto r = lookup(kSpaces, m)) {
        // cvta and isspacep with .shared::cluster work on a cluster of one CTA (docs/exec.md);
        // memory accesses to another CTA's shared memory do not.
        if (*r == StateSpace::kSharedCluster && !inst_.proxy && inst_.op != Opcode::kCvta &&
            inst_.op != Opcode::kIsspacep && inst_.op != Opcode::kMapa && inst_.op != Opcode::kLd &&
            inst_.op != Opcode::kSt && inst_.op != Opcode::kAtom && inst_.op != Opcode::kRed &&
            inst_.op != Opcode::kGetctarank && inst_.op != Opcode::kStAsync && inst_.op != Opcode::kRedAsync &&
            !cluster_of_one_ok())
          unsupported(m, "distributed shared memory is not supported");
        if (has(kSpaceTo) && *r == StateSpace::kParam && m != "param") unsupported(m, "unknown space");
        // A copy names its destination space, then its source space.
        if ((inst_.op == Opcode::kCpAsync || inst_.op == Opcode::kCpAsyncBulk || inst_.op == Opcode::kCpAsyncBulkTensor ||
             inst_.op == Opcode::kCpReduceAsyncBulk) &&
            inst_.space != StateSpace::kGeneric)
          return set_once(inst_.src_space, *r, m);
        return set_once(inst_.space, *r, m);
      }
    }
    if (has(kTo) && m == "to") return flag(inst_.to_space, m);
    if (has(kCacheLd)) {
      if (auto r = lookup(kLdCache, m)) return set_once(inst_.cache, *r, m);
    }
    if (has(kCacheSt)) {
      if (auto r = lookup(kStCache, m)) return set_once(inst_.cache, *r, m);
    }
    if (has(kEvict) && (m.starts_with("L1::") || m.starts_with("L2::"))) return evict(m);
    if (has(kLevel) && (m == "L1" || m == "L2"))
      return set_once(inst_.level, m == "L1" ? CacheLevel::kL1 : CacheLevel::kL2, m);
    if (has(kVec) && (m == "v2" || m == "v4" || m == "v8")) {
      if (inst_.vec != 1) unsupported(m, "two vector widths");
      inst_.vec = static_cast<std::uint32_t>(m[1] - '0');
      return;
    }
    if (has(kVideo)) {
      if (inst_.op == Opcode::kVmad && m == "po") return flag(inst_.po, m);
      if (inst_.op == Opcode::kVmad && (m == "shr7" || m == "shr15"))
        return set_once(inst_.video_scale, static_cast<std::uint8_t>(m == "shr7" ? 7 : 15), m);
      if (inst_.op != Opcode::kVmad && (m == "clamp" || m == "wrap")) {
        if (inst_.clamp || inst_.video_wrap) unsupported(m, "two shift modes");
        (m == "clamp" ? inst_.clamp : inst_.video_wrap) = true;
        return;
      }
    }
    if (has(kClamp) && (m == "clamp" || m == "wrap")) {
      if (m == "clamp") inst_.clamp = true;
      return;
    }
    if (has(kLR) && (m == "l" || m == "r")) {
      if (m == "l") inst_.shf_left = true;
      return;
    }
    if (has(kGeom)) {
      if (m == "2dms" || m == "a2dms") unsupported(m, "multisample textures are not supported");
      if (auto g = lookup(kGeoms, m)) return set_once(inst_.tex_geom, *g, m);
    }
    if (has(kTexMode)) {
      if (auto t = lookup(kTexModes, m)) return set_once(inst_.tex_mode, *t, m);
    }
    if (has(kTld4Comp) && m.size() == 1 && std::string_view("rgba").find(m[0]) != std::string_view::npos) {
      inst_.tex_comp = static_cast<std::uint8_t>(std::string_view("rgba").find(m[0]));
      return;
    }
    if (has(kSurfFmt) && (m == "b" || m == "p")) {
      inst_.surf_formatted = m == "p";
      return;
    }
    if (has(kSuClamp)) {
      if (auto c = lookup(kSuClamps, m)) {
        inst_.surf_clamp = *c;
        return;
      }
    }
    if (has(kOpaque)) {
      if (m == "texref") return set_once(inst_.opaque_type, OpaqueKind::kTexRef, m);
      if (m == "samplerref") return set_once(inst_.opaque_type, OpaqueKind::kSamplerRef, m);
      if (m == "surfref") return set_once(inst_.opaque_type, OpaqueKind::kSurfRef, m);
    }
    if (has(kTexQuery)) {
      if (auto q = lookup(kTexQueries, m)) return set_once(inst_.tex_query, *q, m);
    }
    if (has(kFtz) && m == "ftz") return flag(inst_.ftz, m);
    if (has(kSat) && m == "sat") return flag(inst_.sat, m);
    if (has(kSatfinite) && m == "satfinite") return flag(inst_.satfinite, m);
    if (has(kApprox) && m == "approx") return flag(inst_.approx, m);
    if (has(kFull) && m == "full") return flag(inst_.full, m);
    if (has(kRelu) && m == "relu") return flag(inst_.relu, m);
    if (has(kNaN) && m == "NaN") return flag(inst_.nan, m);
    if (has(kXorsign) && (m == "xorsign" || m == "abs")) {
      inst_.xorsign_abs = true;
      return;
    }
    if (has(kNoftz) && m == "noftz") return flag(inst_.noftz, m);
    if (has(kShiftamt) && m == "shiftamt") return flag(inst_.shiftamt, m);
    if (has(kCc) && m == "cc") return flag(inst_.carry_out, m);
    if (has(kUni) && m == "uni") return flag(inst_.uni, m);
    if (has(kAligned) && m == "aligned") {
      inst_.aligned = true;
      return;
    }
    if (has(kSync) && m == "sync") return flag(inst_.sync, m);
    if (has(kNc) && m == "nc") return flag(inst_.non_coherent, m);
    if (has(kAsync)) {
      if (m == "parity" && (inst_.op == Opcode::kMbarrierTestWait || inst_.op == Opcode::kMbarrierTryWait))
        return flag(inst_.parity, m);
      if (m == "noComplete" && inst_.op == Opcode::kMbarrierArrive) return flag(inst_.no_complete, m);
      if (m == "expect_tx" && inst_.op == Opcode::kMbarrierArrive) return flag(inst_.expect_tx, m);
      if (m == "noinc" && inst_.op == Opcode::kCpAsyncMbarrierArrive) return flag(inst_.noinc, m);
      if (m == "mbarrier::complete_tx::bytes" &&
          (has(kBulk) || inst_.op == Opcode::kStAsync || inst_.op == Opcode::kRedAsync))
        return flag(inst_.complete_tx, m);
    }
    if (has(kBulk) && bulk(m)) return;
    if (has(kPolicy)) {
      if (m == "fractional") return set_once(inst_.policy_kind, PolicyKind::kFractional, m);
      if (m == "range") return set_once(inst_.policy_kind, PolicyKind::kRange, m);
      if (m == "cvt") return set_once(inst_.policy_kind, PolicyKind::kCvt, m);
    }
    if (has(kProxy) && (m == "alias" || m == "async" || m == "generic" || m == "tensormap" ||
                        m.starts_with("tensormap::")))
      return;
    if (lookup(kTypes, m) && !has(kT)) unsupported(m, "this instruction takes no type");
    unsupported(m, fmt::format("not accepted by '{}'", to_string(inst_.op)));
  }

  // Modifiers that only make sense for one kind of type: float rounding/ftz/approx on integer
  // arithmetic, lo/hi/wide and carries on float arithmetic.
  void consistent() const {
    switch (inst_.op) {
      case Opcode::kAdd: case Opcode::kSub: case Opcode::kMul: case Opcode::kMad:
      case Opcode::kFma: case Opcode::kDiv: case Opcode::kMin: case Opcode::kMax:
      case Opcode::kAbs: case Opcode::kNeg: case Opcode::kRcp: case Opcode::kSqrt:
      case Opcode::kRsqrt: case Opcode::kSin: case Opcode::kCos: case Opcode::kLg2:
      case Opcode::kEx2: case Opcode::kTanh: break;
      case Opcode::kRedux:
        if (inst_.reduce == ReduceOp::kInc || inst_.reduce == ReduceOp::kDec ||
            inst_.reduce == ReduceOp::kExch || inst_.reduce == ReduceOp::kCas)
          unsupported(to_string(inst_.reduce), "redux.sync takes add/min/max/and/or/xor");
        return;
      case Opcode::kCreatepolicy: case Opcode::kApplypriority: case Opcode::kDiscard:
        check_cache_hint(inst_, [this](std::string_view m, std::string_view why) { unsupported(m, why); });
        return;
      case Opcode::kStAsync: case Opcode::kRedAsync:
        check_async_store(inst_, [this](std::string_view m, std::string_view why) { unsupported(m, why); });
        return;
      default:
        if (!is_video(inst_.op)) return;
        video();
        return;
    }
    Type t = inst_.type;
    if (t == Type::kNone) return;  // the verifier reports the missing type
    if (is_float(t)) {
      if (inst_.mul != MulMode::kNone) unsupported(to_string(inst_.mul), "not allowed with a float type");
      if (inst_.carry_out) unsupported("cc", "not allowed with a float type");
      return;
    }
    if (inst_.rounding != Rounding::kNone)
      unsupported(to_string(inst_.rounding), "rounding needs a float type");
    if (inst_.ftz) unsupported("ftz", "needs a float type");
    if (inst_.approx) unsupported("approx", "needs a float type");
    if (inst_.full) unsupported("full", "needs a float type");
    if (inst_.op == Opcode::kFma || inst_.op == Opcode::kRcp || inst_.op == Opcode::kSqrt ||
        inst_.op == Opcode::kRsqrt || inst_.op == Opcode::kSin || inst_.op == Opcode::kCos ||
        inst_.op == Opcode::kLg2 || inst_.op == Opcode::kEx2 || inst_.op == Opcode::kTanh)
      unsupported(to_string(t), "needs a float type");
  }

  // The secondary operations and modes each video instruction takes.
  void video() const {
    const bool simd = inst_.op >= Opcode::kVadd2;
    const ReduceOp r = inst_.reduce;
    if (simd && r != ReduceOp::kNone && r != ReduceOp::kAdd)
      unsupported(to_string(r), "the SIMD video instructions' only secondary operation is .add");
    if (r != ReduceOp::kNone && r != ReduceOp::kAdd && r != ReduceOp::kMin && r != ReduceOp::kMax)
      unsupported(to_string(r), "the secondary operation is .add, .min or .max");
    if ((inst_.op == Opcode::kVshl || inst_.op == Opcode::kVshr) && !inst_.clamp && !inst_.video_wrap)
      unsupported(to_string(inst_.op), "vshl/vshr need the mode .clamp or .wrap");
    if ((inst_.op == Opcode::kVset || inst_.op == Opcode::kVset2 || inst_.op == Opcode::kVset4) &&
        (inst_.cmp == CmpOp::kNone || inst_.cmp > CmpOp::kGe))
      unsupported(inst_.cmp == CmpOp::kNone ? std::string_view("vset") : to_string(inst_.cmp),
                  "vset compares with .eq .ne .lt .le .gt or .ge");
  }

  // The mbarrier operations the ISA allows on .shared::cluster, and a bulk copy's destination:
  // with a cluster of one CTA (docs/exec.md) that is the CTA's own shared memory.
  bool cluster_of_one_ok() const {
    switch (inst_.op) {
      case Opcode::kMbarrierArrive: case Opcode::kMbarrierArriveDrop: case Opcode::kMbarrierExpectTx:
      case Opcode::kMbarrierCompleteTx: return true;
      case Opcode::kCpAsyncBulk: case Opcode::kCpAsyncBulkTensor: case Opcode::kCpReduceAsyncBulk:
        return inst_.space == StateSpace::kGeneric;
      default: return false;
    }
  }

  /// The bulk-copy modifiers; false: not one of them.
  bool bulk(std::string_view m) {
    if (inst_.op == Opcode::kPrefetch) {
      if (m != "tensormap") return false;
      flag(inst_.tensormap, m);
      return true;
    }
    if (inst_.op == Opcode::kCpAsyncBulkWaitGroup) {
      if (m != "read") return false;
      flag(inst_.wait_read, m);
      return true;
    }
    if (m == "tensor" && (inst_.op == Opcode::kCpAsyncBulkPrefetch || inst_.op == Opcode::kCpReduceAsyncBulk)) {
      flag(inst_.tensor, m);
      return true;
    }
    if (m.size() == 2 && m[1] == 'd' && m[0] >= '1' && m[0] <= '5') {
      if (inst_.tensor_dims != 0) unsupported(m, "two dimensionalities");
      inst_.tensor_dims = static_cast<std::uint8_t>(m[0] - '0');
      return true;
    }
    if (m == "tile") {
      set_once(inst_.tensor_mode, TensorMode::kTile, m);
      return true;
    }
    if (m == "im2col") {
      set_once(inst_.tensor_mode, TensorMode::kIm2col, m);
      return true;
    }
    if (m == "im2col_no_offs") {
      set_once(inst_.tensor_mode, TensorMode::kIm2colNoOffs, m);
      return true;
    }
    if (m.starts_with("im2col") || m.starts_with("tile::")) {
      set_once(inst_.tensor_mode, TensorMode::kOther, m);
      return true;
    }
    if (m == "bulk_group") {
      flag(inst_.bulk_group, m);
      return true;
    }
    if (m == "multicast::cluster") {
      flag(inst_.multicast, m);
      return true;
    }
    if (m.starts_with("cta_group::")) {
      flag(inst_.cta_group, m);
      return true;
    }
    return false;
  }

  void evict(std::string_view m) {
    bool l1 = m.starts_with("L1::");
    std::string_view rest = m.substr(4);
    if (!l1 && rest == "cache_hint") return flag(inst_.l2_cache_hint, m);
    if (!l1 && (rest == "64B" || rest == "128B" || rest == "256B")) {
      inst_.l2_prefetch_bytes = rest == "64B" ? 64 : rest == "128B" ? 128 : 256;
      return;
    }
    auto e = lookup(kEvictions, rest);
    if (!e) unsupported(m, "unknown cache eviction policy");
    if (l1) return set_once(inst_.l1_eviction, *e, m);
    // createpolicy names a primary, then optionally a secondary priority.
    if (inst_.op == Opcode::kCreatepolicy && inst_.l2_eviction != Eviction::kNone)
      return set_once(inst_.l2_secondary, *e, m);
    set_once(inst_.l2_eviction, *e, m);
  }

  std::string_view text_;
  Instruction& inst_;
  std::string_view origin_;
  PtxPos pos_;
  std::uint64_t cats_ = 0;
};

}  // namespace

void decode_opcode(std::string_view text, Instruction& inst, std::string_view origin, PtxPos pos) {
  Decoder(text, inst, origin, pos).run();
}

std::vector<std::string_view> opcode_heads() {
  std::vector<std::string_view> out;
  for (const OpSpec& s : kOps) out.push_back(s.name);
  return out;
}

}  // namespace warpscope::ptx
