#include "ptx/parser.hpp"

#include <bit>
#include <charconv>
#include <set>
#include <string>

#include "common/error.hpp"
#include "ptx/lexer.hpp"
#include "ptx/opcodes.hpp"

namespace warpscope::ptx {

namespace {

using syntax::Declaration;
using syntax::InitValue;

// Bounds on nesting, so hostile input cannot exhaust the stack or build absurd structures.
constexpr unsigned kMaxScopeDepth = 64;
constexpr unsigned kMaxInitDepth = 16;
constexpr std::uint32_t kMaxRegRange = 1u << 24;
constexpr std::uint64_t kMaxArrayBytes = std::uint64_t{1} << 40;

std::optional<Type> type_of(std::string_view d) {
  static const std::pair<std::string_view, Type> kTypes[] = {
      {".pred", Type::kPred}, {".b8", Type::kB8},       {".b16", Type::kB16},
      {".b32", Type::kB32},   {".b64", Type::kB64},     {".b128", Type::kB128},
      {".u8", Type::kU8},     {".u16", Type::kU16},     {".u32", Type::kU32},
      {".u64", Type::kU64},   {".s8", Type::kS8},       {".s16", Type::kS16},
      {".s32", Type::kS32},   {".s64", Type::kS64},     {".f16", Type::kF16},
      {".f16x2", Type::kF16x2}, {".bf16", Type::kBF16}, {".bf16x2", Type::kBF16x2},
      {".tf32", Type::kTF32}, {".f32", Type::kF32},     {".f64", Type::kF64},
      {".e4m3", Type::kE4M3}, {".e5m2", Type::kE5M2},   {".e4m3x2", Type::kE4M3x2},
      {".e5m2x2", Type::kE5M2x2},
  };
  for (const auto& [name, t] : kTypes)
    if (name == d) return t;
  return std::nullopt;
}

std::optional<StateSpace> space_of(std::string_view d) {
  if (d == ".reg") return StateSpace::kReg;
  if (d == ".sreg") return StateSpace::kSReg;
  if (d == ".const") return StateSpace::kConst;
  if (d == ".global") return StateSpace::kGlobal;
  if (d == ".local") return StateSpace::kLocal;
  if (d == ".param") return StateSpace::kParam;
  if (d == ".shared" || d == ".shared::cta") return StateSpace::kShared;
  if (d == ".shared::cluster") return StateSpace::kSharedCluster;
  if (d == ".tex") return StateSpace::kTex;
  return std::nullopt;
}

std::optional<Linkage> linkage_of(std::string_view d) {
  if (d == ".visible") return Linkage::kVisible;
  if (d == ".weak") return Linkage::kWeak;
  if (d == ".extern") return Linkage::kExtern;
  if (d == ".common") return Linkage::kCommon;
  return std::nullopt;
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view origin)
      : toks_(lex(text, origin)), origin_(origin) {}

  syntax::Module run() {
    while (!at(TokenKind::kEnd)) module_item();
    return std::move(mod_);
  }

 private:
  // ---- token helpers
  const Token& peek(std::size_t k = 0) const {
    std::size_t j = i_ + k;
    return j < toks_.size() ? toks_[j] : toks_.back();
  }
  bool at(TokenKind k) const { return peek().kind == k; }
  bool at_directive(std::string_view d) const {
    return peek().kind == TokenKind::kDirective && peek().text == d;
  }
  const Token& next() {
    const Token& t = peek();
    if (i_ < toks_.size() - 1) ++i_;
    return t;
  }
  bool accept(TokenKind k) {
    if (!at(k)) return false;
    next();
    return true;
  }

  [[noreturn]] void error(PtxPos p, const std::string& what) const {
    fail(ErrorKind::kParse, "{}:{}:{}: {}", origin_, p.line, p.column, what);
  }
  [[noreturn]] void unexpected(std::string_view wanted) const {
    const Token& t = peek();
    if (t.kind == TokenKind::kEnd) error(t.pos, fmt::format("expected {}, found end of input", wanted));
    error(t.pos, fmt::format("expected {}, found '{}'", wanted, t.text));
  }
  const Token& expect(TokenKind k, std::string_view wanted) {
    if (!at(k)) unexpected(wanted);
    return next();
  }
  std::uint64_t expect_int(std::string_view wanted) { return expect(TokenKind::kInt, wanted).u; }
  std::uint32_t expect_u32(std::string_view wanted) {
    PtxPos p = peek().pos;
    std::uint64_t v = expect_int(wanted);
    if (v > 0xffffffffu) error(p, fmt::format("{} out of range", wanted));
    return static_cast<std::uint32_t>(v);
  }
  std::string expect_ident(std::string_view wanted) {
    return std::string(expect(TokenKind::kIdent, wanted).text);
  }

