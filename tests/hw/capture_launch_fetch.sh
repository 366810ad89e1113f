#!/usr/bin/env bash
# What a launch reads besides its data (issue 34: "DRAM reads missing on small launches: the GPU
# reads each launch's code and constant banks"), on a machine with an NVIDIA GPU, nvcc and ncu:
#   bash tests/hw/capture_launch_fetch.sh OUTDIR
# Runs tests/hw/timing/code_fetch.cu (kernels of 8 KB to 512 KB of straight-line code, kernel
# parameters of 1 to 32 KB, __constant__ reads of 1 to 32 KB; one warp, no data read) under ncu,
# once with ncu's default cache control (caches flushed before each launch) and once with
# --cache-control none. OUTDIR gets
#   launch_fetch_versions.txt  GPU, driver, nvcc, ncu, date
#   launch_fetch_flush.csv     ncu --csv --page raw, caches flushed
#   launch_fetch_noflush.csv   the same with --cache-control none
#   launch_fetch.sass.txt      each kernel's machine-code size (cuobjdump -sass: instructions x 16 bytes)
set -uo pipefail
out=${1:?usage: capture_launch_fetch.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/launch_fetch_versions.txt" 2>&1
nvcc -O3 -arch=sm_90 -o "$b/code_fetch" "$here/timing/code_fetch.cu"
cuobjdump -sass "$b/code_fetch" | awk '/Function :/{if (f) print f, n * 16; f=$3; n=0} /^ +\/\*[0-9a-f]+\*\//{n++} END{print f, n * 16}' > "$out/launch_fetch.sass.txt"
m=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors.sum,lts__t_sectors_lookup_miss.sum,smsp__inst_executed.sum,l1tex__t_sectors.sum
ncu --clock-control none --csv --page raw --metrics "$m" "$b/code_fetch" > "$out/launch_fetch_flush.csv" 2>&1
ncu --clock-control none --cache-control none --csv --page raw --metrics "$m" "$b/code_fetch" > "$out/launch_fetch_noflush.csv" 2>&1
rm -rf "$b"
