#!/usr/bin/env bash
# The seeds' coalescing cases (seed 003, design.md's table): 32 threads reading 4-byte words,
# as caching (128 B L1 lines) and non-caching (32 B segments) loads on Fermi, then the same
# accesses on the H100 (32 B sectors), plus the local and shared cases. Writes JSON and SVG for
# each case under ${OUT_DIR:-build/examples/seeds}.
set -euo pipefail
cd "$(dirname "$0")/.."
ws=build/bin/warpscope
out=${OUT_DIR:-build/examples/seeds}
mkdir -p "$out"

run() {  # run NAME ARGS...
  local name=$1; shift
  echo "== $name: warpscope pattern $*"
  "$ws" pattern "$@" --json "$out/$name.json" --svg "$out/$name.svg"
  echo
}

# Case                       index expression      (seed 003's slides)
for arch in fermi hopper; do
  for cache in ca cg; do
    run "$arch-$cache-aligned"    --arch $arch --cache $cache --index 'lane'
    run "$arch-$cache-permuted"   --arch $arch --cache $cache --index '(lane*7+3)%32'
    run "$arch-$cache-misaligned" --arch $arch --cache $cache --index 'lane+1'
    run "$arch-$cache-same-word"  --arch $arch --cache $cache --index '0'
    run "$arch-$cache-scattered"  --arch $arch --cache $cache --index 'lane*64'
  done
done
run hopper-16-byte   --index lane --width 16
run hopper-local-16  --space local --index 0 --width 16 --op store
run hopper-shared-stride2 --space shared --index 'lane*2'
run tesla-misaligned --arch tesla --index 'lane+1'
echo "JSON and SVG written to $out"
