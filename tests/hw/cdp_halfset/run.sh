#!/bin/bash
# Dynamic parallelism (tests/runtime/programs/cdp.cu) and half-precision set (half_set.ptx) on a GPU.
#   OUT=DIR bash tests/hw/cdp_halfset/run.sh      (writes DIR/*.txt; data: tests/hw/data/h200/cdp_halfset)
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cp "$here/half_set.ptx" "$here/half_set_host.cpp" "$here/../../runtime/programs/cdp.cu" "$work/"
cd "$work"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; } > "$OUT/versions.txt" 2>&1
nvcc -rdc=true -cudart shared -lineinfo -arch=sm_90 -lcudadevrt -o cdp cdp.cu > "$OUT/cdp_build.txt" 2>&1
./cdp > "$OUT/cdp_output.txt" 2>&1; echo "exit $?" >> "$OUT/cdp_output.txt"
nvcc -o half_set_host half_set_host.cpp -lcuda > "$OUT/half_set_build.txt" 2>&1
./half_set_host > "$OUT/half_set_output.txt" 2>&1; echo "exit $?" >> "$OUT/half_set_output.txt"
