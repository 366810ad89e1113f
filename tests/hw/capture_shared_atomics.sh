#!/usr/bin/env bash
# Same-address shared-memory atomics (issue 34) on a machine with an NVIDIA GPU, nvcc and ncu:
#   bash tests/hw/capture_shared_atomics.sh OUTDIR
# OUTDIR gets
#   shared_atomics_versions.txt  GPU, driver, nvcc, ncu, date
#   shared_atomics.txt           tests/hw/timing/shared_atomics.cu: cycles per warp instruction
#   shared_atomics_ncu.csv       ncu --csv --page raw: shared wavefronts, bank conflicts, instructions
#   shared_atomics.sass.txt      the ATOMS/STS lines of the machine code
set -uo pipefail
out=${1:?usage: capture_shared_atomics.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/shared_atomics_versions.txt" 2>&1
nvcc -O3 -lineinfo -arch=sm_90 -o "$b/shared_atomics" "$here/timing/shared_atomics.cu"
cuobjdump -sass "$b/shared_atomics" | grep -E "Function|ATOMS|STS" | awk '/Function/{print; n=0} !/Function/{if (n++ < 4) print}' > "$out/shared_atomics.sass.txt"
"$b/shared_atomics" > "$out/shared_atomics.txt" 2>&1; echo "exit $?" >> "$out/shared_atomics.txt"
ncu --clock-control none --csv --page raw --metrics \
gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed_op_shared_atom.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
  "$b/shared_atomics" > "$out/shared_atomics_ncu.csv" 2>&1
rm -rf "$b"
