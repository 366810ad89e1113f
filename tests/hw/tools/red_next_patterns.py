#!/usr/bin/env python3
"""Writes tests/hw/red_classes_next.txt: one-warp REDG patterns on red_classes.cu's region that tell
apart the rules tests/hw/tools/red_misses.py fits on the first captures (docs/accuracy.md exception
D), where those captures cannot: warps with 3 or 4 lines of one class, and small warps on which
"the leader evicts the holder line" changes the count.

  - small_*: lanes 0..n-1 (n = 3, 4) on lines A, B, C of one class (region lines 0, 5, 10) at word
    offsets 0, 5, 9, every such warp on which the candidate rules (current, H, H+F, proposed)
    do not all agree (at most 120);
  - rand4_*: 32 lanes on random words of lines 0, 5, 10, 15 (one class), 60 warps;
  - rand8_*: 32 lanes on random words of lines 0, 5, 10, 15, 1, 4, 11, 14 (two classes), 40 warps.

    python3 tests/hw/tools/red_next_patterns.py     (then run red_classes with that file)
"""
import itertools
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from red_misses import current, proposed, rule  # noqa: E402

OUT = os.path.join(HERE, "..", "red_classes_next.txt")


def main():
    h, hf = rule(claims="ghost", dup="wait"), rule(claims="ghost", leader_hit="evict", dup="wait")
    lines = []
    small = 0
    for n in (3, 4):
        for ls in itertools.product((0, 5, 10), repeat=n):
            if ls[0] != 0:
                continue
            for offs in itertools.product((0, 5, 9), repeat=n):
                w = [line * 32 + o for line, o in zip(ls, offs)] + [-1] * (32 - n)
                counts = {current(w), h(w), hf(w), proposed(w)}
                if len(counts) > 1 and small < 120:
                    small += 1
                    lines.append((f"small_{small}", w))
    rng = random.Random(2026)
    for i in range(60):
        lines.append((f"rand4_{i}", [rng.choice((0, 5, 10, 15)) * 32 + rng.randrange(32) for _ in range(32)]))
    for i in range(40):
        lines.append((f"rand8_{i}", [rng.choice((0, 5, 10, 15, 1, 4, 11, 14)) * 32 + rng.randrange(32)
                                     for _ in range(32)]))
    with open(OUT, "w") as f:
        for name, w in lines:
            f.write(name + " " + " ".join(str(x) for x in w) + "\n")
    print(f"{OUT}: {len(lines)} patterns ({small} small)")


if __name__ == "__main__":
    main()
