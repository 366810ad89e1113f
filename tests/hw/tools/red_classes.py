#!/usr/bin/env python3
"""Which 128-byte lines compete in one warp's REDG on the H100 (docs/accuracy.md exception D),
from tests/hw/red_classes.cu's captures in tests/hw/data/h100/red (red_classes*.csv).

Each launch touches lines A and B = A ^ D of a 1 GiB-aligned region with the lanes of a template
(a warp known to cost more at lines i, i ^ 7 of the 1 KiB array). A launch "costs more" when its
L1 sectors exceed the single-line rule (model: a sector moves once per update of its most updated
word, summed over the lines). Lines compete iff D (as a line distance, D / 128) lies in a set that
this tool finds; it then checks whether that set is a linear subspace (an XOR rule), gives the
parity checks that define it, and runs red_line_pairs.py's leader rule with that class function
on every capture (red_passes*.csv and red_classes*.csv; red_passes.cu's 256-word array lies 0x200
bytes into a 2 MiB page, as red_classes.cu prints, so its line i is the page's line 4 + i), and on
hist_global's input. It also reports red_classes_alias.cu's captures (one physical page at several
virtual addresses, with controls inside one page and between two pages), where present: whether the
aliased pairs cost more where the rule on their virtual or their physical distance says, and the
parities of address bits 30..39 read off them.

    python3 tests/hw/tools/red_classes.py                 report (pure Python, about 40 s)
    python3 tests/hw/tools/red_classes.py --write-pairs   writes tests/hw/red_classes_pairs.txt
                                                          and tests/hw/red_classes_offsets.txt
    python3 tests/hw/tools/red_classes.py --merge DIR     joins capture_red_classes.sh's chunks (DIR:
                                                          chunks.tgz unpacked) into red_classes*.csv
"""
import csv
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from histogram_pass_rules import H100, N, data  # noqa: E402
from red_line_pairs import leader, model  # noqa: E402

DATA = os.path.join(HERE, "..", "data", "h100", "red")
HW = os.path.join(HERE, "..")
LINE_BITS = 23  # the region is 2^23 lines of 128 bytes (address bits 7..29)
L1_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"
L1_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"
L2_SECTORS = "lts__t_sectors_srcunit_tex_op_red.sum"


# ---------------------------------------------------------------------------------------------
# Pattern files for red_classes.cu (the built-in list is in the .cu itself).

MIN = [(0, 0), (1, 5), (0, 5)]  # template "min": (line: 0 = A, 1 = B; word offset) for lanes 0..2


def min_pattern(a, d, offsets=(0, 5, 5)):
    words = [(a ^ (d if sel else 0)) * 32 + off for (sel, _), off in zip(MIN, offsets)]
    return words + [-1] * (32 - len(words))


def write_pairs():
    """min at A = 0 with D = 2^j ^ 2^k ^ m (line bits j < k in 3..22, m = 0..7): the pairs of high
    bits. Order: pairs with bit 3 (address bit 10), then neighbours, then the rest."""
    pairs = [(j, k) for j in range(3, LINE_BITS) for k in range(j + 1, LINE_BITS)]
    first = [p for p in pairs if p[0] == 3] + [p for p in pairs if p[0] != 3 and p[1] == p[0] + 1]
    rest = [p for p in pairs if p not in first]
    rest.sort(key=lambda p: ((p[0] * 7919 + p[1] * 104729) % 191, p))  # a fixed mixed order
    with open(os.path.join(HW, "red_classes_pairs.txt"), "w") as f:
        for j, k in first + rest:
            for m in range(8):
                d = (1 << j) ^ (1 << k) ^ m
                f.write(f"min_a0_d{d << 7:x} " + " ".join(map(str, min_pattern(0, d))) + "\n")
    # Other offsets: lane 1 on B's word 5 ^ x instead of 5 (x = 1..31), for a few distances.
    with open(os.path.join(HW, "red_classes_offsets.txt"), "w") as f:
        for d in (7, 0, 8, 15, 1 << 9, (1 << 9) ^ 7, 1 << 14, (1 << 14) ^ 7):
            for x in range(1, 32):
                f.write(f"min_a0_d{d << 7:x}_x{x} " + " ".join(map(str, min_pattern(0, d, (0, 5 ^ x, 5)))) + "\n")


