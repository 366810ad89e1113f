#!/usr/bin/env bash
# Captures the H100 ground truth of issue 17 (textures, surfaces, out-of-bounds mapping, device
# heap, printf FIFO) on a machine with an NVIDIA GPU, nvcc and Nsight Compute:
#   bash tests/hw/capture_runtime_gt.sh OUTDIR
# Outputs (committed under tests/hw/data/h100/texture and .../runtime_gt):
#   texture_samples.csv   texture_probe: every sample's raw bits
#   surface_results.csv   surface_probe (+ trapping reads)
#   texture_traffic.csv   ncu --csv --page raw of texture_traffic's kernels
#   metrics_query.txt     the ncu metric names this GPU knows (for texture/surface/async names)
#   oob.csv               oob_probe over sizes and offsets; heap.csv  heap_probe
set -uo pipefail
out=${1:?usage: capture_runtime_gt.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
bash "$here/gpu_versions.sh" > "$out/versions.txt"
for p in texture/texture_probe texture/surface_probe texture/texture_traffic runtime_gt/oob_probe runtime_gt/heap_probe; do
  nvcc -arch=sm_90 -lineinfo -o "$b/$(basename $p)" "$here/$p.cu" || echo "build of $p failed" >&2
done
"$b/texture_probe" > "$out/texture_samples.csv" 2> "$out/texture_probe.err"
"$b/surface_probe" > "$out/surface_results.csv" 2>&1
for xy in "24 0" "0 4" "-4 0" "2 0" "23 3" "1" "2" "-3" "26"; do "$b/surface_probe" $xy >> "$out/surface_results.csv" 2>&1; done
ncu --query-metrics > "$out/metrics_query.txt" 2>&1
cands="l1tex__t_requests_pipe_tex_mem_texture.sum l1tex__t_sectors_pipe_tex_mem_texture.sum
l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum
l1tex__t_requests_pipe_tex_mem_texture_op_tex.sum l1tex__t_sectors_pipe_tex_mem_texture_op_tex.sum
l1tex__t_requests_pipe_tex_mem_texture_op_tld.sum l1tex__t_sectors_pipe_tex_mem_texture_op_tld.sum
l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum
l1tex__t_requests_pipe_tex_mem_surface_op_st.sum l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum
l1tex__t_requests_pipe_tex_mem_surface.sum l1tex__t_sectors_pipe_tex_mem_surface.sum
l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum
l1tex__f_wavefronts_pipe_tex_mem_texture.sum l1tex__texin_requests_mem_texture.sum l1tex__texin_requests.sum
l1tex__m_xbar2l1tex_read_sectors_mem_texture.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
dram__bytes_read.sum dram__bytes_write.sum smsp__inst_executed.sum
smsp__inst_executed_op_texture.sum smsp__sass_inst_executed_op_texture.sum smsp__inst_executed_op_surface_ld.sum smsp__inst_executed_op_surface_st.sum
smsp__sass_inst_executed_op_surface_ld.sum smsp__sass_inst_executed_op_surface_st.sum launch__grid_size launch__block_size"
known=()
for m in $cands; do grep -q "^${m%.sum}[[:space:]]" "$out/metrics_query.txt" && known+=("$m") || echo "$m" >> "$out/metrics_unknown.txt"; done
list=$(IFS=,; echo "${known[*]}")
ncu --clock-control none --csv --page raw --metrics "$list" "$b/texture_traffic" > "$out/texture_traffic.csv" 2> "$out/texture_traffic.err"
cuobjdump -sass "$b/texture_traffic" > "$out/texture_traffic.sass" 2>&1
"$b/oob_probe" layout > "$out/oob.csv" 2>&1
for size in 256 4096 1048576 8388608; do
  for off in -4 -256 -4096 -65536 -1048576 -2097152 -4194304 -16777216 -67108864 S0 S4096 S65536 S1048576 S2097152 S4194304 S16777216 S67108864; do
    case $off in S*) o=$((size + ${off#S})) ;; *) o=$off ;; esac
    for op in r w; do timeout 30 "$b/oob_probe" $size $o $op >> "$out/oob.csv" 2>&1; done
  done
done
{
  "$b/heap_probe" count; "$b/heap_probe" count 32; "$b/heap_probe" many; "$b/heap_probe" sizes; "$b/heap_probe" setlater
} > "$out/heap.csv" 2>&1
for f in "4096 1000" "65536 5000" "1048576 100"; do
  set -- $f
  "$b/heap_probe" fifo $1 $2 > "$b/fifo.txt" 2>&1
  echo "fifo,$1,$2,lines_out=$(grep -c '^fifo line' "$b/fifo.txt"),last=$(grep '^fifo line' "$b/fifo.txt" | tail -1),$(grep '^heap,fifo' "$b/fifo.txt")" >> "$out/heap.csv"
done
tar czf "$out/extra.tgz" -C "$out" texture_traffic.csv texture_traffic.err texture_traffic.sass versions.txt metrics_unknown.txt surface_results.csv
echo done
