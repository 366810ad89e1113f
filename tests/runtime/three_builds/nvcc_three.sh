#!/bin/bash
# nvcc_three.sh: the NVCC that ../shared/acceptance/build.sh calls for three_builds_test.cpp
# (docs/runtime.md, "A runtime on the driver API: drvrt"). build.sh runs, in the program's folder,
#
#   $NVCC -cudart shared -lineinfo -O3 -arch=sm_90 <its flags> -o OUT/NAME <sources>
#
# This script compiles each source once (nvcc's compile steps do not depend on -cudart: its
# --dryrun commands differ only in temporary names) and links the objects three ways:
#
#   OUT/NAME         -cudart shared   (warpscope's libcudart.so.13 at run time)
#   OUT/NAME.static  -cudart static   (NVIDIA's runtime inside, on warpscope's libcuda.so.1)
#   OUT/NAME.drvrt   -cudart none + libdrvrt.a + -lcuda (the team's runtime on the driver API)
#
# Environment: DRVRT_LIB (libdrvrt.a, required), REAL_NVCC (default: nvcc on PATH, else
# /usr/local/cuda/bin/nvcc). A runtime function libdrvrt.a does not define fails the third link
# with a line naming the functions: "drvrt does not cover: cudaFoo, cudaBar (NAME)".
set -eu
: "${DRVRT_LIB:?DRVRT_LIB must name libdrvrt.a}"
NVCC=${REAL_NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
STUBS=$(dirname "$(command -v "$NVCC")")/../lib64/stubs   # NVIDIA's link-time libcuda.so

out="" srcs=() flags=() libs=()
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    -cudart) shift 2 ;;
    -lineinfo) flags+=("$1"); shift ;;
    -l*) libs+=("$1"); shift ;;
    *.cu | *.cpp | *.cc | *.c) srcs+=("$1"); shift ;;
    *) flags+=("$1"); shift ;;
  esac
done
[ -n "$out" ] && [ ${#srcs[@]} -gt 0 ] || { echo "nvcc_three.sh: no -o or no sources" >&2; exit 2; }

objdir=$out.objs
rm -rf "$objdir" "$out" "$out.static" "$out.drvrt"
mkdir -p "$objdir"
objs=()
for s in "${srcs[@]}"; do
  o=$objdir/$(basename "$s").o
  "$NVCC" "${flags[@]}" -c "$s" -o "$o"
  objs+=("$o")
done
"$NVCC" "${flags[@]}" -cudart shared "${objs[@]}" "${libs[@]}" -o "$out"
"$NVCC" "${flags[@]}" -cudart static "${objs[@]}" "${libs[@]}" -o "$out.static"
if ! "$NVCC" "${flags[@]}" -cudart none "${objs[@]}" "$DRVRT_LIB" -L"$STUBS" -lcuda "${libs[@]}" \
     -o "$out.drvrt" 2> "$out.drvrt.link.log"; then
  missing=$(grep -o "undefined reference to \`[A-Za-z_0-9]*'" "$out.drvrt.link.log" | sed "s/.*\`//; s/'//" | sort -u |
            paste -sd, - | sed 's/,/, /g')
  if [ -n "$missing" ]; then
    echo "drvrt does not cover: $missing ($(basename "$out"))" >&2
  else
    cat "$out.drvrt.link.log" >&2
  fi
  exit 1
fi
