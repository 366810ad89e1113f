#!/usr/bin/env bash
# Builds warpscope and runs its main job on the bundled example: the seeds' coalescing cases
# (design.md's table, seed 003) through `warpscope pattern`, on Fermi and on Hopper.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
exec bash examples/seeds_coalescing.sh
