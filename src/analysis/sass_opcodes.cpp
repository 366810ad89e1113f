// sm_90 opcodes: mnemonic and class (sass_counts.hpp). The opcode is bits 0..8 of an
// instruction's low word; bits 9..11 select the operand form (register, immediate, constant,
// uniform register: MOV is 0x202, 0x802 and 0xc02), so the table is keyed by the low nine bits.
// Every entry was read off the cuobjdump -sass listings of H100 builds committed under
// tests/hw/data/h100 (each instruction's text next to its two 64-bit words);
// tests/analysis/sass_counts_test.cpp checks every listed instruction against this table. HMMA,
// IMMA and DMMA were read off tests/hw/timing/tensor_rate.cu's cubin: each kernel's one opcode
// that occurs 128 times, as cuobjdump counts its HMMA.16816.F32 / .F16 / .F32.BF16, HMMA.1688.F32.TF32,
// IMMA.16832.S8.S8 and DMMA.8x8x4 (tests/hw/data/h100/timing/tensor_rate.sass.txt); LDSM and
// LDGSTS the same way from a kernel of 64 ldmatrix.x4 and one of 64 cp.async (16 bytes): the one
// opcode each has 64 of. REDG.F32 and ATOMG from an H200 listing (below). An opcode no listing
// shows is "OP_0x<hex>", class kOther.
#include <fmt/format.h>

#include <array>
#include <mutex>
#include <string>
#include <unordered_map>

#include "analysis/sass_counts.hpp"

