#!/usr/bin/env python3
"""Lists, launch by launch, warpscope's machine-code instruction counts next to the H100's.

Usage: compare_inst_counts.py REPORT.json NCU.csv [--all]
REPORT.json is a warpscope report (WARPSCOPE_REPORT=... or `warpscope run --json`); NCU.csv is
Nsight Compute's raw CSV of the same program (tests/hw/data/h100/**/NAME_metrics.csv,
../shared/acceptance/h100/NAME.ncu.csv). Launches are paired in order. Prints the launches whose
smsp__inst_executed.sum or smsp__thread_inst_executed.sum differ (all with --all), each with
whether warpscope marked its counts exact and the notes that say why not (report key `sass`;
docs/analysis.md, "Instruction counts from the machine code"). Exit status 1 when a launch that
warpscope calls exact differs."""
import csv, io, json, sys

METRICS = ['smsp__inst_executed.sum', 'smsp__thread_inst_executed.sum']


def number(v):
    try:
        return float(v.replace(',', ''))
    except (ValueError, AttributeError):
        return None


def ncu_rows(path):
    lines = [l for l in open(path, errors='replace') if l.startswith('"')]
    rows = list(csv.reader(io.StringIO(''.join(lines))))
    if not rows:
        return []
    head = rows[0]
    out = []
    for r in rows[1:]:
        d = dict(zip(head, r))
        if number(d.get('ID', '')) is None:
            continue  # the units row
        out.append(d)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    show_all = '--all' in sys.argv
    if len(args) != 2:
        print(__doc__)
        return 2
    report = json.load(open(args[0]))
    ours = report['launches']
    hw = ncu_rows(args[1])
    bad = 0
    differ = 0
    for i, (o, h) in enumerate(zip(ours, hw)):
        m = o.get('metrics', {})
        sass = o.get('sass')
        vals = [(m.get(k), number(h.get(k, ''))) for k in METRICS]
        same = all(a is not None and b is not None and float(a) == b for a, b in vals)
        if same and not show_all:
            continue
        differ += not same
        exact = sass is not None and sass.get('exact', False)
        how = 'no machine code (PTX counts)' if sass is None else ('exact' if exact else 'estimated')
        name = o.get('name', '?').split('(')[0]
        print(f"#{i} {name}: warp {vals[0][0]} vs H100 {vals[0][1]:.0f}, thread {vals[1][0]} vs H100 "
              f"{vals[1][1]:.0f} [{how}]")
        for n in (sass or {}).get('notes', []):
            print(f"    {n}")
        if exact and not same:
            bad += 1
    print(f"launches={min(len(ours), len(hw))} differ={differ} exact_but_differ={bad}"
          + ("" if len(ours) == len(hw) else f" (report has {len(ours)} launches, the CSV {len(hw)})"))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
