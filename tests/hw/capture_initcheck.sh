#!/usr/bin/env bash
# compute-sanitizer's initcheck on tests/hw/sanitize/initcheck_probe.cu (issue 31), on the H200:
#   bash tests/hw/capture_initcheck.sh OUTDIR   -> OUTDIR/initcheck.txt (each mode, its exit status)
set -uo pipefail
out=${1:?usage: capture_initcheck.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
nvcc -arch=sm_90 -lineinfo -o "$b/initcheck_probe" "$here/sanitize/initcheck_probe.cu"
{
  for m in half bytes own other later atomic d2d d2h managed cpasync unused; do
    echo "## $m initcheck"
    (cd "$b" && timeout 120 compute-sanitizer --tool initcheck ./initcheck_probe $m 2>&1); echo "rc=$?"
  done
  echo "## d2h initcheck check-api-memory-access no"
  (cd "$b" && compute-sanitizer --tool initcheck --check-api-memory-access no ./initcheck_probe d2h 2>&1); echo "rc=$?"
  echo "## unused initcheck track-unused-memory"
  (cd "$b" && compute-sanitizer --tool initcheck --track-unused-memory ./initcheck_probe unused 2>&1); echo "rc=$?"
  echo "## half initcheck print-limit 2"
  (cd "$b" && compute-sanitizer --tool initcheck --print-limit 2 ./initcheck_probe half 2>&1); echo "rc=$?"
  echo "## waw racecheck hazard"
  (cd "$b" && nvcc -arch=sm_90 -lineinfo -o sanitize_probe "$here/sanitize/sanitize_probe.cu" &&
   compute-sanitizer --tool racecheck --racecheck-report hazard ./sanitize_probe waw 2>&1); echo "rc=$?"
} > "$out/initcheck.txt"
