#!/usr/bin/env bash
# Texture and surface references through the driver API (issue 29), natively (no warpscope): run
# from the repository root.
#   bash tests/hw/capture_texref.sh OUTDIR [PROBE_DIR]
# PROBE_DIR holds texref_probe.cpp (default tests/hw/texture). OUTDIR gets
#   versions.txt       tests/hw/gpu_versions.sh, compute-sanitizer --version
#   texref.txt         texref_probe's output (tests/hw/texture/texref_probe.cpp says what each line is)
#   texref_probe.err   its stderr and exit status
#   texref.sass        the probe's PTX through ptxas -arch=sm_90, disassembled
set -uo pipefail
out=${1:?usage: capture_texref.sh OUTDIR [PROBE_DIR]}
src=${2:-tests/hw/texture}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b=$(mktemp -d)
if [ -f "$here/gpu_versions.sh" ]; then bash "$here/gpu_versions.sh" > "$out/versions.txt" 2>&1
else { nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -n 2; } > "$out/versions.txt" 2>&1; fi
compute-sanitizer --version >> "$out/versions.txt" 2>&1
if nvcc -o "$b/texref_probe" "$src/texref_probe.cpp" -lcuda > "$out/texref_probe.err" 2>&1; then
  "$b/texref_probe" > "$out/texref.txt" 2>> "$out/texref_probe.err"
  echo "exit $?" >> "$out/texref_probe.err"
  python3 - "$src/texref_probe.cpp" "$b/k.ptx" <<'PY'
import sys
s = open(sys.argv[1]).read()
a = s.index('R"(') + 3
open(sys.argv[2], 'w').write(s[a:s.index(')";', a)])
PY
  ptxas -arch=sm_90 -o "$b/k.cubin" "$b/k.ptx" >> "$out/texref_probe.err" 2>&1 && cuobjdump -sass "$b/k.cubin" > "$out/texref.sass" 2>&1
else
  echo "nvcc failed" >> "$out/texref_probe.err"
fi
rm -rf "$b"
