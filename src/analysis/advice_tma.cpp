#include "analysis/advice_tma.hpp"

#include "analysis/advice_text.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace warpscope::analysis {
namespace {

/// Whether every active address of the sample (its 16-byte rows for ldmatrix, its words
/// otherwise) lies inside one row of the box.
bool inside(const stats::Sample& smp, const stats::TmaBox& box) {
  unsigned n = 0;
  for (unsigned l = 0; l < kMaxWarpSize; ++l) {
    if (!smp.active.test(l)) continue;
    ++n;
    const std::uint64_t a = smp.addr[l], end = a + smp.width;
    const bool in = std::any_of(box.rows.begin(), box.rows.end(), [&](const stats::TmaBox::Row& r) {
      return a >= r.shared && end <= std::uint64_t{r.shared} + r.bytes;
    });
    if (!in) return false;
  }
  return n != 0;
}

/// The smallest swizzle span that covers a row (the tensor map allows rows of at most the span).
unsigned swizzle_for(std::uint32_t row_bytes) { return row_bytes <= 32 ? 32 : row_bytes <= 64 ? 64 : 128; }

}  // namespace

std::vector<std::pair<std::uint64_t, nlohmann::json>> tma_swizzle_advice(const stats::ModelResult& model,
                                                                         const std::vector<InstructionInfo>& code,
                                                                         std::vector<std::uint32_t>& covered) {
  std::vector<std::pair<std::uint64_t, nlohmann::json>> out;
  // The unswizzled tensor loads' first boxes.
  std::vector<std::uint32_t> loads;
  for (std::size_t pc = 0; pc < model.per_pc.size(); ++pc) {
    const stats::InstructionStats& s = model.per_pc[pc];
    if (s.seen && s.tensor && s.op == Op::kBulkCopy && s.box && s.box->swizzle_bytes == 0 && !s.box->rows.empty())
      loads.push_back(static_cast<std::uint32_t>(pc));
  }
  if (loads.empty()) return out;
  for (std::size_t pc = 0; pc < model.per_pc.size(); ++pc) {
    const stats::InstructionStats& s = model.per_pc[pc];
    if (!s.seen || s.space != Space::kShared || s.op != Op::kLoad || s.excess_wavefronts() == 0 || !s.sample) continue;
    const auto load = std::find_if(loads.begin(), loads.end(),
                                   [&](std::uint32_t l) { return inside(*s.sample, *model.per_pc[l].box); });
    if (load == loads.end()) continue;
    const stats::TmaBox& box = *model.per_pc[*load].box;
    const InstructionInfo* info = pc < code.size() ? &code[pc] : nullptr;
    const InstructionInfo* tma = *load < code.size() ? &code[*load] : nullptr;
    const std::uint32_t row_bytes = box.rows.front().bytes;
    const std::uint32_t pitch = box.rows.size() > 1 ? box.rows[1].shared - box.rows[0].shared : row_bytes;
    const unsigned span = swizzle_for(row_bytes);
    const bool matrix = info != nullptr && std::string_view(info->text).find("matrix") != std::string_view::npos;
    const double degree = s.ideal_wavefronts == 0 ? 0.0 : static_cast<double>(s.wavefronts) / static_cast<double>(s.ideal_wavefronts);
    nlohmann::json j;
    j["rule"] = "tma_swizzle";
    j["file"] = info ? info->file : "";
    j["line"] = info ? info->line : 0;
    j["pc"] = static_cast<std::uint32_t>(pc);
    j["message"] = fmt::format(
        "{} shared {}: {:.1f}-way bank conflicts reading the tile that the tensor copy at {} wrote without swizzle: "
        "its box rows lie {} bytes apart in shared memory, so the same 16-byte chunk of different rows falls in the "
        "same banks. Encode the tensor map with CU_TENSOR_MAP_SWIZZLE_{}B, which stores chunk c of row r at chunk "
        "c ^ (r % {}), and read the tile at its swizzled addresses",
        where(info), matrix ? "matrix load (ldmatrix)" : "load", degree, tma != nullptr ? where(tma) : "an earlier line",
        pitch, span, span / 16);
    j["evidence"] = {{"executions", s.executions},
                     {"wavefronts", s.wavefronts},
                     {"ideal_wavefronts", s.ideal_wavefronts},
                     {"excess_wavefronts", s.excess_wavefronts()},
                     {"conflict_degree", degree},
                     {"tma_pc", *load},
                     {"tma_file", tma ? tma->file : ""},
                     {"tma_line", tma ? tma->line : 0},
                     {"box_rows", box.rows.size()},
                     {"box_row_bytes", row_bytes},
                     {"row_pitch_bytes", pitch},
                     {"swizzle_bytes", 0},
                     {"suggested_swizzle_bytes", span}};
    if (matrix) j["evidence"]["matrix"] = true;
    covered.push_back(static_cast<std::uint32_t>(pc));
    out.emplace_back(s.excess_wavefronts(), std::move(j));
  }
  return out;
}

}  // namespace warpscope::analysis
