#!/usr/bin/env bash
# Captures ground truth for a 5-D tile load with .multicast::cluster and .im2col loads into a peer
# CTA and with .multicast::cluster (issue 18): bash tests/hw/tma_more/capture_peer_more.sh OUTDIR
# OUTDIR gets peer_more.txt (the probe's output per case), peer_more_ncu.csv and versions_more.txt.
set -uo pipefail
out=${1:?usage: capture_peer_more.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/../gpu_versions.sh"; } > "$out/versions_more.txt"
nvcc -arch=sm_90 -lineinfo -o "$b/pm" "$here/peer_more.cu" -lcuda 2>/dev/null || exit 1
for k in 0 1 2; do timeout 20 "$b/pm" $k; echo "rc $?"; done > "$out/peer_more.txt" 2>&1
m=smsp__inst_executed_op_tma_ld.sum,smsp__sass_inst_executed_op_tma_ld.sum,l1tex__tmain_requests.sum
m=$m,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum
m=$m,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_multicast.sum,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_self.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast.sum
for k in 0 1 2; do echo "== ncu more $k"; timeout 60 ncu --clock-control none --csv --page raw --metrics $m "$b/pm" $k 2>&1 | grep '^"'; done > "$out/peer_more_ncu.csv"
rm -rf "$b"
