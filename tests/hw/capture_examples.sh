#!/usr/bin/env bash
# Ground truth for the example programs (examples/*.cu) on a machine with an NVIDIA GPU:
#   bash tests/hw/capture_examples.sh OUTDIR
# 1. their plain outputs (examples/hw_capture.sh), committed as examples/expected/<gpu>/;
# 2. Nsight Compute's kernel-level memory metrics per launch (`--clock-control none`), and the
#    Source page (per CUDA line and SASS instruction) of every kernel, committed under
#    tests/hw/data/h100/examples/.
set -uo pipefail
out=${1:?usage: capture_examples.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out/expected" "$out/ncu"
bash "$root/examples/hw_capture.sh" "$out/expected" > "$out/hw_capture.log" 2>&1

# The metric list of capture.sh (one place to change it).
metrics=$(sed -n '/^metrics=(/,/^)/p' "$here/capture.sh" | grep -v '^metrics=(\|^)' | tr -s ' \n' ',' | sed 's/^,//;s/,$//')
ncu --query-metrics > /tmp/known.txt 2>&1
list=""
for m in ${metrics//,/ }; do
  grep -q "^${m%.sum}[[:space:]]" /tmp/known.txt && list="$list,$m"
done
list=${list#,}

build=$(mktemp -d)
runs=(
  "nbody|all 512 1"
  "saxpy|100003"
  "local_arrays|8192"
  "aos_soa|65536"
  "padding2d|1000 300"
  "misaligned_copy|65536"
)
for r in "${runs[@]}"; do
  name=${r%%|*}
  args=${r#*|}
  nvcc -cudart shared -lineinfo -arch=sm_90 -Xptxas -v -o "$build/$name" "$root/examples/$name.cu" > "$out/ncu/${name}_ptxas.txt" 2>&1
  # shellcheck disable=SC2086
  ncu --clock-control none --csv --page raw --metrics "$list" "$build/$name" $args > "$out/ncu/${name}_metrics.csv" 2> "$out/ncu/${name}_metrics.err"
  # shellcheck disable=SC2086
  ncu --clock-control none --section SourceCounters -o "$build/$name" "$build/$name" $args > /dev/null 2>> "$out/ncu/${name}_metrics.err"
  ncu -i "$build/$name.ncu-rep" --page source --csv --print-source cuda,sass > "$out/ncu/${name}_source.csv" 2>> "$out/ncu/${name}_metrics.err"
done
echo "done: $out"
