#!/usr/bin/env bash
# Where the N-body's warps wait on the H100 at the seeds' launch (1024 threads per block, one CTA
# of 32 warps per SM, 8 warps per scheduler), for the time model (docs/time.md, "Shared misses"):
#   bash tests/hw/capture_nbody_stalls.sh OUTDIR
# OUTDIR gets
#   nbody_stalls_versions.txt  GPU, driver, nvcc, ncu, date
#   nbody_stalls_N.csv         ncu --csv --page raw, sections WarpStateStats, SchedulerStats and
#                              MemoryWorkloadAnalysis_Tables, of tests/hw/timing/nbody_steps.cu N 1
#                              1024 (a warm-up and a timed step per variant), N = 131072 and 16384
#   nbody_source_V.csv         ncu --page source --print-source sass (SourceCounters) of variant V's
#                              timed step at N = 131072: per machine instruction, executions and
#                              warp-state samples
#   shared_stream.txt          tests/hw/timing/shared_stream.cu's cycles per step (shared and private
#                              misses), shared_stream.sass.txt its opcodes per kernel
set -uo pipefail
out=${1:?usage: capture_nbody_stalls.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; } > "$out/nbody_stalls_versions.txt"
nvcc -cudart shared -lineinfo -arch=sm_90 -I "$root/examples" -o "$b/nbody_steps" "$here/timing/nbody_steps.cu"
sections="--section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --section SpeedOfLight"
for n in 131072 16384; do
  ncu --clock-control none --csv --page raw $sections "$b/nbody_steps" $n 1 1024 > "$out/nbody_stalls_$n.csv" 2>&1
done
# Launch order of nbody_steps: struct12, float3, padded16, float4, shared, each a warm-up then the step.
skip=1
for v in struct12 float3 padded16 float4 shared; do
  if [ "$v" != float3 ]; then
    ncu --clock-control none --csv --page source --print-source sass --section SourceCounters \
      --launch-skip $skip --launch-count 1 "$b/nbody_steps" 131072 1 1024 > "$out/nbody_source_$v.csv" 2>&1
  fi
  skip=$((skip + 2))
done
opcodes='/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}'
nvcc -O3 -arch=sm_90 -o "$b/shared_stream" "$here/timing/shared_stream.cu"
cuobjdump -sass "$b/shared_stream" | awk "$opcodes" | sort > "$out/shared_stream.sass.txt"
cuobjdump -sass "$b/shared_stream" > "$out/shared_stream.sass.full.txt"
"$b/shared_stream" > "$out/shared_stream.txt" 2>&1; echo "exit $?" >> "$out/shared_stream.txt"
rm -rf "$b"
