#!/usr/bin/env bash
# compute-sanitizer on device-heap misuse and grid.sync() outside a cooperative launch (issue 31),
# on the H200 machine:
#   bash tests/hw/capture_heap_sanitize.sh OUTDIR
# OUTDIR/heap_sanitize.txt: each mode of tests/hw/sanitize/heap_probe.cu run plainly (`none`) and
# under memcheck (and --leak-check full for the leak modes and ok); double_free and grid_sync under every
# tool; double_free with --check-device-heap no. Each run after a `## MODE TOOL OPTIONS` line, its
# exit status after it (`rc=`). OUTDIR/xml_*.xml: --xml --save of four runs. OUTDIR/versions.txt,
# OUTDIR/heap_probe.sass (cuobjdump -sass).
set -uo pipefail
out=${1:?usage: capture_heap_sanitize.sh OUTDIR}
. "$(dirname "$0")/sanitize_probe_setup.sh" "$out" heap_probe  # out, here, san, b; the build, sass, versions
modes="double_free double_free_warp free_offset free_cudamalloc free_local free_shared write_byte read_byte write_elem read_elem
       write_far read_far use_after_free leak leak_reset ok grid_sync"
run() {  # run "MODE" "TOOL" [options...]: one section
  local mode=$1 tool=$2
  shift 2
  echo "## $mode $tool $*"
  if [ "$tool" = none ]; then
    (cd "$b" && timeout 40 ./heap_probe "$mode" 2>&1)
  else
    (cd "$b" && timeout 40 $san --tool "$tool" "$@" ./heap_probe "$mode" 2>&1)
  fi
  echo "rc=$?"
}
{
  for m in $modes; do
    run "$m" none
    run "$m" memcheck
    case $m in leak | leak_reset | ok) run "$m" memcheck --leak-check full ;; esac
  done
  for m in double_free grid_sync; do
    for t in racecheck initcheck synccheck; do run "$m" "$t"; done
  done
  run double_free memcheck --check-device-heap no
} > "$out/heap_sanitize.txt"
xml() {  # xml NAME MODE TOOL [options...]
  local name=$1 mode=$2 tool=$3
  shift 3
  (cd "$b" && timeout 40 $san --tool "$tool" "$@" --xml --save "$out/xml_$name.xml" ./heap_probe "$mode" > /dev/null 2>&1)
}
xml double_free double_free memcheck
xml write_elem write_elem memcheck
xml leak leak_reset memcheck --leak-check full
xml grid_sync grid_sync synccheck
rm -rf "$b"
