#!/usr/bin/env bash
# compute-sanitizer's four tools on the kernel corpus (issue 31: "no false reports"), on a machine
# with an NVIDIA GPU:
#   bash tests/hw/capture_corpus_sanitize.sh OUTDIR [PREBUILT]
# Builds tests/corpus/gpu (the corpus's gtest binary over the CUDA driver API, cuda_device.cpp;
# GTest found by CMake, or under $GTEST_PREFIX) and runs each of its test cases under
# `compute-sanitizer --tool T`, one process per test case and tool: some cases make a launch
# fault on purpose, which leaves the process's CUDA context unusable (every later call fails with
# CUDA_ERROR_LAUNCH_FAILED), so one process for the whole binary would stop there. Where the build
# fails, PREBUILT (a build folder of the same project made elsewhere: bin/ and corpus/ptx/) runs
# instead; build.txt says which ran. OUTDIR gets
#   versions.txt                   date, GPU, driver, nvcc, compute-sanitizer
#   build.txt                      the build's output and which binaries ran
#   <binary>.<Suite.Case>.<tool>.txt   the whole output (the test's and the tool's), then "rc=N"
#   summary.tsv                    binary, test case, tool, exit status, the tool's summary line
# BUILD_TIMEOUT (seconds, default 1800) bounds the build, TIMEOUT (default 60) each run (a case
# that waits for an arrival that never comes hangs on a GPU); JOBS runs at a time (default 12; one
# GPU, shared as on any multi-process machine).
set -uo pipefail
out=${1:?usage: capture_corpus_sanitize.sh OUTDIR [PREBUILT]}
prebuilt=${2:-}
mkdir -p "$out"; out=$(cd "$out" && pwd)
[ -z "$prebuilt" ] || prebuilt=$(cd "$prebuilt" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
{ date -u +%Y-%m-%dT%H:%M:%SZ; bash "$here/gpu_versions.sh"; compute-sanitizer --version; } \
  > "$out/versions.txt" 2>&1

build=$(mktemp -d)
gen=(); command -v ninja > /dev/null && gen=(-G Ninja)
prefix=(); [ -z "${GTEST_PREFIX:-}" ] || prefix=(-DCMAKE_PREFIX_PATH="$GTEST_PREFIX")
if { cmake -S "$root/tests/corpus/gpu" -B "$build" "${gen[@]}" "${prefix[@]}" \
       -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
       timeout "${BUILD_TIMEOUT:-1800}" cmake --build "$build" -j "$(nproc)"; } \
     > "$out/build.txt" 2>&1; then
  dir=$build; echo "ran: this build ($build)" >> "$out/build.txt"
elif [ -n "$prebuilt" ]; then
  dir=$prebuilt; echo "ran: the build failed; PREBUILT $prebuilt" >> "$out/build.txt"
else
  echo "capture_corpus_sanitize: the build failed (build.txt) and no PREBUILT was given" >&2
  exit 1
fi
export WARPSCOPE_CORPUS_PTX_DIR=$dir/corpus/ptx
# One line per run: binary, test case, tool.
runs=$(mktemp)
for b in "$dir"/bin/*; do
  [ -x "$b" ] || continue
  "$b" --gtest_list_tests | awk -v b="$b" '
    /^[^ ]/ { suite = $1; next }
    /^  / { if ($1 !~ /^DISABLED_/ && suite !~ /^DISABLED_/)
              for (i = split("memcheck racecheck initcheck synccheck", t, " "); i > 0; --i)
                print b, suite $1, t[i] }' >> "$runs"
done
one() {  # binary case tool
  local f w
  f="$out/$(basename "$1").${2//\//_}.$3.txt"
  w=$(mktemp -d)
  (cd "$w" && timeout -k 5 "${TIMEOUT:-60}" compute-sanitizer --tool "$3" "$1" --gtest_filter="$2" \
     > "$f" 2>&1 < /dev/null)
  echo "rc=$?" >> "$f"
  rm -rf "$w"
}
export -f one; export out
xargs -a "$runs" -P "${JOBS:-12}" -L 1 bash -c 'one "$0" "$1" "$2"'
while read -r b c t; do
  f="$out/$(basename "$b").${c//\//_}.$t.txt"
  printf '%s\t%s\t%s\t%s\t%s\n' "$(basename "$b")" "$c" "$t" "$(tail -1 "$f")" \
    "$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$f")"
done < "$runs" | sort > "$out/summary.tsv"
rm -rf "$build" "$runs"
