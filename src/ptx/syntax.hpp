// The PTX syntax tree: what the parser (parser.hpp) recognises, before names are resolved and
// opcodes decoded (builder.hpp). Names are kept as written; nothing here is checked for meaning.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ptx/ir.hpp"

namespace warpscope::ptx::syntax {

/// One operand of an instruction as written.
struct Operand {
  enum class Kind : std::uint8_t {
    kName,     // `%r1`, `$str`, `%tid.x`, `low`, `param0` (+ offset: `sym+4`); `a|b` sets `second`
    kImm,      // integer or float literal (negative literals folded)
    kAddress,  // `[base+offset]`; base "" means an absolute address `[imm]`
    kVector,   // `{a, b, _}`
    kList,     // `(a, b)` in call
    kSink,     // `_`
  };
  Kind kind = Kind::kName;
  std::string name;         // kName; kAddress base
  std::string second;       // kName: the name after `|`
  bool negate = false;      // `!%p`
  bool minus = false;       // `-%r1` (vmad)
  ImmKind imm_kind = ImmKind::kInt;
  std::uint64_t imm = 0;
  std::int64_t offset = 0;  // kAddress; kName (`sym+4`)
  std::vector<Operand> elements;  // kVector, kList
  PtxPos pos;
  PtxPos second_pos;
};

struct Instruction {
  bool has_guard = false;
  std::string guard;
  bool guard_negated = false;
  PtxPos guard_pos;
  std::string opcode;  // dotted, as written
  PtxPos pos;
  std::vector<Operand> operands;
};

/// One element of a variable initializer (nested braces are flattened in order).
struct InitValue {
  enum class Kind : std::uint8_t { kImm, kSymbol, kGeneric };
  Kind kind = Kind::kImm;
  ImmKind imm_kind = ImmKind::kInt;
  std::uint64_t imm = 0;
  std::string symbol;       // kSymbol, kGeneric
  std::int64_t addend = 0;
  PtxPos pos;
};

/// A `.reg`, `.local`, `.shared`, `.const`, `.global` or `.param` declaration of one name.
struct Declaration {
  StateSpace space = StateSpace::kReg;
  Linkage linkage = Linkage::kInternal;
  std::uint32_t align = 0;
  Type type = Type::kNone;
  std::uint32_t vec = 1;
  std::string name;
  bool is_range = false;        // `%r<N>`
  std::uint32_t range = 0;      // N
  std::vector<std::uint64_t> dims;
  bool unsized = false;         // `[]`
  bool has_init = false;
  bool init_is_list = false;    // `= {...}` rather than a scalar
  std::vector<InitValue> init;
  StateSpace ptr_space = StateSpace::kGeneric;
  std::uint32_t ptr_align = 0;
  bool managed = false;  // `.attribute(.managed)`
  OpaqueKind opaque = OpaqueKind::kNone;  // `.texref`, `.surfref`, `.samplerref`
  PtxPos pos;
};

struct Label {
  std::string name;
  PtxPos pos;
};

struct Loc {
  std::uint32_t file = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool inlined = false;
  std::string function_name;  // `$L__info_stringN`
  std::uint32_t at_file = 0, at_line = 0, at_column = 0;
  PtxPos pos;
};

struct Pragma {
  std::vector<std::string> values;
  PtxPos pos;
};

struct OpenScope {
  PtxPos pos;
};
struct CloseScope {
  PtxPos pos;
};

/// `name: .callprototype ...` and `name: .branchtargets ...` (kept by name only).
struct Prototype {
  std::string name;
  bool branch_targets = false;
  std::vector<std::string> targets;
  PtxPos pos;
};

using Statement = std::variant<Instruction, Label, Declaration, Loc, Pragma, OpenScope,
                               CloseScope, Prototype>;

struct Function {
  FunctionKind kind = FunctionKind::kEntry;
  Linkage linkage = Linkage::kInternal;
  std::string name;
  std::vector<Declaration> returns;
  std::vector<Declaration> params;
  bool has_body = false;
  std::vector<Statement> body;  // scopes flattened into OpenScope/CloseScope markers
  std::array<std::uint32_t, 3> maxntid{}, reqntid{}, reqnctapercluster{};
  std::uint32_t minnctapersm = 0, maxnctapersm = 0, maxnreg = 0, maxclusterrank = 0;
  bool noreturn = false, explicitcluster = false;
  std::vector<std::string> pragmas;
  PtxPos pos;
};

struct File {
  std::uint32_t number = 0;
  std::string path;
  std::uint64_t timestamp = 0, size = 0;
  PtxPos pos;
};

struct Module {
  std::uint32_t version_major = 0, version_minor = 0;
  bool has_version = false;
  std::vector<std::string> target;
  std::uint32_t address_size = 64;
  std::vector<Declaration> variables;
  std::vector<Function> functions;
  std::vector<File> files;
  /// Strings from `.section .debug_str`: label -> bytes up to the first 0.
  std::map<std::string, std::string> debug_strings;
};

}  // namespace warpscope::ptx::syntax
