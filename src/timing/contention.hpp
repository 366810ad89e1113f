// Serialised costs of a launch that the pipes and bandwidths of model.hpp do not see
// (docs/time.md, "Serialised costs"): warps spinning on the clock, atomics and reductions that the
// L2 performs one after another on one address, device printf, the device heap, zero-copy host
// memory, starting CTAs. Each is a lower bound on the launch's duration (or, for the clock, a delay in a warp's
// life); predict() takes the largest of them with its own bounds.
#pragma once

#include <string>

namespace warpscope::timing {

/// What a launch did that the serialised costs depend on.
struct SerialCounts {
  // Clock polling (LaunchStats::clock_skew_sum / _max): cycles warps spun until %clock advanced.
  double clock_skew_sum = 0, clock_skew_max = 0;
  // Global atomics and reductions as the L2 sees them (stats/atomic_contention.hpp): lane
  // operations on the busiest address, floating-point adds on the busiest address, and the
  // largest sum over one 128-byte line of its requests' steps (per request and 32-byte sector, the
  // most lanes on one address).
  double atomic_address_ops = 0, atomic_address_float_ops = 0, atomic_line_steps = 0;
  // Device runtime services, in lane calls: printf (vprintf) and the device heap (malloc, free,
  // and new/delete, which call them). `threads` and `warps`: the launch's.
  double printf_calls = 0, heap_calls = 0;
  double threads = 0, warps = 0;
  // Zero-copy: bytes read from and written to host memory mapped into the device.
  double host_read_bytes = 0, host_written_bytes = 0;
  // Constant data read for the first time on an SM (docs/time.md, "Constant data"): 64-byte lines
  // of __constant__ memory (`.const` loads) and of the kernel's parameters (the machine code's
  // c[0x0][imm] operands), each counted once per SM that runs the kernel.
  double const_lines = 0, param_lines = 0;
  // CTAs of the launch: the GPU starts them at a limited rate.
  double ctas = 0;
};

/// The constants of the serialised costs (H100: tests/hw/data/h100/timing/contention_*).
struct SerialConstants {
  double atomic_op_ns = 0;        // one more integer atomic/reduction on the same address
  double atomic_float_op_ns = 0;  // one more floating-point add on the same address
  double printf_launch_ns = 0;    // a launch that prints, beyond the launch overhead
  double printf_call_ns = 0;      // one more printf call (lane) of the launch
  double heap_launch_ns = 0;      // a launch that calls malloc/free, beyond the launch overhead
  double heap_alone_ns = 0;       // one more call of a thread alone
  double heap_lane_ns = 0;        // one more call of a lane of a warp whose lanes all call
  double heap_many_ns = 0;        // one more call among many warps' (16384 threads)
  double host_read_bytes_per_ns = 0;   // zero-copy reads alone
  double host_mixed_bytes_per_ns = 0;  // zero-copy reads and writes (2 : 1)
  // Cycles the reading warp waits for a constant line's first read beyond the constant cache's
  // hit latency (lat_const), __constant__ data and kernel parameters.
  double const_line_cycles = 0, param_line_cycles = 0;
  double cta_ns = 0;  // one more CTA of a launch whose CTAs do almost nothing
};

/// The constants for an architecture profile (by name), or nullptr where none were measured.
const SerialConstants* serial_constants_for(const std::string& profile_name);

/// The serialised costs as bounds on a launch's duration.
struct SerialBounds {
  double spin_cycles = 0;  // the longest clock spin plus the spinning warp's own latency
  double atomic_ns = 0;    // same-address atomics performed one after another in the L2
  double printf_ns = 0;    // device printf calls, one after another
  double heap_ns = 0;      // device malloc/free calls
  double host_ns = 0;      // zero-copy bytes over the host link
  double cta_ns = 0;       // starting the launch's CTAs one after another
};

/// `warp_latency` (cycles): one warp's latency without spinning. `sc` may be nullptr (the
/// atomic bound is then 0).
SerialBounds serial_bounds(const SerialConstants* sc, const SerialCounts& s, double warp_latency);

}  // namespace warpscope::timing
