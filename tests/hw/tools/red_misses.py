#!/usr/bin/env python3
"""The 68 one-warp REDG launches that the leader rule misses (docs/accuracy.md exception D,
tests/hw/data/h100/red/README.md), and refinements of that rule, evaluated on every capture and
on hist_global's whole input.

Evaluated on: the 5,483 captured one-warp launches the rules were fitted on, and the 124 of
red_classes_next.csv captured afterwards to test them, all in tests/hw/data/h100/red (red_passes.csv,
red_passes_lines.csv, red_passes_pairs.csv: red_passes' 256-word array, whose line i is line 4 + i of
its 2 MiB page; red_classes.csv, red_classes_pairs.csv, red_classes_offsets.csv: word indices into
a 1 GiB-aligned region, their kib_* patterns on red_passes' array), and on hist_global's input
(histogram_pass_rules.py: 8,192 warp accesses per launch, uniform and skewed), with its 256 bins
at 0x0 and at 0x200 of a 2 MiB page (where they lie is not known). Line classes: the parities on
P1 and P2 of red_classes.py (the README's masks).

It prints
  1. the 33 pairs of same-class lines of red_passes_pairs.csv: lanes (lane:line.offset, line as in
     the 1 KiB array), shared offsets, H100, single-line rule, current rule, proposed rule, and for
     the 5 pairs that the current rule misses both rules pass by pass;
  2. a table of candidate rules: exact launches per capture file, launches the current rule gets
     right and the candidate does not, hist_global sectors (H100 185,361 uniform, 259,588 skewed);
  3. which launches each ingredient of the proposed rule changes (ablation), and the remaining
     misses of every candidate (with -v);
  4. small warps on which the parts that no capture pins down would show (for a next capture).

    python3 tests/hw/tools/red_misses.py        (pure Python, about 3 minutes, nearly all of it
                                                 hist_global; -v: list misses; --no-hist: skip
                                                 hist_global, under 10 seconds)

Rules. One pass at a time over the remaining (not yet served) lanes, lanes in lane order; a
position is (class of the line, word offset in the 128-byte line); sectors = sum over passes of
the distinct sectors served. The leader of a class is the line of its lowest remaining lane.
`sequential(...)` is the current rule (red_classes.py's `leader`) with switches:
  on_conflict  a non-leader lane whose position another line holds: its whole line leaves the
               pass ("line"), or the line from this lane on ("onward"), or only this lane ("lane")
  claims       a line that leaves gives its positions back ("release"), keeps them ("keep"), or
               keeps them and its later lanes still take free positions without being served
               ("ghost")
  leader_hit   a leader lane whose position another line holds: waits ("wait"); makes the holder
               line leave and waits ("evict"); makes it leave and takes the position ("steal")
  dup          a non-leader lane whose position its own line holds: its line leaves ("leave", as
               the current rule) or the lane waits ("wait")
  leader       how the leader is chosen: first lane ("first"), most lanes, lowest / highest
               address, last lane; persist: a leader stays leader while it has lanes
A pass in which nothing would be served (possible only when the leader is not the line of the
lowest lane) serves the lowest lane alone, so that those variants end.
`proposed(...)` is the refinement found here, stated without lane-order bookkeeping (identical to
sequential(claims="ghost", leader_hit="evict", dup="wait") whenever a class has at most 2 lines,
as in every capture and in hist_global):
  each pass:  owner(p) = the lowest remaining lane at position p;
              a line is contested when one of its positions is also used by another line of its
              class (among the remaining lanes);
              served = the lanes that own their position and whose line is their class's leader
              or not contested; every other lane waits for the next pass.
Result when written: proposed is exact on all 5,483 launches (current rule 5,415); hist_global
185,361 uniform / 259,588 skewed with the bins 1 KiB-aligned in a page (0x0, 0x400, 0x40000 alike;
the H100's counts exactly), 185,457 / 259,579 at 0x200. No capture has 3 or more lines in one
class, so the proposed and the sequential form are both unmeasured there (section 4).
"""
import itertools
import os
import sys
from collections import defaultdict
from functools import lru_cache

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from histogram_pass_rules import H100, N, data  # noqa: E402
from red_classes import DATA, leader, parity, read  # noqa: E402
from red_line_pairs import model  # noqa: E402

