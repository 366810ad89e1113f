#include "timing/model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"

namespace warpscope::timing {

double mva_cycle_time(int n, const double* demands, int stations, double z) {
  // Exact MVA for a closed product-form network (Reiser and Lavenberg 1980): with k customers,
  // a customer finds the queue the network had with k - 1 (the arrival theorem).
  std::array<double, 16> queue{};
  double cycle = z;
  for (int i = 0; i < stations; ++i) cycle += demands[i];
  for (int k = 1; k <= n; ++k) {
    std::array<double, 16> residence{};
    cycle = z;
    for (int i = 0; i < stations; ++i) {
      residence[static_cast<std::size_t>(i)] = demands[i] * (1.0 + queue[static_cast<std::size_t>(i)]);
      cycle += residence[static_cast<std::size_t>(i)];
    }
    const double throughput = cycle > 0 ? k / cycle : 0;
    for (int i = 0; i < stations; ++i) {
      queue[static_cast<std::size_t>(i)] = throughput * residence[static_cast<std::size_t>(i)];
    }
  }
  return cycle;
}

double l2_real_hit_share(const MemoryCounts& mem) {
  if (mem.l2_read_hit_sectors <= 0) return 1;
  const double misses = std::max(0.0, mem.l2_read_sectors - mem.l2_read_hit_sectors);
  const double partners = std::max(0.0, mem.dram_read_bytes / 32.0 - misses - mem.l2_atomic_sectors);
  return std::clamp((mem.l2_read_hit_sectors - partners) / mem.l2_read_hit_sectors, 0.0, 1.0);
}

double l1_width_extra(const TimeConstants& c, unsigned width_bytes) {
  if (width_bytes >= 16) return c.lat_l1_extra_128;
  if (width_bytes >= 8) return c.lat_l1_extra_64;
  return 0;
}

double load_latency(const TimeConstants& c, double l1_hit, double l2_hit) {
  l1_hit = std::clamp(l1_hit, 0.0, 1.0);
  l2_hit = std::clamp(l2_hit, 0.0, 1.0);
  return l1_hit * c.lat_l1 + (1 - l1_hit) * (l2_hit * c.lat_l2 + (1 - l2_hit) * c.lat_dram);
}

double global_load_latency(const TimeConstants& c, const MemoryCounts& mem) {
  const double l1_hit = mem.global_load_sectors > 0 ? mem.l1_hit_sectors / mem.global_load_sectors : 0;
  const double l2_hit =
      mem.l2_read_sectors > 0 ? mem.l2_read_hit_sectors * l2_real_hit_share(mem) / mem.l2_read_sectors : 1;
  return load_latency(c, l1_hit, l2_hit);
}

double instruction_load_latency(const TimeConstants& c, const MemoryCounts& mem, double sectors, double l1_hits,
                                double l2_hits, unsigned width_bytes, double foreign_hits, double burst_hits,
                                double burst_cycles) {
  if (sectors <= 0) {  // no statistics of its own: the launch's mix
    const double l1_hit = mem.global_load_sectors > 0 ? mem.l1_hit_sectors / mem.global_load_sectors : 0;
    return global_load_latency(c, mem) + l1_hit * l1_width_extra(c, width_bytes);
  }
  const double to_l2 = sectors - l1_hits;
  const double l2_hit = to_l2 > 0 ? l2_hits * l2_real_hit_share(mem) / to_l2 : 1;
  const double own_hits = l1_hits - std::clamp(foreign_hits, 0.0, l1_hits);
  return load_latency(c, own_hits / sectors, l2_hit) + l1_hits / sectors * l1_width_extra(c, width_bytes) +
         std::clamp(burst_hits, 0.0, l1_hits) / sectors * burst_cycles;
}

double convoy_burst_cycles(double warps, double bytes_per_warp) {
  if (warps <= 1 || bytes_per_warp <= 0) return 0;
  return (warps - 1) / 2 * std::ceil(bytes_per_warp / 128.0);
}

namespace {

constexpr int kStations = 10;
constexpr std::array<const char*, kStations> kStationNames = {"issue", "fp32",  "fp64",   "mufu", "integer",
                                                              "lsu",   "l1",    "tensor", "l2",   "dram"};
constexpr std::size_t kL2 = 8, kDram = 9;  // device-wide: each SM's share of the bandwidth

/// Tensor-core instructions in units of the pipe's rate (rate_tensor): a DMMA counts
/// rate_tensor / rate_tensor_fp64 of them, a wgmma cycle of the SM's tensor pipe rate_tensor.
double tensor_units(const TimeConstants& c, const InstructionMix& mix) {
  const double fp64 = c.rate_tensor_fp64 > 0 ? mix.tensor_fp64 * c.rate_tensor / c.rate_tensor_fp64 : mix.tensor_fp64;
  return mix.tensor - mix.tensor_fp64 + fp64 + mix.gmma_cycles * c.rate_tensor;
}

struct WarpDemands {
  std::array<double, kStations> demand{};  // cycles of each station one warp needs over its life
  double latency = 0;                      // cycles one warp alone would take (its dependent chain)
  double delay = 0;                        // latency the stations do not account for
};

WarpDemands warp_demands(const TimeConstants& c, const InstructionMix& mix, const MemoryCounts& mem, double warps,
                         double sm_count) {
  WarpDemands d;
  const double s = c.schedulers_per_sm;
  const double per = 1.0 / warps;
  // L2 and DRAM: bytes, served at the device's bandwidth shared by the SMs (per SM per cycle).
  const double hz = c.clock_ghz * 1e9;
  const double dram_bw = mem.dram_write_bytes > 0 ? c.dram_mixed_bytes_per_s : c.dram_read_bytes_per_s;
  const std::array<double, kStations> count = {mix.total,         mix.fp32,          mix.fp64,
                                               mix.mufu,          mix.integer,       mem.lsu_requests,
                                               mem.l1_wavefronts, tensor_units(c, mix), mem.l2_sectors * 32.0,
                                               mem.dram_read_bytes + mem.dram_write_bytes};
  const std::array<double, kStations> rate = {1.0 * s,
                                              c.rate_fp32,
                                              c.rate_fp64,
                                              c.rate_mufu,
                                              c.rate_int,
                                              c.rate_lsu,
                                              c.rate_l1_wavefronts,
                                              c.rate_tensor,
                                              c.l2_bytes_per_s / hz / sm_count,
                                              dram_bw / hz / sm_count};
  // A station shared by the SM's schedulers serves each of them a 1/s share.
  for (std::size_t i = 0; i < kStations; ++i) d.demand[i] = rate[i] > 0 ? count[i] * per * s / rate[i] : 0;
  const double global = global_load_latency(c, mem);
  const double plain = std::max(0.0, mix.total - mix.fp64 - mix.mufu - mix.global_loads - mix.local_loads -
                                         mix.shared_loads - mix.atomics);
  const double loads = mix.global_loads + mix.local_loads + mix.shared_loads;
  const double waiting = loads > 0 ? std::max(0.0, 1.0 - mix.overlapped_loads / loads) : 1.0;
  if (mix.latency_cycles >= 0) {
    d.latency = per * mix.latency_cycles;  // from the machine code's control words
  } else {
    d.latency = per * (plain * c.lat_alu + mix.fp64 * c.lat_fp64 + mix.mufu * c.lat_mufu +
                       waiting * (mix.global_loads * global + mix.local_loads * c.lat_l1 + mix.shared_loads * c.lat_shared) +
                       (loads - waiting * loads) * 1.0 + mix.atomics * c.lat_l2);
  }
  double served = 0;
  for (double x : d.demand) served += x;
  d.delay = std::max(0.0, d.latency - served);
  return d;
}

}  // namespace

Prediction predict(const TimeConstants& c, const LaunchShape& shape, const InstructionMix& mix, const MemoryCounts& mem,
                   const SerialCounts& serial, const SerialConstants* sc) {
  Prediction p;
  if (shape.ctas_per_sm == 0) fail(ErrorKind::kUnsupported, "time model: a CTA of this launch does not fit on an SM");
  if (shape.ctas == 0 || shape.warps_per_cta == 0 || shape.sm_count == 0) {
    p.duration_ns = c.launch_overhead_ns;
    p.limiter = "launch";
    return p;
  }
  const double warps = static_cast<double>(shape.ctas) * shape.warps_per_cta;
  WarpDemands d = warp_demands(c, mix, mem, warps, shape.sm_count);
  // First reads of constant lines stall the warp that makes them (docs/time.md, "Constant data"):
  // each warp's share of them is part of its latency.
  const double const_cycles = sc == nullptr ? 0.0
                                            : serial.const_lines * sc->const_line_cycles +
                                                  serial.param_lines * sc->param_line_cycles;
  d.delay += const_cycles / warps;
  // Serialised costs (contention.cpp): the mean clock spin is a delay in each warp's life; the
  // longest spin and the same-address atomics bound the launch.
  const SerialBounds serial_b = serial_bounds(sc, serial, d.latency + const_cycles / warps);
  d.delay += serial.clock_skew_sum / warps;
  const auto s = static_cast<std::uint64_t>(c.schedulers_per_sm);
  // Time of a wave in which `sms` SMs run b CTAs each: its busiest scheduler's warps pass once.
  // The L2 and DRAM stations are each SM's share of the device's bandwidth (Little's law: the
  // warps' outstanding requests queue there as the bandwidth fills, above the unloaded latency).
  // d.demand gives each of the SM's s schedulers a 1/s share of the SM's part; with fewer warps
  // than schedulers the active ones share it, and with fewer SMs active each gets more.
  auto wave_demands = [&](std::uint64_t b, double sms) {
    std::array<double, kStations> demand = d.demand;
    const double active = std::min<double>(static_cast<double>(s), static_cast<double>(b * shape.warps_per_cta));
    for (std::size_t i : {kL2, kDram}) demand[i] *= active / static_cast<double>(s) * sms / shape.sm_count;
    return demand;
  };
  auto wave = [&](std::uint64_t b, double sms) {
    const auto n = static_cast<int>((b * shape.warps_per_cta + s - 1) / s);
    const std::array<double, kStations> demand = wave_demands(b, sms);
    return mva_cycle_time(n, demand.data(), kStations, d.delay);
  };
  const std::uint64_t per_wave = std::uint64_t{shape.sm_count} * shape.ctas_per_sm;
  const std::uint64_t full = shape.ctas / per_wave, rest = shape.ctas % per_wave;
  const std::uint64_t tail_b = (rest + shape.sm_count - 1) / shape.sm_count;
  const double t_full = full > 0 ? wave(shape.ctas_per_sm, shape.sm_count) : 0;
  const double t_tail =
      rest > 0 ? wave(tail_b, static_cast<double>(std::min<std::uint64_t>(rest, shape.sm_count))) : 0;
  double sm_cycles = static_cast<double>(full) * t_full + t_tail;
  // The busiest CTA: its warps do cta_imbalance times a mean warp's work (stations and delay
  // alike), alone on their SM; the SM holding it runs at least that long.
  double busiest_cta_cycles = 0;
  if (shape.cta_imbalance > 1) {
    std::array<double, kStations> scaled = wave_demands(1, shape.sm_count);
    for (double& x : scaled) x *= shape.cta_imbalance;
    const auto n = static_cast<int>((shape.warps_per_cta + s - 1) / s);
    busiest_cta_cycles = mva_cycle_time(n, scaled.data(), kStations, d.delay * shape.cta_imbalance);
    sm_cycles = std::max(sm_cycles, busiest_cta_cycles);
  }
  // Device-wide bandwidth bounds.
  const double hz = c.clock_ghz * 1e9;
  const double l2_cycles = mem.l2_sectors * 32.0 / c.l2_bytes_per_s * hz;
  const double dram_bytes = mem.dram_read_bytes + mem.dram_write_bytes;
  const double dram_bw = mem.dram_write_bytes > 0 ? c.dram_mixed_bytes_per_s : c.dram_read_bytes_per_s;
  const double dram_cycles = dram_bytes / dram_bw * hz;
  const double atomic_cycles = serial_b.atomic_ns * c.clock_ghz;
  const double printf_cycles = serial_b.printf_ns * c.clock_ghz, heap_cycles = serial_b.heap_ns * c.clock_ghz;
  const double host_cycles = serial_b.host_ns * c.clock_ghz;
  const double cta_launch_cycles = serial_b.cta_ns * c.clock_ghz;
  const double cycles = std::max(
      {sm_cycles, l2_cycles, dram_cycles, serial_b.spin_cycles, atomic_cycles, printf_cycles, heap_cycles, host_cycles,
       cta_launch_cycles});
  p.sm_cycles = sm_cycles;
  p.duration_ns = cycles / c.clock_ghz + c.launch_overhead_ns;
  p.waves = static_cast<double>(shape.ctas) / static_cast<double>(per_wave);

  // The limiter: a bandwidth bound, else the SM's busiest station when the warps of a full (or
  // the only) wave keep it busy at least 80 % of a warp's time alone, else latency.
  const std::uint64_t b = full > 0 ? shape.ctas_per_sm : tail_b;
  const double n = std::ceil(static_cast<double>(b * shape.warps_per_cta) / static_cast<double>(s));
  const std::array<double, kStations> demand =
      wave_demands(b, full > 0 ? shape.sm_count : static_cast<double>(std::min<std::uint64_t>(rest, shape.sm_count)));
  std::size_t busiest = 0;
  for (std::size_t i = 1; i < kStations; ++i) busiest = demand[i] > demand[busiest] ? i : busiest;
  const double busy = n * demand[busiest];
  const double alone = d.delay + [&] { double x = 0; for (double y : demand) x += y; return x; }();
  if (serial_b.spin_cycles > 0 && cycles == serial_b.spin_cycles && serial_b.spin_cycles >= sm_cycles) p.limiter = "clock";
  else if (cycles == atomic_cycles && atomic_cycles > sm_cycles) p.limiter = "atomic";
  else if (cycles == printf_cycles && printf_cycles > sm_cycles) p.limiter = "printf";
  else if (cycles == heap_cycles && heap_cycles > sm_cycles) p.limiter = "heap";
  else if (cycles == host_cycles && host_cycles > sm_cycles) p.limiter = "host";
  else if (cycles == cta_launch_cycles && cta_launch_cycles > sm_cycles) p.limiter = "cta_launch";
  else if (cycles == dram_cycles && dram_cycles > sm_cycles) p.limiter = "dram";
  else if (cycles == l2_cycles && l2_cycles > sm_cycles) p.limiter = "l2";
  else if (busy >= 0.8 * alone) p.limiter = kStationNames[busiest];
  else p.limiter = const_cycles / warps > 0.5 * alone ? "constant" : "latency";
  p.latency_share = alone > 0 ? d.delay / std::max(alone, busy) : 0;

  // Speed Of Light, as ncu's percentages of peak over the kernel's elapsed cycles.
  const double elapsed = cycles;  // the kernel's own cycles (ncu: sm__cycles_elapsed)
  const double sms = shape.sm_count;
  auto pct = [&](double count, double rate_per_sm) {
    return rate_per_sm > 0 && elapsed > 0 ? std::min(100.0, 100.0 * count / (rate_per_sm * sms * elapsed)) : 0.0;
  };
  const double issue = pct(mix.total, c.schedulers_per_sm);
  p.sm_pct = std::max({issue, pct(mix.fp32, c.rate_fp32), pct(mix.fp64, c.rate_fp64), pct(mix.mufu, c.rate_mufu),
                       pct(mix.integer, c.rate_int), pct(tensor_units(c, mix), c.rate_tensor)});
  p.l1_pct = std::max(pct(mem.lsu_requests, c.rate_lsu), pct(mem.l1_wavefronts, c.rate_l1_wavefronts));
  p.l2_pct = elapsed > 0 ? std::min(100.0, 100.0 * l2_cycles / elapsed) : 0;
  p.dram_pct = elapsed > 0 ? std::min(100.0, 100.0 * dram_bytes / c.dram_read_bytes_per_s * hz / elapsed) : 0;
  p.memory_pct = std::max({p.l1_pct, p.l2_pct, p.dram_pct});
  // Achieved occupancy: warps resident over time, averaged over the SMs and the elapsed cycles.
  const double warp_cycles = static_cast<double>(full * per_wave) * shape.warps_per_cta * t_full +
                             static_cast<double>(rest) * shape.warps_per_cta * t_tail;
  p.occupancy_pct = elapsed > 0 && shape.max_warps_per_sm > 0
                        ? std::min(100.0, 100.0 * warp_cycles / (sms * shape.max_warps_per_sm * elapsed))
                        : 0;
  nlohmann::json demands = nlohmann::json::object();
  for (std::size_t i = 0; i < kStations; ++i) demands[kStationNames[i]] = d.demand[i];
  p.components = {{"warp_demand_cycles", demands},
                  {"warp_latency_cycles", d.latency},
                  {"warp_unhidden_delay_cycles", d.delay},
                  {"warps_per_scheduler", n},
                  {"full_waves", full},
                  {"tail_ctas", rest},
                  {"wave_cycles", t_full},
                  {"tail_cycles", t_tail},
                  {"sm_cycles", sm_cycles},
                  {"cta_imbalance", shape.cta_imbalance},
                  {"busiest_cta_cycles", busiest_cta_cycles},
                  {"l2_cycles", l2_cycles},
                  {"dram_cycles", dram_cycles},
                  {"clock_spin_cycles", serial_b.spin_cycles},
                  {"clock_skew_mean_cycles", serial.clock_skew_sum / warps},
                  {"constant_first_read_cycles", const_cycles},
                  {"atomic_serial_cycles", atomic_cycles},
                  {"printf_cycles", printf_cycles},
                  {"heap_cycles", heap_cycles},
                  {"host_cycles", host_cycles},
                  {"cta_launch_cycles", cta_launch_cycles},
                  {"launch_overhead_ns", c.launch_overhead_ns},
                  {"clock_ghz", c.clock_ghz},
                  // For a roofline: the issue peak and the DRAM and L2 traffic and bandwidths.
                  {"peak_warp_inst_per_s", sms * c.schedulers_per_sm * c.clock_ghz * 1e9},
                  {"dram_bytes", dram_bytes},
                  {"dram_bytes_per_s", c.dram_read_bytes_per_s},
                  {"l2_bytes", mem.l2_sectors * 32.0},
                  {"l2_bytes_per_s", c.l2_bytes_per_s}};
  return p;
}

}  // namespace warpscope::timing
