#!/usr/bin/env bash
# warpscope sanitize's four tools on every acceptance program, beside compute-sanitizer's reports
# on the H200 (tests/hw/data/h200/sanitize/acceptance, capture_acceptance_sanitize.sh), without a GPU:
#   bash tests/hw/compare_acceptance_sanitize.sh BINDIR RESULTDIR [name ...]
# BINDIR is ../shared/acceptance/build.sh's output folder. RESULTDIR gets <program>.<tool>.txt
# (warpscope's output, then "rc=N") and table.tsv: program, tool, the H200's summary line,
# warpscope's, and a verdict: same (equal counts), false (warpscope reports where the H200 does
# not), missed (the H200 reports where warpscope does not), differ (both report, other counts),
# failed (warpscope did not finish: its last lines are in the .txt).
set -uo pipefail
bin=$(cd "${1:?usage: compare_acceptance_sanitize.sh BINDIR RESULTDIR [name ...]}" && pwd)
res=${2:?usage}; mkdir -p "$res"; res=$(cd "$res" && pwd); shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ws=$(realpath "${WARPSCOPE:-$root/build/bin/warpscope}")
h200=$here/data/h200/sanitize/acceptance
acc=${ACCEPTANCE:-$root/../shared/acceptance}
count() {  # the summary line's error count (racecheck: hazards displayed), or "none"
  local l; l=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$1" 2>/dev/null)
  [ -n "$l" ] || { echo none; return; }
  echo "$l" | sed -E 's/.*SUMMARY: ([0-9]+).*/\1/'
}
grep -v '^\s*#' "$acc/programs.txt" | grep -v '^\s*$' | while IFS='|' read -r name args _; do
  name=$(echo $name); args=$(echo $args)
  if [ $# -gt 0 ]; then want=0; for w in "$@"; do [ "$w" = "$name" ] && want=1; done; [ $want = 1 ] || continue; fi
  [ -x "$bin/$name" ] || { echo "$name: not built" >&2; continue; }
  for tool in memcheck racecheck initcheck synccheck; do
    w=$(mktemp -d); cp -r "$bin/data/$name/." "$w/" 2>/dev/null
    # shellcheck disable=SC2086
    (cd "$w" && timeout -k 10 "${TIMEOUT:-600}" "$ws" sanitize --tool $tool -- "$bin/$name" $args < /dev/null) \
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
  done
done
