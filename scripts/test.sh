#!/usr/bin/env bash
# Builds warpscope and runs every test (the README's test command; .ci/run calls it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
ctest --preset default -j"$(nproc)"
