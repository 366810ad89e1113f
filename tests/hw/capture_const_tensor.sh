#!/usr/bin/env bash
# Ground truth for the time model's constant-bank reads and tensor-core instructions (docs/time.md)
# on a machine with an NVIDIA GPU and nvcc:
#   bash tests/hw/capture_const_tensor.sh OUTDIR
# OUTDIR gets
#   const_tensor_versions.txt  GPU, driver, clocks, nvcc, date
#   const_cache.txt            tests/hw/timing/const_cache.cu: cycles of each kernel and size
#   const_cache.sass.txt       opcode counts per kernel, then the N = 1024 kernels and cidx
#                              instruction by instruction with their control words
#   tensor_rate.txt            tests/hw/timing/tensor_rate.cu: mma latency and rate per SM
#   tensor_rate.sass.txt       opcode counts per kernel
#   const_launch.sass.txt, const_launch_ncu.csv  tests/hw/timing/const_launch.cu: opcodes, and ncu's
#                              duration, cycles and instructions per launch
set -uo pipefail
out=${1:?usage: capture_const_tensor.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/const_tensor_versions.txt"
opcodes='/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}'
nvcc -arch=sm_90 -O3 -o "$b/const_cache" "$here/timing/const_cache.cu"
nvcc -arch=sm_90 -O3 -o "$b/tensor_rate" "$here/timing/tensor_rate.cu"
cuobjdump -sass "$b/const_cache" > "$b/cc.sass"
awk "$opcodes" "$b/cc.sass" | sort > "$out/const_cache.sass.txt"
awk '/Function :/{on=($3 ~ /ILi1024E/ || $3 ~ /cidx/); n=0; if (on) print "== " $3} on && /\/\*/{ if (n++ < 400) print }' \
  "$b/cc.sass" >> "$out/const_cache.sass.txt"
cuobjdump -sass "$b/tensor_rate" | awk "$opcodes" | sort > "$out/tensor_rate.sass.txt"
"$b/const_cache" > "$out/const_cache.txt" 2>&1; echo "exit $?" >> "$out/const_cache.txt"
"$b/tensor_rate" > "$out/tensor_rate.txt" 2>&1; echo "exit $?" >> "$out/tensor_rate.txt"
rm -rf "$b"
# const_launch.cu under ncu (second capture): durations as the time model predicts them.
b=$(mktemp -d)
nvcc -arch=sm_90 -O3 -o "$b/const_launch" "$here/timing/const_launch.cu"
cuobjdump -sass "$b/const_launch" | awk "$opcodes" | sort > "$out/const_launch.sass.txt"
ncu --clock-control none --csv --page raw --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum \
  "$b/const_launch" > "$out/const_launch_ncu.csv" 2>&1
rm -rf "$b"
