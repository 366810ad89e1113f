#!/usr/bin/env bash
# The CUDA runtime's answers to calls with bad arguments on a GPU (issue 32): runs
# tests/hw/runtime_gt/api_errors_probe.cu in its three modes, and each recoverable case alone
# (a case that crashes the process shows as rc=139 after its name).
#   bash tests/hw/capture_api_errors.sh OUTDIR      -> OUTDIR/api_errors.txt
set -uo pipefail
out=${1:?usage: capture_api_errors.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
nvcc -arch=sm_90 -o "$b/api_errors_probe" "$here/runtime_gt/api_errors_probe.cu" || echo "build failed" >&2
bash "$here/gpu_versions.sh" > "$out/api_errors_versions.txt"
for m in api fault pinned; do echo "## api_errors_probe $m"; "$b/api_errors_probe" $m 2>&1; echo "rc=$?"; done > "$out/api_errors.txt"