  // ---- module level
  void module_item() {
    const Token& t = peek();
    if (t.kind != TokenKind::kDirective) unexpected("a directive");
    std::string_view d = t.text;
    if (d == ".version") {
      next();
      version();
    } else if (d == ".target") {
      next();
      do {
        mod_.target.push_back(expect_ident("a target name"));
      } while (accept(TokenKind::kComma));
    } else if (d == ".address_size") {
      next();
      PtxPos p = peek().pos;
      std::uint64_t v = expect_int("an address size");
      if (v != 32 && v != 64) error(p, "address size must be 32 or 64");
      mod_.address_size = static_cast<std::uint32_t>(v);
    } else if (d == ".file") {
      next();
      file();
    } else if (d == ".section") {
      next();
      section();
    } else if (d == ".pragma") {
      pragma();
    } else if (d == ".entry" || d == ".func") {
      function(Linkage::kInternal);
    } else if (auto l = linkage_of(d)) {
      next();
      if (at_directive(".entry") || at_directive(".func")) {
        function(*l);
      } else {
        module_variables(*l);
      }
    } else if (space_of(d)) {
      module_variables(Linkage::kInternal);
    } else {
      error(t.pos, fmt::format("unexpected directive '{}' at module level", d));
    }
  }

  void version() {
    const Token& t = peek();
    if (t.kind == TokenKind::kF64) {
      std::string_view s = t.text;
      auto dot = s.find('.');
      if (dot == std::string_view::npos) error(t.pos, "malformed .version");
      std::uint32_t maj = 0, min = 0;
      auto r1 = std::from_chars(s.data(), s.data() + dot, maj);
      auto r2 = std::from_chars(s.data() + dot + 1, s.data() + s.size(), min);
      if (r1.ec != std::errc() || r1.ptr != s.data() + dot || r2.ec != std::errc() ||
          r2.ptr != s.data() + s.size())
        error(t.pos, "malformed .version");
      mod_.version_major = maj;
      mod_.version_minor = min;
      next();
    } else if (t.kind == TokenKind::kInt) {
      mod_.version_major = expect_u32("a version");
    } else {
      unexpected("a version number");
    }
    mod_.has_version = true;
  }

  void file() {
    syntax::File f;
    f.pos = peek().pos;
    f.number = expect_u32("a file number");
    f.path = expect(TokenKind::kString, "a file path").text_value;
    if (accept(TokenKind::kComma)) {
      f.timestamp = expect_int("a timestamp");
      expect(TokenKind::kComma, "','");
      f.size = expect_int("a file size");
    }
    mod_.files.push_back(std::move(f));
  }

  // `.section .debug_xxx { ... }`: skipped, except that labelled `.b8` strings of `.debug_str`
  // are kept so that `.loc ... function_name $L__info_stringN` can be resolved to a name.
  void section() {
    std::string name(expect(TokenKind::kDirective, "a section name").text);
    bool keep = name == ".debug_str";
    expect(TokenKind::kLBrace, "'{'");
    unsigned depth = 1;
    std::string label;
    bool in_b8 = false;
    while (depth > 0) {
      const Token& t = next();
      switch (t.kind) {
        case TokenKind::kEnd: error(t.pos, "unterminated .section");
        case TokenKind::kLBrace:
          if (++depth > kMaxScopeDepth) error(t.pos, "sections nested too deeply");
          break;
        case TokenKind::kRBrace: --depth; break;
        case TokenKind::kIdent:
          if (at(TokenKind::kColon)) {
            next();
            label = std::string(t.text);
            if (keep) mod_.debug_strings[label];
          }
          in_b8 = false;
          break;
        case TokenKind::kDirective: in_b8 = t.text == ".b8"; break;
        case TokenKind::kInt:
          if (keep && in_b8 && !label.empty()) {
            auto it = mod_.debug_strings.find(label);
            // Keep the bytes up to the terminating 0 of the first string after the label.
            if (it != mod_.debug_strings.end() && !done_strings_.contains(label)) {
              if (t.u == 0) {
                done_strings_.insert(label);
              } else if (it->second.size() < 4096) {
                it->second.push_back(static_cast<char>(t.u & 0xff));
              }
            }
          }
          break;
        default: break;
      }
    }
  }

