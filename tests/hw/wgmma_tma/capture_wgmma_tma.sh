#!/usr/bin/env bash
# Captures the ground truth of the wgmma GEMM with TMA loads and of the TMA bank-conflict program
# (issue 18) on a machine with an H100, nvcc and Nsight Compute:
#   bash tests/hw/wgmma_tma/capture_wgmma_tma.sh OUTDIR
# Outputs (committed under tests/hw/data/h100/wgmma_tma, README there):
#   versions.txt                GPU, driver, nvcc, ncu
#   wgmma_tma_gemm.txt          the program's output (its check against the CPU reference)
#   wgmma_tma_gemm_ncu.csv      ncu --csv --page raw --metrics (the list below)
#   tma_banks.txt, tma_banks_ncu.csv   the same for tma_banks (two launches: no swizzle, 128B)
#   sass.txt.gz                 cuobjdump -sass of both
set -uo pipefail
out=${1:?usage: capture_wgmma_tma.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d)
for p in wgmma_tma_gemm tma_banks; do
  nvcc -gencode 'arch=compute_90a,code=[sm_90a,compute_90a]' -lineinfo -std=c++17 -o "$bin/$p" "$here/$p.cu" &
done
wait
(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nvcc --version | tail -n 2; ncu --version | tail -n 1) > "$out/versions.txt" 2>&1
m="smsp__inst_executed.sum,smsp__inst_executed_op_tma_ld.sum,smsp__inst_executed_op_tma_st.sum,smsp__sass_inst_executed_op_tma.sum,\
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__tmain_requests.sum,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__data_bank_writes.sum,l1tex__data_bank_reads.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
sm__sass_inst_executed_op_shared_gmma.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,l1tex__lsuin_requests_op_gmma.sum,\
sm__sass_data_bytes_mem_shared_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum"
for p in wgmma_tma_gemm tma_banks; do
  timeout 60 "$bin/$p" > "$out/$p.txt" 2>&1
  cat "$out/$p.txt"
  timeout 120 ncu --clock-control none --csv --page raw --metrics "$m" "$bin/$p" > "$out/${p}_ncu.csv" 2> "$out/${p}_ncu.err"
  tail -n 2 "$out/${p}_ncu.err"
done
for p in wgmma_tma_gemm tma_banks; do cuobjdump -sass "$bin/$p"; done | gzip > "$out/sass.txt.gz"
echo "capture done"
