#!/usr/bin/env bash
# Captures TMA im2col ground truth (issue 18) on a machine with an NVIDIA GPU, nvcc and Nsight Compute:
#   bash tests/hw/tma_im2col/capture_im2col.sh OUTDIR
# The encoder's checks, then each load case in its own process (a fault must not take the others
# with it), then four cases under ncu with the TMA metrics of tests/hw/tma/capture_tma.sh.
set -uo pipefail
out=${1:?usage: capture_im2col.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
m=smsp__inst_executed_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__tmain_requests.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__data_bank_writes.sum
(nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; ncu --version | tail -1) > "$out/versions.txt"
nvcc -arch=sm_90 -lineinfo -o "$out/p" "$here/im2col_probe.cu" || exit 1
"$out/p" checks > "$out/checks.txt" 2>&1
for i in $(seq 0 16); do timeout 20 "$out/p" "$i"; echo "exit $?"; done > "$out/probe.txt" 2>&1
for i in 0 1 4 7 10; do
  echo "== case $i"
  timeout 60 ncu --clock-control none --csv --page raw --metrics "$m" "$out/p" "$i" 2>&1 | grep -v '^case\|^[0-9a-f ]*$'
done > "$out/ncu_im2col.csv"
cuobjdump -sass "$out/p" | gzip > "$out/im2col_probe.sass.gz"
rm -f "$out/p"
