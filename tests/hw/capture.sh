#!/usr/bin/env bash
# Captures ground truth on a machine with an NVIDIA GPU, Nsight Compute and nvcc:
#   bash tests/hw/capture.sh OUTDIR
# Builds the probes in tests/hw, runs them (their own checks must pass), profiles them with
# `ncu --clock-control none` (kernel-level metrics as CSV, the Source page for local-memory
# kernels), and records the GPU, driver and ncu versions. Everything lands in OUTDIR, which is
# committed under tests/hw/data/.
set -uo pipefail
out=${1:?usage: capture.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
build=$(mktemp -d)
log() { echo "[capture] $*" >&2; }

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions.txt" 2>&1

metrics=(
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
  l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_requests_pipe_lsu_mem_local_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write.sum
  lts__t_sectors_srcunit_tex_op_atom.sum lts__t_sectors_srcunit_tex_op_red.sum
  lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum
  dram__bytes_read.sum dram__bytes_write.sum
  smsp__inst_executed.sum smsp__thread_inst_executed.sum
  smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum
  smsp__sass_inst_executed_op_local_ld.sum smsp__sass_inst_executed_op_local_st.sum
  smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
  launch__registers_per_thread launch__occupancy_limit_registers launch__grid_size launch__block_size
)
# Keep only the metrics this ncu knows (an unknown name would abort the whole run).
ncu --query-metrics > "$build/known.txt" 2>&1
known=()
for m in "${metrics[@]}"; do
  base=${m%.sum}
  if grep -q "^${base}[[:space:]]" "$build/known.txt"; then known+=("$m"); else echo "$m" >> "$out/metrics_unknown.txt"; fi
done
list=$(IFS=,; echo "${known[*]}")
log "metrics: ${#known[@]} known"

flags=(-arch=sm_90 -lineinfo)
for p in patterns runtime_probe; do
  nvcc "${flags[@]}" -Xptxas -v -o "$build/$p" "$here/$p.cu" > "$out/${p}_ptxas.txt" 2>&1 || { log "build of $p failed"; cat "$out/${p}_ptxas.txt" >&2; }
  nvcc "${flags[@]}" -ptx -o "$out/$p.ptx" "$here/$p.cu"
done
cuobjdump -sass "$build/patterns" > "$out/patterns.sass" 2>&1

log "runtime probe"
"$build/runtime_probe" > "$out/runtime_probe.csv" 2> "$out/runtime_probe.err"

log "patterns, plain runs"
"$build/patterns" 1 32 > "$out/patterns_1x32.txt" 2>&1
"$build/patterns" 4 128 u32,i128,local > "$out/patterns_4x128.txt" 2>&1

log "patterns under ncu (1 block of 32)"
ncu --clock-control none --csv --page raw --metrics "$list" "$build/patterns" 1 32 \
  > "$out/ncu_patterns_1x32.csv" 2> "$out/ncu_patterns_1x32.err"
log "patterns under ncu (4 blocks of 128)"
ncu --clock-control none --csv --page raw --metrics "$list" "$build/patterns" 4 128 u32,i128,local \
  > "$out/ncu_patterns_4x128.csv" 2> "$out/ncu_patterns_4x128.err"
log "source counters for local and shared kernels"
ncu --clock-control none --section SourceCounters -k regex:'local_array|shared_stride' -o "$build/src" \
  "$build/patterns" 1 32 local,shared > /dev/null 2> "$out/ncu_source.err"
ncu -i "$build/src.ncu-rep" --page source --csv --print-source cuda,sass > "$out/ncu_source_local_shared.csv" 2>> "$out/ncu_source.err"
log "done"
