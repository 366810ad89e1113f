#!/usr/bin/env bash
# compute-sanitizer --tool synccheck on named barriers with thread counts and on cluster barriers
# reached by part of a cluster (issue 31), on the H200 machine:
#   bash tests/hw/capture_sync_sanitize.sh OUTDIR
# OUTDIR/sync_sanitize.txt: each mode of tests/hw/sanitize/sync_probe.cu run plainly (`none`, under
# `timeout 10`) and under synccheck (`timeout 20`), each run after a `## MODE TOOL` line, its exit
# status after it (`rc=`; 124 = killed by timeout, i.e. a hang). The modes run concurrently (one
# process each, so that a hang costs one timeout, not one per mode); their sections are joined in
# mode order. OUTDIR/xml.tar: synccheck --xml --save of each mode. OUTDIR/versions.txt,
# OUTDIR/sync_probe.sass (cuobjdump -sass).
set -uo pipefail
out=${1:?usage: capture_sync_sanitize.sh OUTDIR}
. "$(dirname "$0")/sanitize_probe_setup.sh" "$out" sync_probe  # out, here, san, b; the build, sass, versions
modes="named_ok named_mismatch named_not_multiple named_short arrive_sync
       cluster_ok cluster_exit cluster_branch cluster_part_cta cluster_arrive"
mkdir -p "$b/sec" "$b/xml"
one() {  # one MODE: both sections of MODE into $b/sec/MODE
  local mode=$1
  {
    echo "## $mode none"
    (cd "$b" && timeout 10 ./sync_probe "$mode" 2>&1)
    echo "rc=$?"
    echo "## $mode synccheck"
    (cd "$b" && timeout 20 $san --tool synccheck ./sync_probe "$mode" 2>&1)
    echo "rc=$?"
  } > "$b/sec/$mode"
  (cd "$b" && timeout 20 $san --tool synccheck --xml --save "$b/xml/$mode.xml" ./sync_probe "$mode" > /dev/null 2>&1)
}
for m in $modes; do one "$m" & done
wait
for m in $modes; do cat "$b/sec/$m"; done > "$out/sync_sanitize.txt"
tar -C "$b" -cf "$out/xml.tar" xml
rm -rf "$b"
