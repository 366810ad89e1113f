#!/usr/bin/env python3
"""Lists, per acceptance program, every address-level counter (compare.py's EXACT list) that differs
from the H100's, launch by launch, with warpscope's and the H100's values.

Usage: acceptance_exact_misses.py RESULTDIR [ACCEPTANCE_DIR]
RESULTDIR is run_warpscope.sh's output; ACCEPTANCE_DIR defaults to ../shared/acceptance."""
import os
import sys

res = sys.argv[1]
acc = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), '../../../../shared/acceptance')
sys.path.insert(0, os.path.abspath(acc))
import compare  # noqa: E402  (the suite's own reader of both CSVs)

for name in sorted(f[:-8] for f in os.listdir(os.path.join(compare.HERE, 'h100')) if f.endswith('.ncu.csv')):
    mine_path = os.path.join(res, name + '.metrics.csv')
    gpu = compare.h100(name)
    mine = compare.warpscope(mine_path) if os.path.exists(mine_path) else []
    misses = []
    for i, g in enumerate(gpu):
        w = mine[i] if i < len(mine) else {}
        for m in compare.EXACT:
            if m in g and g[m] == g[m] and w.get(m) != g[m]:
                misses.append(f'#{i} {m}={w.get(m)}/{g[m]:.0f}')
    status = 'not run' if not mine else ('exact' if not misses else f'{len(misses)} differ')
    print(f'{name:26s} {status}' + (': ' + '; '.join(misses[:6]) + (' ...' if len(misses) > 6 else '') if misses else ''))
