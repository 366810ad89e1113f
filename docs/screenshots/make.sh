#!/usr/bin/env bash
# Remakes the screenshots of docs/report.md's "HTML" section: warpscope run --html on
# examples/saxpy.cu and on transpose.cu (a 32-way shared-memory bank conflict, with
# --compare-arch ampere), each page type in headless Chromium at 1280 pixels (and the launch page
# at 1920). The source and warp-access shots are the launch page with what comes before that
# part taken out (headless Chromium draws a blank page when a script scrolls it).
# Usage: docs/screenshots/make.sh (after scripts/build.sh; needs nvcc and chromium).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
out=docs/screenshots
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/bin/warpscope run --quiet --html "$work/saxpy" examples/saxpy.cu -- 100003 >/dev/null 2>"$work/log"
cp "$out/transpose.cu" "$work/transpose.cu"
build/bin/warpscope run --quiet --html "$work/transpose" --compare-arch ampere "$work/transpose.cu" >/dev/null 2>>"$work/log"

shot() {  # page, width,height, png
  timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --hide-scrollbars --user-data-dir="$work/profile" --window-size="$2" --screenshot="$3" "file://$1" >/dev/null 2>&1
}
from() {  # page, element id: a copy of the page from the kernel's heading straight to the element
  local copy="${1%.html}.from_$2.html"
  sed "s#</body>#<script>(function(){var t=document.getElementById('$2'),p=t.previousElementSibling;while(p\&\&!p.matches('p.mangled')){var q=p.previousElementSibling;p.remove();p=q;}})();</script></body>#" \
    "$1" >"$copy"
  echo "$copy"
}
shot "$work/saxpy/index.html" 1280,560 "$out/index_1280.png"
shot "$work/transpose/launch_1.html" 1280,1160 "$out/launch_1280.png"
shot "$work/transpose/launch_1.html" 1920,1000 "$out/launch_1920.png"
shot "$(from "$work/transpose/launch_1.html" source-heading)" 1280,640 "$out/source_1280.png"
shot "$(from "$work/transpose/launch_1.html" accesses-heading)" 1280,1040 "$out/banks_1280.png"
shot "$work/transpose/launch_1_compare.html" 1280,900 "$out/compare_1280.png"
ls -l "$out"/*.png
