#!/usr/bin/env bash
# Captures ground truth for bulk copies into a peer CTA's shared memory and .multicast::cluster
# (issue 18; not yet modelled): bash tests/hw/tma_more/capture_peer.sh OUTDIR
set -uo pipefail
out=${1:?usage: capture_peer.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
nvcc -arch=sm_90 -lineinfo -o "$out/pp" "$here/peer_probe.cu" 2>/dev/null || exit 1
for k in 0 1 2 3 4; do timeout 20 "$out/pp" $k; echo "rc $?"; done > "$out/peer_probe.txt" 2>&1
m=smsp__inst_executed_op_tma_ld.sum,smsp__sass_inst_executed_op_tma_ld.sum,l1tex__tmain_requests.sum,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_tma_st.sum,l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_tma_st.sum,l1tex__data_bank_writes.sum
for k in 0 1 2 3; do echo "== ncu peer $k"; timeout 60 ncu --clock-control none --csv --page raw --metrics $m "$out/pp" $k 2>&1 | grep '^"'; done > "$out/peer_ncu.csv"
cuobjdump -sass "$out/pp" | grep -E "UBLKCP|UTMALDG|UTMACCTL|MULTICAST" | sort | uniq -c > "$out/peer_sass.txt"
rm -f "$out/pp"
