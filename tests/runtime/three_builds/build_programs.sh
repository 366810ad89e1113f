#!/bin/bash
# The fixture three_builds_programs (tests/runtime/CMakeLists.txt): builds the named acceptance
# programs three ways (nvcc_three.sh) with the suite's own build.sh.
#
#   build_programs.sh ACCEPTANCE_DIR OUTDIR DRVRT_LIB name...
#
# Exits 77 (ctest: skipped) when the suite is absent. A program whose three builds are newer than
# its sources and DRVRT_LIB is not built again. JOBS (default 2) programs are built at once.
set -u
acc=${WARPSCOPE_ACCEPTANCE:-$1}; out=$2; lib=$(realpath "$3"); shift 3
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$acc/build.sh" ]; then
  echo "three_builds: the acceptance suite ($acc) is absent: skipped"
  exit 77
fi
mkdir -p "$out"
todo=()
for name in "$@"; do
  fresh=1
  for v in "" .static .drvrt; do
    b=$out/$name$v
    if [ ! -x "$b" ] || [ "$lib" -nt "$b" ] || [ "$here/nvcc_three.sh" -nt "$b" ] ||
       [ -n "$(find "$acc/$name" "$acc/common" -newer "$b" -print -quit 2>/dev/null)" ]; then fresh=0; fi
  done
  [ $fresh = 1 ] && echo "up to date $name" || todo+=("$name")
done
[ ${#todo[@]} -eq 0 ] && exit 0
NVCC="$here/nvcc_three.sh" DRVRT_LIB="$lib" JOBS=${JOBS:-2} bash "$acc/build.sh" "$out" "${todo[@]}"