  void pragma() {
    syntax::Pragma p;
    p.pos = next().pos;  // .pragma
    do {
      p.values.push_back(expect(TokenKind::kString, "a pragma string").text_value);
    } while (accept(TokenKind::kComma));
    expect(TokenKind::kSemicolon, "';'");
    pragma_ = std::move(p);
  }

  void module_variables(Linkage linkage) {
    auto decls = declarations(linkage, /*allow_init=*/true, /*in_function=*/false);
    for (auto& d : decls) mod_.variables.push_back(std::move(d));
  }

  // ---- declarations
  // Parses `.space [.align N] [.attribute(...)] [.vN] .type name[<N>|[dims]] [= init] {, name};`
  // starting at the space directive.
  std::vector<Declaration> declarations(Linkage linkage, bool allow_init, bool in_function) {
    Declaration base;
    base.linkage = linkage;
    base.pos = peek().pos;
    const Token& sp = expect(TokenKind::kDirective, "a state space");
    auto space = space_of(sp.text);
    if (!space) error(sp.pos, fmt::format("expected a state space, found '{}'", sp.text));
    base.space = *space;
    if (base.space == StateSpace::kSReg) error(sp.pos, ".sreg declarations are not allowed");
    if (!in_function && (base.space == StateSpace::kReg || base.space == StateSpace::kLocal ||
                         base.space == StateSpace::kParam))
      error(sp.pos, fmt::format("'{}' variables are not allowed at module level", sp.text));
    attributes(base, /*in_param_list=*/false);
    std::vector<Declaration> out;
    for (;;) {
      Declaration d = base;
      d.pos = peek().pos;
      declarator(d, allow_init);
      out.push_back(std::move(d));
      if (out.size() > kMaxRegRange) error(peek().pos, "too many declarators");
      if (!accept(TokenKind::kComma)) break;
    }
    expect(TokenKind::kSemicolon, "';'");
    return out;
  }

  // `.align N`, `.vN`, `.ptr`, `.attribute(...)`, the type.
  void attributes(Declaration& d, bool in_param_list) {
    bool have_type = false;
    while (at(TokenKind::kDirective)) {
      const Token& t = peek();
      std::string_view s = t.text;
      if (s == ".align") {
        next();
        PtxPos p = peek().pos;
        std::uint32_t a = expect_u32("an alignment");
        if (a == 0 || (a & (a - 1)) != 0) error(p, "alignment must be a power of two");
        if (d.ptr_space != StateSpace::kGeneric) {
          d.ptr_align = a;
        } else {
          d.align = a;
        }
      } else if (s == ".v2" || s == ".v4" || s == ".v8") {
        next();
        d.vec = static_cast<std::uint32_t>(s[2] - '0');
      } else if (s == ".attribute") {
        next();
        expect(TokenKind::kLParen, "'('");
        while (!accept(TokenKind::kRParen)) {
          if (at(TokenKind::kEnd) || at(TokenKind::kSemicolon)) unexpected("')'");
          if (at_directive(".managed")) d.managed = true;
          next();
        }
      } else if (s == ".ptr" && in_param_list) {
        next();
        const Token& sp = expect(TokenKind::kDirective, "a pointer state space");
        auto space = space_of(sp.text);
        if (!space) error(sp.pos, "expected a state space after .ptr");
        d.ptr_space = *space;
      } else if (auto ty = type_of(s); ty || s == ".texref" || s == ".surfref" || s == ".samplerref") {
        if (have_type) error(t.pos, "two types in one declaration");
        next();
        // The opaque types (PTX ISA 5.3) are handles, held as a .u64.
        d.opaque = ty ? OpaqueKind::kNone : s == ".texref" ? OpaqueKind::kTexRef
                   : s == ".surfref" ? OpaqueKind::kSurfRef : OpaqueKind::kSamplerRef;
        d.type = ty ? *ty : Type::kU64;
        have_type = true;
      } else {
        break;
      }
    }
    if (!have_type) unexpected("a type");
  }

