// A small report written by hand after docs/report.md, for the HTML tests: two launches, the
// first with source lines in two files (listed out of order), advice, a comparison with kepler and
// samples for the pictures; the second faulted and has nothing but metrics. Names and source
// text hold the characters HTML must escape.
#pragma once

#include <nlohmann/json.hpp>

namespace warpscope::test {

inline nlohmann::json sample_report() {
  return nlohmann::json::parse(R"json(
{
  "tool": {"name": "warpscope", "version": "0.2.0"},
  "schema_version": 1,
  "arch": "hopper",
  "compare_archs": ["kepler"],
  "gpu": "NVIDIA H100 80GB HBM3 (modelled)",
  "memory_model": true,
  "timing_note": "wall_ms and cudaEventElapsedTime are emulator wall time, not GPU time",
  "ptxas": {"available": true, "path": "/usr/local/cuda/bin/ptxas", "note": ""},
  "launches": [
    {
      "index": 0,
      "kernel": "_Z5scaleIfEvRT_PKS0_",
      "name": "void scale<float>(float&, float const*)",
      "grid": [391, 1, 1], "block": [256, 1, 1],
      "dynamic_shared_bytes": 1024,
      "registers": 16,
      "module": "scale.cu", "stream": 0, "wall_ms": 1.5,
      "metrics": {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 3128,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 37536,
        "lts__t_sectors_srcunit_tex_op_read.sum": 37536,
        "dram__bytes_read.sum": 1201152,
        "smsp__inst_executed.sum": 40000,
        "global_requests": 3128,
        "global_sectors": 37536,
        "global_sectors_per_request": 12.0,
        "global_bus_utilization_pct": 33.33,
        "l1_hit_rate_global_ld_pct": 0.0,
        "l2_hit_rate_pct": 12.5,
        "local_bytes": 0,
        "shared_wavefronts": 96,
        "shared_bank_conflicts": 48
      },
      "estimated": ["dram__bytes_read.sum", "l2_hit_rate_pct"],
      "lines": [
        {
          "file": "/src/scale.cu", "line": 19,
          "text": "  if (i < n && x[i] > 0) y[i] = x[i] & mask;",
          "executions": 3128, "thread_executions": 100096,
          "global_requests": 3128, "global_sectors": 37536, "global_ideal_sectors": 12512,
          "global_excessive_sectors": 25024,
          "global_bytes_requested": 400384, "global_bytes_moved": 1201152,
          "l1_hit_sectors": 0, "l2_hit_sectors": 4692,
          "local_requests": 0, "local_sectors": 0,
          "shared_wavefronts": 0, "shared_ideal_wavefronts": 0, "shared_excess_wavefronts": 0,
          "instructions": [
            {
              "pc": 12, "ptx": "ld.global.f32 %f1, [%rd8];", "ptx_line": 40,
              "space": "global", "op": "load", "width": 4, "cache": "default",
              "executions": 3128, "active_lanes": 100096,
              "requests": 3128, "sectors": 37536, "ideal_sectors": 12512, "excessive_sectors": 25024,
              "bytes_requested": 400384, "bytes_moved": 1201152,
              "l1_hit_sectors": 0, "l2_hit_sectors": 4692,
              "wavefronts": 0, "ideal_wavefronts": 0,
              "sample": {
                "cta": 0, "warp": 3, "active": "0xffffffff", "width": 4,
                "addresses": [4096, 4108, 4120, 4132, 4144, 4156, 4168, 4180, 4192, 4204, 4216, 4228,
                              4240, 4252, 4264, 4276, 4288, 4300, 4312, 4324, 4336, 4348, 4360, 4372,
                              4384, 4396, 4408, 4420, 4432, 4444, 4456, 4468],
                "transactions": [[4096, 32], [4128, 32], [4160, 32], [4192, 32], [4224, 32], [4256, 32],
                                 [4288, 32], [4320, 32], [4352, 32], [4384, 32], [4416, 32], [4448, 32]],
                "unit": "sector",
                "bytes_requested": 128, "bytes_moved": 384, "wavefronts": 0
              }
            }
          ]
        },
        {
          "file": "/src/scale.cu", "line": 12,
          "text": "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
          "executions": 3128, "thread_executions": 100096,
          "global_requests": 0, "global_sectors": 0, "global_ideal_sectors": 0, "global_excessive_sectors": 0,
          "global_bytes_requested": 0, "global_bytes_moved": 0,
          "l1_hit_sectors": 0, "l2_hit_sectors": 0,
          "local_requests": 0, "local_sectors": 0,
          "shared_wavefronts": 0, "shared_ideal_wavefronts": 0, "shared_excess_wavefronts": 0,
          "instructions": []
        },
        {
          "file": "/src/scale.cu", "line": 25,
          "text": "  tile[threadIdx.x * 2] = v; // <shared>",
          "executions": 48, "thread_executions": 768,
          "global_requests": 0, "global_sectors": 0, "global_ideal_sectors": 0, "global_excessive_sectors": 0,
          "global_bytes_requested": 0, "global_bytes_moved": 0,
          "l1_hit_sectors": 0, "l2_hit_sectors": 0,
          "local_requests": 0, "local_sectors": 0,
          "shared_wavefronts": 96, "shared_ideal_wavefronts": 48, "shared_excess_wavefronts": 48,
          "instructions": [
            {
              "pc": 30, "ptx": "st.shared.f32 [%r9], %f2;", "ptx_line": 58,
              "space": "shared", "op": "store", "width": 4, "cache": "default",
              "executions": 48, "active_lanes": 768,
              "requests": 48, "sectors": 0, "ideal_sectors": 0, "excessive_sectors": 0,
              "bytes_requested": 3072, "bytes_moved": 3072,
              "l1_hit_sectors": 0, "l2_hit_sectors": 0,
              "wavefronts": 96, "ideal_wavefronts": 48,
              "sample": {
                "cta": 1, "warp": 0, "active": "0x0000ffff", "width": 4,
                "addresses": [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120,
                              null, null, null, null, null, null, null, null,
                              null, null, null, null, null, null, null, null],
                "transactions": [],
                "unit": "wavefront",
                "bytes_requested": 64, "bytes_moved": 64, "wavefronts": 2
              }
            }
          ]
        },
        {
          "file": "/src/common.cuh", "line": 7,
          "text": "template <class T> __device__ T twice(T v) { return v + v; }",
          "executions": 3128, "thread_executions": 100096,
          "global_requests": 0, "global_sectors": 0, "global_ideal_sectors": 0, "global_excessive_sectors": 0,
          "global_bytes_requested": 0, "global_bytes_moved": 0,
          "l1_hit_sectors": 0, "l2_hit_sectors": 0,
          "local_requests": 0, "local_sectors": 0,
          "shared_wavefronts": 0, "shared_ideal_wavefronts": 0, "shared_excess_wavefronts": 0,
          "instructions": []
        }
      ],
      "advice": [
        {
          "rule": "aos",
          "file": "/src/scale.cu", "line": 19, "pc": 12,
          "message": "uncoalesced global load: lanes are 12 bytes apart (x[i] < 3 words); array of structures: consider a structure of arrays",
          "evidence": {"stride_bytes": 12, "sectors_per_request": 12.0, "excessive_sectors": 25024}
        },
        {
          "rule": "bank_conflict",
          "file": "/src/scale.cu", "line": 25, "pc": 30,
          "message": "2-way shared bank conflicts: lanes 2 words apart & same bank",
          "evidence": {"ways": 2, "excess_wavefronts": 48}
        }
      ],
      "compare": [
        {
          "arch": "kepler",
          "metrics": {
            "global_requests": 3128,
            "global_sectors_per_request": 3.0,
            "dram__bytes_read.sum": 1601536,
            "l2_hit_rate_pct": 0.0,
            "kepler_only_metric": 7
          },
          "estimated": ["dram__bytes_read.sum"],
          "lines": [],
          "advice": [
            {
              "rule": "stride",
              "file": "/src/scale.cu", "line": 19, "pc": 12,
              "message": "on kepler: 128-byte lines <cached>",
              "evidence": {"lines_per_request": 3.0}
            }
          ]
        }
      ]
    },
    {
      "index": 1,
      "kernel": "_Z4faultPi",
      "name": "fault(int*)",
      "grid": [1, 1, 1], "block": [32, 1, 1],
      "dynamic_shared_bytes": 0,
      "registers": null,
      "module": "scale.cu", "stream": 0, "wall_ms": 0.2,
      "metrics": {"global_requests": 1, "global_sectors_per_request": 1.0},
      "estimated": [],
      "lines": [],
      "advice": [],
      "compare": [],
      "error": "out-of-bounds global store at 0x10 (lane 0)"
    }
  ],
  "sticky_error": {"code": "cudaErrorIllegalAddress", "message": "an illegal memory access was encountered"}
}
)json");
}

}  // namespace warpscope::test
