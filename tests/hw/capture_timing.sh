#!/usr/bin/env bash
# Ground truth for the time model (docs/time.md) on a machine with an NVIDIA GPU, nvcc and ncu:
#   bash tests/hw/capture_timing.sh OUTDIR
# OUTDIR gets
#   versions.txt        GPU, driver, clocks, nvcc, ncu, date
#   microbench.txt      tests/hw/timing/microbench.cu: latency chains, issue rates, bandwidths, launch
#   microbench.sass.txt the opcodes ptxas made of the microbenchmarks (counts per kernel)
#   nbody_steps.txt     tests/hw/timing/nbody_steps.cu 131072 5: ms per step of each N-body variant
#   nbody_sol.csv       ncu --csv --page raw: duration and Speed Of Light of one step per variant
#   corpus_sol.csv      the same metrics for the accuracy corpus (tests/hw/accuracy, capture_accuracy's args)
#   empty_ncu.csv       ncu's gpu__time_duration of an empty kernel <<<1,32>>> and <<<2112,1024>>>
set -uo pipefail
out=${1:?usage: capture_timing.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
b=$(mktemp -d)
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,clocks.max.mem --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions.txt" 2>&1
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,sm__inst_executed_pipe_fma.sum,sm__inst_executed_pipe_xu.sum,sm__inst_executed_pipe_alu.sum,sm__inst_executed_pipe_lsu.sum
nvcc -arch=sm_90 -O3 -o "$b/microbench" "$here/timing/microbench.cu"
nvcc -cudart shared -lineinfo -arch=sm_90 -I "$root/examples" -o "$b/nbody_steps" "$here/timing/nbody_steps.cu"
cuobjdump -sass "$b/microbench" | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3; sub(/;$/,"",op); c[f" "op]++} END{for (k in c) print k, c[k]}' | sort > "$out/microbench.sass.txt"
"$b/microbench" > "$out/microbench.txt" 2>&1; echo "exit $?" >> "$out/microbench.txt"
"$b/nbody_steps" 131072 5 > "$out/nbody_steps.txt" 2>&1; echo "exit $?" >> "$out/nbody_steps.txt"
ncu --clock-control none --csv --page raw --metrics "$metrics" "$b/nbody_steps" 131072 1 > "$out/nbody_sol.csv" 2>&1
ncu --clock-control none --csv --page raw --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second \
  -k regex:empty_kernel -c 3 "$b/microbench" > "$out/empty_ncu.csv" 2>&1
: > "$out/corpus_sol.csv"
for r in "transpose|512" "reduce|262144" "histogram|262144" "stencil|262144 512 512" "matmul|256" "spill|65536"; do
  name=${r%%|*}; args=${r#*|}
  nvcc -cudart shared -lineinfo -arch=sm_90 -o "$b/$name" "$here/accuracy/$name.cu" || continue
  echo "== $name $args" >> "$out/corpus_sol.csv"
  ncu --clock-control none --csv --page raw --metrics "$metrics" "$b/$name" $args >> "$out/corpus_sol.csv" 2>&1
done
rm -rf "$b"
