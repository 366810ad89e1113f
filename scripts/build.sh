#!/usr/bin/env bash
# Configures and builds warpscope into build/ (the CLI ends at build/bin/warpscope).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
cmake --preset default >/dev/null
cmake --build --preset default -- -j"$(nproc)"
