#!/usr/bin/env bash
# Captures ground truth for .im2col_no_offs tensor stores and reductions (issue 18):
#   bash tests/hw/tma_im2col/capture_im2col_store.sh OUTDIR
# OUTDIR gets store_probe.txt (each case in its own process, then `exit N`; then cases 0, 1, 3 with
# the map variants 1-4), store_ncu.csv (cases 0-4 under ncu, `== case N` before each),
# store_sass.txt and store_versions.txt.
set -uo pipefail
out=${1:?usage: capture_im2col_store.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/../gpu_versions.sh"; } > "$out/store_versions.txt"
nvcc -arch=sm_90 -lineinfo -o "$b/s" "$here/im2col_store.cu" -lcuda || exit 1
{
  for i in 0 1 2 3 4; do timeout 20 "$b/s" "$i"; echo "exit $?"; done
  for v in 1 2 3 4; do for i in 0 1 3; do timeout 20 "$b/s" "$i" "$v"; echo "exit $?"; done; done
} > "$out/store_probe.txt" 2>&1
m=smsp__inst_executed_op_tma_st.sum,smsp__sass_inst_executed_op_tma.sum,smsp__sass_inst_executed_op_tma_red.sum,l1tex__tmain_requests.sum
m=$m,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum
m=$m,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum
m=$m,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_red.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
for i in 0 1 2 3 4; do
  echo "== case $i"
  timeout 60 ncu --clock-control none --csv --page raw --metrics "$m" "$b/s" "$i" 2>&1 | grep '^"'
done > "$out/store_ncu.csv"
cuobjdump -sass "$b/s" | grep -E "UTMA" | sed 's/^ *\/\*[0-9a-f]*\*\/ *//; s/ *\/\*[0-9a-fx]*\*\/ *$//' | sort | uniq -c > "$out/store_sass.txt"
rm -rf "$b"
