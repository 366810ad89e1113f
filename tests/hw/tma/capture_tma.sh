#!/usr/bin/env bash
# Captures TMA ground truth (issue 18) on a machine with an NVIDIA GPU, nvcc and Nsight Compute:
#   bash tests/hw/tma/capture_tma.sh OUTDIR
# Builds tma_probe.cu, runs each case in its own process (a case that faults must not take the
# others with it: the H100 answers a misaligned box start with an illegal-instruction error), then
# each case again under ncu with the TMA metrics. Output: probe.txt, ncu (one block per case,
# `== case N` before it), versions.txt, the SASS.
set -uo pipefail
out=${1:?usage: capture_tma.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
m=smsp__inst_executed.sum,smsp__inst_executed_op_tma_ld.sum,smsp__inst_executed_op_tma_st.sum,smsp__sass_inst_executed_op_tma.sum,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum,l1tex__tmain_requests.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__data_bank_writes.sum,l1tex__data_bank_reads.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
(nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; ncu --version | tail -1) > "$out/versions.txt"
nvcc -arch=sm_90 -lineinfo -o "$out/p" "$here/tma_probe.cu" || exit 1
for i in $(seq 0 19); do "$out/p" "$i"; done > "$out/probe.txt" 2>&1
for i in 0 1 2 3 4 5 6 9 10 11 12 13 14 15 16 17; do
  echo "== case $i"
  ncu --clock-control none --csv --page raw --metrics "$m" "$out/p" "$i" 2>&1 | grep -v '^case\|^[0-9a-f ]*$'
done > "$out/n.csv"
cuobjdump -sass "$out/p" | gzip > "$out/tma_probe.sass.gz"
