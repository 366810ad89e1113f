// A small report written by hand after docs/report.md, for the HTML tests: four launches. The
// first has source lines in two files (listed out of order), advice, a comparison with kepler,
// samples for the pictures and the counters of the memory chart; the second faulted and has
// nothing but metrics; the third reads a texture; the fourth was left out by the launch filter
// (`"profiled": false`) and has a long template name. Names and source text hold the characters
// HTML must escape. The counters agree with one another as the model's would: bytes are
// sectors x 32, hit rates are hits / sectors, DRAM reads are the L2 read misses x 32; the shared
// store's sample (32 lanes, 8 bytes apart) takes 2 wavefronts, as its counters say (96 for 48),
// and lists a 128-byte "transaction" per wavefront at its phase's first address, as the model's do.
// Launches 0 and 2 (and launch 0's kepler entry) have a time-model prediction (`time`): launch 0
// 1.5 us, 40,000 warp instructions, 1,051,008 DRAM bytes and 1,201,152 L2 bytes (37,536 sectors
// x 32) on the H100's roofs (1.04544e12 warp instructions/s, 3.0739e12 and 7.2129e12 B/s);
// launch 2 850 ns, 2,048 instructions, 16,384 DRAM and 49,152 L2 bytes; launch 3 has none.
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
        "smsp__sass_inst_executed_op_global_ld.sum": 3128,
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 3128,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 37536,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum": 0,
        "smsp__sass_inst_executed_op_global_st.sum": 0,
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": 0,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": 0,
        "smsp__sass_inst_executed_op_shared_st.sum": 48,
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": 96,
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 48,
        "lts__t_sectors_srcunit_tex_op_read.sum": 37536,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum": 4692,
        "lts__t_sectors_srcunit_tex_op_write.sum": 0,
        "dram__bytes_read.sum": 1051008,
        "dram__bytes_write.sum": 0,
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
      "occupancy": {"blocks_per_sm": 8, "active_warps_per_sm": 64, "max_warps_per_sm": 64, "occupancy_pct": 100.0,
                    "limited_by": "warps"},
      "resources": {"registers": 16},
      "time": {"available": true, "duration_ns": 1500.0, "limiter": "latency",
               "sol": {"sm_pct": 2.55, "memory_pct": 35.0, "l1_pct": 35.0, "l2_pct": 11.1, "dram_pct": 22.79,
                       "occupancy_pct": 82.5},
               "mix": {"total": 40000},
               "components": {"peak_warp_inst_per_s": 1.04544e12, "dram_bytes": 1051008, "dram_bytes_per_s": 3.0739e12,
                              "l2_bytes": 1201152, "l2_bytes_per_s": 7.2129e12},
               "estimated": true},
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
          "executions": 48, "thread_executions": 1536,
          "global_requests": 0, "global_sectors": 0, "global_ideal_sectors": 0, "global_excessive_sectors": 0,
          "global_bytes_requested": 0, "global_bytes_moved": 0,
          "l1_hit_sectors": 0, "l2_hit_sectors": 0,
          "local_requests": 0, "local_sectors": 0,
          "shared_wavefronts": 96, "shared_ideal_wavefronts": 48, "shared_excess_wavefronts": 48,
          "instructions": [
            {
              "pc": 30, "ptx": "st.shared.f32 [%r9], %f2;", "ptx_line": 58,
              "space": "shared", "op": "store", "width": 4, "cache": "default",
              "executions": 48, "active_lanes": 1536,
              "requests": 48, "sectors": 0, "ideal_sectors": 0, "excessive_sectors": 0,
              "bytes_requested": 6144, "bytes_moved": 6144,
              "l1_hit_sectors": 0, "l2_hit_sectors": 0,
              "wavefronts": 96, "ideal_wavefronts": 48,
              "sample": {
                "cta": 1, "warp": 0, "active": "0xffffffff", "width": 4,
                "addresses": [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120,
                              128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248],
                "transactions": [[0, 128], [0, 128]],
                "unit": "wavefront",
                "bytes_requested": 128, "bytes_moved": 256, "wavefronts": 2
              }
            }
          ]
        },
        {
          "file": "/src/common.cuh", "line": 7,
          "text": "template <class T> __device__ T twice(T v) { return v + v; }  // a_comment_long_enough_to_wrap_in_a_1280_pixel_window_because_it_has_no_spaces_at_all_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
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
          "occupancy": {"blocks_per_sm": 8, "active_warps_per_sm": 64, "max_warps_per_sm": 64, "occupancy_pct": 100.0,
                        "limited_by": "warps"},
          "resources": {"registers": 16},
          "time": {"available": true, "duration_ns": 4200.0, "limiter": "dram",
                   "sol": {"sm_pct": 1.2, "memory_pct": 68.0, "l1_pct": 20.0, "l2_pct": 30.0, "dram_pct": 68.0,
                           "occupancy_pct": 80.0}},
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
    },
    {
      "index": 2,
      "kernel": "_Z6sampleyPf",
      "name": "sample(unsigned long long, float*)",
      "grid": [32, 1, 1], "block": [256, 1, 1],
      "dynamic_shared_bytes": 0, "registers": 12,
      "module": "scale.cu", "stream": 0, "wall_ms": 0.8,
      "metrics": {
        "smsp__sass_inst_executed_op_texture.sum": 256,
        "l1tex__t_requests_pipe_tex_mem_texture.sum": 1024,
        "l1tex__t_sectors_pipe_tex_mem_texture.sum": 2048,
        "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum": 1536,
        "l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum": 512,
        "smsp__sass_inst_executed_op_global_ld.sum": 0,
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 0,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 0,
        "smsp__sass_inst_executed_op_global_st.sum": 256,
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": 256,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": 1024,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum": 0,
        "lts__t_sectors_srcunit_tex_op_read.sum": 512,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum": 0,
        "lts__t_sectors_srcunit_tex_op_write.sum": 1024,
        "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum": 1024,
        "dram__bytes_read.sum": 16384,
        "dram__bytes_write.sum": 0,
        "l2_hit_rate_pct": 66.66666666666667,
        "global_requests": 256, "global_sectors": 1024, "global_sectors_per_request": 4.0,
        "smsp__inst_executed.sum": 2048
      },
      "estimated": ["l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum", "dram__bytes_read.sum", "l2_hit_rate_pct"],
      "time": {"available": true, "duration_ns": 850.0, "limiter": "l2",
               "sol": {"sm_pct": 0.23, "memory_pct": 12.0, "l1_pct": 12.0, "l2_pct": 0.8, "dram_pct": 0.63,
                       "occupancy_pct": 40.0},
               "mix": {"total": 2048},
               "components": {"peak_warp_inst_per_s": 1.04544e12, "dram_bytes": 16384, "dram_bytes_per_s": 3.0739e12,
                              "l2_bytes": 49152, "l2_bytes_per_s": 7.2129e12}},
      "lines": [
        {
          "file": "/src/scale.cu", "line": 40,
          "text": "  out[i] = tex1Dfetch<float>(t, i);",
          "executions": 512, "thread_executions": 16384,
          "global_requests": 256, "global_sectors": 1024, "global_ideal_sectors": 1024, "global_excessive_sectors": 0,
          "global_bytes_requested": 32768, "global_bytes_moved": 32768,
          "l1_hit_sectors": 1536, "l2_hit_sectors": 1024,
          "local_requests": 0, "local_sectors": 0,
          "shared_wavefronts": 0, "shared_ideal_wavefronts": 0, "shared_excess_wavefronts": 0,
          "instructions": [
            {
              "pc": 7, "ptx": "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r5}];", "ptx_line": 20,
              "space": "texture", "op": "load", "width": 4, "cache": "default",
              "executions": 256, "active_lanes": 8192,
              "requests": 1024, "sectors": 2048, "ideal_sectors": 2048, "excessive_sectors": 0,
              "bytes_requested": 32768, "bytes_moved": 65536,
              "l1_hit_sectors": 1536, "l2_hit_sectors": 0,
              "wavefronts": 0, "ideal_wavefronts": 0
            },
            {
              "pc": 9, "ptx": "st.global.f32 [%rd4], %f1;", "ptx_line": 22,
              "space": "global", "op": "store", "width": 4, "cache": "default",
              "executions": 256, "active_lanes": 8192,
              "requests": 256, "sectors": 1024, "ideal_sectors": 1024, "excessive_sectors": 0,
              "bytes_requested": 32768, "bytes_moved": 32768,
              "l1_hit_sectors": 0, "l2_hit_sectors": 1024,
              "wavefronts": 0, "ideal_wavefronts": 0
            }
          ]
        }
      ],
      "advice": [],
      "compare": []
    },
    {
      "index": 3,
      "kernel": "_Z9transposeIfLi32ELi8EEvPT_PKS0_ii",
      "name": "void transpose<float, 32, 8, cuda::std::integral_constant<int, 4>, very_long_template_argument_without_any_place_to_break_it_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx>(float*, const float*, int, int)",
      "grid": [64, 64, 1], "block": [32, 8, 1],
      "dynamic_shared_bytes": 0, "registers": 22,
      "module": "scale.cu", "stream": 0, "wall_ms": 3.0,
      "metrics": {"smsp__inst_executed.sum": 98304, "smsp__thread_inst_executed.sum": 3145728},
      "estimated": ["smsp__inst_executed.sum", "smsp__thread_inst_executed.sum"],
      "lines": [],
      "advice": [],
      "compare": [],
      "profiled": false,
      "not_profiled": "--launch-count 3 profiles only the first 3 matching launches",
      "time": {"available": false, "reason": "not profiled"}
    }
  ],
  "launch_filter": {"kernel_name": null, "kernel_name_base": "function", "launch_skip": 0, "launch_count": 3},
  "sticky_error": {"code": "cudaErrorIllegalAddress", "message": "an illegal memory access was encountered"}
}
)json");
}

}  // namespace warpscope::test
