#include "analysis/advice_atomic.hpp"

#include "analysis/advice_text.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace warpscope::analysis {
namespace {

bool is_atomic(Op op) { return op == Op::kAtomic || op == Op::kReduction; }

}  // namespace

std::vector<std::pair<std::uint64_t, nlohmann::json>> global_atomic_advice(const stats::ModelResult& model,
                                                                           const std::vector<InstructionInfo>& code,
                                                                           std::uint64_t ctas,
                                                                           std::vector<std::uint32_t>& covered) {
  std::vector<std::pair<std::uint64_t, nlohmann::json>> out;
  const stats::AtomicContention& c = model.atomics;
  if (c.addresses == 0 || c.capped || c.addresses > kMaxPrivateAddresses) return out;
  ctas = std::max<std::uint64_t>(ctas, 1);
  std::uint64_t ops = 0;
  std::vector<std::uint32_t> pcs;
  for (std::size_t pc = 0; pc < model.per_pc.size(); ++pc) {
    const stats::InstructionStats& s = model.per_pc[pc];
    if (!s.seen || s.space != Space::kGlobal || !is_atomic(s.op) || s.active_lanes == 0) continue;
    ops += s.active_lanes;
    pcs.push_back(static_cast<std::uint32_t>(pc));
  }
  const std::uint64_t after = c.addresses * ctas;  // at most one operation per address and block
  if (ops < kMinOpsPerAddressPerCta * after) return out;
  const double per_cta = static_cast<double>(ops) / static_cast<double>(after);
  for (const std::uint32_t pc : pcs) {
    const stats::InstructionStats& s = model.per_pc[pc];
    const InstructionInfo* info = pc < code.size() ? &code[pc] : nullptr;
    nlohmann::json j;
    j["rule"] = "global_atomic_contention";
    j["file"] = info ? info->file : "";
    j["line"] = info ? info->line : 0;
    j["pc"] = pc;
    j["message"] = fmt::format(
        "{} global {}: the launch's {} lane operations land on {} distinct addresses ({:.1f} per address and block; "
        "the busiest address takes {}), and the L2 performs the operations on one address one after another: "
        "privatise them: give each block a copy of the {} values in shared memory (__shared__, zeroed, updated with "
        "shared atomics), then after __syncthreads() add each to global memory once per block: at most {} global "
        "operations instead of {}",
        where(info), describe(s.op), ops, c.addresses, per_cta, c.address_ops, c.addresses, after, ops);
    j["evidence"] = {{"executions", s.executions},
                     {"lane_operations", s.active_lanes},
                     {"launch_lane_operations", ops},
                     {"addresses", c.addresses},
                     {"busiest_address_operations", c.address_ops},
                     {"ctas", ctas},
                     {"operations_per_address_per_cta", per_cta},
                     {"operations_after_privatisation", after}};
    covered.push_back(pc);
    // This instruction's share of the operations saved.
    const double share = static_cast<double>(s.active_lanes) / static_cast<double>(ops);
    out.emplace_back(static_cast<std::uint64_t>(share * static_cast<double>(ops - after)), std::move(j));
  }
  return out;
}

std::optional<nlohmann::json> shared_atomic_advice(const stats::InstructionStats& s, std::uint32_t pc,
                                                   const InstructionInfo* info, const arch::Profile& profile) {
  if (!is_atomic(s.op) || s.excess_wavefronts() == 0) return std::nullopt;
  if (s.strided_executions * 2 >= s.executions && !s.stride_varies) return std::nullopt;  // a layout: pad it
  // The worst warp access: lanes per word, distinct words per bank, lanes per bank (what the
  // banks serve one after another: each lane's atomic is its own operation, docs/mem.md).
  std::uint64_t lanes = 0, most_lanes = 0, words = 0, most_words = 0, most_bank_lanes = 0;
  if (s.sample) {
    const stats::Sample& smp = *s.sample;
    std::map<std::uint64_t, std::uint64_t> per_word;
    for (unsigned l = 0; l < kMaxWarpSize; ++l) {
      if (!smp.active.test(l)) continue;
      ++lanes;
      ++per_word[smp.addr[l] / profile.shared_bank_bytes];
    }
    std::map<std::uint64_t, std::uint64_t> per_bank, bank_lanes;
    for (const auto& [word, n] : per_word) {
      most_lanes = std::max(most_lanes, n);
      most_words = std::max(most_words, ++per_bank[word % profile.shared_banks]);
      most_bank_lanes = std::max(most_bank_lanes, bank_lanes[word % profile.shared_banks] += n);
    }
    words = per_word.size();
  }
  const double degree = s.ideal_wavefronts == 0 ? 0.0
                                                : static_cast<double>(s.wavefronts) / static_cast<double>(s.ideal_wavefronts);
  const std::string aggregate =
      "aggregate per warp first: __match_any_sync(__activemask(), bin) gives the lanes with the same bin, the lowest "
      "of them adds __popc of that mask and the others skip the atomic";
  const std::string copies =
      "give each warp its own copy of the bins in shared memory (privatise per warp: bins[warp][256]) and sum the "
      "copies after __syncthreads()";
  nlohmann::json j;
  j["rule"] = "shared_atomic_conflict";
  j["file"] = info ? info->file : "";
  j["line"] = info ? info->line : 0;
  j["pc"] = pc;
  j["message"] = fmt::format(
      "{} shared {}: {:.1f}-way bank conflicts on addresses the data picks (the worst warp: {} lanes on {} distinct "
      "words, up to {} lanes on one word, up to {} words and {} lanes in one bank): padding cannot move apart bins "
      "the data chooses; {}; or {}",
      where(info), describe(s.op), degree, lanes, words, most_lanes, most_words, most_bank_lanes,
      most_lanes >= 2 ? aggregate : copies,
      most_lanes >= 2 ? copies : aggregate);
  j["evidence"] = {{"executions", s.executions},
                   {"wavefronts", s.wavefronts},
                   {"ideal_wavefronts", s.ideal_wavefronts},
                   {"excess_wavefronts", s.excess_wavefronts()},
                   {"conflict_degree", degree},
                   {"sample_lanes", lanes},
                   {"sample_distinct_words", words},
                   {"sample_most_lanes_per_word", most_lanes},
                   {"sample_most_words_per_bank", most_words},
                   {"sample_most_lanes_per_bank", most_bank_lanes},
                   {"fix", most_lanes >= 2 ? "warp_aggregation" : "per_warp_copies"}};
  return j;
}

}  // namespace warpscope::analysis