namespace warpscope::analysis::sass {
namespace {

struct Entry {
  std::uint16_t code;
  const char* mnemonic;
  InstClass cls;
};

using C = InstClass;
constexpr Entry kTable[] = {
    {0x002, "MOV", C::kMove},          {0x005, "CS2R", C::kMove},          {0x007, "SEL", C::kInteger},
    {0x00c, "ISETP", C::kInteger},     {0x010, "IADD3", C::kInteger},      {0x011, "LEA", C::kInteger},
    {0x012, "LOP3", C::kInteger},      {0x013, "IABS", C::kInteger},       {0x016, "PRMT", C::kInteger},
    {0x019, "SHF", C::kInteger},       {0x01c, "PLOP3", C::kInteger},      {0x020, "FMUL", C::kFp32},
    {0x021, "FADD", C::kFp32},         {0x023, "FFMA", C::kFp32},          {0x024, "IMAD", C::kInteger},
    {0x025, "IMAD", C::kInteger},      {0x027, "IMAD", C::kInteger},       {0x035, "HFMA2", C::kFp16},
    {0x036, "VIADD", C::kInteger},     {0x037, "IMMA", C::kTensor},        {0x03b, "LDSM", C::kLoadShared},
    {0x03c, "HMMA", C::kTensor},
    {0x03f, "DMMA", C::kTensor},       {0x045, "I2FP", C::kConversion},    {0x046, "VIADDMNMX", C::kInteger},
    {0x048, "VIMNMX", C::kInteger},    {0x082, "UMOV", C::kUniform},       {0x086, "VOTEU", C::kUniform},
    {0x087, "USEL", C::kUniform},      {0x08c, "UISETP", C::kUniform},     {0x090, "UIADD3", C::kUniform},
    {0x091, "ULEA", C::kUniform},      {0x092, "ULOP3", C::kUniform},      {0x096, "UPRMT", C::kUniform},
    {0x099, "USHF", C::kUniform},      {0x0a4, "UIMAD", C::kUniform},      {0x0a5, "UIMAD", C::kUniform},
    {0x0b9, "ULDC", C::kUniform},      {0x0bd, "UFLO", C::kUniform},       {0x0ca, "R2UR", C::kUniform},
    {0x100, "FLO", C::kInteger},       {0x105, "F2I", C::kConversion},     {0x106, "I2F", C::kConversion},
    {0x108, "MUFU", C::kMufu},         {0x111, "F2I", C::kConversion},     {0x112, "I2F", C::kConversion},
    {0x118, "NOP", C::kNop},           {0x119, "S2R", C::kMove},           {0x11b, "ENDCOLLECTIVE", C::kBranch},
    {0x11d, "BAR", C::kBarrier},       {0x141, "BSYNC", C::kBranch},       {0x144, "CALL", C::kBranch},
    {0x145, "BSSY", C::kBranch},       {0x147, "BRA", C::kBranch},         {0x148, "WARPSYNC", C::kBranch},
    {0x14d, "EXIT", C::kBranch},       {0x150, "RET", C::kBranch},         {0x160, "TEX", C::kTexture},
    {0x163, "TLD4", C::kTexture},      {0x166, "TLD", C::kTexture},        {0x181, "LDG", C::kLoadGlobal},
    {0x182, "LDC", C::kMove},          {0x183, "LDL", C::kLoadLocal},      {0x184, "LDS", C::kLoadShared},
    {0x186, "STG", C::kStoreGlobal},   {0x187, "STL", C::kStoreLocal},     {0x188, "STS", C::kStoreShared},
    {0x189, "SHFL", C::kInterThread},  {0x18c, "ATOMS", C::kAtomicShared}, {0x18e, "REDG", C::kAtomicGlobal},
    {0x199, "SULD", C::kTexture},      {0x1ae, "LDGSTS", C::kAsyncCopy},      {0x19d, "SUST", C::kTexture},       {0x1c3, "S2UR", C::kUniform},
    {0x1c4, "REDUX", C::kInterThread},
    // From the H200's listing of tests/hw/ncurep/tag_requests_more.cu
    // (tests/hw/data/h200/ncurep_source/tag_requests_more.sass): the float reduction
    // REDG.E.ADD.F32.FTZ.RN (0x...79a6; the integer REDG.E.ADD is 0x18e) and ATOMG.E.ADD (0x...79a8).
    {0x1a6, "REDG", C::kAtomicGlobal}, {0x1a8, "ATOMG", C::kAtomicGlobal},
};

}  // namespace

std::string_view to_string(InstClass c) {
  switch (c) {
    case C::kFp32: return "fp32";
    case C::kFp64: return "fp64";
    case C::kFp16: return "fp16";
    case C::kInteger: return "integer";
    case C::kConversion: return "conversion";
    case C::kMufu: return "mufu";
    case C::kMove: return "move";
    case C::kUniform: return "uniform";
    case C::kInterThread: return "inter_thread";
    case C::kLoadGlobal: return "global_ld";
    case C::kStoreGlobal: return "global_st";
    case C::kAtomicGlobal: return "global_atom";
    case C::kLoadLocal: return "local_ld";
    case C::kStoreLocal: return "local_st";
    case C::kLoadShared: return "shared_ld";
    case C::kStoreShared: return "shared_st";
    case C::kAtomicShared: return "shared_atom";
    case C::kLoadGeneric: return "generic_ld";
    case C::kStoreGeneric: return "generic_st";
    case C::kAsyncCopy: return "async_copy";
    case C::kTexture: return "texture";
    case C::kTensor: return "tensor";
    case C::kBranch: return "control";
    case C::kBarrier: return "barrier";
    case C::kNop: return "nop";
    case C::kOther: return "other";
  }
  return "other";
}

OpcodeInfo opcode_info(std::uint16_t opcode) {
  static const std::array<OpcodeInfo, 512> table = [] {
    std::array<OpcodeInfo, 512> t{};
    for (const Entry& e : kTable) t[e.code] = OpcodeInfo{e.mnemonic, e.cls};
    return t;
  }();
  const OpcodeInfo& o = table[opcode & 0x1ff];
  if (!o.mnemonic.empty()) return o;
  // Unknown: a stable name per base opcode (kept alive for the program's lifetime).
  static std::mutex mu;
  static auto& names = *new std::unordered_map<std::uint16_t, std::string>;  // never destroyed
  const std::scoped_lock lock(mu);
  auto [it, inserted] = names.try_emplace(static_cast<std::uint16_t>(opcode & 0x1ff));
  if (inserted) it->second = fmt::format("OP_0x{:03x}", opcode & 0x1ff);
  return OpcodeInfo{it->second, C::kOther};
}

}  // namespace warpscope::analysis::sass
