#!/usr/bin/env bash
# compute-sanitizer racecheck on bulk copies, TMA copies and cooperative launches (issue 31), on the
# H200 machine:
#   bash tests/hw/capture_bulk_race.sh OUTDIR
#     -> OUTDIR/bulk_race.txt  each mode of tests/hw/sanitize/bulk_race_probe.cu without a tool, under
#                              `compute-sanitizer --tool racecheck` (analysis report, the default) and
#                              under `--racecheck-report all`; a `## MODE OPTIONS` line before each
#                              run's output, `rc=N` after it
#     -> OUTDIR/versions.txt   nvidia-smi, nvcc, ncu and compute-sanitizer versions, the date
set -uo pipefail
out=${1:?usage: capture_bulk_race.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
nvcc -arch=sm_90 -lineinfo -o "$b/bulk_race_probe" "$here/sanitize/bulk_race_probe.cu" || exit 1
{
  date -u
  bash "$here/gpu_versions.sh"
  compute-sanitizer --version 2>&1
} > "$out/versions.txt"
modes="bulk_early bulk_ok tma_early tma_ok tma_write store_early store_ok peer_early peer_ok peer_red_early coop_race coop_ok"
{
  for m in $modes; do
    echo "## $m plain"
    (cd "$b" && timeout 60 ./bulk_race_probe $m 2>&1); echo "rc=$?"
    echo "## $m racecheck"
    (cd "$b" && timeout 120 compute-sanitizer --tool racecheck ./bulk_race_probe $m 2>&1); echo "rc=$?"
    echo "## $m racecheck all"
    (cd "$b" && timeout 120 compute-sanitizer --tool racecheck --racecheck-report all ./bulk_race_probe $m 2>&1); echo "rc=$?"
  done
} > "$out/bulk_race.txt"
