#!/usr/bin/env bash
# The N-body at few bodies (examples/nbody.cu's default launch, 256 threads per block) on the H100,
# where warps run only a few hundred bodies: do they wait for each other's misses as at 131072
# (capture_nbody_stalls.sh; docs/time.md "Shared misses")?
#   bash tests/hw/capture_nbody_small.sh OUTDIR
# OUTDIR gets nbody_small_versions.txt and, for N = 512, 2048, 8192:
#   nbody_small_N.csv         ncu --csv --page raw (WarpStateStats, SpeedOfLight, the L1 load hits)
#                             of examples/nbody padded16, then float4 (N 1 256), one after the other
#   nbody_small_source_N.csv  ncu --page source --print-source sass (SourceCounters, sampling
#                             interval 0: every 32 cycles) of padded16
set -uo pipefail
out=${1:?usage: capture_nbody_small.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/nbody_small_versions.txt"
nvcc -cudart shared -lineinfo -arch=sm_90 -o "$b/nbody" "$root/examples/nbody.cu"
for n in 512 2048 8192; do
  for v in padded16 float4; do
    ncu --clock-control none --csv --page raw --section WarpStateStats --section SpeedOfLight \
      --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
      "$b/nbody" $v $n 1 256 >> "$out/nbody_small_$n.csv" 2>&1
  done
  ncu --clock-control none --csv --page source --print-source sass --section SourceCounters --warp-sampling-interval 0 \
    "$b/nbody" padded16 $n 1 256 > "$out/nbody_small_source_$n.csv" 2>&1
done
rm -rf "$b"
