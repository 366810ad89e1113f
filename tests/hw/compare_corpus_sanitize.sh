#!/usr/bin/env bash
# warpscope sanitize's four tools on the kernel corpus's GPU build, beside compute-sanitizer's
# reports on the H200 (tests/hw/data/h200/sanitize/corpus, capture_corpus_sanitize.sh), without a
# GPU:
#   cmake -S tests/corpus/gpu -B /tmp/cg -G Ninja && cmake --build /tmp/cg    (CUDA's stub libcuda)
#   bash tests/hw/compare_corpus_sanitize.sh /tmp/cg RESULTDIR
# The binaries call the CUDA driver API; under `warpscope sanitize` they load warpscope's
# libcuda.so.1, so the same binaries the H200 ran run here. RESULTDIR gets <binary>.<tool>.txt
# (warpscope's output, then "rc=N"), table.tsv: binary, tool, the H200's count (errors; racecheck:
# hazards displayed), warpscope's, and a verdict: same (equal counts), false (warpscope reports
# where the H200 does not), missed (the H200 reports where warpscope does not), differ (both
# report, other counts), failed (warpscope did not finish: its last lines are in the .txt); and
# tests.tsv: binary, tool, the gtest cases that failed on the H200 and here ("-": none).
set -uo pipefail
build=$(cd "${1:?usage: compare_corpus_sanitize.sh BUILDDIR RESULTDIR}" && pwd)
res=${2:?usage: compare_corpus_sanitize.sh BUILDDIR RESULTDIR}
mkdir -p "$res"; res=$(cd "$res" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ws=$(realpath "${WARPSCOPE:-$root/build/bin/warpscope}")
h200=$here/data/h200/sanitize/corpus
export WARPSCOPE_CORPUS_PTX_DIR=$build/corpus/ptx
count() {  # the summary line's error count (racecheck: hazards displayed), or "none"
  local l; l=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$1" 2>/dev/null)
  [ -n "$l" ] || { echo none; return; }
  echo "$l" | sed -E 's/.*SUMMARY: ([0-9]+).*/\1/'
}
failed_tests() {  # the gtest cases reported failed, comma-separated, or "-"
  local t; t=$(grep -E '^\[  FAILED  \] [A-Za-z0-9_]+\.[A-Za-z0-9_/]+' "$1" 2>/dev/null \
    | sed -E 's/^\[  FAILED  \] ([^ ]+).*/\1/' | sort -u | paste -sd, -)
  echo "${t:--}"
}
: > "$res/table.tsv"; : > "$res/tests.tsv"
for b in "$build"/bin/*; do
  [ -x "$b" ] || continue
  name=$(basename "$b")
  for tool in memcheck racecheck initcheck synccheck; do
    w=$(mktemp -d)
    (cd "$w" && timeout -k 10 "${TIMEOUT:-1800}" "$ws" sanitize --tool "$tool" -- "$b" < /dev/null) \
      > "$res/$name.$tool.txt" 2>&1
    echo "rc=$?" >> "$res/$name.$tool.txt"
    rm -rf "$w"
    g=$(count "$h200/$name.$tool.txt"); o=$(count "$res/$name.$tool.txt")
    if [ "$o" = none ]; then v=failed
    elif [ "$g" = "$o" ]; then v=same
    elif [ "$g" = 0 ]; then v=false
    elif [ "$o" = 0 ]; then v=missed
    else v=differ; fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$tool" "$g" "$o" "$v" | tee -a "$res/table.tsv"
    printf '%s\t%s\t%s\t%s\n' "$name" "$tool" "$(failed_tests "$h200/$name.$tool.txt")" \
      "$(failed_tests "$res/$name.$tool.txt")" >> "$res/tests.tsv"
  done
done
