#!/usr/bin/env bash
# Captures Nsight Compute's everyday command-line behaviour (issue 35) on a machine with an NVIDIA
# GPU, nvcc and Nsight Compute (the runtime's answers to bad calls: capture_api_errors.sh):
#   bash tests/hw/capture_ncu_cli.sh OUTDIR
# Every output is named after the ncu options that made it (see the commands below).
set -uo pipefail
out=${1:?usage: capture_ncu_cli.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
bash "$here/gpu_versions.sh" > "$out/versions.txt"
nvcc -arch=sm_90 -lineinfo -o "$b/ncu_cli_probe" "$here/ncu_cli/ncu_cli_probe.cu" || echo "build failed" >&2
p="$b/ncu_cli_probe"
run() {  # run NAME ncu-args...: stdout+stderr to NAME.txt, exit code appended
  local name=$1; shift
  { echo "## ncu $*"; ncu "$@" 2>&1; echo "## rc=$?"; } > "$out/$name.txt"
}
M=gpu__time_duration.sum,gpu__time_duration.avg,gpu__time_duration.min,gpu__time_duration.max
for f in smsp__inst_executed sm__inst_executed l1tex__t_sectors l1tex__t_requests lts__t_sectors dram__bytes_read \
         l1tex__t_sectors_pipe_lsu_mem_global_op_ld lts__t_sectors_srcunit_tex_op_read l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom \
         sm__cycles_elapsed smsp__cycles_elapsed lts__cycles_elapsed dram__cycles_elapsed l1tex__cycles_elapsed gpc__cycles_elapsed; do
  M="$M,$f.sum,$f.avg,$f.min,$f.max"
done
M="$M,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct"
M="$M,l1tex__t_sectors_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct"
M="$M,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_srcunit_tex_op_write.sum"
M="$M,dram__bytes.sum,dram__bytes_write.sum,dram__bytes_read.sum.per_second,dram__bytes.sum.per_second,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.per_second"
M="$M,smsp__inst_executed.sum.per_second,smsp__inst_executed.avg.per_cycle_active,sm__cycles_elapsed.avg.per_second"
M="$M,dram__bytes_read.sum.pct_of_peak_sustained_elapsed,dram__bytes.sum.pct_of_peak_sustained_elapsed,lts__t_sectors.sum.pct_of_peak_sustained_elapsed,l1tex__t_sectors.sum.pct_of_peak_sustained_elapsed"
M="$M,dram__bytes_read.sum.peak_sustained,dram__bytes.sum.peak_sustained,lts__t_sectors.sum.peak_sustained,l1tex__t_sectors.sum.peak_sustained,smsp__inst_executed.sum.peak_sustained,sm__inst_executed.sum.peak_sustained"
M="$M,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active"
M="$M,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio,smsp__thread_inst_executed_per_inst_executed.ratio,sm__warps_active.avg.pct_of_peak_sustained_active"
M="$M,launch__waves_per_multiprocessor,launch__occupancy_per_block_size,sm__maximum_warps_per_active_cycle_pct,device__attribute_multiprocessor_count,device__attribute_l2_cache_size,device__attribute_max_shared_memory_per_block"
M="$M,dram__cycles_elapsed.avg.per_second,gpc__cycles_elapsed.max,lts__t_bytes.sum,lts__t_bytes.sum.per_second,l1tex__t_bytes.sum"
run rollups_csv --csv --page raw --metrics "$M" "$p"
run rollups_text --metrics "$M" -k regex:copy -c 1 "$p"
run metrics_bare_names --csv --metrics smsp__inst_executed,lts__t_sectors,gpu__time_duration -k regex:copy -c 1 "$p"
run metrics_bad_rollup --csv --metrics lts__t_sector_hit_rate.sum,dram__bytes.sum.foo "$p"
run metrics_regex --csv --metrics "regex:^lts__t_sectors_srcunit_tex_op_read" -k regex:copy -c 1 "$p"
run default "$p"
run section_sol --section SpeedOfLight "$p"
run section_multi --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats -k regex:transpose_tiled -c 1 "$p"
run section_mwa --section MemoryWorkloadAnalysis --section SourceCounters --section ComputeWorkloadAnalysis -k regex:hist "$p"
run set_basic --set basic -k regex:copy -c 1 "$p"
run set_full --set full -k regex:transpose_tiled -c 1 "$p"
run details_csv --csv --page details --section SpeedOfLight --section LaunchStats --section Occupancy "$p"
run details_csv_print_units_base --csv --page details --print-units base --section SpeedOfLight -k regex:copy -c 1 "$p"
run details_print_units_base --print-units base --section SpeedOfLight -k regex:copy -c 1 "$p"
run source_sass --page source --print-source sass -k regex:copy -c 1 "$p"
run source_cuda_sass_csv --page source --print-source cuda,sass --csv -k regex:copy -c 1 "$p"
run source_cuda --page source --print-source cuda -k regex:hist -c 1 "$p"
run source_ptx --page source --print-source ptx -k regex:copy -c 1 "$p"
run raw_text --page raw -k regex:copy -c 1 "$p"
run nvtx_work --nvtx --nvtx-include "work/" --metrics gpu__time_duration.sum "$p"
run nvtx_hist --nvtx --nvtx-include "work/hist/" --metrics gpu__time_duration.sum "$p"
run nvtx_exclude --nvtx --nvtx-exclude "setup/" --metrics gpu__time_duration.sum "$p"
run nvtx_push_pop --nvtx --nvtx-include "regex:hi.*/" --metrics gpu__time_duration.sum "$p"
run kernel_id --kernel-id ::regex:transpose:2 --metrics gpu__time_duration.sum "$p"
run kernel_id_ctx --kernel-id 1:7:copy_kernel:1 --metrics gpu__time_duration.sum "$p"
run skip_before_match --launch-skip-before-match 2 -k regex:copy --metrics gpu__time_duration.sum "$p"
run skip_plain --launch-skip 1 -k regex:copy --metrics gpu__time_duration.sum "$p"
run cache_control_none --cache-control none --metrics lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum "$p"
run cache_control_all --cache-control all --metrics lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum "$p"
run kernel_base_mangled --print-kernel-base mangled --metrics gpu__time_duration.sum "$p"
run kernel_base_demangled --print-kernel-base demangled --metrics gpu__time_duration.sum -c 2 "$p"
run kernel_base_function --print-kernel-base function --csv --metrics gpu__time_duration.sum -c 2 "$p"
run bogus_option --bogus-option "$p"
run unknown_metric --metrics lts__t_sectors_bogus.sum "$p"
run unknown_section --section NoSuchSection "$p"
run list_sets --list-sets
run list_sections --list-sections
run log_file --log-file "$out/log_file_inner.txt" --csv --metrics gpu__time_duration.sum -c 2 "$p"
run print_summary_kernel --print-summary per-kernel --metrics gpu__time_duration.sum "$p"
run print_summary_gpu --print-summary per-gpu --metrics gpu__time_duration.sum "$p"
ncu --help > "$out/ncu_help.txt" 2>&1
# 30 outputs in one archive (the device returns at most 8 files)
(cd "$out" && tar czf ncu_cli.tar.gz --exclude=ncu_cli.tar.gz --exclude=versions.txt * && find . -name '*.txt' ! -name versions.txt -delete)
