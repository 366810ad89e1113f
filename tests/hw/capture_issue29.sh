#!/usr/bin/env bash
# Issue 29's checks on the H200, natively (no warpscope): run from the repository root with OUT set.
#   bash tests/hw/capture_issue29.sh OUTDIR
# OUTDIR gets versions.txt and
#   video.txt           tests/hw/ptx/video.cu --all: every video-instruction form against the ISA
#                       reference (tests/exec/video_ref.hpp); mismatches are listed, exit 1 if any
#   ptx_forms.txt       tests/hw/ptx/ptx_forms.cu: fns, bmsk, szext, dp4a, dp2a, the packing
#                       conversions and cvt.pack against tests/exec/ptx_forms_cases.hpp, and
#                       alloca/stacksave/stackrestore; mismatches are listed, exit 1 if any
#   static_*.txt        tests/runtime/programs/static_runtime.cu, api_test.cu, fault.cu built with
#                       nvcc's default static runtime (static_runtime.cu also with -cudart shared)
#   runtime_calls.txt   tests/runtime/programs/runtime_calls.cu (pools, graph memory, conditional
#                       nodes, attributes, peer and IPC codes) as the H200 answers
set -uo pipefail
out=${1:?usage: capture_issue29.sh OUTDIR}
mkdir -p "$out"
b=$(mktemp -d)
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -n 2; } > "$out/versions.txt" 2>&1
nvcc -arch=sm_90 -o "$b/video" tests/hw/ptx/video.cu > "$out/video.txt" 2>&1 && "$b/video" --all >> "$out/video.txt" 2>&1
echo "exit $?" >> "$out/video.txt"
nvcc -arch=sm_90 -o "$b/ptx_forms" tests/hw/ptx/ptx_forms.cu > "$out/ptx_forms.txt" 2>&1 && "$b/ptx_forms" >> "$out/ptx_forms.txt" 2>&1
echo "exit $?" >> "$out/ptx_forms.txt"
p=tests/runtime/programs
for f in static_runtime api_test fault; do
  nvcc -lineinfo -arch=sm_90 -I$p -o "$b/${f}_static" "$p/$f.cu" > "$out/static_$f.txt" 2>&1 && "$b/${f}_static" >> "$out/static_$f.txt" 2>&1
  echo "exit $?" >> "$out/static_$f.txt"
done
nvcc -cudart shared -lineinfo -arch=sm_90 -I$p -o "$b/static_runtime_shared" "$p/static_runtime.cu" > "$out/shared_static_runtime.txt" 2>&1 &&
  "$b/static_runtime_shared" >> "$out/shared_static_runtime.txt" 2>&1
echo "exit $?" >> "$out/shared_static_runtime.txt"
nvcc -arch=sm_90 -I$p -o "$b/runtime_calls" "$p/runtime_calls.cu" > "$out/runtime_calls.txt" 2>&1 && "$b/runtime_calls" >> "$out/runtime_calls.txt" 2>&1
echo "exit $?" >> "$out/runtime_calls.txt"
rm -rf "$b"
