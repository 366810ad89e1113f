#!/usr/bin/env bash
# Ground truth for the time model's barriers (docs/time.md) on a machine with an NVIDIA GPU and nvcc:
#   bash tests/hw/capture_barrier_cost.sh OUTDIR
# OUTDIR gets barrier_cost_versions.txt (GPU, driver, nvcc, date), barrier_cost.txt (the program's
# cycles per step with and without the barrier) and barrier_cost.sass.txt (opcode counts per kernel).
set -uo pipefail
out=${1:?usage: capture_barrier_cost.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
} > "$out/barrier_cost_versions.txt" 2>&1
nvcc -arch=sm_90 -O3 -o "$b/barrier_cost" "$here/timing/barrier_cost.cu"
cuobjdump -sass "$b/barrier_cost" | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}' | sort > "$out/barrier_cost.sass.txt"
"$b/barrier_cost" > "$out/barrier_cost.txt" 2>&1; echo "exit $?" >> "$out/barrier_cost.txt"
rm -rf "$b"
