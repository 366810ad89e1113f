#!/usr/bin/env python3
"""Two rules for the L1 sectors of one warp's REDG, against the H100's per-warp captures
(tests/hw/data/h100/red, docs/accuracy.md exception D) and on hist_global's whole input:

  model    a sector moves once per update of its most updated word (warpscope's rule)
  leader   passes; in each, every line class (the 128-byte line index i of the 1 KiB array,
           classes {i, i ^ 7}) has a leader line, the line of its first remaining lane. Lanes are
           taken in lane order: a lane claims its word position (class, offset in line) if free.
           A leader-line lane whose position is taken waits for a later pass; when a lane of
           another line finds its position taken, that whole line leaves the pass (its claims
           are released) and waits. Sectors = distinct (pass, sector) pairs.

    python3 tests/hw/tools/red_line_pairs.py      (pure Python, about 15 seconds)
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from histogram_pass_rules import H100, N, data  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "h100", "red")


def line_class(line):
    return min(line, line ^ 7)


def model(words):
    count = defaultdict(int)
    passes = defaultdict(set)
    for w in words:
        if w >= 0:
            passes[count[w]].add(w // 8)
            count[w] += 1
    return sum(len(s) for s in passes.values())


def leader(words, cls=line_class):
    """The leader rule; cls maps a line (word index // 32) to its class (red_classes.py passes the
    measured parities)."""
    remaining = [(lane, w) for lane, w in enumerate(words) if w >= 0]
    sectors = 0
    while remaining:
        lead = {}
        for _, w in remaining:
            lead.setdefault(cls(w // 32), w // 32)
        claims, blocked, taken, waiting = {}, set(), [], []
        for lane, w in remaining:
            line = w // 32
            key = (cls(line), w % 32)
            if lead[key[0]] == line:
                (taken if key not in claims else waiting).append((lane, w))
                claims.setdefault(key, line)
            elif line in blocked:
                waiting.append((lane, w))
            elif key not in claims:
                claims[key] = line
                taken.append((lane, w))
            else:
                blocked.add(line)
                back = [x for x in taken if x[1] // 32 == line]
                taken = [x for x in taken if x[1] // 32 != line]
                for _, b in back:
                    claims.pop((key[0], b % 32), None)
                waiting += back + [(lane, w)]
        sectors += len({w // 8 for _, w in taken})
        remaining = sorted(waiting)
    return sectors


def captures():
    for name in ("red_passes.csv", "red_passes_lines.csv", "red_passes_pairs.csv"):
        with open(os.path.join(DATA, name)) as f:
            text = f.read().splitlines()
        patterns = [l.split() for l in text if l[:1].isdigit()]
        rows = list(csv.reader(l for l in text if l.startswith('"')))
        col = rows[0].index("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum")
        for p, row in zip(patterns, rows[2:]):
            yield p[1], [int(x) for x in p[2:]], int(row[col].replace(",", ""))


def main():
    total, exact = 0, defaultdict(int)
    for _, words, hw in captures():
        total += 1
        exact["model"] += model(words) == hw
        exact["leader"] += leader(words) == hw
    print(f"{total} one-warp launches: exact {exact['model']} (model), {exact['leader']} (leader)")
    for skew in (0, 1):
        d = data(777 + skew, skew)
        m = sum(model(d[i:i + 32]) for i in range(0, N, 32))
        l = sum(leader(d[i:i + 32]) for i in range(0, N, 32))
        print(f"hist_global {'skewed' if skew else 'uniform'}: H100 {H100[skew]}, model {m}, leader {l}")


if __name__ == "__main__":
    main()
