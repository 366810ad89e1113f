#!/usr/bin/env bash
# A real Nsight Compute report of the team's ncu_cli_probe (issue 33: `warpscope import` reads it;
# `warpscope run -o` writes the same format), and ncu's own CSV of it:
#   bash tests/hw/capture_ncurep.sh OUTDIR -> OUTDIR/probe.ncu-rep, probe_raw.csv, probe_details.txt
set -uo pipefail
out=${1:?usage: capture_ncurep.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
nvcc -arch=sm_90 -lineinfo -o "$b/ncu_cli_probe" "$here/ncu_cli/ncu_cli_probe.cu"
ncu --version > "$out/ncurep_versions.txt" 2>&1
ncu -f -o "$out/probe" --set basic -c 3 "$b/ncu_cli_probe" > /dev/null 2>&1
ncu --import "$out/probe.ncu-rep" --page raw --csv > "$out/probe_raw.csv" 2>&1
ncu --import "$out/probe.ncu-rep" --page details > "$out/probe_details.txt" 2>&1