def merge(folder):
    """One file per pattern set: for each chunk a comment with its addresses and verdict, the
    program's lines numbered on across chunks, a last OK or FAIL, then ncu's header and rows (IDs
    numbered on likewise; only ID, Kernel Name and the l1tex__ / lts__ columns)."""
    names = {"builtin": "red_classes.csv", "offsets": "red_classes_offsets.csv", "pairs": "red_classes_pairs.csv",
             "alias": "red_classes_alias.csv", "alias_generic": "red_classes_alias_generic.csv"}
    for key, target in names.items():
        chunks = sorted(f for f in os.listdir(folder) if f.startswith(key + ".") and f.endswith(".csv"))
        if not chunks:
            continue
        comments, prog, rows, head, ok = [], [], [], None, True
        for c in chunks:
            with open(os.path.join(folder, c)) as f:
                text = f.read().splitlines()
            addr = [l[2:] for l in text if l.startswith("# ")]
            verdict = [l for l in text if l in ("OK", "FAIL")]
            ok &= verdict == ["OK"]
            lines = [l.split(" ", 1)[1] for l in text if re.match(r"\d+ ", l)]
            table = list(csv.reader(l for l in text if l.startswith('"')))
            keep = [i for i, h in enumerate(table[0]) if h in ("ID", "Kernel Name") or h.startswith(("l1tex__", "lts__"))]
            if head is None:
                head = [[t[i] for i in keep] for t in table[:2]]
            assert head == [[t[i] for i in keep] for t in table[:2]], c
            assert len(lines) == len(table) - 2, c
            comments.append(f"# {c[:-4]} (patterns {len(prog)}..{len(prog) + len(lines) - 1}): "
                            f"{addr[0] if addr else '?'}: {verdict[0] if verdict else 'no verdict'}")
            for l, t in zip(lines, table[2:]):
                r = [t[i] for i in keep]
                r[0] = str(len(prog))
                prog.append(f"{len(prog)} {l}")
                rows.append(r)
        with open(os.path.join(DATA, target), "w", newline="") as f:
            f.write("\n".join(comments + prog + ["OK" if ok else "FAIL"]) + "\n")
            w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
            w.writerows(head + rows)
        print(f"{target}: {len(prog)} launches from {len(chunks)} chunks, {'OK' if ok else 'FAIL'}")


# ---------------------------------------------------------------------------------------------
# Reading captures: the program's lines "N name w0 .. w31", then ncu's CSV rows in the same order.

def read(path):
    with open(path) as f:
        text = f.read().splitlines()
    patterns = [l.split() for l in text if re.match(r"\d+ ", l)]
    rows = list(csv.reader(l for l in text if l.startswith('"')))
    head = rows[0]
    out = []
    for p, row in zip(patterns, rows[2:]):
        get = lambda name: int(row[head.index(name)].replace(",", "")) if name in head else None  # noqa: E731
        out.append({"name": p[1], "words": [int(x) for x in p[2:]], "sectors": get(L1_SECTORS),
                    "requests": get(L1_REQUESTS), "l2_sectors": get(L2_SECTORS)})
    if len(patterns) != len(rows) - 2:
        print(f"{os.path.basename(path)}: {len(patterns)} program lines, {len(rows) - 2} ncu rows")
    return out


def files(prefix):
    return sorted(os.path.join(DATA, f) for f in os.listdir(DATA) if f.startswith(prefix) and f.endswith(".csv"))


