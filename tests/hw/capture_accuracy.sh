#!/usr/bin/env bash
# Ground truth for the accuracy corpus (tests/hw/accuracy/*.cu, and tests/hw/patterns.cu with a
# full-size grid) on a machine with an NVIDIA GPU, nvcc and Nsight Compute:
#   bash tests/hw/capture_accuracy.sh OUTDIR
# For each program NAME (built with `nvcc -cudart shared -lineinfo -arch=sm_90`, as warpscope's
# tests build them), OUTDIR gets
#   NAME_ptxas.txt    -Xptxas -v: registers, stack frame, spills per kernel
#   NAME.sass         cuobjdump -sass (what the hardware ran)
#   NAME_output.txt   the plain run's stdout, with `exit N` appended (its own check must pass)
#   NAME_metrics.csv  ncu --clock-control none --csv --page raw --metrics <capture.sh's list>:
#                     one row per launch, in launch order, after the program's own output lines
#   NAME_source.csv   the Source page (--section SourceCounters, then --page source --csv
#                     --print-source cuda,sass): per CUDA line and SASS instruction
# and versions.txt (GPU, driver, nvcc, ncu, date). Mirrors capture_examples.sh; the committed copy
# is tests/hw/data/h100/accuracy/, read by tests/accuracy.
set -uo pipefail
out=${1:?usage: capture_accuracy.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
build=$(mktemp -d)
log() { echo "[capture_accuracy] $(date +%T) $*" >&2; }

{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions.txt" 2>&1

# The metric list of capture.sh (one place to change it), minus names this ncu does not know.
metrics=$(sed -n '/^metrics=(/,/^)/p' "$here/capture.sh" | grep -v '^metrics=(\|^)' | tr -s ' \n' ',' | sed 's/^,//;s/,$//')
ncu --query-metrics > "$build/known.txt" 2>&1
list=""
for m in ${metrics//,/ }; do
  grep -q "^${m%.sum}[[:space:]]" "$build/known.txt" && list="$list,$m"
done
list=${list#,}

# name | source | arguments (the same as tests/accuracy/accuracy_test.cpp)
runs=(
  "transpose|accuracy/transpose.cu|512"
  "reduce|accuracy/reduce.cu|262144"
  "histogram|accuracy/histogram.cu|262144"
  "stencil|accuracy/stencil.cu|262144 512 512"
  "matmul|accuracy/matmul.cu|256"
  "spill|accuracy/spill.cu|65536"
  "patterns|patterns.cu|256 256 u8,u16,u32,u64,i128"
)
flags=(-cudart shared -lineinfo -arch=sm_90)
for r in "${runs[@]}"; do
  IFS='|' read -r name src args <<< "$r"
  log "build $name"
  nvcc "${flags[@]}" -Xptxas -v -o "$build/$name" "$here/$src" > "$out/${name}_ptxas.txt" 2>&1 || log "build of $name failed"
  cuobjdump -sass "$build/$name" > "$out/$name.sass" 2>&1
  # shellcheck disable=SC2086
  "$build/$name" $args > "$out/${name}_output.txt" 2> "$out/${name}_output.err"
  echo "exit $?" >> "$out/${name}_output.txt"
done
for r in "${runs[@]}"; do
  IFS='|' read -r name src args <<< "$r"
  log "ncu metrics $name"
  # shellcheck disable=SC2086
  ncu --clock-control none --csv --page raw --metrics "$list" "$build/$name" $args \
    > "$out/${name}_metrics.csv" 2> "$out/${name}_metrics.err"
done
for r in "${runs[@]}"; do
  IFS='|' read -r name src args <<< "$r"
  log "ncu source $name"
  # shellcheck disable=SC2086
  ncu --clock-control none --section SourceCounters -o "$build/$name" "$build/$name" $args > /dev/null 2> "$out/${name}_source.err"
  ncu -i "$build/$name.ncu-rep" --page source --csv --print-source cuda,sass > "$out/${name}_source.csv" 2>> "$out/${name}_source.err"
done
log "done: $out"
