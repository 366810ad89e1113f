#include "analysis/advice_aos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace warpscope::analysis {
namespace {

int first_lane(const stats::Sample& smp) {
  for (unsigned l = 0; l < kMaxWarpSize; ++l)
    if (smp.active.test(l)) return static_cast<int>(l);
  return -1;
}

double per_request(const stats::InstructionStats& s) {
  return s.requests == 0 ? 0.0 : static_cast<double>(s.sectors) / static_cast<double>(s.requests);
}

}  // namespace

bool is_aos(const stats::InstructionStats& s) {
  const std::int64_t stride = std::llabs(s.stride);
  return s.space == Space::kGlobal && s.strided_executions * 2 >= s.executions && !s.stride_varies &&
         stride > s.width && stride <= 128 && stride % s.width == 0;
}

nlohmann::json aos_item(const stats::ModelResult& model, std::uint32_t pc, const InstructionInfo* info,
                        const std::string& what, nlohmann::json ev) {
  const stats::InstructionStats& s = model.per_pc[pc];
  const arch::Profile& profile = *model.profile;
  const std::int64_t stride = std::llabs(s.stride);
  // The fields of the same structures: {offset from this field's lane address, width, pc}.
  struct Field {
    std::int64_t offset;
    std::uint32_t width;
    std::uint32_t pc;
  };
  std::vector<Field> fields{{0, s.width, pc}};
  const int lane = s.sample ? first_lane(*s.sample) : -1;
  if (lane >= 0) {
    const std::uint64_t a = s.sample->addr[static_cast<unsigned>(lane)];
    for (std::size_t q = 0; q < model.per_pc.size(); ++q) {
      const stats::InstructionStats& o = model.per_pc[q];
      if (q == pc || !o.seen || o.op != s.op || !is_aos(o) || std::llabs(o.stride) != stride || !o.sample) continue;
      if (o.sample->cta != s.sample->cta || o.sample->warp != s.sample->warp || first_lane(*o.sample) != lane) continue;
      const auto d = static_cast<std::int64_t>(o.sample->addr[static_cast<unsigned>(lane)] - a);
      if (std::llabs(d) >= stride) continue;
      fields.push_back({d, o.width, static_cast<std::uint32_t>(q)});
    }
  }
  std::sort(fields.begin(), fields.end(), [](const Field& x, const Field& y) { return x.offset < y.offset; });
  // Bytes of the structure the fields cover (their union), sectors a warp moves for them now, with
  // one aligned vector access of the whole structure, and with a structure of arrays.
  std::int64_t covered = 0, end = fields.front().offset;
  double now = 0, soa = 0;
  nlohmann::json pcs = nlohmann::json::array();
  std::vector<std::uint32_t> seen_pcs;
  for (const Field& f : fields) {
    const std::int64_t lo = std::max(f.offset, end), hi = f.offset + f.width;
    if (hi > lo) covered += hi - lo;
    end = std::max(end, hi);
    now += per_request(model.per_pc[f.pc]);
    soa += std::ceil(static_cast<double>(profile.warp_size * f.width) / profile.sector_bytes);
    seen_pcs.push_back(f.pc);
  }
  std::sort(seen_pcs.begin(), seen_pcs.end());
  for (const std::uint32_t p : seen_pcs) pcs.push_back(p);
  const std::int64_t aligned = stride <= 8 ? 8 : 16;
  const double vec = std::ceil(static_cast<double>(profile.warp_size * static_cast<std::uint64_t>(aligned)) /
                               profile.sector_bytes);
  const bool vector_fix = stride >= 8 && stride <= 16 && vec < now;
  const bool store = s.op == Op::kStore;
  ev["struct_bytes"] = stride;
  ev["fields"] = fields.size();
  ev["field_bytes"] = covered;
  ev["field_pcs"] = std::move(pcs);
  ev["sectors_per_warp"] = now;
  ev["sectors_per_warp_fixed"] = vector_fix ? vec : soa;
  ev["fix"] = vector_fix ? "align_vector" : "soa";
  nlohmann::json j;
  j["rule"] = "aos";
  j["file"] = info ? info->file : "";
  j["line"] = info ? info->line : 0;
  j["pc"] = pc;
  if (vector_fix) {
    j["message"] = fmt::format(
        "{}: lanes are {} bytes apart: an array of {}-byte structures {} one field per instruction ({} fields, {} "
        "of its bytes: {:.0f} sectors per warp for them): declare the structure __align__({}){} and {} it whole, one "
        "{}-byte vector per lane ({}, or a copy of the whole struct): {:.0f} sectors per warp and {}x fewer {} "
        "instructions",
        what, stride, stride, store ? "written" : "read", fields.size(), covered, now, aligned,
        stride < aligned ? fmt::format(" (padding it to {} bytes)", aligned) : std::string(), store ? "write" : "read",
        aligned, aligned == 8 ? "float2/int2" : "float4/int4", vec, fields.size(), store ? "store" : "load");
  } else {
    j["message"] = fmt::format(
        "{}: lanes are {} bytes apart, one field of a {}-byte structure each ({} of its fields, {} bytes, {} here: "
        "{:.0f} sectors per warp): array of structures: consider a structure of arrays (one array per field: "
        "{:.0f} sectors per warp for the same fields)",
        what, stride, stride, fields.size(), covered, store ? "written" : "read", now, soa);
  }
  j["evidence"] = std::move(ev);
  return j;
}

}  // namespace warpscope::analysis
