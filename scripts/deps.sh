#!/usr/bin/env bash
# Installs what warpscope needs to build (and, with --tests, to test), from Debian's packages,
# when it is missing. Safe to run again: it does nothing when everything is present.
#   bash scripts/deps.sh           the build's packages (scripts/example.sh)
#   bash scripts/deps.sh --tests   and chromium, for the HTML report's tests (scripts/test.sh)
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config
          libcli11-dev libfmt-dev nlohmann-json3-dev
          libgtest-dev libgmock-dev libbenchmark-dev
          libzstd-dev liblz4-dev libtbb-dev zlib1g-dev
          libprotobuf-dev protobuf-compiler   # the .ncu-rep writer and reader (src/export)
          llvm-16-dev)  # the JIT (src/jit; without it the build interprets every launch)
if [ "${1:-}" = "--tests" ]; then
  packages+=(chromium)  # the HTML report's tests render the pages headless
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# nvcc compiles the test corpus; the README promises it at /usr/local/cuda.
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  echo "deps: nvcc not found (expected at \${CUDA_HOME:-/usr/local/cuda}/bin/nvcc); tests that compile CUDA will fail" >&2
fi
