#!/usr/bin/env bash
# Captures cp.async (LDGSTS) and mbarrier ground truth on a machine with an NVIDIA GPU, Nsight
# Compute and nvcc (issue 18):
#   bash tests/hw/capture_async.sh OUTDIR
# Builds tests/hw/async_probe.cu, runs it natively (its own checks and the mbarrier words), then
# under `ncu --clock-control none` with the LDGSTS metrics (one launch per pattern kernel, in the
# probe's order), and records versions, the PTX and the SASS. Everything lands in OUTDIR, which is
# committed under tests/hw/data/h100/async/.
set -uo pipefail
out=${1:?usage: capture_async.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
build=$(mktemp -d)
log() { echo "[capture_async] $*" >&2; }

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions.txt" 2>&1

metrics=(
  smsp__inst_executed.sum smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_shared_st.sum
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__inst_executed_op_ldgsts.sum smsp__sass_inst_executed_op_ldgsts.sum
  smsp__sass_inst_executed_op_ldgsts_cache_access.sum smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum
  l1tex__m_xbar2l1tex_read_sectors_mem_global_op_ldgsts_cache_access.sum
  smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum
  smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
  smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum
  smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
  smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum
  smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum
  smsp__sass_l1tex_m_xbar2l1tex_read_sectors_mem_global_op_ldgsts_cache_bypass.sum
  smsp__sass_data_bytes_mem_global_op_ldgsts.sum smsp__sass_data_bytes_mem_shared_op_ldgsts.sum
  smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
  smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  lts__t_requests_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read.sum
  lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
  launch__grid_size launch__block_size
)
ncu --query-metrics > "$build/known.txt" 2>&1
known=()
for m in "${metrics[@]}"; do
  base=${m%.sum}
  if grep -q "^${base}[[:space:]]" "$build/known.txt"; then known+=("$m"); else echo "$m" >> "$out/metrics_unknown.txt"; fi
done
list=$(IFS=,; echo "${known[*]}")
log "metrics: ${#known[@]} known"

nvcc -arch=sm_90 -lineinfo -o "$build/async_probe" "$here/async_probe.cu" > "$out/build.txt" 2>&1 || log "build failed"
nvcc -arch=sm_90 -lineinfo -ptx -o "$out/async_probe.ptx" "$here/async_probe.cu"
cuobjdump -sass "$build/async_probe" > "$out/async_probe.sass" 2>&1
log "native run"
"$build/async_probe" > "$out/probe.txt" 2>&1
echo "rc=$?" >> "$out/probe.txt"
log "under ncu"
ncu --clock-control none --csv --page raw --metrics "$list" "$build/async_probe" \
  > "$out/ncu_async.csv" 2> "$out/ncu_async.err"
log "done"