  void declarator(Declaration& d, bool allow_init) {
    d.name = expect_ident("a name");
    if (at(TokenKind::kLess)) {
      PtxPos p = next().pos;
      std::uint64_t n = expect_int("a register count");
      if (n > kMaxRegRange) error(p, "register range too large");
      d.is_range = true;
      d.range = static_cast<std::uint32_t>(n);
      expect(TokenKind::kGreater, "'>'");
      return;
    }
    std::uint64_t elems = 1;
    while (at(TokenKind::kLBracket)) {
      PtxPos p = next().pos;
      if (accept(TokenKind::kRBracket)) {
        if (d.unsized || !d.dims.empty()) error(p, "only the first array dimension may be empty");
        d.unsized = true;
        continue;
      }
      std::uint64_t n = expect_int("an array size");
      expect(TokenKind::kRBracket, "']'");
      if (n != 0 && elems > kMaxArrayBytes / n) error(p, "array too large");
      elems *= n;
      if (d.dims.size() >= 8) error(p, "too many array dimensions");
      d.dims.push_back(n);
    }
    if (elems > kMaxArrayBytes / 16) error(d.pos, "array too large");
    if (at(TokenKind::kEquals)) {
      PtxPos p = next().pos;
      if (!allow_init) error(p, "initializer not allowed here");
      d.has_init = true;
      if (d.opaque == OpaqueKind::kNone) return initializer(d);
      // `= { filter_mode = linear, ... }`: member assignments, skipped (the builder refuses them).
      for (expect(TokenKind::kLBrace, "'{'"); !accept(TokenKind::kRBrace); next())
        if (at(TokenKind::kEnd) || at(TokenKind::kSemicolon)) unexpected("'}'");
    }
  }

  void initializer(Declaration& d) {
    if (!at(TokenKind::kLBrace)) {
      d.init.push_back(init_value());
      return;
    }
    d.init_is_list = true;
    unsigned depth = 0;
    // Iterative walk over nested braces: `{ {1, 2}, {3, 4} }` flattens to 1 2 3 4.
    for (;;) {
      if (at(TokenKind::kLBrace)) {
        PtxPos p = next().pos;
        if (++depth > kMaxInitDepth) error(p, "initializer nested too deeply");
        if (!at(TokenKind::kRBrace)) continue;  // an empty `{}` goes on to the closing loop
      } else {
        d.init.push_back(init_value());
        if (d.init.size() > (1u << 26)) error(d.pos, "initializer too long");
      }
      for (;;) {
        if (accept(TokenKind::kRBrace)) {
          if (--depth == 0) return;
          continue;
        }
        expect(TokenKind::kComma, "',' or '}'");
        break;
      }
    }
  }

  InitValue init_value() {
    InitValue v;
    v.pos = peek().pos;
    if (at(TokenKind::kIdent) && peek().text == "generic" && peek(1).kind == TokenKind::kLParen) {
      next();
      next();
      v.kind = InitValue::Kind::kGeneric;
      v.symbol = expect_ident("a symbol");
      expect(TokenKind::kRParen, "')'");
      v.addend = addend();
      return v;
    }
    if (at(TokenKind::kIdent)) {
      v.kind = InitValue::Kind::kSymbol;
      v.symbol = std::string(next().text);
      v.addend = addend();
      return v;
    }
    immediate(v.imm_kind, v.imm);
    return v;
  }

  std::int64_t addend() {
    if (at(TokenKind::kPlus) || at(TokenKind::kMinus)) {
      bool neg = next().kind == TokenKind::kMinus;
      if (!neg && accept(TokenKind::kMinus)) neg = true;  // `[%rd1+-8]`
      std::uint64_t u = expect_int("an offset");
      return neg ? static_cast<std::int64_t>(~u + 1) : static_cast<std::int64_t>(u);
    }
    return 0;
  }

  // An optionally negated numeric literal.
  void immediate(ImmKind& kind, std::uint64_t& value) {
    bool neg = accept(TokenKind::kMinus);
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::kInt:
        kind = ImmKind::kInt;
        value = neg ? ~t.u + 1 : t.u;
        break;
      case TokenKind::kF32:
        kind = ImmKind::kF32;
        value = neg ? t.u ^ 0x80000000u : t.u;
        break;
      case TokenKind::kF64:
        kind = ImmKind::kF64;
        value = neg ? t.u ^ 0x8000000000000000ull : t.u;
        break;
      default: unexpected("a number");
    }
    next();
  }

