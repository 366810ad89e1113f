#!/usr/bin/env bash
# Address-level counters on public programs and the team's own shared-memory microbenchmarks
# (issue 34, item 0), on a machine with an NVIDIA GPU, nvcc, ncu and cuobjdump:
#   bash tests/hw/capture_lds.sh OUTDIR SAMPLES
# SAMPLES is a checkout of NVIDIA/cuda-samples (its Common/ and the dct8x8, eigenvalues and
# FDTD3d samples). Every program is built with nvcc -O3 -arch=sm_90 -lineinfo; for each NAME
#   NAME.sass          cuobjdump -sass
#   NAME_output.txt    the plain run's stdout and stderr, with `exit N` appended
#   NAME_ncu.csv       ncu --clock-control none --csv --page raw --metrics <list below>, one row per launch
#   NAME_source.csv    (public programs and CUB) the Source page of the first launch of each kernel
#                      (or of the first 24 launches where this ncu refuses --kernel-id :::1):
#                      --section SourceCounters, then --page source --csv --print-source sass
# and versions.txt. OUTDIR is packed into $LDS_TAR (default: lds.tar.gz next to OUTDIR).
set -uo pipefail
out=${1:?usage: capture_lds.sh OUTDIR SAMPLES}
samples=$(cd "${2:?usage: capture_lds.sh OUTDIR SAMPLES}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
b=$(mktemp -d)
tarball=${LDS_TAR:-$out/../lds.tar.gz}
log() { echo "[capture_lds] $(date +%T) $*" >&2; }
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; compute-sanitizer --version 2>&1 | tail -n 1; } > "$out/versions.txt" 2>&1
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
flags=(-O3 -arch=sm_90 -lineinfo)
S=$samples/Samples
# name | folder to build and run in | sources | arguments | source page (1 = yes)
runs=(
  "lds_micro|$here/lds|lds_micro.cu||0"
  "cub_blocks|$here/lds|cub_blocks.cu||1"
  "cub_heldout|$here/lds|cub_heldout.cu||1"
  "dct8x8|$S/2_Concepts_and_Techniques/dct8x8|dct8x8.cu BmpUtil.cpp DCT8x8_Gold.cpp||1"
  "eigenvalues|$S/2_Concepts_and_Techniques/eigenvalues|bisect_large.cu bisect_small.cu bisect_util.cu gerschgorin.cpp main.cu matlab.cpp|--iters-timing=1|1"
  "FDTD3d|$S/5_Domain_Specific/FDTD3d|src/FDTD3d.cpp src/FDTD3dGPU.cu src/FDTD3dReference.cpp|--dimx=96 --dimy=96 --dimz=96 --timesteps=2|1"
)
for r in "${runs[@]}"; do  # the builds, in parallel
  IFS='|' read -r name dir srcs args src_page <<< "$r"
  log "build $name"
  # shellcheck disable=SC2086
  (cd "$dir" && nvcc "${flags[@]}" -I"$samples/Common" -Iinc -o "$b/$name" $srcs) > "$out/${name}_build.txt" 2>&1 &
done
wait
for r in "${runs[@]}"; do
  IFS='|' read -r name dir srcs args src_page <<< "$r"
  [ -x "$b/$name" ] || log "build of $name failed"
  cuobjdump -sass "$b/$name" > "$out/$name.sass" 2>&1
  # shellcheck disable=SC2086
  (cd "$dir" && "$b/$name" $args) > "$out/${name}_output.txt" 2>&1
  echo "exit $?" >> "$out/${name}_output.txt"
  log "ncu $name"
  # shellcheck disable=SC2086
  (cd "$dir" && ncu --clock-control none --csv --page raw --metrics "$metrics" "$b/$name" $args) > "$out/${name}_ncu.csv" 2>&1
  if [ "$src_page" = 1 ]; then
    log "ncu source $name"
    # shellcheck disable=SC2086
    (cd "$dir" && ncu --clock-control none --kernel-id :::1 --section SourceCounters -o "$b/$name" "$b/$name" $args) > "$out/${name}_source.err" 2>&1
    # shellcheck disable=SC2086
    [ -f "$b/$name.ncu-rep" ] || (cd "$dir" && ncu --clock-control none -c 24 --section SourceCounters -o "$b/$name" "$b/$name" $args) >> "$out/${name}_source.err" 2>&1
    ncu -i "$b/$name.ncu-rep" --page source --csv --print-source sass > "$out/${name}_source.csv" 2>> "$out/${name}_source.err"
  fi
  tar czf "$tarball" -C "$out" .  # after each program: what a time limit leaves is kept
done
rm -rf "$b"
log "done: $out"
