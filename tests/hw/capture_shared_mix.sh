#!/usr/bin/env bash
# Shared-store wavefronts the addresses do not give (issue 18; docs/accuracy.md "Tensor cores"):
# does the H100's count move with what else the SM does, and from run to run?
#   bash tests/hw/capture_shared_mix.sh OUTDIR [ACCBIN]
# OUTDIR gets versions.txt and
#   shared_mix.csv    ncu --csv --page raw of tests/hw/shared_mix/shared_mix.cu, each mode three
#                     times (132 blocks of 256 threads, 256 iterations)
#   acc_repeats.csv   with ACCBIN (../shared/acceptance/build.sh's output): the acceptance programs
#                     whose shared-store wavefronts or LDGSTS sectors differ from the model's, each
#                     run three times under the same ncu metrics
set -uo pipefail
out=${1:?usage: capture_shared_mix.sh OUTDIR [ACCBIN]}
acc=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/versions.txt"
nvcc -cudart shared -lineinfo -arch=sm_90 -o "$b/shared_mix" "$here/shared_mix/shared_mix.cu"
m=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
m=$m,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_ld.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
for mode in stores mixed mixed32 loads; do
  for r in 1 2 3; do
    echo "# run $mode $r" >> "$out/shared_mix.csv"
    ncu --clock-control none --csv --page raw --metrics "$m" "$b/shared_mix" $mode 132 256 >> "$out/shared_mix.csv" 2>&1
  done
done
if [ -n "$acc" ]; then
  export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
  for p in cudaTensorCoreGemm immaTensorCoreGemm bf16TensorCoreGemm simpleAWBarrier globalToShmemAsyncCopy; do
    [ -x "$acc/$p" ] || continue
    args=""; [ $p = globalToShmemAsyncCopy ] && args="-wA=128 -hA=128 -wB=128 -hB=128"
    for r in 1 2 3; do
      echo "# run $p $r" >> "$out/acc_repeats.csv"
      (cd "$acc" && ncu --clock-control none --csv --page raw --launch-count 3 --metrics "$m" ./$p $args) >> "$out/acc_repeats.csv" 2>&1
    done
  done
fi
rm -rf "$b"