P1 = [7, 9, 11, 12, 14, 16, 18, 19, 20, 21, 23, 24, 25, 26, 28, 29]
P2 = [8, 10, 11, 13, 14, 15, 17, 19, 21, 22, 24, 26, 27, 28]
M1 = sum(1 << (b - 7) for b in P1)  # masks on the line index (address / 128)
M2 = sum(1 << (b - 7) for b in P2)
FILES = ["red_passes.csv", "red_passes_lines.csv", "red_passes_pairs.csv",
         "red_classes.csv", "red_classes_pairs.csv", "red_classes_offsets.csv",
         "red_classes_next.csv"]  # the last captured after the fit, to test it
ARRAY_LINE = 4  # red_passes' array starts at line 4 of its 2 MiB page


@lru_cache(maxsize=None)
def cls(line):
    return parity(line & M1), parity(line & M2)


def launches():
    """(file, name, words as page/region word indices, H100 L1 sectors) for every launch."""
    out = []
    for f in FILES:
        for x in read(os.path.join(DATA, f)):
            shift = ARRAY_LINE * 32 if f.startswith("red_passes") or x["name"].startswith("kib_") else 0
            out.append((f, x["name"], [w + shift if w >= 0 else -1 for w in x["words"]], x["sectors"]))
    return out


# ---------------------------------------------------------------------------------------------
# Rules

def current(words, trace=None):
    """red_classes.py's leader rule (the model's rule today)."""
    return leader(words, cls) if trace is None else sequential(words, trace=trace)