# ---------------------------------------------------------------------------------------------
# The leader rule is red_line_pairs.py's, given a class function of the line (address / 128).

def parity(x):
    return bin(x).count("1") & 1


def class_fn(checks, shift=0):
    """The class of a line: the parities of (line + shift) & c for each check c."""
    return lambda line: tuple(parity((line + shift) & c) for c in checks)


# ---------------------------------------------------------------------------------------------
# GF(2) linear algebra on ints (bit i of a line distance = address bit i + 7).

def reduce(basis, x):
    for b in basis:
        x = min(x, x ^ b)
    return x


def span_basis(vectors):
    basis = []
    for v in vectors:
        v = reduce(basis, v)
        if v:
            basis.append(v)
            basis.sort(reverse=True)
    return basis


def null_space(basis, bits):
    """A basis of {c : parity(c & b) = 0 for every b in basis} over `bits` bits."""
    pivots = {}  # pivot bit -> row (fully reduced)
    for r in basis:
        for p, q in pivots.items():
            if r >> p & 1:
                r ^= q
        if r:
            p = r.bit_length() - 1
            for k in pivots:
                if pivots[k] >> p & 1:
                    pivots[k] ^= r
            pivots[p] = r
    out = []
    for f in range(bits):
        if f in pivots:
            continue
        v = 1 << f
        for p, q in pivots.items():
            if q >> f & 1:
                v |= 1 << p
        out.append(v)
    return out


def combinations(basis):
    out = []
    for i in range(1, 1 << len(basis)):
        c = 0
        for j, b in enumerate(basis):
            if i >> j & 1:
                c ^= b
        out.append(c)
    return sorted(out, key=lambda c: (bin(c).count("1"), c))


def bits_of(x, shift=7):
    return [i + shift for i in range(x.bit_length()) if x >> i & 1]


def fmt_bits(c):
    return "{" + ",".join(map(str, bits_of(c))) + "}"


# ---------------------------------------------------------------------------------------------
# red_classes_alias.cu: one physical 2 MiB page mapped at offsets 0 and 2^k (k = 21..39) of a
# 2^40-aligned virtual range; B at 2^k ^ (A ^ m)·128 is virtually 2^k ^ m·128 away from A and
# physically m·128 (the same page). Controls (ctl_*): B = A ^ m·128 in the page at 0 (virtual =
# physical distance), and B in a second physical page mapped at 3·2^21 (virtual distance
# 3·2^21 ^ m·128, physical unknown).

PAGE_LINES = (2 << 20) // 128
ALIAS_NAME = re.compile(r"(ctl_)?([a-z0-9]+)_a(\d+)_(k\d+|same|second)_m(\d+)$")


