#!/usr/bin/env bash
# Captures the tensor-core ground truth (issue 18) on a machine with an NVIDIA GPU, nvcc and
# Nsight Compute:
#   bash tests/hw/tensor/capture_tensor.sh OUTDIR [BINDIR]
# BINDIR may hold the probes already built (nvcc -arch=sm_90 -lineinfo -std=c++17, same names);
# otherwise they are built here. Outputs (committed under tests/hw/data/h100/tensor):
#   versions.txt            GPU, driver, nvcc, ncu
#   wmma_fragments.txt      wmma_fragments: each lane's fragment elements (load, store, used copy)
#   mma_numerics.txt        mma_numerics: raw D of every test, and the probe's own layout check
#   tensor_gemm.txt         tensor_gemm: the team's GEMMs against CPU references
#   ldsm_banks.txt/.csv     ldsm_banks: launch list; ncu --csv --page raw per launch
#   wmma_traffic.txt/.csv   wmma_traffic: launch list; ncu per launch
#   tensor_gemm_ncu.csv     ncu per kernel of tensor_gemm
#   *.sass                  cuobjdump -sass of the probes (and of ACC_BIN's programs, if given)
set -uo pipefail
# EXTRA=1: only the second capture, tensor_extra.cu (tensor_extra.txt, tensor_extra.csv, .sass).
out=${1:?usage: capture_tensor.sh OUTDIR [BINDIR]}
bin=${2:-}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$bin" ]; then
  bin=$(mktemp -d)
  for p in wmma_fragments mma_numerics tensor_gemm ldsm_banks wmma_traffic tensor_extra; do
    nvcc -arch=sm_90 -lineinfo -std=c++17 -o "$bin/$p" "$here/$p.cu" &
  done
  wait
fi
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions.txt" 2>&1
shared="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
sm__sass_inst_executed_op_ldsm.sum,sm__sass_inst_executed_op_shared_stsm.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum,sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum,\
smsp__inst_executed.sum"
global="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum"
if [ "${EXTRA:-0}" = 1 ]; then
  "$bin/tensor_extra" > "$out/tensor_extra.txt" 2>&1
  grep -E '^(stsm|f16acc)' "$out/tensor_extra.txt"
  ncu --clock-control none --csv --page raw --metrics "$shared,$global" "$bin/tensor_extra" > "$out/tensor_extra.csv" 2> "$out/tensor_extra.err"
  cuobjdump -sass "$bin/tensor_extra" > "$out/tensor_extra.sass" 2>&1
  echo "capture done"
  exit 0
fi
"$bin/wmma_fragments" > "$out/wmma_fragments.txt" 2>&1
"$bin/mma_numerics" > "$out/mma_numerics.txt" 2>&1
"$bin/tensor_gemm" > "$out/tensor_gemm.txt" 2>&1
grep -E '^check|CUDA error' "$out/mma_numerics.txt"
cat "$out/tensor_gemm.txt"
ncu --clock-control none --csv --page raw --metrics "$shared" "$bin/ldsm_banks" > "$out/ldsm_banks.csv" 2> "$out/ldsm_banks.err"
grep -E '^launch|^offsets|:' "$out/ldsm_banks.csv" | grep -v '^"' > "$out/ldsm_banks.txt"
ncu --clock-control none --csv --page raw --metrics "$shared,$global" "$bin/wmma_traffic" > "$out/wmma_traffic.csv" 2> "$out/wmma_traffic.err"
grep '^launch' "$out/wmma_traffic.csv" > "$out/wmma_traffic.txt"
ncu --clock-control none --csv --page raw \
  --metrics "$shared,$global,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,sm__inst_executed_pipe_tensor.sum,launch__registers_per_thread" \
  "$bin/tensor_gemm" > "$out/tensor_gemm_ncu.csv" 2> "$out/tensor_gemm_ncu.err"
for p in wmma_traffic tensor_gemm ldsm_banks; do cuobjdump -sass "$bin/$p" > "$out/$p.sass" 2>&1; done
if [ -n "${ACC_BIN:-}" ]; then
  for p in cudaTensorCoreGemm immaTensorCoreGemm bf16TensorCoreGemm; do
    [ -x "$ACC_BIN/$p" ] && cuobjdump -sass "$ACC_BIN/$p" > "$out/$p.sass" 2>&1
  done
fi
echo "capture done"
