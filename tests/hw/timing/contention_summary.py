#!/usr/bin/env python3
"""Summarises tests/hw/data/h100/timing/contention_ncu.csv (capture_contention.sh): each case of
contention.cu with ncu's gpu__time_duration, its L2 atomic/reduction requests, and the slopes the
time model's constants come from (docs/time.md): ns per added operation between the iters2 and
iters8 runs of an atomic case, ns per added call between printf/heap sizes, bytes per ns of the
zero-copy kernels.   python3 tests/hw/timing/contention_summary.py [DATA_DIR]"""
import csv, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../data/h100/timing")
rows = list(csv.reader(open(os.path.join(d, "contention_ncu.csv"))))
start = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
h = rows[start]
launches = [r for r in rows[start + 2:] if len(r) == len(h)]
launches = [r for r in launches if not r[h.index("Kernel Name")].startswith("empty_kernel")]
names = [l.split() for l in open(os.path.join(d, "contention_under_ncu.txt")) if " ms" in l]
assert len(names) == len(launches), (len(names), len(launches))
num = lambda r, m: float(r[h.index(m)].replace(",", ""))
case = {}
for n, r in zip(names, launches):
    ns = num(r, "gpu__time_duration.sum")
    ops = float(n[3]) if len(n) > 4 and n[4] == "ops" else float(n[3]) if len(n) > 4 else 0
    case[n[0]] = (ns, ops, num(r, "lts__t_requests_srcunit_tex_op_atom.sum") + num(r, "lts__t_requests_srcunit_tex_op_red.sum"))
    print(f"{n[0]:48s} {ns:12.0f} ns  L2 atom+red requests {case[n[0]][2]:10.0f}")
print()
for k in sorted(case):
    if k.startswith("atomic_") and k.endswith("_iters2"):
        a, b = case[k], case[k[:-1] + "8"]
        print(f"slope {k[:-7]:42s} {(b[0] - a[0]) / (b[1] - a[1]):8.4f} ns per added op")
def slope(a, b, calls):
    print(f"slope {a} -> {b}: {(case[b][0] - case[a][0]) / calls:10.1f} ns per added call")
for args in ("1arg", "4arg"):
    slope(f"printf_{args}_calls32", f"printf_{args}_calls2048", 2048 - 32)
    slope(f"printf_{args}_calls2048", f"printf_{args}_calls16384", 16384 - 2048)
slope("heap_serial_k1_bytes64", "heap_serial_k16_bytes64", 15)
slope("heap_serial_k16_bytes64", "heap_serial_k256_bytes64", 240)
for n in (32, 256, 2048, 16384):
    slope(f"heap_parallel_threads{n}_k1_bytes64", f"heap_parallel_threads{n}_k4_bytes64", 3 * n)
for k in sorted(case):
    if k.startswith("zerocopy"):
        print(f"bandwidth {k:30s} {case[k][1] / case[k][0]:8.2f} bytes per ns")
