#include "analysis/advice.hpp"

#include "analysis/advice_aos.hpp"
#include "analysis/advice_atomic.hpp"
#include "analysis/advice_copy.hpp"
#include "analysis/advice_fma.hpp"
#include "analysis/advice_text.hpp"
#include "analysis/advice_tma.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace warpscope::analysis {
namespace {

struct Item {
  std::uint64_t weight = 0;  // sectors or wavefronts it would save; sorts the list
  nlohmann::json j;
};

double per(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

nlohmann::json base(const char* rule, std::uint32_t pc, const InstructionInfo* info) {
  nlohmann::json j;
  j["rule"] = rule;
  j["file"] = info ? info->file : "";
  j["line"] = info ? info->line : 0;
  j["pc"] = pc;
  return j;
}

void global_advice(const stats::ModelResult& model, std::uint32_t pc, const InstructionInfo* info,
                   std::vector<Item>& out) {
  const stats::InstructionStats& s = model.per_pc[pc];
  const arch::Profile& profile = *model.profile;
  const std::uint64_t excess = s.excessive_sectors();
  const double used = per(s.bytes_requested, s.bytes_moved);
  if (s.executions == 0 || (excess == 0 && used >= 0.5)) return;
  const double avg_lanes = per(s.active_lanes, s.executions);
  nlohmann::json ev;
  ev["executions"] = s.executions;
  ev["requests"] = s.requests;
  ev["sectors"] = s.sectors;
  ev["ideal_sectors"] = s.ideal_sectors;
  ev["excessive_sectors"] = excess;
  ev["sectors_per_request"] = per(s.sectors, s.requests);
  ev["bus_utilization_pct"] = 100.0 * used;
  ev["average_active_lanes"] = avg_lanes;
  ev["active_lanes"] = s.active_lanes;
  ev["bytes_requested"] = s.bytes_requested;
  ev["bytes_moved"] = s.bytes_moved;
  const std::string what = fmt::format("{} global {} of {}-byte words ({:.1f} sectors per request, {:.0f} % of "
                                       "the bytes moved are used)",
                                       where(info), describe(s.op), s.width, per(s.sectors, s.requests), 100.0 * used);
  auto majority = [&](std::uint64_t n) { return n * 2 >= s.executions; };
  nlohmann::json j;
  const bool atomic = s.op == Op::kAtomic || s.op == Op::kReduction;
  if (majority(s.uniform_executions)) {
    j = base("same_word", pc, info);
    j["message"] = atomic ? fmt::format("{}: all active lanes of a warp update the same word: combine the warp's "
                                        "values first (__reduce_add_sync, or shuffles) and let one lane do the "
                                        "atomic",
                                        what)
                          : fmt::format("{}: all active lanes of a warp access the same word; load it once (one lane, "
                                        "or __ldg/constant memory) and share it",
                                        what);
  } else if (s.partial_executions * 4 >= s.executions && avg_lanes < 0.75 * profile.warp_size) {
    j = base("divergence", pc, info);
    j["message"] = fmt::format("{}: on average only {:.1f} of {} lanes take part: a branch splits the warp's access; "
                               "load the values before the branch, or arrange the data so whole warps take one side",
                               what, avg_lanes, profile.warp_size);
  } else if (majority(s.misaligned_executions)) {
    ev["misaligned_executions"] = s.misaligned_executions;
    ev["misalignment_bytes_min"] = s.misalign_min;
    ev["misalignment_bytes_max"] = s.misalign_max;
    j = base("misaligned", pc, info);
    if (s.misalign_min == s.misalign_max) {
      j["message"] = fmt::format("{}: every warp's words start {} bytes past a {}-byte boundary (a sub-allocation "
                                 "offset?): align each array to 128 bytes (cudaMalloc aligns to 256)",
                                 what, s.misalign_min, profile.sector_bytes);
    } else {
      j["message"] = fmt::format("{}: warps start {} to {} bytes past a boundary, changing from warp to warp (as the "
                                 "rows of an unpadded 2-D array do): pad rows to a multiple of 128 bytes or use "
                                 "cudaMallocPitch",
                                 what, s.misalign_min, s.misalign_max);
    }
  } else if (majority(s.strided_executions) && !s.stride_varies && std::llabs(s.stride) > s.width) {
    const std::int64_t stride = std::llabs(s.stride);
    ev["stride_bytes"] = s.stride;
    if (is_aos(s)) {
      out.push_back(Item{std::max<std::uint64_t>(excess, 1), aos_item(model, pc, info, what, std::move(ev))});
      return;
    } else {
      j = base("stride", pc, info);
      j["message"] = fmt::format("{}: lanes are a constant {} bytes apart: make consecutive lanes access consecutive "
                                 "words (for a column of a 2-D array, go through shared memory)",
                                 what, stride);
    }
  } else {
    j = base("uncoalesced", pc, info);
    j["message"] = fmt::format("{}: the lanes' addresses are scattered", what);
  }
  j["evidence"] = std::move(ev);
  out.push_back(Item{std::max<std::uint64_t>(excess, 1), std::move(j)});
}

void shared_advice(const stats::InstructionStats& s, std::uint32_t pc, const InstructionInfo* info,
                   const arch::Profile& profile, std::vector<Item>& out) {
  const std::uint64_t excess = s.excess_wavefronts();
  if (excess == 0) return;
  if (auto atomic = shared_atomic_advice(s, pc, info, profile)) {
    out.push_back(Item{excess, std::move(*atomic)});
    return;
  }
  nlohmann::json ev;
  ev["executions"] = s.executions;
  ev["wavefronts"] = s.wavefronts;
  ev["ideal_wavefronts"] = s.ideal_wavefronts;
  ev["excess_wavefronts"] = excess;
  ev["conflict_degree"] = per(s.wavefronts, s.ideal_wavefronts);
  std::string stride_text = "addresses that share banks";
  if (s.strided_executions > 0 && !s.stride_varies) {
    ev["stride_bytes"] = s.stride;
    stride_text = fmt::format("a stride of {} bytes ({} {}-byte words)", s.stride,
                              s.stride / static_cast<std::int64_t>(profile.shared_bank_bytes), profile.shared_bank_bytes);
  }
  nlohmann::json j = base("bank_conflict", pc, info);
  // ldmatrix/stmatrix: each 8x8 matrix is 8 rows of 16 bytes, one wavefront when the rows fall in
  // distinct 16-byte bank groups (tests/hw/data/h100/tensor, ldsm_banks): rows a multiple of 128
  // bytes apart share one. Padding by a word does not help; a 16-byte pad or an XOR swizzle does.
  const std::string_view text = info != nullptr ? std::string_view(info->text) : std::string_view();
  const bool ld = text.find("ldmatrix") != std::string_view::npos, st = text.find("stmatrix") != std::string_view::npos;
  if (ld || st) {
    ev["matrix"] = true;
    j["message"] = fmt::format("{} {}: {:.1f}-way bank conflicts: the 8 rows (16 bytes each) of its 8x8 matrices, "
                               "{}, fall in the same 16-byte bank groups: store row r's 16-byte chunk c at "
                               "chunk c ^ (r % 8) (the 128-byte swizzle TMA and wgmma use) or pad each row by 16 bytes",
                               where(info), ld ? "ldmatrix" : "stmatrix", per(s.wavefronts, s.ideal_wavefronts),
                               s.strided_executions > 0 && !s.stride_varies ? fmt::format("{} bytes apart", s.stride)
                                                                            : std::string("at addresses that share bank groups"));
  } else {
    j["message"] = fmt::format("{} shared {}: {:.1f}-way bank conflicts from {}: pad the row by one word "
                               "(e.g. [32][33] instead of [32][32])",
                               where(info), describe(s.op), per(s.wavefronts, s.ideal_wavefronts), stride_text);
  }
  j["evidence"] = std::move(ev);
  out.push_back(Item{excess, std::move(j)});
}

/// cp.async of 4 or 8 bytes per lane whose lanes copy consecutive words in 16-byte aligned runs
/// (stats::InstructionStats::widenable_executions, in most executions): 16-byte copies move the
/// same bytes with 16/width times fewer instructions and requests (and may bypass L1 with .cg).
void async_copy_advice(const stats::InstructionStats& s, std::uint32_t pc, const InstructionInfo* info,
                       std::vector<Item>& out) {
  if (s.executions == 0 || s.width >= 16 || s.widenable_executions * 2 < s.executions) return;
  const std::uint64_t factor = 16 / s.width;
  nlohmann::json ev;
  ev["executions"] = s.executions;
  ev["widenable_executions"] = s.widenable_executions;
  ev["requests"] = s.requests;
  ev["width"] = s.width;
  ev["average_active_lanes"] = per(s.active_lanes, s.executions);
  nlohmann::json j = base("cp_async_width", pc, info);
  j["message"] = fmt::format("{} cp.async copies {} bytes per lane, and groups of {} lanes copy consecutive words "
                             "from 16-byte aligned addresses: one 16-byte copy per group (__pipeline_memcpy_async(dst, "
                             "src, 16), cuda::memcpy_async of a float4 or with cuda::aligned_size_t<16>; align the "
                             "shared destination to 16 bytes) moves the same data with {}x fewer instructions and "
                             "requests",
                             where(info), s.width, factor, factor);
  j["evidence"] = std::move(ev);
  out.push_back(Item{s.executions - s.executions / factor, std::move(j)});
}

void local_advice(const stats::InstructionStats& s, std::uint32_t pc, const InstructionInfo* info,
                  std::vector<Item>& out) {
  if (s.requests == 0) return;
  nlohmann::json ev;
  ev["executions"] = s.executions;
  ev["requests"] = s.requests;
  ev["sectors"] = s.sectors;
  ev["sectors_per_request"] = per(s.sectors, s.requests);
  ev["uniform_executions"] = s.uniform_executions;
  const bool uniform = s.uniform_executions * 2 >= s.executions;
  nlohmann::json j = base("local_memory", pc, info);
  j["message"] = fmt::format(
      "{} local {} ({:.1f} sectors per request): {}; local memory lives in device memory, so keep private arrays "
      "indexed by constants (or fully unrolled loops) to let the compiler keep them in registers",
      where(info), describe(s.op), per(s.sectors, s.requests),
      uniform ? "the index is the same for every lane of a warp, so the accesses are coalesced"
              : "the index differs between lanes, so the accesses are not coalesced");
  j["evidence"] = std::move(ev);
  out.push_back(Item{s.sectors, std::move(j)});
}

/// Evidence keys that add up over the instructions of one line (the others are per instruction).
constexpr const char* kAdditive[] = {"executions",         "requests",      "sectors",          "ideal_sectors",
                                     "excessive_sectors",  "active_lanes",  "bytes_requested",  "bytes_moved",
                                     "wavefronts",         "ideal_wavefronts", "excess_wavefronts",
                                     "widenable_executions", "misaligned_executions", "uniform_executions",
                                     "lane_operations"};

/// One item per (rule, file, line) for the per-instruction items of a line with a source line
/// (issue 35: an unrolled loop or a structure's fields made one item per machine instruction):
/// `pcs` lists the instructions, additive evidence is summed (ratios recomputed), the other
/// evidence is the heaviest instruction's, `instructions` holds each one's pc, PTX and evidence,
/// and the message is the heaviest's with the line's totals. Items without a line stay apart.
std::vector<Item> merge_by_line(std::vector<Item> items, const std::vector<InstructionInfo>& code) {
  std::vector<std::vector<Item>> groups;
  std::map<std::tuple<std::string, std::string, std::uint32_t>, std::size_t> index;
  for (Item& it : items) {
    const std::uint32_t line = it.j.value("line", 0u);
    if (line == 0 || !it.j["pc"].is_number()) {
      groups.push_back({});
      groups.back().push_back(std::move(it));
      continue;
    }
    const auto key = std::make_tuple(it.j["rule"].get<std::string>(), it.j.value("file", ""), line);
    const auto [at, fresh] = index.emplace(key, groups.size());
    if (fresh) groups.push_back({});
    groups[at->second].push_back(std::move(it));
  }
  std::vector<Item> out;
  for (std::vector<Item>& g : groups) {
    std::stable_sort(g.begin(), g.end(), [](const Item& a, const Item& b) { return a.weight > b.weight; });
    Item merged = g.front();
    std::vector<std::uint32_t> pcs;
    for (const Item& it : g) pcs.push_back(it.j["pc"].is_number() ? it.j["pc"].get<std::uint32_t>() : 0u);
    std::sort(pcs.begin(), pcs.end());
    if (merged.j["pc"].is_number()) {
      merged.j["pc"] = pcs.front();
      merged.j["pcs"] = pcs;
    }
    if (g.size() > 1) {
      nlohmann::json& ev = merged.j["evidence"];
      nlohmann::json list = nlohmann::json::array();
      merged.weight = 0;
      for (const char* k : kAdditive)
        if (ev.contains(k)) ev[k] = std::uint64_t{0};
      for (const Item& it : g) {
        merged.weight += it.weight;
        for (const char* k : kAdditive)
          if (ev.contains(k) && it.j["evidence"].contains(k)) ev[k] = ev[k].get<std::uint64_t>() + it.j["evidence"][k].get<std::uint64_t>();
        const std::uint32_t pc = it.j["pc"].get<std::uint32_t>();
        list.push_back({{"pc", pc}, {"ptx", pc < code.size() ? code[pc].text : ""}, {"evidence", it.j["evidence"]}});
      }
      std::sort(list.begin(), list.end(), [](const nlohmann::json& a, const nlohmann::json& b) { return a["pc"] < b["pc"]; });
      const auto u = [&](const char* k) { return ev.value(k, std::uint64_t{0}); };
      if (ev.contains("sectors_per_request")) ev["sectors_per_request"] = per(u("sectors"), u("requests"));
      if (ev.contains("bus_utilization_pct")) ev["bus_utilization_pct"] = 100.0 * per(u("bytes_requested"), u("bytes_moved"));
      if (ev.contains("average_active_lanes")) ev["average_active_lanes"] = per(u("active_lanes"), u("executions"));
      if (ev.contains("conflict_degree")) ev["conflict_degree"] = per(u("wavefronts"), u("ideal_wavefronts"));
      ev["instructions"] = std::move(list);
      std::string ptx_lines;
      for (const std::uint32_t pc : pcs)
        ptx_lines += fmt::format("{}{}", ptx_lines.empty() ? "" : ", ", pc < code.size() ? code[pc].ptx_line : pc);
      std::string total;
      if (ev.contains("excessive_sectors"))
        total = fmt::format(": together {} excessive sectors of {}", u("excessive_sectors"), u("sectors"));
      else if (ev.contains("excess_wavefronts"))
        total = fmt::format(": together {} excess wavefronts of {}", u("excess_wavefronts"), u("wavefronts"));
      merged.j["message"] = fmt::format("{} [{} instructions of this line, PTX lines {}{}]", merged.j["message"].get<std::string>(),
                                        g.size(), ptx_lines, total);
    }
    out.push_back(std::move(merged));
  }
  return out;
}

bool is_memory(const stats::ModelResult& m, std::size_t pc) {
  return pc < m.per_pc.size() && m.per_pc[pc].seen &&
         (m.per_pc[pc].space == Space::kGlobal || m.per_pc[pc].space == Space::kLocal);
}

/// total: instructions run (PTX); memory: memory instructions (as the memory model saw them);
/// other: the instructions run that are not memory instructions.
nlohmann::json ratio_json(std::uint64_t total, std::uint64_t memory, std::uint64_t other) {
  nlohmann::json j;
  j["instructions"] = total;
  j["memory_instructions"] = memory;
  j["ratio"] = memory == 0 ? nlohmann::json(nullptr) : nlohmann::json(per(other, memory));
  return j;
}

}  // namespace

nlohmann::json math_to_memory(const stats::ModelResult& model, const LaunchStats& exec,
                              const std::vector<InstructionInfo>& code) {
  auto executed = [&](std::size_t pc) { return pc < exec.pc_instructions.size() ? exec.pc_instructions[pc] : 0; };
  // A memory instruction counts the records the memory model saw (as the sass_inst_executed
  // metrics do): more than the PTX ran where the machine code groups lanes differently (lane
  // groupings, src/analysis/sass.hpp).
  auto memory_of = [&](std::size_t pc) -> std::uint64_t { return is_memory(model, pc) ? model.per_pc[pc].executions : 0; };
  std::uint64_t total = 0, memory = 0, other = 0;
  const std::size_t n = std::max(code.size(), exec.pc_instructions.size());
  for (std::size_t pc = 0; pc < n; ++pc) {
    total += executed(pc);
    memory += memory_of(pc);
    if (!is_memory(model, pc)) other += executed(pc);
  }
  nlohmann::json out;
  out["kernel"] = ratio_json(total, memory, other);
  nlohmann::json loops = nlohmann::json::array();
  for (std::size_t b = 0; b < code.size(); ++b) {
    const std::int64_t t = code[b].branch_target;
    if (t < 0 || static_cast<std::size_t>(t) > b || executed(b) == 0) continue;
    std::uint64_t lt = 0, lm = 0, lo = 0;
    for (std::size_t pc = static_cast<std::size_t>(t); pc <= b; ++pc) {
      lt += executed(pc);
      lm += memory_of(pc);
      if (!is_memory(model, pc)) lo += executed(pc);
    }
    nlohmann::json j = ratio_json(lt, lm, lo);
    j["first_pc"] = t;
    j["last_pc"] = b;
    // The loop's line: the first instruction of its body that has one.
    std::string file;
    std::uint32_t line = 0;
    for (std::size_t pc = static_cast<std::size_t>(t); pc <= b && line == 0; ++pc) {
      file = code[pc].file;
      line = code[pc].line;
    }
    j["file"] = file;
    j["line"] = line;
    j["iterations"] = executed(b);  // warp executions of the backward branch
    loops.push_back(std::move(j));
  }
  out["loops"] = std::move(loops);
  return out;
}

nlohmann::json advise(const stats::ModelResult& model, const LaunchStats& exec, const std::vector<InstructionInfo>& code,
                      const nlohmann::json& lines, std::uint64_t ctas) {
  (void)lines;
  std::vector<Item> items;
  const arch::Profile& profile = *model.profile;
  std::vector<std::uint32_t> tma_covered;  // shared loads the tma_swizzle rule explains
  for (auto& [weight, j] : tma_swizzle_advice(model, code, tma_covered)) items.push_back(Item{weight, std::move(j)});
  std::vector<std::uint32_t> atomic_covered;  // global atomics the contention rule explains
  for (auto& [weight, j] : global_atomic_advice(model, code, ctas, atomic_covered)) items.push_back(Item{weight, std::move(j)});
  const auto covered = [](const std::vector<std::uint32_t>& v, std::uint32_t p) {
    return std::find(v.begin(), v.end(), p) != v.end();
  };
  for (std::size_t pc = 0; pc < model.per_pc.size(); ++pc) {
    const stats::InstructionStats& s = model.per_pc[pc];
    if (!s.seen) continue;
    const InstructionInfo* info = pc < code.size() ? &code[pc] : nullptr;
    const auto p = static_cast<std::uint32_t>(pc);
    if (s.space == Space::kGlobal && !covered(atomic_covered, p)) global_advice(model, p, info, items);
    if (s.op == Op::kLdgsts) async_copy_advice(s, p, info, items);
    if (s.space == Space::kShared && !covered(tma_covered, p)) shared_advice(s, p, info, profile, items);
    // Spill accesses (compiled, not PTX) are the kernel-wide `spill` advice's evidence instead.
    if (s.space == Space::kLocal && !(info != nullptr && info->compiled)) local_advice(s, p, info, items);
  }
  for (auto& [weight, j] : staging_copy_advice(model, code)) items.push_back(Item{weight, std::move(j)});
  items = merge_by_line(std::move(items), code);
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.weight > b.weight; });

  nlohmann::json out = nlohmann::json::array();
  // Built without -lineinfo: no instruction has a source line (said once, first).
  const bool any_line = std::any_of(code.begin(), code.end(), [](const InstructionInfo& i) { return !i.compiled && i.line != 0; });
  if (!code.empty() && !any_line) {
    nlohmann::json j;
    j["rule"] = "no_lineinfo";
    j["file"] = "";
    j["line"] = 0;
    j["pc"] = nullptr;
    j["message"] = "the kernel was built without line information (its PTX has no .loc): the items and lines of this "
                   "report can only name PTX lines; rebuild with nvcc -lineinfo (it adds the line table and leaves "
                   "the optimised code as it is) to see CUDA source lines";
    j["evidence"] = {{"instructions", code.size()}, {"instructions_with_lines", 0}};
    out.push_back(std::move(j));
  }
  // Shared loads per FMA (the kernel's limit when it holds; before the per-instruction items).
  if (auto fma = shared_fma_advice(model, exec, code)) out.push_back(std::move(*fma));

  // Math to memory (seed 000): other instructions per global/local memory instruction. A kernel
  // that only moves data (a copy, a transpose) has no math to add: none.
  std::uint64_t mem_insts = 0;
  for (Space sp : {Space::kGlobal, Space::kLocal})
    for (Op o : {Op::kLoad, Op::kStore, Op::kAtomic, Op::kReduction, Op::kLdgsts}) mem_insts += stats::instruction_count(model, sp, o);
  const bool copy_only = moves_data_only(model, code);
  if (mem_insts > 0 && !copy_only) {
    const std::uint64_t other = exec.warp_instructions > mem_insts ? exec.warp_instructions - mem_insts : 0;
    const double r = per(other, mem_insts);
    if (r < 4.0) {
      nlohmann::json j;
      j["rule"] = "low_math_ratio";
      j["file"] = "";
      j["line"] = 0;
      j["pc"] = nullptr;
      j["message"] = fmt::format("{:.1f} other instructions per global or local memory instruction: with under 4:1 "
                                 "(aim for 4:1 to 8:1) the warps mostly wait for memory; do more work per loaded "
                                 "value (reuse it from registers or shared memory)",
                                 r);
      j["evidence"] = {{"memory_instructions", mem_insts}, {"other_instructions", other}, {"ratio", r}};
      out.push_back(std::move(j));
    }
  }
  // The same per loop that does most of the kernel's work (at least a tenth of its instructions).
  const nlohmann::json mm = math_to_memory(model, exec, code);
  for (const auto& l : mm["loops"]) {
    if (copy_only || l["ratio"].is_null() || l["ratio"].get<double>() >= 4.0) continue;
    if (l["instructions"].get<std::uint64_t>() * 10 < exec.warp_instructions) continue;
    nlohmann::json j;
    j["rule"] = "low_math_ratio";
    j["file"] = l["file"];
    j["line"] = l["line"];
    j["pc"] = l["first_pc"];
    j["message"] = fmt::format("the loop at {}:{} runs {:.1f} other instructions per global or local memory "
                               "instruction (aim for 4:1 to 8:1): do more work per loaded value, or unroll it so "
                               "loads of several iterations overlap",
                               basename_of(l["file"].get<std::string>()), l["line"].get<std::uint32_t>(),
                               l["ratio"].get<double>());
    j["evidence"] = l;
    out.push_back(std::move(j));
  }
  for (auto& it : items) out.push_back(std::move(it.j));
  return out;
}

}  // namespace warpscope::analysis
