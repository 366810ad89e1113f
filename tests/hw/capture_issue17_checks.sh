#!/usr/bin/env bash
# Runs the team's issue-17 test programs natively on a GPU, to check that what warpscope's tests
# assume of CUDA holds on the hardware (each program prints its failures), plus the probes the
# helpers wrote. Usage: bash tests/hw/capture_issue17_checks.sh OUTDIR
set -uo pipefail
out=${1:?usage: capture_issue17_checks.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
p=$here/../runtime/programs
run() {  # name, then nvcc arguments
  local n=$1; shift
  if nvcc -cudart shared -arch=sm_90 -lineinfo "$@" -o "$b/$n" > "$out/$n.build.txt" 2>&1; then
    (cd "$b" && timeout 120 "./$n" > "$out/$n.out" 2>&1; echo "rc=$?" >> "$out/$n.out")
  else
    echo "build failed" > "$out/$n.out"
  fi
}
run graph_test "$p/graph_test.cu"
run capture_test "$p/capture_test.cu"
run capture_test_ptsz "$p/capture_test.cu" --default-stream per-thread
run coop_heap "$p/coop_heap.cu"
run texture_api "$p/texture_api.cu"
run api_test "$p/api_test.cu"
run rdc -rdc=true "$p/rdc_main.cu" "$p/rdc_math.cu" "$p/rdc_data.cu"
run oob "$p/oob.cu"
run coop_heap_probe "$here/coop_heap_probe.cu"
for m in nocoop badfree doublefree; do (cd "$b" && timeout 60 ./coop_heap_probe $m >> "$out/coop_heap_probe.out" 2>&1; echo "$m rc=$?" >> "$out/coop_heap_probe.out"); done
nvcc -cudart shared -arch=sm_90 -lineinfo -o "$b/oob_probe2" "$here/oob_probe.cu" && \
  for c in $("$b/oob_probe2" list); do timeout 60 "$b/oob_probe2" $c; done > "$out/oob_probe2.csv" 2>&1
nvcc -cudart shared -arch=sm_90 -lineinfo -o "$b/texture_probe2" "$here/texture_probe.cu" && {
  "$b/texture_probe2" > "$out/texture_probe2.csv" 2> "$out/texture_probe2.err"
  ncu --clock-control none --csv --page raw --metrics \
l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,\
l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum,\
l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum,\
l1tex__t_requests_pipe_tex_mem_surface_op_st.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum,\
smsp__sass_inst_executed_op_texture.sum,lts__t_sectors_srcunit_tex_op_read.sum "$b/texture_probe2" > "$out/texture_probe2_ncu.csv" 2>&1
}
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -n 2; } > "$out/versions.txt" 2>&1
cd "$out" && tar czf ../issue17_checks.tgz . && echo packed
