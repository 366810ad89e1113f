#!/usr/bin/env bash
# Ground truth for three of the time model's costs (docs/time.md: "Branches", "Barriers", "CTA
# launch rate", the L1-hit latency by load width) on a machine with an NVIDIA GPU, nvcc and ncu:
#   bash tests/hw/capture_time_probes.sh OUTDIR
# OUTDIR gets, for P in branch_cost, barrier_cost, load_width (tests/hw/timing/P.cu):
#   P_versions.txt  GPU, driver, nvcc, ncu, date
#   P.txt           the program's cycles per step
#   P.sass.txt      opcode counts per kernel (cuobjdump -sass)
# and for cta_rate: cta_rate_versions.txt, cta_rate.txt (the launches in order) and
# cta_rate_ncu.csv (ncu --csv --page raw: gpu__time_duration, sm__cycles_elapsed, grid and block).
set -uo pipefail
out=${1:?usage: capture_time_probes.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
opcodes='/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}'
for p in branch_cost barrier_cost load_width cta_rate; do
  { date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/${p}_versions.txt"
  nvcc -arch=sm_90 -O3 -o "$b/$p" "$here/timing/$p.cu"
  [ "$p" = cta_rate ] || cuobjdump -sass "$b/$p" | awk "$opcodes" | sort > "$out/$p.sass.txt"
  "$b/$p" > "$out/$p.txt" 2>&1; echo "exit $?" >> "$out/$p.txt"
done
ncu --clock-control none --csv --page raw --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,launch__grid_size,launch__block_size \
  "$b/cta_rate" > "$out/cta_rate_ncu.csv" 2>&1
rm -rf "$b"
