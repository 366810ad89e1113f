#!/usr/bin/env bash
# Captures cp.reduce.async.bulk(.tensor) ground truth (issue 18) on a machine with an NVIDIA GPU,
# nvcc and Nsight Compute:  bash tests/hw/tma_more/capture_tma_more.sh OUTDIR
# probe.txt: the bulk cases (one process), then each tensor case in its own process (a case the
# H100 refuses must not take the others with it); ncu.csv: the counters of `reduce_probe ncu`
# (four bulk reductions) and of some tensor cases; the SASS; versions.txt.
set -uo pipefail
out=${1:?usage: capture_tma_more.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
m=smsp__inst_executed.sum,smsp__inst_executed_op_tma_st.sum,smsp__sass_inst_executed_op_tma_red.sum,l1tex__tmain_requests.sum,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum,lts__t_requests_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_atom.sum,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum
(nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; ncu --version | tail -1) > "$out/versions.txt"
nvcc -arch=sm_90 -lineinfo -o "$out/p" "$here/reduce_probe.cu" || exit 1
{ timeout 60 "$out/p" bulk; for i in $(seq 0 21); do timeout 20 "$out/p" tensor "$i"; echo "rc $?"; done; } > "$out/probe.txt" 2>&1
{ echo "== ncu bulk"; timeout 120 ncu --clock-control none --csv --page raw --metrics "$m" "$out/p" ncu
  for i in 0 1 2 3 11 15; do echo "== ncu tensor $i"; timeout 60 ncu --clock-control none --csv --page raw --metrics "$m" "$out/p" tensor "$i" | grep -v '^tensor\|^[0-9a-f ]*$'; done; } > "$out/ncu.csv" 2>&1
cuobjdump -sass "$out/p" | gzip > "$out/reduce_probe.sass.gz"
rm -f "$out/p"
