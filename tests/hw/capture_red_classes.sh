#!/bin/bash
# Captures tests/hw/red_classes.cu under ncu on an H100 (docs/accuracy.md exception D; see
# tests/hw/data/h100/red/README.md). SETS (default "builtin offsets pairs"), in order: builtin (the
# built-in list, red_classes --list), offsets and pairs (tests/hw/red_classes_offsets.txt,
# tests/hw/red_classes_pairs.txt), SET.NN (only chunk NN of a set), alias (red_classes_alias.cu
# --controls, one run), alias_generic (red_classes_alias.cu --generic, one run). Each set is run in
# chunks of CHUNK patterns (one ncu process each, so that a run cut short keeps what it finished);
# a chunk starts only if the time measured so far says it ends within SECONDS.
# Writes OUTDIR/versions.txt, OUTDIR/log.txt and OUTDIR/chunks.tgz (one ncu output per chunk:
# the program's lines, then ncu's CSV); tests/hw/tools/red_classes.py --merge DIR joins them into
# red_classes*.csv.
# Usage: tests/hw/capture_red_classes.sh OUTDIR [SECONDS] [CHUNK] [SETS]
set -u
out=$1
budget=${2:-480}
chunk=${3:-500}
sets=${4:-builtin offsets pairs}
start=$(date +%s)
work=$(mktemp -d)
mkdir -p "$out" "$work/cap" "$work/in"
log() { echo "$(( $(date +%s) - start )) s: $*" | tee -a "$out/log.txt"; }
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  ncu --version | tail -n 1
} > "$out/versions.txt" 2>&1
nvcc -cudart shared -lineinfo -arch=sm_90 -o "$work/red_classes" tests/hw/red_classes.cu || exit 1
nvcc -cudart shared -lineinfo -arch=sm_90 -o "$work/red_classes_alias" tests/hw/red_classes_alias.cu || exit 1
log "built"
"$work/red_classes" --list > "$work/builtin.txt"
for set in builtin offsets pairs; do
  case $set in
    builtin) src=$work/builtin.txt ;;
    *) src=tests/hw/red_classes_$set.txt ;;
  esac
  split -d -a 2 -l "$chunk" "$src" "$work/in/$set."
done
: > "$work/in/alias.00"  # stand for the alias program's runs (about 1,000 and 912 patterns)
: > "$work/in/alias_generic.00"
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_requests_srcunit_tex_op_red.sum
done_launches=0
for set in $sets; do
  case $set in
    *.*) chunks=$work/in/$set ;;
    *) chunks=$(ls "$work"/in/$set.*) ;;
  esac
  for f in $chunks; do
    lines=$(wc -l < "$f")
    prog=("$work/red_classes" "$f")
    case $set in
      alias) lines=1005; prog=("$work/red_classes_alias" --controls) ;;
      alias_generic) lines=912; prog=("$work/red_classes_alias" --generic) ;;
    esac
    now=$(( $(date +%s) - start ))
    if [ "$done_launches" -gt 0 ]; then
      est=$(( 10 + lines * (now - first) / done_launches ))
      if [ $(( now + est )) -gt "$budget" ]; then
        log "skip $(basename "$f") ($lines patterns, about $est s)"
        continue
      fi
    else
      first=$now
    fi
    t0=$(date +%s)
    timeout $(( budget - now + 30 )) ncu --clock-control none --csv --page raw --metrics "$metrics" \
      "${prog[@]}" > "$work/cap/$(basename "$f").csv" 2>&1
    rc=$?
    done_launches=$(( done_launches + lines ))
    log "$(basename "$f"): $lines patterns, rc $rc, $(( $(date +%s) - t0 )) s, $(grep -c '^"' "$work/cap/$(basename "$f").csv") csv lines, $(tail -n 1 "$work/cap/$(basename "$f").csv" | cut -c1-40)"
  done
done
cp "$work"/in/* "$work/cap/" 2>/dev/null
tar czf "$out/chunks.tgz" -C "$work" cap
log "done"
