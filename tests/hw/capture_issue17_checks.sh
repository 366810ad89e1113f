#!/usr/bin/env bash
# Runs the team's issue-17 test programs natively on a GPU, to check that what warpscope's tests
# assume of CUDA holds on the hardware (each program prints its failures), plus the probes the
# helpers wrote. Usage: bash tests/hw/capture_issue17_checks.sh OUTDIR
set -uo pipefail
out=${1:?usage: capture_issue17_checks.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
p=$here/../runtime/programs
run() {  # name, then nvcc arguments
  local n=$1; shift
  if nvcc -cudart shared -arch=sm_90 -lineinfo "$@" -o "$b/$n" > "$out/$n.build.txt" 2>&1; then
    (cd "$b" && timeout 120 "./$n" > "$out/$n.out" 2>&1; echo "rc=$?" >> "$out/$n.out")
  else
    echo "build failed" > "$out/$n.out"
  fi
}
run graph_test "$p/graph_test.cu"
run capture_test "$p/capture_test.cu"
run capture_test_ptsz "$p/capture_test.cu" --default-stream per-thread
run coop_heap "$p/coop_heap.cu"
run texture_api "$p/texture_api.cu"
run api_test "$p/api_test.cu"
run rdc -rdc=true "$p/rdc_main.cu" "$p/rdc_math.cu" "$p/rdc_data.cu"
run oob "$p/oob.cu"
run coop_heap_probe "$here/coop_heap_probe.cu"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -n 2; } > "$out/versions.txt" 2>&1
