#!/usr/bin/env bash
# Builds the example programs with nvcc and runs them on a real GPU, saving each program's
# output (stdout, with its exit code appended) under OUTDIR (default examples/expected/<gpu>).
# Lines starting with "[timing]" vary from run to run; tests drop them before comparing.
#   bash examples/hw_capture.sh [OUTDIR]
# The arguments of each run are the ones tests/runtime/runtime_test.cpp uses under warpscope, so
# the outputs can be compared line by line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '_')"
out="${1:-$here/expected/${gpu}}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
mkdir -p "$out"
arch="${ARCH:-sm_90}"

# name | arguments (the same as tests/runtime/examples.cmake)
runs=(
  "nbody|all 512 1"
  "saxpy|100003"
  "local_arrays|8192"
  "aos_soa|65536"
  "padding2d|1000 300"
  "misaligned_copy|65536"
  "misaligned_copy_fault|65536 fault"
)
for src in nbody saxpy local_arrays aos_soa padding2d misaligned_copy; do
  echo "== nvcc $src.cu"
  "$nvcc" -cudart shared -lineinfo -arch="$arch" -o "$build/$src" "$here/$src.cu"
done
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$nvcc" --version | tail -2
} > "$out/versions.txt"
for r in "${runs[@]}"; do
  name="${r%%|*}"
  args="${r#*|}"
  exe="$name"
  [[ "$name" == misaligned_copy_fault ]] && exe=misaligned_copy
  echo "== $name $args"
  set +e
  # shellcheck disable=SC2086
  "$build/$exe" $args > "$out/$name.txt" 2> "$out/$name.stderr.txt"
  rc=$?
  set -e
  echo "exit $rc" >> "$out/$name.txt"
  cat "$out/$name.txt"
done
echo "outputs in $out"
