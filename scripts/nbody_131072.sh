#!/usr/bin/env bash
# The issue-19 N-body check: examples/nbody.cu's five variants at N bodies (default 131072, one
# step, 1024 threads per block as the seeds launch it) under warpscope on hopper with kepler side
# by side, every 16th CTA feeding the memory model (every CTA does the same work).
#   bash scripts/nbody_131072.sh OUTDIR [N] [threads per block]
# Needs nvcc; takes ~3 min on 16 cores (~30 min on 2). WARPSCOPE overrides build/bin/warpscope.
# OUTDIR gets <variant>.json / .txt and summary.tsv (hopper and kepler predictions, H100 ms of
# tests/hw/data/h100/timing/nbody_steps_1024.txt).
set -euo pipefail
out=${1:?usage: nbody_131072.sh OUTDIR [N] [threads per block]}
n=${2:-131072}
tpb=${3:-1024}
root=$(cd "$(dirname "$0")/.." && pwd)
ws=${WARPSCOPE:-$root/build/bin/warpscope}
mkdir -p "$out"
nvcc -arch=sm_90 -lineinfo -cudart shared -o "$out/nbody" "$root/examples/nbody.cu"
for v in struct12 float3 padded16 float4 shared; do
  "$ws" run --threads "$(nproc)" --sample-ctas 0.0625 --compare-arch kepler --json "$out/$v.json" \
    -- "$out/nbody" "$v" "$n" 1 "$tpb" > "$out/$v.txt" 2>&1
done
python3 - "$out" "$root/tests/hw/data/h100/timing/nbody_steps_1024.txt" <<'PY'
import json, sys
out, steps = sys.argv[1], sys.argv[2]
h100 = {l.split()[0]: float(l.split()[1]) for l in open(steps) if l[0] != "#" and len(l.split()) == 4}
rows = ["variant\thopper_predicted_ms\thopper_limiter\th100_ms\terror_pct\tkepler_predicted_ms\tkepler_limiter"]
for v in ["struct12", "float3", "padded16", "float4", "shared"]:
    launch = json.load(open(f"{out}/{v}.json"))["launches"][0]
    t = launch["time"]
    other = launch["compare"]
    other = list(other.values()) if isinstance(other, dict) else other
    k = other[0]["time"]
    hp, kp = t["duration_ns"] / 1e6, k["duration_ns"] / 1e6
    err = 100 * (hp - h100[v]) / h100[v]
    rows.append(f"{v}\t{hp:.3f}\t{t['limiter']}\t{h100[v]:.3f}\t{err:+.1f}\t{kp:.3f}\t{k['limiter']}")
open(f"{out}/summary.tsv", "w").write("\n".join(rows) + "\n")
print("\n".join(rows))
PY
