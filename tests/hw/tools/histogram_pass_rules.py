#!/usr/bin/env python3
"""Candidate rules for how many L1 sectors a warp's REDG to a 256-bin histogram costs
(docs/accuracy.md, exception D), evaluated on hist_global's own input: the bytes that
tests/hw/accuracy/histogram.cu generates (its Lcg, seeds 777 and 778), 128 blocks x 256 threads,
n = 262144, each warp access = 32 consecutive bytes, bin b in sector b // 8 (4-byte counters).
Prints each rule's total next to the H100's l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum.

    python3 tests/hw/tools/histogram_pass_rules.py      (pure Python, about a minute)

Rules (per warp access, summed over the sectors it touches):
  most_updated_word   updates of the sector's most-updated word (warpscope's model)
  lane_order          passes over the lanes in order; a pass ends when a word repeats
  cap K               max(most_updated_word, ceil(updates / K))
  lane_order_cap K    lane_order, a pass also ending after K updates
  half / quarter      most_updated_word for each 16 / 8 lanes apart
  distinct_sectors    one per sector touched
"""
import math
from collections import Counter

N = 262144
THREADS = 128 * 256
H100 = {0: 185361, 1: 259588}  # tests/hw/data/h100/accuracy/histogram_metrics.csv, launches #0 and #2


def data(seed, skew):
    # examples/common.cuh Lcg: every step below is exact in float, so doubles give the same values.
    st, out = seed, []
    for _ in range(N):
        st = (st * 1664525 + 1013904223) & 0xFFFFFFFF
        r = int(((st >> 8) / 8388608.0 - 1.0 + 1.0) * 32768.0)
        out.append(r & 0xFF if not skew else ((r >> 3) & 0xFF if r % 8 == 0 else 42))
    return out


def most_updated_word(bins):
    per_sector = {}
    for b, k in Counter(bins).items():
        per_sector[b // 8] = max(per_sector.get(b // 8, 0), k)
    return sum(per_sector.values())


def lane_order(bins, cap=None):
    total = 0
    for s in {b // 8 for b in bins}:
        passes, seen = 1, set()
        for b in bins:
            if b // 8 != s:
                continue
            if b in seen or (cap is not None and len(seen) >= cap):
                passes, seen = passes + 1, set()
            seen.add(b)
        total += passes
    return total


def capped(bins, cap):
    by_sector = {}
    for b in bins:
        by_sector.setdefault(b // 8, []).append(b)
    return sum(max(max(Counter(l).values()), math.ceil(len(l) / cap)) for l in by_sector.values())


def main():
    for skew in (0, 1):
        d = data(777 + skew, skew)
        totals = Counter()
        for w in range(THREADS // 32):
            for it in range(N // THREADS):
                base = it * THREADS + w * 32
                bins = d[base:base + 32]
                totals["most_updated_word"] += most_updated_word(bins)
                totals["lane_order"] += lane_order(bins)
                for k in (2, 3, 4):
                    totals[f"cap {k}"] += capped(bins, k)
                    totals[f"lane_order_cap {k}"] += lane_order(bins, k)
                totals["half"] += sum(most_updated_word(bins[i:i + 16]) for i in (0, 16))
                totals["quarter"] += sum(most_updated_word(bins[i:i + 8]) for i in (0, 8, 16, 24))
                totals["distinct_sectors"] += len({b // 8 for b in bins})
        print(f"{'skewed' if skew else 'uniform'} input: H100 {H100[skew]}")
        for rule, v in totals.items():
            print(f"  {rule:18s} {v:8d}  ({100.0 * (v - H100[skew]) / H100[skew]:+.2f} %)")


if __name__ == "__main__":
    main()