  // ---- functions
  void function(Linkage linkage) {
    syntax::Function f;
    f.linkage = linkage;
    f.pos = peek().pos;
    f.kind = next().text == ".entry" ? FunctionKind::kEntry : FunctionKind::kFunc;
    if (f.kind == FunctionKind::kFunc && at(TokenKind::kLParen)) param_list(f.returns);
    f.name = expect_ident("a function name");
    if (at(TokenKind::kLParen)) param_list(f.params);
    header_directives(f);
    if (accept(TokenKind::kSemicolon)) {
      mod_.functions.push_back(std::move(f));
      return;
    }
    if (!at(TokenKind::kLBrace)) unexpected("'{' or ';'");
    next();
    f.has_body = true;
    body(f);
    mod_.functions.push_back(std::move(f));
  }

  void param_list(std::vector<Declaration>& out) {
    expect(TokenKind::kLParen, "'('");
    if (accept(TokenKind::kRParen)) return;
    for (;;) {
      Declaration d;
      d.pos = peek().pos;
      const Token& sp = expect(TokenKind::kDirective, "'.param' or '.reg'");
      if (sp.text == ".param") {
        d.space = StateSpace::kParam;
      } else if (sp.text == ".reg") {
        d.space = StateSpace::kReg;
      } else {
        error(sp.pos, fmt::format("expected '.param' or '.reg', found '{}'", sp.text));
      }
      attributes(d, /*in_param_list=*/true);
      // Prototype parameters may be unnamed (`.param .b32 _`); `_` lexes as an identifier.
      declarator(d, /*allow_init=*/false);
      if (d.is_range) error(d.pos, "register ranges are not allowed in parameter lists");
      out.push_back(std::move(d));
      if (out.size() > 4096) error(d.pos, "too many parameters");
      if (accept(TokenKind::kRParen)) return;
      expect(TokenKind::kComma, "',' or ')'");
    }
  }

  void dims3(std::array<std::uint32_t, 3>& dst) {
    dst = {1, 1, 1};
    dst[0] = expect_u32("a dimension");
    for (int k = 1; k < 3 && accept(TokenKind::kComma); ++k) dst[static_cast<std::size_t>(k)] = expect_u32("a dimension");
  }

  void header_directives(syntax::Function& f) {
    while (at(TokenKind::kDirective)) {
      std::string_view d = peek().text;
      if (d == ".maxntid") {
        next();
        dims3(f.maxntid);
      } else if (d == ".reqntid") {
        next();
        dims3(f.reqntid);
      } else if (d == ".reqnctapercluster") {
        next();
        dims3(f.reqnctapercluster);
      } else if (d == ".minnctapersm") {
        next();
        f.minnctapersm = expect_u32("a count");
      } else if (d == ".maxnctapersm") {
        next();
        f.maxnctapersm = expect_u32("a count");
      } else if (d == ".maxnreg") {
        next();
        f.maxnreg = expect_u32("a register count");
      } else if (d == ".maxclusterrank") {
        next();
        f.maxclusterrank = expect_u32("a count");
      } else if (d == ".noreturn") {
        next();
        f.noreturn = true;
      } else if (d == ".explicitcluster") {
        next();
        f.explicitcluster = true;
      } else if (d == ".pragma") {
        pragma();
        for (auto& v : pragma_.values) f.pragmas.push_back(v);
      } else {
        return;
      }
    }
  }

  void body(syntax::Function& f) {
    unsigned depth = 0;
    for (;;) {
      const Token& t = peek();
      switch (t.kind) {
        case TokenKind::kEnd: error(t.pos, "unterminated function body (missing '}')");
        case TokenKind::kLBrace:
          next();
          if (++depth > kMaxScopeDepth) error(t.pos, "scopes nested too deeply");
          f.body.emplace_back(syntax::OpenScope{t.pos});
          break;
        case TokenKind::kRBrace:
          next();
          if (depth == 0) return;
          --depth;
          f.body.emplace_back(syntax::CloseScope{t.pos});
          break;
        case TokenKind::kDirective: body_directive(f); break;
        case TokenKind::kIdent:
          if (peek(1).kind == TokenKind::kColon) {
            label_or_prototype(f);
          } else {
            f.body.emplace_back(instruction());
          }
          break;
        case TokenKind::kAt: f.body.emplace_back(instruction()); break;
        case TokenKind::kSemicolon: next(); break;  // empty statement
        default: unexpected("an instruction, label or directive");
      }
    }
  }