def alias_report(launches, name, what, checks):
    compete = lambda d: d != 0 and all(parity(d & c) == 0 for c in checks)  # noqa: E731 (d < 2^23 lines)
    costs = lambda x: x["sectors"] > model(x["words"])  # noqa: E731
    groups = defaultdict(list)  # (set, k or None) -> launches, each with its template, base, m and D
    for x in launches:
        ctl, tmpl, a, where, m = ALIAS_NAME.match(x["name"]).groups()
        x.update(tmpl=tmpl, a=int(a), m=int(m), d=two_lines(x)[2])
        k = int(where[1:]) if where.startswith("k") else None
        groups[("ctl_" + where if ctl else "alias", k)].append(x)
    requests = sorted({x["requests"] for x in launches})
    l2 = sum(x["l2_sectors"] == x["sectors"] for x in launches if x["l2_sectors"] is not None)
    aliased = [x for (g, _), v in groups.items() if g == "alias" for x in v]
    extra = sorted({(x["tmpl"], x["sectors"] - model(x["words"])) for x in launches if costs(x)})
    print(f"{name}, {what}: {len(launches)} launches, {sum(map(costs, launches))} cost more "
          f"(extra sectors per template: {extra}); l1tex red requests per launch: {requests}; "
          f"L2 red sectors = L1's in {l2}")
    if not any(costs(x) for x in launches):
        va = sum(x["d"] < 1 << LINE_BITS and compete(x["d"]) for x in aliased)
        pa = sum(compete(x["d"] % PAGE_LINES) for x in aliased)
        print(f"  no launch costs more, where the rule above on the virtual distance predicts {va} (k <= 29) "
              f"and on the physical distance {pa}: this capture cannot tell them apart")
        return None

    def agree(xs, predict):
        return (f"{sum(map(costs, xs))} cost more, predicted {sum(predict(x) for x in xs)} "
                f"(of which {sum(costs(x) and predict(x) for x in xs)} cost more), "
                f"agree on {sum(costs(x) == predict(x) for x in xs)} of {len(xs)}")
    virtual = lambda x: compete(x["d"])  # noqa: E731
    physical = lambda x: compete(x["d"] % PAGE_LINES)  # noqa: E731 (the same physical page)
    same = groups[("ctl_same", None)]
    second = groups[("ctl_second", None)]
    if same:
        print(f"  controls in one page (B = A ^ m·128, m = 1..15; virtual = physical distance): {agree(same, virtual)}; "
              f"costly m: {sorted({x['m'] for x in same if costs(x)})}")
    if second:
        print(f"  controls between two physical pages (virtual distance 0x600000 ^ m·128): by the rule on the virtual "
              f"distance {agree(second, virtual)}; costly m: {sorted({x['m'] for x in second if costs(x)})}")
    low = [x for x in aliased if x["d"] < 1 << LINE_BITS]
    print(f"  aliased, k = 21..29 ({len(low)} launches; virtual distance 2^k ^ m·128, physical m·128): "
          f"by the virtual distance {agree(low, virtual)}; by the physical distance {agree(low, physical)}")
    # Above bit 29 the region's rule says nothing; read each bit's parities off the costly m (the
    # class of 2^k must be the class of m·128) and check that exactly the m of that class cost more.
    combos = combinations(checks)
    high, ext, ok, n = sorted({k for (g, k) in groups if g == "alias" and k >= 7 + LINE_BITS}), {}, 0, 0
    for k in high:
        xs = groups[("alias", k)]
        cls = {tuple(parity(x["m"] & c) for c in checks) for x in xs if costs(x)}
        if len(cls) != 1:
            print(f"  bit {k}: the costly m are not one class ({sorted(x['m'] for x in xs if costs(x))})")
            continue
        ext[k] = next(iter(cls))
        n += len(xs)
        ok += sum(costs(x) == (tuple(parity(x["m"] & c) for c in checks) == ext[k]) for x in xs)
    if high:
        print(f"  aliased, k = {high[0]}..{high[-1]} ({sum(len(groups[('alias', k)]) for k in high)} launches): "
              f"per k the costly m are one class of m·128 for {len(ext)} of {len(high)} bits, and exactly that "
              f"class costs more in {ok} of {n} launches; so these bits take part too, with "
              f"{sum(any(e) for e in ext.values())} of {len(ext)} changing the class; the three parity sets extended:")
        for c in combos:
            more = [k for k, e in ext.items() if parity(sum(b << i for i, b in enumerate(e)) & combo_index(checks, c))]
            print(f"    {fmt_bits(c)} + {{{','.join(map(str, more))}}}")
    if len(ext) != len(high):
        return None
    # The checks over address bits 7..(highest k), for the leader rule on this capture.
    return [c | sum(e[j] << (k - 7) for k, e in ext.items()) for j, c in enumerate(checks)]


def combo_index(checks, c):
    """The bit mask over `checks` whose XOR is c (c one of combinations(checks))."""
    for i in range(1, 1 << len(checks)):
        if c == combine(checks, i):
            return i
    raise ValueError(c)


