#!/usr/bin/env bash
# Counters of tests/hw/async_gemm.cu (the team's cp.async and mbarrier kernels) on a machine with
# an NVIDIA GPU, nvcc and Nsight Compute:
#   bash tests/hw/capture_async_gemm.sh OUTDIR
# OUTDIR gets versions.txt, async_gemm_output.txt (the plain run, `exit N` appended) and
# async_gemm_metrics.csv: ncu --clock-control none --csv --page raw with capture.sh's metrics and
# the LDGSTS ones, one row per launch. Committed under tests/hw/data/h100/async/, read by
# tests/accuracy/async_accuracy_test.cpp.
set -uo pipefail
out=${1:?usage: capture_async_gemm.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
build=$(mktemp -d)
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions.txt" 2>&1
base=$(sed -n '/^metrics=(/,/^)/p' "$here/capture.sh" | grep -v '^metrics=(\|^)' | tr -s ' \n' ',' | sed 's/^,//;s/,$//')
g=pipe_lsu_mem_global_op_ldgsts
extra="smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts_cache_access.sum"
extra="$extra,smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum,l1tex__t_requests_${g}_cache_access.sum"
extra="$extra,l1tex__t_sectors_${g}_cache_access.sum,l1tex__t_sectors_${g}_cache_access_lookup_hit.sum"
extra="$extra,smsp__sass_l1tex_t_requests_${g}_cache_bypass.sum,smsp__sass_l1tex_t_sectors_${g}_cache_bypass.sum"
extra="$extra,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
extra="$extra,smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"
extra="$extra,lts__t_sectors_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum"
ncu --query-metrics > "$build/known.txt" 2>&1
list=""
for m in ${base//,/ } ${extra//,/ }; do grep -q "^${m%.sum}[[:space:]]" "$build/known.txt" && list="$list,$m"; done
nvcc -cudart shared -lineinfo -arch=sm_90 -o "$build/async_gemm" "$here/async_gemm.cu" > "$out/build.txt" 2>&1
"$build/async_gemm" > "$out/async_gemm_output.txt" 2>&1
echo "exit $?" >> "$out/async_gemm_output.txt"
ncu --clock-control none --csv --page raw --metrics "${list#,}" "$build/async_gemm" > "$out/async_gemm_metrics.csv" 2> "$out/ncu.err"
