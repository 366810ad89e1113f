#!/usr/bin/env bash
# warpscope sanitize's four tools on the kernel corpus's GPU build, beside compute-sanitizer's
# reports on the H200 (tests/hw/data/h200/sanitize/corpus, capture_corpus_sanitize.sh), without a
# GPU:
#   cmake -S tests/corpus/gpu -B /tmp/cg -G Ninja && cmake --build /tmp/cg    (CUDA's stub libcuda)
#   bash tests/hw/compare_corpus_sanitize.sh /tmp/cg RESULTDIR
# The binaries call the CUDA driver API; under `warpscope sanitize` they load warpscope's
# libcuda.so.1, so the binaries the H200 ran run here, one process per test case and tool as
# there (the H200's summary.tsv lists the runs). RESULTDIR gets <binary>.<Suite.Case>.<tool>.txt
# (warpscope's output, then "rc=N") and table.tsv: binary, test case, tool, the H200's count
# (errors; racecheck: hazards displayed), warpscope's, and a verdict: same (equal counts), false
# (warpscope reports where the H200 does not), missed (the H200 reports where warpscope does
# not), differ (both report, other counts), failed (warpscope did not finish: its last lines are
# in the .txt), no-h200 (the H200's run did not finish: it timed out). JOBS runs at a time
# (default 2).
set -uo pipefail
build=$(cd "${1:?usage: compare_corpus_sanitize.sh BUILDDIR RESULTDIR}" && pwd)
res=${2:?usage: compare_corpus_sanitize.sh BUILDDIR RESULTDIR}
mkdir -p "$res"; res=$(cd "$res" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ws=$(realpath "${WARPSCOPE:-$root/build/bin/warpscope}")
h200=$here/data/h200/sanitize/corpus
export WARPSCOPE_CORPUS_PTX_DIR=$build/corpus/ptx ws build res
one() {  # binary case tool
  local f w
  f="$res/$1.${2//\//_}.$3.txt"
  w=$(mktemp -d)
  (cd "$w" && timeout -k 10 "${TIMEOUT:-600}" "$ws" sanitize --tool "$3" -- "$build/bin/$1" \
     --gtest_filter="$2" < /dev/null > "$f" 2>&1)
  echo "rc=$?" >> "$f"
  rm -rf "$w"
}
export -f one
cut -f1-3 "$h200/summary.tsv" | xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$0" "$1" "$2"'
count() {  # the summary line's error count (racecheck: hazards displayed), or "none"
  local l; l=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$1" 2>/dev/null)
  [ -n "$l" ] || { echo none; return; }
  echo "$l" | sed -E 's/.*SUMMARY: ([0-9]+).*/\1/'
}
cut -f1-3 "$h200/summary.tsv" | while read -r b c t; do
  n="$b.${c//\//_}.$t.txt"
  g=$(count "$h200/$n"); o=$(count "$res/$n")
  if [ "$o" = none ]; then v=failed
  elif [ "$g" = none ]; then v=no-h200
  elif [ "$g" = "$o" ]; then v=same
  elif [ "$g" = 0 ]; then v=false
  elif [ "$o" = 0 ]; then v=missed
  else v=differ; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$b" "$c" "$t" "$g" "$o" "$v"
done > "$res/table.tsv"
cut -f6 "$res/table.tsv" | sort | uniq -c
