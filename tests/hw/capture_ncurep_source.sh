#!/usr/bin/env bash
# Nsight Compute's own source counters (issue 33): how a real report stores the SourceCounters
# section's per-instruction metrics (their correlation ids), the cubin and relocation data its
# source page reads, and what `ncu --import --page source` prints for them.
#   bash tests/hw/capture_ncurep_source.sh OUTDIR [WARPSCOPE_REPORTS_DIR]
# OUTDIR/: versions.txt; per program P (source_counters, saxpy, tag_requests, tag_requests_more): P.ncu-rep (--section
# SourceCounters --section LaunchStats --import-source yes), P_sass.csv / P_cuda.csv / P_ptx.csv /
# P_cuda_sass.csv (--page source --csv --print-source X), P_instances.csv (--page raw --csv
# --print-metric-instances details), P_details.txt, P.sass (cuobjdump -sass of the program).
# With WARPSCOPE_REPORTS_DIR, every *.ncu-rep in it is read back the same way into OUTDIR/ws/.
set -uo pipefail
out=${1:?usage: capture_ncurep_source.sh OUTDIR [WARPSCOPE_REPORTS_DIR]}
ws=${2:-}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
b=$(mktemp -d)
bash "$here/gpu_versions.sh" > "$out/versions.txt"
read_back() {  # REPORT PREFIX
  local r=$1 p=$2
  for s in sass cuda ptx cuda,sass; do
    ncu --import "$r" --page source --csv --print-source "$s" > "${p}_${s/,/_}.csv" 2>&1
  done
  ncu --import "$r" --page raw --csv --print-metric-instances details > "${p}_instances.csv" 2>&1
  ncu --import "$r" --page details > "${p}_details.txt" 2>&1
  ncu --import "$r" --page source --print-source cuda,sass > "${p}_source.txt" 2>&1
}
nvcc -arch=sm_90 -lineinfo -o "$b/source_counters" "$root/tests/export/data/source_counters.cu"
nvcc -arch=sm_90 -lineinfo -o "$b/saxpy" "$root/examples/saxpy.cu"
nvcc -arch=sm_90 -lineinfo -o "$b/tag_requests" "$here/ncurep/tag_requests.cu"
nvcc -arch=sm_90 -lineinfo -o "$b/tag_requests_more" "$here/ncurep/tag_requests_more.cu"
cuobjdump -sass "$b/tag_requests_more" > "$out/tag_requests_more.sass" 2>&1
cuobjdump -sass "$b/tag_requests" > "$out/tag_requests.sass" 2>&1
cuobjdump -sass "$b/source_counters" > "$out/source_counters.sass" 2>&1
cuobjdump -sass "$b/saxpy" > "$out/saxpy.sass" 2>&1
(cd "$b" && cuobjdump -xelf all source_counters > /dev/null 2>&1; ls *.cubin > /dev/null 2>&1 && cp ./*.cubin "$out/")
ncu -f -o "$out/source_counters" --section SourceCounters --section LaunchStats --import-source yes \
  "$b/source_counters" > "$out/source_counters_run.txt" 2>&1
ncu -f -o "$out/saxpy" -c 2 --section SourceCounters --section LaunchStats --import-source yes \
  "$b/saxpy" 100003 > "$out/saxpy_run.txt" 2>&1
ncu -f -o "$out/tag_requests" --section SourceCounters --section LaunchStats --import-source yes \
  "$b/tag_requests" > "$out/tag_requests_run.txt" 2>&1
read_back "$out/source_counters.ncu-rep" "$out/source_counters"
ncu -f -o "$out/tag_requests_more" --section SourceCounters --section LaunchStats --import-source yes \
  "$b/tag_requests_more" > "$out/tag_requests_more_run.txt" 2>&1
read_back "$out/tag_requests.ncu-rep" "$out/tag_requests"
read_back "$out/tag_requests_more.ncu-rep" "$out/tag_requests_more"
read_back "$out/saxpy.ncu-rep" "$out/saxpy"
if [[ -n "$ws" ]]; then
  mkdir -p "$out/ws"
  for r in "$ws"/*.ncu-rep; do
    n=$(basename "$r" .ncu-rep)
    cp "$r" "$out/ws/"
    read_back "$r" "$out/ws/$n"
  done
fi
