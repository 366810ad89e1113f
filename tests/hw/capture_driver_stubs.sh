#!/usr/bin/env bash
# Runs tests/hw/driver_stubs_probe.c on a machine with an NVIDIA GPU and its driver, one process per
# group, and writes the answers and the tool versions to $OUT (tests/hw/data/h200/driver_stubs/).
#   OUT=dir bash tests/hw/capture_driver_stubs.sh [path/to/driver_stubs_probe.c]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:-$here/driver_stubs_probe.c}"
out="${OUT:?set OUT to the output folder}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
export PATH="$PATH:$cuda/bin"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "== nvidia-smi"; nvidia-smi
  echo "== nvidia-smi -q (driver, product)"; nvidia-smi -q | grep -E "Driver Version|CUDA Version|Product Name|Product Architecture|VBIOS"
  echo "== nvcc --version"; nvcc --version
  echo "== ncu --version"; ncu --version
  echo "== compute-sanitizer --version"; compute-sanitizer --version
  echo "== gcc --version"; gcc --version | head -1
} > "$out/versions.txt" 2>&1
gcc -std=gnu11 -Wall -Wextra -Werror -I"$cuda/include" "$src" -ldl -o "$out/probe" > "$out/build.txt" 2>&1 || { cat "$out/build.txt"; exit 1; }
for g in v1 batch memop misc sparse; do
  echo "=== group $g" >> "$out/driver_stubs.txt"
  timeout 120 "$out/probe" "$g" >> "$out/driver_stubs.txt" 2>&1
  echo "=== exit $?" >> "$out/driver_stubs.txt"
done
rm -f "$out/probe"
cat "$out/driver_stubs.txt"
