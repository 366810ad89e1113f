#!/usr/bin/env bash
# Configures and builds warpscope into build/ (the CLI ends at build/bin/warpscope).
#   bash scripts/build.sh                 everything (the tests and benchmarks too)
#   bash scripts/build.sh TARGET...       only these targets (scripts/example.sh: the CLI and runtime)
# On a failure the build's last lines are printed (the whole log is build/build.log) and the exit
# status is the build's.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then bash scripts/deps.sh --tests; else bash scripts/deps.sh; fi
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
mkdir -p build
log=build/build.log
targets=()
for t in "$@"; do targets+=(--target "$t"); done
if ! { cmake --preset default && cmake --build --preset default "${targets[@]}" -- -j"$(nproc)"; } > "$log" 2>&1; then
  echo "warpscope: the build failed; its last lines (the whole log: $log):" >&2
  tail -n 60 "$log" >&2
  exit 1
fi
