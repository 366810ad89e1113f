#!/usr/bin/env python3
"""Times `warpscope sanitize --tool racecheck` and `--tool initcheck` against `warpscope run` on
the same workloads of bench/workloads.cu (issue 31: the checks should cost at most 3x a run).
Each configuration runs --repeat times in a child process of its own; the best wall time is
printed with its ratio to `warpscope run` (the default: memory statistics on) and to
`warpscope run --no-stats` (the interpreter alone, as sanitize runs it). Every run's program
output (its checksum line) must be the same, and the sanitize runs must find nothing (the
workloads are correct: their barriers order their shared memory, they write before they read).

    python3 bench/sanitize_bench.py [--warpscope build/bin/warpscope] [--threads N] [--repeat R]
                                    [workload ...]

Workloads: transpose2048 reduce2^22 matmul512 saxpy2^22 (default: all).
"""
import argparse
import os
import subprocess
import sys
import time

WORKLOADS = {
    "transpose2048": ["transpose", "2048"],
    "reduce2^22": ["reduce", str(1 << 22)],
    "matmul512": ["matmul", "512"],
    "saxpy2^22": ["saxpy", str(1 << 22)],
}

CONFIGS = [
    ("run", ["run", "--quiet", "--no-summary"]),
    ("run --no-stats", ["run", "--quiet", "--no-summary", "--no-stats"]),
    ("racecheck", ["sanitize", "--tool", "racecheck"]),
    ("initcheck", ["sanitize", "--tool", "initcheck"]),
]


def once(warpscope, sub, threads, program, args):
    cmd = [warpscope] + sub + ["--threads", str(threads), program, "--"] + args
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}")
    lines = p.stdout.decode().splitlines()
    own = [l for l in lines if not l.startswith("=========")]
    tool = [l for l in lines if l.startswith("=========") and "SUMMARY" not in l and "COMPUTE-SANITIZER" not in l]
    return seconds, "\n".join(own), tool


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", default="build/bin/warpscope")
    ap.add_argument("--program", default=os.path.join(os.path.dirname(__file__), "workloads.cu"))
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("workloads", nargs="*")
    a = ap.parse_args()
    warpscope = os.path.abspath(a.warpscope)
    once(warpscope, ["run", "--quiet", "--no-summary", "--no-stats"], 1, a.program, ["saxpy", "1024"])  # compile once
    print(f"{'workload':<14} {'configuration':<15} {'best s':>8} {'x run':>7} {'x no-stats':>10}")
    ok = True
    for name in a.workloads or list(WORKLOADS):
        args = WORKLOADS[name]
        best = {}
        outputs = set()
        for label, sub in CONFIGS:
            times = []
            for _ in range(a.repeat):
                seconds, out, tool = once(warpscope, sub, a.threads, a.program, args)
                times.append(seconds)
                outputs.add(out)
                if tool:
                    ok = False
                    print(f"{name}: {label} reported:\n" + "\n".join(tool[:8]))
            best[label] = min(times)
        for label, _ in CONFIGS:
            print(f"{name:<14} {label:<15} {best[label]:>8.2f} {best[label] / best['run']:>7.2f} "
                  f"{best[label] / best['run --no-stats']:>10.2f}")
        same = len(outputs) == 1
        ok = ok and same
        print(f"{name:<14} program output identical: {'yes' if same else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
