# Sourced by the captures of one tests/hw/sanitize probe under compute-sanitizer
# (capture_heap_sanitize.sh, capture_sync_sanitize.sh), on the H200 machine:
#   . "$(dirname "$0")/sanitize_probe_setup.sh" OUTDIR PROBE
# makes OUTDIR and sets `out` to its absolute path, `here` to tests/hw, `san` to the sanitizer
# ($SANITIZER, default compute-sanitizer) and `b` to a new temporary folder; builds
# tests/hw/sanitize/PROBE.cu into $b/PROBE (nvcc -cudart shared -lineinfo -arch=sm_90; the
# sourcing script exits 1 where that fails) and writes OUTDIR/PROBE.sass (cuobjdump -sass) and
# OUTDIR/versions.txt (date, nvidia-smi, nvcc, ncu and the sanitizer's versions).
mkdir -p "$1"
out=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
san=${SANITIZER:-compute-sanitizer}
b=$(mktemp -d)
nvcc -cudart shared -lineinfo -arch=sm_90 -o "$b/$2" "$here/sanitize/$2.cu" || exit 1
cuobjdump -sass "$b/$2" > "$out/$2.sass" 2>&1
{
  date -u
  nvidia-smi
  nvcc --version
  ncu --version
  $san --version
} > "$out/versions.txt" 2>&1
