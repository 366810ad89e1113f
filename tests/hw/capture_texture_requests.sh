#!/usr/bin/env bash
# Captures how the H100 splits texture and surface fetches into requests and sectors
# (tests/hw/texture/texture_requests.cu) on a machine with a GPU, nvcc and Nsight Compute:
#   bash tests/hw/capture_texture_requests.sh OUTDIR
# Outputs (committed under tests/hw/data/h100/texture): texture_requests.csv (ncu --csv --page raw),
# texture_requests.sass (cuobjdump -sass), texture_requests_versions.txt.
set -uo pipefail
out=${1:?usage: capture_texture_requests.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
bash "$here/gpu_versions.sh" > "$out/texture_requests_versions.txt"
nvcc -arch=sm_90 -lineinfo -o "$b/texture_requests" "$here/texture/texture_requests.cu"
"$b/texture_requests" > "$out/texture_requests_native.txt" 2>&1
m="l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum"
m+=",l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum"
m+=",l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum"
m+=",l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum"
m+=",l1tex__t_requests_pipe_tex_mem_surface_op_st.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum"
m+=",lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum"
m+=",smsp__inst_executed_op_texture.sum,smsp__inst_executed_op_surface_ld.sum,smsp__inst_executed_op_surface_st.sum"
m+=",l1tex__f_wavefronts.sum,l1tex__texin_requests_mem_texture.sum,l1tex__texin_requests_mem_surface_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors_mem_texture.sum"
m+=",launch__grid_size,launch__block_size"
ncu --clock-control none --csv --page raw --metrics "$m" "$b/texture_requests" > "$out/texture_requests.csv" 2> "$out/texture_requests.err"
cuobjdump -sass "$b/texture_requests" > "$out/texture_requests.sass" 2>&1
