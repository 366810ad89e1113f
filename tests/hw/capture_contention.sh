#!/usr/bin/env bash
# Ground truth for the time model's serialised costs (docs/time.md) on a machine with an NVIDIA
# GPU, nvcc and ncu:  bash tests/hw/capture_contention.sh OUTDIR
# OUTDIR gets
#   contention_versions.txt  GPU, driver, clocks, nvcc, ncu, date
#   contention.txt           tests/hw/timing/contention.cu: cudaEvent ms (best of 3) per case
#   contention_ncu.csv       ncu --csv --page raw of every launch (one run, no repeats)
#   contention.sass.txt      the opcodes ptxas made of each kernel (counts per kernel)
#   contention_under_ncu.txt the program's own output under ncu (one run per case)
set -uo pipefail
out=${1:?usage: capture_contention.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,clocks.max.mem --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/contention_versions.txt" 2>&1
nvcc -arch=sm_90 -O3 -o "$b/contention" "$here/timing/contention.cu"
cuobjdump -sass "$b/contention" | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}' | sort > "$out/contention.sass.txt"
"$b/contention" "$out/contention.txt" 3 > /dev/null; echo "exit $?" >> "$out/contention.txt"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__t_requests_srcunit_tex_op_atom.sum,lts__t_requests_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,lts__t_sectors_aperture_sysmem.sum,smsp__inst_executed.sum
ncu --clock-control none --csv --page raw --metrics "$metrics" --log-file "$out/contention_ncu.csv" \
  "$b/contention" "$out/contention_under_ncu.txt" 1 > /dev/null 2>&1
echo "exit $?" >> "$out/contention_ncu.csv"
rm -rf "$b"
