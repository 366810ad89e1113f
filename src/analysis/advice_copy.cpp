#include "analysis/advice_copy.hpp"

#include "analysis/advice_text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace warpscope::analysis {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == ';')) s.remove_suffix(1);
  return s;
}

/// The registers of an operand: "%f2" or "{%f1, %f2}"; empty when it is anything else.
std::vector<std::string> registers_of(std::string_view op) {
  op = trim(op);
  std::vector<std::string> out;
  if (op.empty()) return out;
  if (op.front() == '{') {
    if (op.back() != '}') return {};
    op = op.substr(1, op.size() - 2);
    while (!op.empty()) {
      const auto comma = op.find(',');
      const std::string_view r = trim(op.substr(0, comma));
      if (r.empty() || r.front() != '%') return {};
      out.emplace_back(r);
      if (comma == std::string_view::npos) break;
      op.remove_prefix(comma + 1);
    }
    return out;
  }
  if (op.front() != '%') return {};
  out.emplace_back(op);
  return out;
}

/// The instruction without its guard, opcode and operands: {opcode, operands}.
std::pair<std::string_view, std::string_view> split(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '@') {
    const auto sp = text.find(' ');
    text = sp == std::string_view::npos ? std::string_view{} : trim(text.substr(sp));
  }
  const auto sp = text.find_first_of(" \t");
  if (sp == std::string_view::npos) return {text, {}};
  return {text.substr(0, sp), trim(text.substr(sp))};
}

/// The destination of `ld.global... D, [a]`.
std::vector<std::string> load_destination(std::string_view text) {
  const auto [opc, ops] = split(text);
  if (!starts_with(opc, "ld.global.")) return {};
  const auto bracket = ops.find(", [");
  return bracket == std::string_view::npos ? std::vector<std::string>{} : registers_of(ops.substr(0, bracket));
}

/// The value of `st.shared... [b], D`.
std::vector<std::string> store_value(std::string_view text) {
  const auto [opc, ops] = split(text);
  if (!starts_with(opc, "st.shared.")) return {};
  const auto close = ops.find("], ");
  return close == std::string_view::npos ? std::vector<std::string>{} : registers_of(ops.substr(close + 3));
}

/// The destination of any `ld.<space>... D, [a]` (global, shared, local, const, param, ...).
std::vector<std::string> any_load_destination(std::string_view text) {
  const auto [opc, ops] = split(text);
  if (!starts_with(opc, "ld.")) return {};
  const auto bracket = ops.find(", [");
  return bracket == std::string_view::npos ? std::vector<std::string>{} : registers_of(ops.substr(0, bracket));
}

/// The value of any `st.<space>... [b], D`; {"?"} for a value that is not registers (an immediate).
std::vector<std::string> any_store_value(std::string_view text) {
  const auto [opc, ops] = split(text);
  if (!starts_with(opc, "st.")) return {};
  const auto close = ops.find("], ");
  if (close == std::string_view::npos) return {"?"};
  std::vector<std::string> r = registers_of(ops.substr(close + 3));
  return r.empty() ? std::vector<std::string>{"?"} : r;
}

bool is_barrier(std::string_view text) {
  const std::string_view opc = split(text).first;
  return starts_with(opc, "bar.sync") || starts_with(opc, "barrier.sync") || starts_with(opc, "bar.cta.sync") ||
         starts_with(opc, "barrier.cta.sync") || opc == "bar" || opc == "barrier";
}

/// The innermost loop (backward branch b to t, t <= pc <= b) around `pc` that also holds a
/// barrier: {t, b}, or {-1, -1}.
std::pair<std::int64_t, std::int64_t> tile_loop(const std::vector<InstructionInfo>& code, std::size_t pc) {
  std::pair<std::int64_t, std::int64_t> best{-1, -1};
  for (std::size_t b = pc; b < code.size() && code[b].function == code[pc].function; ++b) {
    const std::int64_t t = code[b].branch_target;
    if (t < 0 || static_cast<std::size_t>(t) > pc) continue;
    bool barrier = false;
    for (std::size_t i = static_cast<std::size_t>(t); i <= b && !barrier; ++i) barrier = is_barrier(code[i].text);
    if (barrier && (best.first < 0 || b - static_cast<std::size_t>(t) <
                                          static_cast<std::size_t>(best.second - best.first)))
      best = {t, static_cast<std::int64_t>(b)};
  }
  return best;
}

