#!/bin/bash
# Captures the carveout probe on the GPU: the program's own list of launches and ncu's launch
# metrics for each. Run from the repository root on a machine with the GPU; writes to $OUT (or
# /tmp/carveout).
set -euo pipefail
out=${OUT:-/tmp/carveout}
mkdir -p "$out"
nvcc -O2 -arch=sm_90 -lineinfo -o "$out/carveout_probe" tests/hw/carveout/carveout_probe.cu
"$out/carveout_probe" > "$out/launches.txt"
ncu --csv --page raw --metrics launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_allocated,launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,sm__maximum_warps_per_active_cycle_pct \
  "$out/carveout_probe" > "$out/ncu.csv" 2> "$out/ncu.err"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > "$out/versions.txt"
rm -f "$out/carveout_probe"
