#!/usr/bin/env bash
# Captures the wgmma ground truth (issue 18) on a machine with an H100, nvcc and Nsight Compute:
#   bash tests/hw/wgmma/capture_wgmma.sh OUTDIR
# Outputs (committed under tests/hw/data/h100/wgmma, README there):
#   versions.txt          GPU, driver, nvcc, ncu
#   wgmma_probe.txt       wgmma_probe: raw D of every test of every configuration, self-checks
#   wgmma_fp8.txt         `wgmma_probe fp8`: the same for the .e4m3/.e5m2 configurations
#   wgmma_gemm.txt        wgmma_gemm against its CPU reference
#   wgmma_traffic.csv     ncu --csv --page raw: `wgmma_probe traffic` (one launch per configuration)
#   wgmma_gemm_ncu.csv    ncu --csv --page raw: wgmma_gemm
#   *.sass                cuobjdump -sass
set -uo pipefail
out=${1:?usage: capture_wgmma.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d)
for p in wgmma_probe wgmma_gemm; do
  nvcc -gencode 'arch=compute_90a,code=[sm_90a,compute_90a]' -lineinfo -std=c++17 -o "$bin/$p" "$here/$p.cu" &
done
wait
bash "$here/../gpu_versions.sh" > "$out/versions.txt"
"$bin/wgmma_probe" > "$out/wgmma_probe.txt" 2>&1
"$bin/wgmma_probe" fp8 > "$out/wgmma_fp8.txt" 2>&1
"$bin/wgmma_gemm" > "$out/wgmma_gemm.txt" 2>&1
grep -E '^check|error|done' "$out/wgmma_probe.txt"
cat "$out/wgmma_gemm.txt"
m="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum,\
sm__sass_data_bytes_mem_shared_op_gmma.sum,sm__sass_inst_executed_op_shared_gmma.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,l1tex__lsuin_requests_op_gmma.sum,\
sm__inst_executed_pipe_tensor_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum,\
smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed.sum"
ncu --clock-control none --csv --page raw --metrics "$m" "$bin/wgmma_probe" traffic > "$out/wgmma_traffic.csv" 2> "$out/wgmma_traffic.err"
ncu --clock-control none --csv --page raw --metrics "$m" "$bin/wgmma_gemm" > "$out/wgmma_gemm_ncu.csv" 2> "$out/wgmma_gemm_ncu.err"
for p in wgmma_probe wgmma_gemm; do cuobjdump -sass "$bin/$p" > "$out/$p.sass" 2>&1; done
tail -n 3 "$out"/*.err
echo "capture done"