/// How many instructions of each function name each register.
std::map<std::pair<std::string, std::string>, int> register_mentions(const std::vector<InstructionInfo>& code) {
  std::map<std::pair<std::string, std::string>, int> n;
  for (const InstructionInfo& in : code) {
    if (in.compiled) continue;
    std::vector<std::string> seen;
    std::string_view t = in.text;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '%') continue;
      std::size_t j = i + 1;
      while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) != 0 || t[j] == '_' || t[j] == '$')) ++j;
      std::string r(t.substr(i, j - i));
      if (std::find(seen.begin(), seen.end(), r) == seen.end()) seen.push_back(std::move(r));
      i = j - 1;
    }
    for (const std::string& r : seen) ++n[{in.function, r}];
  }
  return n;
}

}  // namespace

std::vector<std::pair<std::uint64_t, nlohmann::json>> staging_copy_advice(const stats::ModelResult& model,
                                                                          const std::vector<InstructionInfo>& code) {
  std::vector<std::pair<std::uint64_t, nlohmann::json>> out;
  if (model.profile == nullptr || model.profile->cc_major < 8) return out;
  const auto ran = [&](std::size_t pc) { return pc < model.per_pc.size() && model.per_pc[pc].seen; };
  std::map<std::pair<std::string, std::string>, int> mentions;
  bool counted = false;
  for (std::size_t ld = 0; ld < code.size(); ++ld) {
    if (code[ld].compiled || !ran(ld)) continue;
    const std::vector<std::string> d = load_destination(code[ld].text);
    if (d.empty()) continue;
    if (!counted) {
      mentions = register_mentions(code);
      counted = true;
    }
    const auto only_twice = [&](const std::string& r) { return mentions[{code[ld].function, r}] == 2; };
    if (!std::all_of(d.begin(), d.end(), only_twice)) continue;
    // Only a tile loop (one with a barrier) has a computation for the next tile's copy to overlap;
    // a tile loaded once (a transpose's) gains nothing from cp.async.
    const auto [loop_first, loop_last] = tile_loop(code, ld);
    if (loop_first < 0) continue;
    for (std::size_t st = ld + 1; st < code.size() && code[st].function == code[ld].function; ++st) {
      if (store_value(code[st].text) != d) continue;
      if (!ran(st)) break;
      const stats::InstructionStats& s = model.per_pc[ld];
      nlohmann::json j;
      j["rule"] = "synchronous_copy";
      j["file"] = code[ld].file;
      j["line"] = code[ld].line;
      j["pc"] = ld;
      const std::string what =
          where(&code[ld]) == where(&code[st])
              ? fmt::format("{} copies global memory to shared memory through registers", where(&code[ld]))
              : fmt::format("{} loads global memory into registers only to store it to shared memory at {}",
                            where(&code[ld]), where(&code[st]));
      j["message"] = fmt::format(
          "{}: cp.async (cuda::memcpy_async, __pipeline_memcpy_async) copies it without the registers, and with "
          "two shared buffers the next tile's copy overlaps the computation on this one",
          what);
      j["evidence"] = {{"executions", s.executions},
                       {"requests", s.requests},
                       {"width", s.width},
                       {"store_pc", st},
                       {"store_line", code[st].line},
                       {"registers", d.size()},
                       {"loop_first_pc", loop_first},
                       {"loop_last_pc", loop_last}};
      out.emplace_back(s.executions, std::move(j));
      break;
    }
  }
  return out;
}

bool moves_data_only(const stats::ModelResult& model, const std::vector<InstructionInfo>& code) {
  const auto ran = [&](std::size_t pc) { return pc < model.per_pc.size() && model.per_pc[pc].seen; };
  for (const stats::InstructionStats& s : model.per_pc)
    if (s.seen && (s.op == Op::kAtomic || s.op == Op::kReduction)) return false;
  std::map<std::pair<std::string, std::string>, bool> loaded;  // (function, register) a load wrote
  for (const InstructionInfo& in : code)
    if (!in.compiled)
      for (const std::string& r : any_load_destination(in.text)) loaded[{in.function, r}] = true;
  bool global_store = false;
  for (std::size_t pc = 0; pc < code.size(); ++pc) {
    if (code[pc].compiled || !ran(pc)) continue;
    const std::vector<std::string> v = any_store_value(code[pc].text);
    if (v.empty()) continue;  // not a store
    for (const std::string& r : v)
      if (!loaded.count({code[pc].function, r})) return false;
    global_store = global_store || model.per_pc[pc].space == Space::kGlobal;
  }
  return global_store;
}

}  // namespace warpscope::analysis
