#!/usr/bin/env bash
# Second ground truth for same-address atomics (docs/time.md): different warps on different
# addresses, and each atomic kind on one int.   bash tests/hw/capture_contention_warps.sh OUTDIR
# OUTDIR gets contention_warps.txt (cudaEvent ms, best of 3), contention_warps_ncu.csv (ncu's
# gpu__time_duration of every launch, one run), contention_warps_under_ncu.txt (the cases in launch
# order), contention_warps.sass.txt (opcodes per kernel).
set -uo pipefail
out=${1:?usage: capture_contention_warps.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
nvcc -arch=sm_90 -O3 -o "$b/cw" "$here/timing/contention_warps.cu"
cuobjdump -sass "$b/cw" | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}' | sort > "$out/contention_warps.sass.txt"
"$b/cw" "$out/contention_warps.txt" 3; echo "exit $?" >> "$out/contention_warps.txt"
ncu --clock-control none --csv --page raw --metrics gpu__time_duration.sum,lts__t_requests_srcunit_tex_op_atom.sum,lts__t_requests_srcunit_tex_op_red.sum \
  --log-file "$out/contention_warps_ncu.csv" "$b/cw" "$out/contention_warps_under_ncu.txt" 1
echo "exit $?" >> "$out/contention_warps_ncu.csv"
rm -rf "$b"