def choose_leaders(remaining, how, previous):
    lanes = defaultdict(int)
    for _, w in remaining:
        lanes[w // 32] += 1
    lead = {}
    for line in dict.fromkeys(w // 32 for _, w in remaining):  # lines by their lowest lane
        c = cls(line)
        cur = lead.get(c)
        if cur is None or (how == "most" and lanes[line] > lanes[cur]) or (how == "low" and line < cur) \
                or (how == "high" and line > cur) or how == "last":
            lead[c] = line
    for c, line in previous.items():  # persist: only filled when asked
        if line in lanes:
            lead[c] = line
    return lead


def serve(served, trace):
    """A pass's sectors: the distinct sectors of the lanes it serves (recorded in trace if given)."""
    s = len({w // 8 for _, w in served})
    if trace is not None:
        trace.append((served, s))
    return s


def sequential(words, on_conflict="line", claims="release", leader_hit="wait", dup="leave",
               how="first", persist=False, trace=None):
    remaining = [(lane, w) for lane, w in enumerate(words) if w >= 0]
    sectors, previous = 0, {}
    while remaining:
        lead = choose_leaders(remaining, how, previous)
        if persist:
            previous = dict(lead)
        held = {}        # position -> line holding it this pass
        left = {}        # line -> lane from which it left the pass
        served = []

        def leave(line, lane, whole=True):
            nonlocal served
            left[line] = lane
            if not whole:  # "onward": its lanes before this one stay served
                return
            back = [x for x in served if x[1] // 32 == line]
            served = [x for x in served if x[1] // 32 != line]
            if claims == "release":
                for _, b in back:
                    held.pop((cls(line), b % 32), None)

        for lane, w in remaining:
            line = w // 32
            key = (cls(line), w % 32)
            if line in left and (on_conflict != "onward" or lane > left[line]):
                if claims == "ghost" and key not in held:
                    held[key] = line
                continue
            if key not in held:
                held[key] = line
                served.append((lane, w))
                continue
            holder = held[key]
            if lead[key[0]] == line:
                if holder != line and leader_hit != "wait" and holder not in left:
                    leave(holder, -1)
                    if leader_hit == "steal":
                        held[key] = line
                        served.append((lane, w))
                continue
            if holder == line and dup == "wait":
                continue
            if on_conflict == "lane":
                continue
            leave(line, lane, whole=on_conflict == "line")
        if not served:  # a leader chosen otherwise than by the first lane can wait on a line that
            served = remaining[:1]  # left: the variant deadlocks; let the lowest lane through
        sectors += serve(served, trace)
        remaining = [x for x in remaining if x not in set(served)]
    return sectors


def proposed(words, trace=None):
    remaining = [(lane, w) for lane, w in enumerate(words) if w >= 0]
    sectors = 0
    while remaining:
        lead, owner, users = {}, {}, defaultdict(set)
        for lane, w in remaining:
            line, key = w // 32, (cls(w // 32), w % 32)
            lead.setdefault(key[0], line)
            owner.setdefault(key, lane)
            users[key].add(line)
        contested = {line for s in users.values() if len(s) > 1 for line in s}
        served = [(lane, w) for lane, w in remaining
                  if owner[(cls(w // 32), w % 32)] == lane
                  and (lead[cls(w // 32)] == w // 32 or w // 32 not in contested)]
        sectors += serve(served, trace)
        remaining = [x for x in remaining if x not in set(served)]
    return sectors


def rule(**kw):
    return lambda words: sequential(words, **kw)


CANDIDATES = [
    ("current rule (red_classes.py leader)", current),
    ("current, sequential re-implementation", rule()),
    ("A  dup in a non-leader line: only that lane waits", rule(dup="wait")),
    ("B  leaving line keeps its positions", rule(claims="keep")),
    ("B' keeps its positions, dup waits", rule(claims="keep", dup="wait")),
    ("C  line leaves from the conflicting lane on", rule(on_conflict="onward")),
    ("C' from the conflicting lane on, dup waits", rule(on_conflict="onward", dup="wait")),
    ("D  no leaving: only the conflicting lane waits", rule(on_conflict="lane")),
    ("E  leader steals: holder line leaves, releases", rule(leader_hit="steal")),
    ("E' leader steals, holder keeps other positions", rule(leader_hit="steal", claims="keep", dup="wait")),
    ("F  leader evicts holder and waits (release)", rule(leader_hit="evict", dup="wait")),
    ("F' leader evicts holder and waits (keep)", rule(leader_hit="evict", claims="keep", dup="wait")),
    ("G1 leader = line with most lanes", rule(how="most")),
    ("G2 leader = lowest address", rule(how="low")),
    ("G3 leader = highest address", rule(how="high")),
    ("G4 leader = line of the last lane", rule(how="last")),
    ("G5 leader persists across passes", rule(persist=True)),
    ("H  ghost claims (keep + later lanes claim)", rule(claims="ghost", dup="wait")),
    ("H' ghost claims, dup leaves", rule(claims="ghost")),
    ("H+C ghost, from the conflicting lane on", rule(claims="ghost", on_conflict="onward", dup="wait")),
    ("H+G1 ghost, leader = most lanes", rule(claims="ghost", dup="wait", how="most")),
    ("H+G5 ghost, leader persists", rule(claims="ghost", dup="wait", persist=True)),
    ("H+E ghost, leader steals", rule(claims="ghost", leader_hit="steal", dup="wait")),
    ("H+F ghost, leader evicts holder and waits", rule(claims="ghost", leader_hit="evict", dup="wait")),
    ("H'+F same, dup leaves", rule(claims="ghost", leader_hit="evict")),
    ("proposed (parallel form of H+F)", proposed),
]


# ---------------------------------------------------------------------------------------------
# Reports

def fmt(lanes, base):
    return " ".join(f"{lane}:{w // 32 - base}.{w % 32}" for lane, w in lanes)


def show_passes(name, fn, words, base):
    trace = []
    total = fn(words, trace=trace)
    print(f"      {name}: {total}")
    for i, (served, s) in enumerate(trace):
        print(f"        pass {i}: {fmt(served, base)}  -> {s}")


def pairs_report(all_launches):
    print("1. Same-class pairs of red_passes_pairs.csv (lane:line.offset; line as in the 1 KiB array)")
    rows = []
    for f, n, w, hw in all_launches:
        if f != "red_passes_pairs.csv" or "_pair" not in n:
            continue
        lines = list(dict.fromkeys(x // 32 for x in w if x >= 0))
        if len(lines) != 2 or cls(lines[0]) != cls(lines[1]):
            continue
        rows.append((n, w, hw))
    more = sum(hw > model(w) for _, w, hw in rows)
    print(f"   {len(rows)} pairs, {more} cost more than the single-line rule; "
          f"current rule exact on {sum(current(w) == hw for _, w, hw in rows)}, "
          f"proposed on {sum(proposed(w) == hw for _, w, hw in rows)}")
    print(f"   {'pair':14s} {'H100':>4s} {'1line':>5s} {'curr':>4s} {'prop':>4s}  shared offsets (first lane L / M)")
    for n, w, hw in rows:
        lanes = [(l, x) for l, x in enumerate(w) if x >= 0]
        first = lanes[0][1] // 32
        by = defaultdict(dict)
        for l, x in lanes:
            by[x % 32].setdefault(x // 32, l)
        shared = [f"{o}({'L' if min(d, key=d.get) == first else 'M'} first)" for o, d in sorted(by.items()) if len(d) > 1]
        print(f"   {n:14s} {hw:4d} {model(w):5d} {current(w):4d} {proposed(w):4d}  {' '.join(shared)}"
              f"{'   <- current rule misses' if current(w) != hw else ''}")
    for n, w, hw in rows:
        if current(w) != hw:
            print(f"   {n}: H100 {hw}; lanes {fmt([(l, x) for l, x in enumerate(w) if x >= 0], ARRAY_LINE)}")
            show_passes("current", sequential, w, ARRAY_LINE)
            show_passes("proposed", proposed, w, ARRAY_LINE)


def per_class(fn, words):
    """fn summed over the line classes, each class's lanes alone (at their own lanes). Every rule
    here keeps classes apart (positions, leaders and conflicts are per class, and a sector belongs
    to one line), so this equals fn(words); a class with one line is the single-line rule."""
    total = 0
    for c, lines in classes_lines(words).items():
        sub = [w if w >= 0 and cls(w // 32) == c else -1 for w in words]
        total += model(sub) if len(lines) == 1 else fn(sub)
    return total


def hist_totals(fn):
    out = {}
    for shift in (0, ARRAY_LINE):
        for skew in (0, 1):
            d = HIST[skew]
            out[(shift, skew)] = sum(per_class(fn, [b + shift * 32 for b in d[i:i + 32]]) for i in range(0, N, 32))
    return out


def candidates_report(all_launches, do_hist, verbose):
    print("\n2. Candidates (exact launches per file; 'lost': launches the current rule gets right and the "
          "candidate does not)")
    short = ["passes", "lines", "pairs", "classes", "cl_pairs", "offsets"]
    print(f"   {'rule':52s} {'total':>5s} " + " ".join(f"{s:>8s}" for s in short) + " lost"
          + ("   hist uniform/skewed at 0x0 | at 0x200" if do_hist else ""))
    tot_per = defaultdict(int)
    for f, *_ in all_launches:
        tot_per[f] += 1
    print(f"   {'(launches)':52s} {len(all_launches):5d} " + " ".join(f"{tot_per[f]:8d}" for f in FILES))
    base_ok = {(f, n) for f, n, w, hw in all_launches if current(w) == hw}
    results = {}
    for name, fn in CANDIDATES:
        per, miss = defaultdict(int), []
        for f, n, w, hw in all_launches:
            r = fn(w)
            if r == hw:
                per[f] += 1
            else:
                miss.append((f, n, r, hw))
        lost = sum((f, n) in base_ok for f, n, _, _ in miss)
        split = sum(per_class(fn, w) != fn(w) for f, n, w, hw in all_launches if f == "red_passes.csv")
        assert split == 0, f"{name}: classes interact on {split} launches"
        line = f"   {name:52s} {sum(per.values()):5d} " + " ".join(f"{per[f]:8d}" for f in FILES) + f" {lost:4d}"
        if do_hist:
            h = hist_totals(fn)
            line += f"   {h[(0, 0)]}/{h[(0, 1)]} | {h[(ARRAY_LINE, 0)]}/{h[(ARRAY_LINE, 1)]}"
        print(line, flush=True)
        results[name] = miss
    print(f"   H100 hist_global: uniform {H100[0]}, skewed {H100[1]}")
    if do_hist:
        # Any 1 KiB-aligned placement of the bins pairs the same lines as 0x0 (the class is linear).
        for lines in (8, 2048):
            h = [sum(per_class(proposed, [b + lines * 32 for b in HIST[k][i:i + 32]]) for i in range(0, N, 32))
                 for k in (0, 1)]
            print(f"   proposed with the bins at {lines * 128:#x}: uniform {h[0]}, skewed {h[1]}")
    if verbose:
        for name, miss in results.items():
            print(f"   misses of {name} ({len(miss)}): " + ", ".join(f"{n} ({r} vs {hw})" for _, n, r, hw in miss[:40])
                  + (" ..." if len(miss) > 40 else ""))
    return results


def ablation_report(all_launches):
    print("\n3. What each ingredient of the proposed rule changes (launches whose prediction differs)")
    steps = [("current -> dup waits (A)", current, rule(dup="wait")),
             ("A -> keep positions (B')", rule(dup="wait"), rule(claims="keep", dup="wait")),
             ("B' -> ghost claims (H)", rule(claims="keep", dup="wait"), rule(claims="ghost", dup="wait")),
             ("H -> leader evicts (H+F)", rule(claims="ghost", dup="wait"), rule(claims="ghost", leader_hit="evict", dup="wait")),
             ("H+F, dup waits -> dup leaves", rule(claims="ghost", leader_hit="evict", dup="wait"),
              rule(claims="ghost", leader_hit="evict"))]
    for name, a, b in steps:
        diff = [(n, a(w), b(w), hw) for f, n, w, hw in all_launches if a(w) != b(w)]
        better = sum(y == hw for _, x, y, hw in diff)
        worse = sum(x == hw for _, x, y, hw in diff)
        print(f"   {name:32s} {len(diff):3d} launches change: {better} become exact, {worse} stop being exact"
              + (": " + ", ".join(f"{n} {x}->{y} (H100 {hw})" for n, x, y, hw in diff[:12]) if diff else "")
              + (" ..." if len(diff) > 12 else ""))
    same = all(proposed(w) == rule(claims="ghost", leader_hit="evict", dup="wait")(w) for _, _, w, _ in all_launches)
    many = sum(any(len(v) > 2 for v in classes_lines(w).values()) for _, _, w, _ in all_launches)
    print(f"   proposed == H+F on every capture: {same}; launches with 3 or more lines in one class: {many} "
          "(so how 3+ lines of a class interact is not measured)")


def classes_lines(words):
    out = defaultdict(set)
    for w in words:
        if w >= 0:
            out[cls(w // 32)].add(w // 32)
    return out


def next_patterns():
    """The smallest warps (lanes 0..3 on lines of one class, word offsets 0, 5, 9) on which the
    ingredients not yet pinned down by a capture would show."""
    print("\n4. Small warps that would test what the captures leave open (line A = region line 0, B = line 5,"
          " C = line 10: one class; lane: line.offset)")
    h, hf = rule(claims="ghost", dup="wait"), rule(claims="ghost", leader_hit="evict", dup="wait")
    tests = [("leader evicts (H vs H+F), two lines", (0, 5), lambda w: (h(w), hf(w)), "H", "H+F"),
             ("3 lines in a class (H+F sequential vs proposed)", (0, 5, 10), lambda w: (hf(w), proposed(w)),
              "sequential", "proposed")]
    for title, lines, fns, na, nb in tests:
        shown = 0
        for n in (3, 4):
            for ls in itertools.product(lines, repeat=n):
                if ls[0] != lines[0] or len(set(ls)) < len(lines):
                    continue
                for offs in itertools.product((0, 5, 9), repeat=n):
                    w = [line * 32 + o for line, o in zip(ls, offs)] + [-1] * (32 - n)
                    a, b = fns(w)
                    if a != b and shown < 2:
                        shown += 1
                        names = {0: "A", 5: "B", 10: "C"}
                        print(f"   {title}: " + " ".join(f"{i}:{names[x // 32]}.{x % 32}" for i, x in enumerate(w[:n]))
                              + f"  -> {na} {a}, {nb} {b}, current {current(w)}, single-line {model(w)}")


HIST = {}


def main():
    all_launches = launches()
    do_hist = "--no-hist" not in sys.argv
    if do_hist:
        HIST[0], HIST[1] = data(777, 0), data(778, 1)
    pairs_report(all_launches)
    candidates_report(all_launches, do_hist, "-v" in sys.argv)
    ablation_report(all_launches)
    next_patterns()


if __name__ == "__main__":
    main()
