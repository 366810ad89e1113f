#!/usr/bin/env python3
"""Compares texture_probe / surface_probe output with the H100's (tests/hw/data/h100/texture).

  texture_compare.py GT.csv OURS.csv [--first N] [--fail-on CASE,...]

Rows are matched by (case, coordinates) in order; per case prints exact matches / rows and the
first N mismatches (coordinates, H100 bits, ours). Rows the other side lacks count as mismatches.
The first column is the case (texture_samples.csv) or op,mode (surface_results.csv; detected by
the header). Exit status 1 when a case named in --fail-on has a mismatch.
"""
import argparse
import collections
import sys


def load(path):
    rows = collections.OrderedDict()
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    if not lines:
        return rows
    header = lines[0].split(",")
    surface = header[:2] == ["op", "mode"]
    for l in lines[1:]:
        p = l.split(",")
        if surface:
            if p[0] in ("read", "wrote", "after_write", "read_u8x4"):
                case, key, val = p[0] + "_" + p[1], tuple(p[2:4]), tuple(p[4:])
            elif p[0] == "trap":
                case, key, val = "trap", tuple(p[1:3]), tuple(p[3:])
            else:
                case, key, val = p[0], (), tuple(p[1:])
        else:
            case, key, val = p[0], tuple(p[1:4]), tuple(p[4:])
        d = rows.setdefault(case, [])
        d.append((key, val))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gt")
    ap.add_argument("ours")
    ap.add_argument("--first", type=int, default=3)
    ap.add_argument("--fail-on", default="")
    a = ap.parse_args()
    gt, ours = load(a.gt), load(a.ours)
    bad = set()
    total = [0, 0]
    for case, grows in gt.items():
        orows = ours.get(case, [])
        omap = collections.defaultdict(list)
        for k, v in orows:
            omap[k].append(v)
        seen = collections.Counter()
        match, mism = 0, []
        for k, v in grows:
            lst = omap.get(k, [])
            o = lst[seen[k]] if seen[k] < len(lst) else None
            seen[k] += 1
            if o == v:
                match += 1
            else:
                mism.append((k, v, o))
        total[0] += match
        total[1] += len(grows)
        flag = "" if match == len(grows) else "  MISMATCH"
        print(f"{case:34s} {match:5d}/{len(grows):<5d}{flag}")
        for k, v, o in mism[: a.first]:
            print(f"    at {','.join(k)}: h100 {' '.join(v)}  ours {' '.join(o) if o else '(missing)'}")
        if mism:
            bad.add(case)
    print(f"{'total':34s} {total[0]:5d}/{total[1]}")
    want = {c for c in a.fail_on.split(",") if c}
    return 1 if want & bad else 0


if __name__ == "__main__":
    sys.exit(main())
