#!/usr/bin/env bash
# Mipmapped textures on the GPU (issue 29), natively (no warpscope): run from the repository root.
#   bash tests/hw/capture_mip.sh OUTDIR [PROBE_DIR]
# PROBE_DIR holds mip_probe.cu (default tests/hw/texture). OUTDIR gets
#   versions.txt       tests/hw/gpu_versions.sh
#   mip_samples.csv    mip_probe's fetches (tests/hw/texture/mip_probe.cu says what each case is)
#   mip_probe.err      its stderr and exit status
#   mip_probe.sass     the probe's machine code (which TEX/TLD forms tex.level and tex.grad become)
set -uo pipefail
out=${1:?usage: capture_mip.sh OUTDIR [PROBE_DIR]}
src=${2:-tests/hw/texture}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
if [ -f "$here/gpu_versions.sh" ]; then bash "$here/gpu_versions.sh" > "$out/versions.txt" 2>&1
else { nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -n 2; } > "$out/versions.txt" 2>&1; fi
if nvcc -arch=sm_90 -o "$b/mip_probe" "$src/mip_probe.cu" > "$out/mip_probe.err" 2>&1; then
  "$b/mip_probe" > "$out/mip_samples.csv" 2>> "$out/mip_probe.err"
  echo "exit $?" >> "$out/mip_probe.err"
  cuobjdump -sass "$b/mip_probe" > "$out/mip_probe.sass" 2>&1
else
  echo "nvcc failed" >> "$out/mip_probe.err"
fi
rm -rf "$b"
