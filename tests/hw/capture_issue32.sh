#!/usr/bin/env bash
# The GPU's answers issue 32 needs (run on the H200 machine):
#   bash tests/hw/capture_issue32.sh OUTDIR
# - api_errors.txt: tests/hw/runtime_gt/api_errors_probe.cu in its three modes (bad arguments,
#   calls after a fault, pinned/registered/pageable memory in kernels)
# - first_alloc.csv: reads around the process's first allocation (first_alloc_probe.cu)
# - processes.txt: tests/runtime/programs/processes.cu natively (a forked child's CUDA calls;
#   launches from atexit handlers and static destructors)
set -uo pipefail
out=${1:?usage: capture_issue32.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
bash "$here/gpu_versions.sh" > "$out/versions.txt"
nvcc -arch=sm_90 -o "$b/api_errors_probe" "$here/runtime_gt/api_errors_probe.cu"
for m in api fault pinned; do echo "## api_errors_probe $m"; "$b/api_errors_probe" $m 2>&1; echo "rc=$?"; done > "$out/api_errors.txt"
nvcc -arch=sm_90 -o "$b/first_alloc_probe" "$here/runtime_gt/first_alloc_probe.cu"
{
  "$b/first_alloc_probe" layout
  for size in 4 4096 1048576 2097152; do
    for off in -4 -256 -512 -4096 -65536 -1048576 -2097152 -4194304 -67108864 -1073741824 4 4096 65536 1048576 2097148 2097152 4194304; do
      "$b/first_alloc_probe" $size $off 2>&1
    done
  done
} > "$out/first_alloc.csv"
nvcc -arch=sm_90 -o "$b/processes" "$here/../runtime/programs/processes.cu"
for m in fork exit_paths exit_errors "count 2 first"; do echo "## processes $m"; "$b/processes" $m 2>&1; echo "rc=$?"; done > "$out/processes.txt"
