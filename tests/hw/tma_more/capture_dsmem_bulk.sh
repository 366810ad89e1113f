#!/usr/bin/env bash
# Captures ground truth for bulk copies and reductions from shared::cta into a peer CTA's shared
# memory (issue 18): bash tests/hw/tma_more/capture_dsmem_bulk.sh OUTDIR
# OUTDIR gets dsmem_bulk.txt (the probe's output), dsmem_metrics.txt (the GH100 metric names
# ncu knows with dshared/tma/dsmem in them), dsmem_ncu.csv (those counters, .sum, per launch),
# dsmem_sass.txt (the bulk-copy SASS) and versions.txt.
set -uo pipefail
out=${1:?usage: capture_dsmem_bulk.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/../gpu_versions.sh"; } > "$out/versions.txt"
nvcc -arch=sm_90 -lineinfo -o "$b/dsmem_bulk" "$here/dsmem_bulk.cu" || exit 1
timeout 60 "$b/dsmem_bulk" > "$out/dsmem_bulk.txt" 2>&1; echo "rc $?" >> "$out/dsmem_bulk.txt"
ncu --query-metrics --chip gh100 2>&1 | awk '{print $1}' | grep -E 'dshared|tma|dsmem' > "$out/dsmem_metrics.txt"
m=smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum
for n in $(cat "$out/dsmem_metrics.txt"); do m=$m,$n.sum; done
timeout 300 ncu --clock-control none --csv --page raw --metrics "$m" "$b/dsmem_bulk" > "$b/ncu.csv" 2> "$b/ncu.err"
if ! grep -q '^"' "$b/ncu.csv"; then  # a name without .sum: fall back to the names the peer capture used
  tail -n 5 "$b/ncu.err" "$b/ncu.csv" > "$out/dsmem_ncu.err"
  m=smsp__inst_executed.sum,l1tex__data_bank_writes.sum,l1tex__data_bank_reads.sum,l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_tma_st.sum,l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_tma_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  timeout 300 ncu --clock-control none --csv --page raw --metrics "$m" "$b/dsmem_bulk" > "$b/ncu.csv" 2>> "$out/dsmem_ncu.err"
fi
grep '^"' "$b/ncu.csv" > "$out/dsmem_ncu.csv"
cuobjdump -sass "$b/dsmem_bulk" | grep -E "UBLK|UTMA|REDAS|SYNCS" | sort | uniq -c > "$out/dsmem_sass.txt"
rm -rf "$b"
