#!/usr/bin/env bash
# The N-body as the seeds launch it (1024 threads per block; the issue's H100 table is this
# configuration) on a machine with an NVIDIA GPU, nvcc and ncu:
#   bash tests/hw/capture_nbody_1024.sh OUTDIR
# OUTDIR gets
#   versions_1024.txt     GPU, driver, clocks, nvcc, ncu, date
#   nbody_steps_1024.txt  tests/hw/timing/nbody_steps.cu 131072 5 1024: ms per step of each variant
#   nbody_sol_1024.csv    ncu --csv --page raw of one warm-up and one timed step per variant
#                         (the metrics of capture_timing.sh)
set -uo pipefail
out=${1:?usage: capture_nbody_1024.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,clocks.max.mem --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions_1024.txt" 2>&1
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,sm__inst_executed_pipe_fma.sum,sm__inst_executed_pipe_xu.sum,sm__inst_executed_pipe_alu.sum,sm__inst_executed_pipe_lsu.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
nvcc -cudart shared -lineinfo -arch=sm_90 -I "$root/examples" -o "$b/nbody_steps" "$here/timing/nbody_steps.cu"
"$b/nbody_steps" 131072 5 1024 > "$out/nbody_steps_1024.txt" 2>&1; echo "exit $?" >> "$out/nbody_steps_1024.txt"
ncu --clock-control none --csv --page raw --metrics "$metrics" "$b/nbody_steps" 131072 1 1024 > "$out/nbody_sol_1024.csv" 2>&1
rm -rf "$b"