  void body_directive(syntax::Function& f) {
    const Token& t = peek();
    std::string_view d = t.text;
    if (d == ".loc") {
      next();
      f.body.emplace_back(loc(t.pos));
    } else if (d == ".pragma") {
      pragma();
      f.body.emplace_back(pragma_);
    } else if (space_of(d)) {
      for (auto& decl : declarations(Linkage::kInternal, /*allow_init=*/true, /*in_function=*/true))
        f.body.emplace_back(std::move(decl));
    } else if (auto l = linkage_of(d)) {
      next();
      if (!at(TokenKind::kDirective) || !space_of(peek().text)) unexpected("a state space");
      for (auto& decl : declarations(*l, /*allow_init=*/true, /*in_function=*/true))
        f.body.emplace_back(std::move(decl));
    } else {
      error(t.pos, fmt::format("unexpected directive '{}' in a function body", d));
    }
  }

  syntax::Loc loc(PtxPos pos) {
    syntax::Loc l;
    l.pos = pos;
    l.file = expect_u32("a file number");
    l.line = expect_u32("a line number");
    l.column = expect_u32("a column number");
    if (accept(TokenKind::kComma)) {
      PtxPos p = peek().pos;
      if (expect_ident("'function_name'") != "function_name") error(p, "expected 'function_name'");
      l.function_name = expect_ident("a label");
      addend();
      expect(TokenKind::kComma, "','");
      p = peek().pos;
      if (expect_ident("'inlined_at'") != "inlined_at") error(p, "expected 'inlined_at'");
      l.inlined = true;
      l.at_file = expect_u32("a file number");
      l.at_line = expect_u32("a line number");
      l.at_column = expect_u32("a column number");
    }
    return l;
  }

  void label_or_prototype(syntax::Function& f) {
    const Token& name = next();
    next();  // ':'
    if (at_directive(".callprototype")) {
      syntax::Prototype p{std::string(name.text), false, {}, name.pos};
      next();
      // `.callprototype [(ret)] _ (params);`
      syntax::Function tmp;
      if (at(TokenKind::kLParen)) param_list(tmp.returns);
      expect_ident("'_'");
      if (at(TokenKind::kLParen)) param_list(tmp.params);
      header_directives(tmp);
      expect(TokenKind::kSemicolon, "';'");
      f.body.emplace_back(std::move(p));
      return;
    }
    if (at_directive(".branchtargets") || at_directive(".calltargets")) {
      syntax::Prototype p{std::string(name.text), peek().text == ".branchtargets", {}, name.pos};
      next();
      do {
        p.targets.push_back(expect_ident("a label"));
        if (p.targets.size() > (1u << 20)) error(name.pos, "target list too long");
      } while (accept(TokenKind::kComma));
      expect(TokenKind::kSemicolon, "';'");
      f.body.emplace_back(std::move(p));
      return;
    }
    f.body.emplace_back(syntax::Label{std::string(name.text), name.pos});
  }

  syntax::Instruction instruction() {
    syntax::Instruction in;
    if (at(TokenKind::kAt)) {
      in.has_guard = true;
      in.guard_pos = next().pos;
      in.guard_negated = accept(TokenKind::kBang);
      in.guard = expect_ident("a predicate register");
    }
    const Token& op = expect(TokenKind::kIdent, "an opcode");
    in.opcode = std::string(op.text);
    in.pos = op.pos;
    // Reject unknown opcodes and modifiers before their operands, whose syntax may be one this
    // parser does not know (`tex.2d ... [%rd1, {%f1, %f2}]`): kUnsupported, not kParse.
    Instruction probe;
    decode_opcode(in.opcode, probe, origin_, in.pos);
    if (accept(TokenKind::kSemicolon)) return in;
    for (;;) {
      in.operands.push_back(operand(/*in_list=*/false));
      if (in.operands.size() > 64) error(in.pos, "too many operands");
      if (accept(TokenKind::kSemicolon)) return in;
      expect(TokenKind::kComma, "',' or ';'");
    }
  }