def combine(checks, i):
    out = 0
    for j, b in enumerate(checks):
        if i >> j & 1:
            out ^= b
    return out


# ---------------------------------------------------------------------------------------------

def two_lines(x):
    """(A, B, D) for a launch on two lines (A: the first line in lane order), else None."""
    lines = []
    for w in x["words"]:
        if w >= 0 and w // 32 not in lines:
            lines.append(w // 32)
    return (lines[0], lines[1], lines[0] ^ lines[1]) if len(lines) == 2 else None


def region_launches():
    """Launches of red_classes.csv and red_classes_pairs.csv on the 1 GiB region (not kib_*)."""
    out = []
    for name in ("red_classes.csv", "red_classes_pairs.csv"):
        path = os.path.join(DATA, name)
        if os.path.exists(path):
            out += [x for x in read(path) if not x["name"].startswith("kib_")]
    return out


def main():
    if "--write-pairs" in sys.argv:
        write_pairs()
        return
    if "--merge" in sys.argv:
        merge(sys.argv[sys.argv.index("--merge") + 1])
        return
    if not os.path.exists(os.path.join(DATA, "red_classes.csv")):
        print("no red_classes.csv")
        return

    # 1. Controls: one line (D = 0, onlyA, onlyB) follows the single-line rule; the 1 KiB array.
    region = region_launches()
    one = [x for x in region if two_lines(x) is None]
    print(f"one-line launches on the region: {sum(x['sectors'] == model(x['words']) for x in one)} of {len(one)} "
          "follow the single-line rule")
    for x in read(os.path.join(DATA, "red_classes.csv")):
        if x["name"].startswith("kib_"):
            print(f"  1 KiB array (as red_passes), {x['name']}: {x['sectors']} sectors, single-line rule {model(x['words'])}")

    # 2. Two lines A, B = A ^ D at the same offsets: which D cost more?
    by_d = defaultdict(list)
    for x in region:
        t = two_lines(x)
        if t:
            by_d[t[2]].append((x["name"], x["sectors"] - model(x["words"])))
    costly = sorted(d for d, v in by_d.items() if all(e > 0 for _, e in v))
    cheap = sorted(d for d, v in by_d.items() if all(e == 0 for _, e in v))
    mixed = sorted(d for d in by_d if d not in costly and d not in cheap)
    n = sum(len(v) for v in by_d.values())
    extras = sorted({(x.split("_")[0], e) for v in by_d.values() for x, e in v if e})
    print(f"two-line launches: {n} at {len(by_d)} distances D; every launch at a D agrees (costs more, or not) "
          f"except at {len(mixed)} D; {len(costly)} D cost more ({sum(len(by_d[d]) for d in costly)} launches), "
          f"{len(cheap)} do not ({sum(len(by_d[d]) for d in cheap)} launches)")
    print(f"  extra sectors when it costs more, per template: {extras}")
    for d in mixed:
        print(f"  mixed D = {d << 7:#x}: " + ", ".join(f"{nm} {e:+d}" for nm, e in by_d[d]))
    basis = span_basis(costly)
    inside = [d for d in cheap if reduce(basis, d) == 0]
    print(f"the costly D span {len(basis)} of {LINE_BITS} dimensions (address bits 7..29); cheap D inside that span: "
          f"{len(inside)}; costly D outside: 0 (by construction)")
    checks = null_space(basis, LINE_BITS)
    print(f"so, on these launches, lines A != B compete iff A ^ B has even parity on each of these {len(checks)} "
          "sets of address bits (any two of the three below; the third is their XOR):")
    for c in combinations(checks):
        print(f"    {fmt_bits(c)}")
    # The same fit from the built-in list alone (single high bits), tried on the pairs of high bits.
    first = {two_lines(x)[2] for x in read(os.path.join(DATA, "red_classes.csv"))
             if not x["name"].startswith("kib_") and two_lines(x)}
    fit = span_basis([d for d in costly if d in first])
    path = os.path.join(DATA, "red_classes_pairs.csv")
    if os.path.exists(path):
        pairs = [x for x in read(path) if two_lines(x)]
        agree = sum((reduce(fit, two_lines(x)[2]) == 0) == (x["sectors"] > model(x["words"])) for x in pairs)
        print(f"  fitted on red_classes.csv alone ({len(first)} distances), the rule predicts red_classes_pairs.csv "
              f"(D = 2^j ^ 2^k ^ m·128): {agree} of {len(pairs)} launches")
    print("  per address bit k: D = 2^k ^ m·128 costs more for m in")
    for k in range(LINE_BITS):
        ms = [m for m in range(8) if (1 << k) ^ m in by_d and (1 << k) ^ m in costly]
        tested = sum(1 for m in range(8) if (1 << k) ^ m in by_d)
        cls = tuple(parity((1 << k) & c) for c in checks)
        print(f"    bit {k + 7:2d}: {ms} of {tested} tested; parities of 2^k: {cls}")

    # 3. Other word offsets never compete.
    path = os.path.join(DATA, "red_classes_offsets.csv")
    if os.path.exists(path):
        off = [x for x in read(path) if two_lines(x)]
        print(f"lane 1 on B's word 5 ^ x (x = 1..31), {len(off)} two-line launches: "
              f"{sum(x['sectors'] > model(x['words']) for x in off)} cost more "
              f"(at D = {sorted({hex(two_lines(x)[2] << 7) for x in off})})")

    # 4. One physical page at several virtual addresses (red_classes_alias.cu).
    for name, what in (("red_classes_alias.csv", "REDG"),
                       ("red_classes_alias_generic.csv", "generic-address atomicAdd (PTX atom.add, not REDG)")):
        path = os.path.join(DATA, name)
        if os.path.exists(path):
            wide = alias_report(read(path), name, what, checks)
            if wide:
                cls = class_fn(wide)
                xs = read(path)
                print(f"  leader rule with these classes of the virtual line (bits 7..39): exact on "
                      f"{sum(leader(x['words'], cls) == x['sectors'] for x in xs)} of {len(xs)}")
        else:
            print(f"{name}: not captured")

    # 5. The leader rule (red_line_pairs.py) with these classes, on every capture.
    def run(paths, shift, skip=lambda x: False):
        cls = class_fn(checks, shift)
        tot = ok = 0
        for path in paths:
            for x in read(path):
                if x["sectors"] is None or skip(x):
                    continue
                tot += 1
                ok += leader(x["words"], cls) == x["sectors"]
        return ok, tot
    old = files("red_passes")
    for shift in (4, 0):
        ok, tot = run(old, shift)
        print(f"leader rule on red_passes*.csv, the 1 KiB array at {shift * 128:#x} in its page: exact on {ok} of {tot}")
    ok, tot = run([os.path.join(DATA, "red_classes.csv"), os.path.join(DATA, "red_classes_pairs.csv"),
                   os.path.join(DATA, "red_classes_offsets.csv")], 0, lambda x: x["name"].startswith("kib_"))
    ok2, tot2 = run([os.path.join(DATA, "red_classes.csv")], 4, lambda x: not x["name"].startswith("kib_"))
    print(f"leader rule on red_classes*.csv (region; kib_* at 0x200): exact on {ok + ok2} of {tot + tot2}")
    for shift in (4, 0):
        cls = class_fn(checks, shift)
        tot = []
        for skew in (0, 1):
            d = data(777 + skew, skew)
            tot.append(sum(leader(d[i:i + 32], cls) for i in range(0, N, 32)))
        print(f"hist_global with the 256 bins at {shift * 128:#x} in a page: uniform {tot[0]} (H100 {H100[0]}), "
              f"skewed {tot[1]} (H100 {H100[1]})")


if __name__ == "__main__":
    main()
