#!/usr/bin/env bash
# Second look at the launches where the accuracy test's cache-level counters disagree with the
# model (docs/accuracy.md): the traffic between L1, the L2 request coalescer (lrc), the crossbar
# and the L2, and where the block scheduler puts CTAs. On a machine with an NVIDIA GPU:
#   bash tests/hw/capture_accuracy_l2.sh OUTDIR
# OUTDIR gets NAME_l2.csv (ncu --csv --page raw, one row per launch) for a few corpus programs,
# lrc_metrics.txt (the lrc__/xbar metric names this ncu knows) and cta_placement.txt.
set -uo pipefail
out=${1:?usage: capture_accuracy_l2.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
build=$(mktemp -d)
ncu --query-metrics > "$build/known.txt" 2>&1
grep -E '^(lrc__|l1tex__m_|lts__t_(sectors|requests)_srcunit_tex_op_(read|write|red|atom)|lts__t_sectors_srcunit_tex_lookup|lts__d_|dram__sectors)' "$build/known.txt" > "$out/lrc_metrics.txt"
want=(
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
  l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_l1tex2xbar_write_sectors.sum l1tex__m_l1tex2xbar_req.sum
  lts__t_sectors_srcunit_tex_op_read.sum lts__t_requests_srcunit_tex_op_read.sum
  lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
  lts__t_sectors_srcunit_tex_op_write.sum lts__t_requests_srcunit_tex_op_write.sum
  lts__t_sectors_srcunit_tex_op_red.sum lts__t_requests_srcunit_tex_op_red.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  smsp__sass_inst_executed_op_shared_atom.sum
  dram__bytes_read.sum dram__sectors_read.sum dram__bytes_write.sum
)
base=""
for m in "${want[@]}"; do grep -q "^${m%.sum}[[:space:]]" "$build/known.txt" && base="$base,$m"; done
base=${base#,}
list=$base
for m in $(awk '/^lrc__/ {print $1}' "$build/known.txt"); do list="$list,$m.sum"; done
echo "$list" | tr ',' '\n' > "$out/l2_metric_list.txt"
runs=(
  "matmul|$here/accuracy/matmul.cu|256"
  "spill|$here/accuracy/spill.cu|65536"
  "histogram|$here/accuracy/histogram.cu|262144"
  "aos_soa|$root/examples/aos_soa.cu|65536"
  "misaligned_copy|$root/examples/misaligned_copy.cu|65536"
  "patterns|$here/patterns.cu|256 256 u32"
)
for r in "${runs[@]}"; do
  IFS='|' read -r name src args <<< "$r"
  nvcc -cudart shared -lineinfo -arch=sm_90 -o "$build/$name" "$src" > /dev/null 2>&1 || echo "build of $name failed" >&2
  # shellcheck disable=SC2086
  ncu --clock-control none --csv --page raw --metrics "$list" "$build/$name" $args > "$out/${name}_l2.csv" 2> "$out/${name}_l2.err"
  if grep -q '==ERROR==' "$out/${name}_l2.csv" "$out/${name}_l2.err"; then  # an lrc metric it cannot collect
    # shellcheck disable=SC2086
    ncu --clock-control none --csv --page raw --metrics "$base" "$build/$name" $args > "$out/${name}_l2.csv" 2>> "$out/${name}_l2.err"
  fi
done
nvcc -arch=sm_90 -o "$build/cta_placement" "$here/cta_placement.cu" && "$build/cta_placement" 256 256 > "$out/cta_placement.txt" 2>&1
"$build/cta_placement" 256 256 0 > "$out/cta_placement_nospin.txt" 2>&1
echo "done: $out"
