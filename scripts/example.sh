#!/usr/bin/env bash
# Builds warpscope and runs its main job on the bundled examples: the seeds' coalescing cases
# (design.md's table, seed 003) through `warpscope pattern`, on Fermi and on Hopper; then the
# seeds' saxpy program (examples/saxpy.cu) unmodified under `warpscope run`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the example needs: the CLI and the runtime library (scripts/test.sh builds the rest).
bash scripts/build.sh warpscope warpscope_cudart
bash examples/seeds_coalescing.sh
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
echo "== warpscope run --html build/report-saxpy --json build/report-saxpy.json examples/saxpy.cu -- 100003"
exec build/bin/warpscope run --html build/report-saxpy --json build/report-saxpy.json examples/saxpy.cu -- 100003
