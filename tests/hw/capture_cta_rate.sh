#!/usr/bin/env bash
# Ground truth for the time model's CTA launch rate (docs/time.md) on a machine with an NVIDIA GPU,
# nvcc and ncu:   bash tests/hw/capture_cta_rate.sh OUTDIR
# OUTDIR gets cta_rate_versions.txt (GPU, driver, nvcc, ncu, date), cta_rate.txt (the program's
# output: the launches in order) and cta_rate_ncu.csv (ncu --csv --page raw: gpu__time_duration,
# sm__cycles_elapsed and the grid and block of each launch).
set -uo pipefail
out=${1:?usage: capture_cta_rate.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/cta_rate_versions.txt" 2>&1
nvcc -arch=sm_90 -O3 -o "$b/cta_rate" "$here/timing/cta_rate.cu"
"$b/cta_rate" > "$out/cta_rate.txt" 2>&1; echo "exit $?" >> "$out/cta_rate.txt"
ncu --clock-control none --csv --page raw --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,launch__grid_size,launch__block_size \
  "$b/cta_rate" > "$out/cta_rate_ncu.csv" 2>&1
rm -rf "$b"
