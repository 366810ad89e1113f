#!/usr/bin/env bash
# Issue 29 item 4 on the H200 (no warpscope): run from the repository root.
#   bash tests/hw/capture_ptxops.sh OUTDIR
# OUTDIR gets
#   versions.txt   nvidia-smi, nvcc, ncu, compute-sanitizer versions
#   ptxops.txt     tests/hw/ptx/ptxops.cu policy/cluster/pack: createpolicy bits, getctarank,
#                  st.async/red.async results in the peer CTA, cvt.pack.sat .u4/.s4/.u2/.s2
#   hints.txt      ptxops hints 64: whether data under applypriority/discard kept its values
#   ncu.csv        ncu --csv --page raw of the hint kernels (applypriority, discard, prefetch.global.L2
#                  over 32 lines and 64 x 256 lines, one line by a whole warp, write vs write+discard)
#   sass.txt       cuobjdump -sass of the program (what ptxas made of createpolicy, st.async, ...)
set -uo pipefail
out=${1:?usage: capture_ptxops.sh OUTDIR}
mkdir -p "$out"
b=$(mktemp -d)
src=$(dirname "$0")/ptx/ptxops.cu
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nvcc --version | tail -n 2;
  ncu --version | tail -n 1; compute-sanitizer --version | tail -n 1; date -u; } > "$out/versions.txt" 2>&1
nvcc -arch=sm_90 -o "$b/ptxops" "$src" > "$out/ptxops.txt" 2>&1
nvcc -arch=sm_90 -cubin -o "$b/ptxops.cubin" "$src" > /dev/null 2>&1
cuobjdump -sass "$b/ptxops.cubin" > "$out/sass.txt" 2>&1
for w in policy cluster pack; do timeout 60 "$b/ptxops" $w >> "$out/ptxops.txt" 2>&1; echo "exit $w $?" >> "$out/ptxops.txt"; done
timeout 60 "$b/ptxops" hints 64 > "$out/hints.txt" 2>&1; echo "exit $?" >> "$out/hints.txt"
m=lts__t_sectors.sum,lts__t_requests.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
m=$m,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum
m=$m,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_requests.sum,l1tex__t_sectors.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__m_l1tex2xbar_req.sum
m=$m,smsp__inst_executed.sum,smsp__sass_inst_executed_op_global.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
m=$m,lts__t_requests_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
timeout 300 ncu --csv --page raw --metrics "$m" "$b/ptxops" hints 64 > "$out/ncu.csv" 2> "$out/ncu.err"
echo "exit $?" >> "$out/ncu.err"
rm -rf "$b"
