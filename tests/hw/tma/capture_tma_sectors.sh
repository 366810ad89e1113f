#!/usr/bin/env bash
# Global sectors of TMA tile loads by box row start and width (tma_sectors.cu) on a machine with
# an NVIDIA GPU, nvcc and Nsight Compute:
#   bash tests/hw/tma/capture_tma_sectors.sh OUTDIR
# OUTDIR gets sectors_versions.txt, sectors_probe.txt (the configurations in launch order) and
# sectors_ncu.csv (ncu --csv --page raw, one row per launch in the same order).
set -uo pipefail
out=${1:?usage: capture_tma_sectors.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/../gpu_versions.sh"; } > "$out/sectors_versions.txt"
nvcc -arch=sm_90 -o "$b/tma_sectors" "$here/tma_sectors.cu" || exit 1
"$b/tma_sectors" > "$out/sectors_probe.txt" 2>&1
m=l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__tmain_requests.sum
ncu --clock-control none --csv --page raw --metrics "$m" "$b/tma_sectors" > "$out/sectors_ncu.csv" 2>&1
rm -rf "$b"
