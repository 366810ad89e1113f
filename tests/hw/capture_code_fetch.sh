#!/usr/bin/env bash
# Ground truth for the time model's instruction and constant fetch (docs/time.md) on a machine
# with an NVIDIA GPU, nvcc and ncu:
#   bash tests/hw/capture_code_fetch.sh OUTDIR [BINARY...]
# OUTDIR gets
#   code_fetch_versions.txt  GPU, driver, clocks, nvcc, ncu, date
#   code_fetch.txt           tests/hw/timing/code_fetch.cu: cycles of each pass per kernel and size
#   code_fetch_ncu.csv       ncu --csv --page raw: gpu__time_duration and instructions per launch
#   code_fetch.sass.txt      opcode counts per kernel, then the first 120 instructions (with their
#                            control words) of each kernel of size 1024
#   acceptance.sass          cuobjdump -sass of each BINARY given (programs whose time is studied)
set -uo pipefail
out=${1:?usage: capture_code_fetch.sh OUTDIR [BINARY...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/code_fetch_versions.txt"
nvcc -arch=sm_90 -O3 -o "$b/code_fetch" "$here/timing/code_fetch.cu"
cuobjdump -sass "$b/code_fetch" > "$b/cf.sass"
awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}' \
  "$b/cf.sass" | sort > "$out/code_fetch.sass.txt"
awk '/Function :/{on=($3 ~ /ILi1024E/); n=0; if (on) print "== " $3} on && /\/\*/{ if (n++ < 480) print }' \
  "$b/cf.sass" >> "$out/code_fetch.sass.txt"
"$b/code_fetch" > "$out/code_fetch.txt" 2>&1; echo "exit $?" >> "$out/code_fetch.txt"
ncu --clock-control none --csv --page raw --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_elapsed.max \
  "$b/code_fetch" > "$out/code_fetch_ncu.csv" 2>&1
: > "$out/acceptance.sass"
for x in "$@"; do echo "== $(basename "$x")" >> "$out/acceptance.sass"; cuobjdump -sass "$x" >> "$out/acceptance.sass" 2>&1; done
rm -rf "$b"
