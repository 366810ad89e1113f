#!/usr/bin/env bash
# compute-sanitizer's four tools on every acceptance program (issue 31: "no false reports"), on a
# machine with an NVIDIA GPU:
#   bash tests/hw/capture_acceptance_sanitize.sh ACCEPTANCE_DIR OUTDIR
# ACCEPTANCE_DIR is ../shared/acceptance (its build.sh and programs.txt). OUTDIR gets
#   versions.txt               GPU, driver, nvcc, compute-sanitizer, date
#   <program>.<tool>.txt       the program's stdout and stderr under the tool, then "rc=N"
#   summary.tsv                program, tool, exit status, the tool's error count line
# Each program runs with a fresh copy of its data folder as the working directory and the
# arguments of programs.txt; four programs at a time (one GPU is shared, as on any multi-process
# machine).
set -uo pipefail
acc=$(cd "${1:?usage: capture_acceptance_sanitize.sh ACCEPTANCE_DIR OUTDIR}" && pwd)
out=${2:?usage: capture_acceptance_sanitize.sh ACCEPTANCE_DIR OUTDIR}
mkdir -p "$out"; out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d)
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; compute-sanitizer --version; } > "$out/versions.txt" 2>&1
JOBS=$(nproc) bash "$acc/build.sh" "$bin" > "$out/build.txt" 2>&1
one() {  # name args tool
  local name=$1 args=$2 tool=$3 w
  w=$(mktemp -d); cp -r "$bin/data/$name/." "$w/" 2>/dev/null
  # shellcheck disable=SC2086
  (cd "$w" && timeout 300 compute-sanitizer --tool "$tool" "$bin/$name" $args) > "$out/$name.$tool.txt" 2>&1
  echo "rc=$?" >> "$out/$name.$tool.txt"
  rm -rf "$w"
}
grep -v '^#' "$acc/programs.txt" | while IFS='|' read -r name args _; do
  name=$(echo "$name" | xargs); args=$(echo "$args" | xargs)
  [ -n "$name" ] && [ -x "$bin/$name" ] || continue
  for tool in memcheck racecheck initcheck synccheck; do
    while [ "$(jobs -rp | wc -l)" -ge 4 ]; do sleep 0.2; done
    one "$name" "$args" "$tool" &
  done
  wait
done
wait
for f in "$out"/*.*.txt; do
  b=$(basename "$f" .txt); [ "$b" = versions ] && continue; [ "$b" = build ] && continue
  printf '%s\t%s\t%s\t%s\n' "${b%.*}" "${b##*.}" "$(tail -1 "$f")" "$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$f")"
done > "$out/summary.tsv"
rm -rf "$bin"