  syntax::Operand operand(bool in_list) {
    using K = syntax::Operand::Kind;
    syntax::Operand o;
    o.pos = peek().pos;
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::kLBracket: {
        next();
        o.kind = K::kAddress;
        if (at(TokenKind::kIdent)) {
          o.name = std::string(next().text);
          o.offset = addend();
          // A texture or surface address: `[handle, {c0, c1, ...}]` (or `[tex, sampler, {..}]`,
          // rejected by the builder).
          if (accept(TokenKind::kComma)) {
            if (at(TokenKind::kIdent)) unexpected("a coordinate vector (separate samplers are not supported)");
            if (!at(TokenKind::kLBrace)) unexpected("a coordinate vector");
            syntax::Operand v = operand(/*in_list=*/false);
            o.elements = std::move(v.elements);
          }
        } else {
          ImmKind k;
          std::uint64_t v;
          immediate(k, v);
          if (k != ImmKind::kInt) error(o.pos, "address must be an integer");
          o.offset = static_cast<std::int64_t>(v);
        }
        expect(TokenKind::kRBracket, "']'");
        return o;
      }
      case TokenKind::kLBrace: {
        if (in_list) unexpected("an operand");
        next();
        o.kind = K::kVector;
        for (;;) {
          o.elements.push_back(vector_element());
          if (o.elements.size() > 128) error(o.pos, "vector operand too long");  // wgmma m64n256 .f32: 128
          if (accept(TokenKind::kRBrace)) return o;
          expect(TokenKind::kComma, "',' or '}'");
        }
      }
      case TokenKind::kLParen: {
        if (in_list) unexpected("an operand");
        next();
        o.kind = K::kList;
        if (accept(TokenKind::kRParen)) return o;
        for (;;) {
          o.elements.push_back(operand(/*in_list=*/true));
          if (o.elements.size() > 4096) error(o.pos, "argument list too long");
          if (accept(TokenKind::kRParen)) return o;
          expect(TokenKind::kComma, "',' or ')'");
        }
      }
      case TokenKind::kBang:
        next();
        o.kind = K::kName;
        o.negate = true;
        o.name = expect_ident("a predicate register");
        return o;
      case TokenKind::kIdent:
        next();
        if (t.text == "_") {
          o.kind = K::kSink;
          // `_|p`: a sink for the first destination and a register for the second (elect.sync,
          // setp, ...; CCCL 3.0 emits `elect.sync _|p, mask`).
          if (at(TokenKind::kPipe)) {
            next();
            o.second_pos = peek().pos;
            o.second = expect_ident("a register after '|'");
          }
          return o;
        }
        o.kind = K::kName;
        o.name = std::string(t.text);
        if (at(TokenKind::kPipe)) {
          next();
          o.second_pos = peek().pos;
          o.second = expect_ident("a register after '|'");
        } else {
          o.offset = addend();
        }
        return o;
      case TokenKind::kMinus:
        if (i_ + 1 < toks_.size() && toks_[i_ + 1].kind == TokenKind::kIdent && !in_list) {
          // `-%r1`: a negated register (vmad's operands)
          next();
          o.kind = K::kName;
          o.minus = true;
          o.name = expect_ident("a register");
          return o;
        }
        [[fallthrough]];
      case TokenKind::kInt:
      case TokenKind::kF32:
      case TokenKind::kF64:
        o.kind = K::kImm;
        immediate(o.imm_kind, o.imm);
        return o;
      default: unexpected("an operand");
    }
  }

  syntax::Operand vector_element() {
    using K = syntax::Operand::Kind;
    syntax::Operand o;
    o.pos = peek().pos;
    if (at(TokenKind::kIdent)) {
      const Token& t = next();
      o.kind = t.text == "_" ? K::kSink : K::kName;
      o.name = std::string(t.text);
      return o;
    }
    o.kind = K::kImm;
    immediate(o.imm_kind, o.imm);
    return o;
  }

  std::vector<Token> toks_;
  std::string_view origin_;
  std::size_t i_ = 0;
  syntax::Module mod_;
  syntax::Pragma pragma_;
  std::set<std::string> done_strings_;
};

}  // namespace

syntax::Module parse(std::string_view text, std::string_view origin) {
  return Parser(text, origin).run();
}

}  // namespace warpscope::ptx
