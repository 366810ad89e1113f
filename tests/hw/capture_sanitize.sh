#!/usr/bin/env bash
# compute-sanitizer's reports on the team's reproducers (issue 31), on the H200 machine:
#   bash tests/hw/capture_sanitize.sh OUTDIR   -> OUTDIR/sanitize.txt (each mode under each tool)
set -uo pipefail
out=${1:?usage: capture_sanitize.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=$(mktemp -d)
nvcc -arch=sm_90 -lineinfo -o "$b/sanitize_probe" "$here/sanitize/sanitize_probe.cu"
compute-sanitizer --version > "$out/sanitize_versions.txt" 2>&1
{
  for m in oob_global oob_shared misaligned api_error leak raw waw war clean uninit divergent syncwarp_mask; do
    for t in memcheck racecheck initcheck synccheck; do
      extra=""
      [ "$t" = memcheck ] && [ "$m" = leak ] && extra="--leak-check full"
      echo "## $m $t $extra"
      (cd "$b" && timeout 120 compute-sanitizer --tool $t $extra ./sanitize_probe $m 2>&1)
      echo "rc=$?"
    done
  done
  echo "## raw racecheck analysis"
  (cd "$b" && compute-sanitizer --tool racecheck --racecheck-report analysis ./sanitize_probe raw 2>&1); echo "rc=$?"
  echo "## oob_global memcheck error-exitcode 7"
  (cd "$b" && compute-sanitizer --error-exitcode 7 ./sanitize_probe oob_global 2>&1); echo "rc=$?"
  echo "## oob_global memcheck print-limit 1 show-backtrace no"
  (cd "$b" && compute-sanitizer --print-limit 1 --show-backtrace no ./sanitize_probe oob_global 2>&1); echo "rc=$?"
} > "$out/sanitize.txt"
