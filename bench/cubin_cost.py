#!/usr/bin/env python3
"""What reading ptxas's machine code costs `warpscope run` (docs/analysis.md, "The machine code"):
each example program, built once with nvcc, is run under warpscope with an empty ptxas cache
(so ptxas runs) and with a filled one, each with the machine code read (the default for sm_90)
and without it (WARPSCOPE_SASS=none, the baseline). Runs of the four configurations are
interleaved, --reps times; the best wall time of each is printed with its ratio to the baseline
of the same cache state. The programs' outputs must not depend on the setting.

    python3 bench/cubin_cost.py [--warpscope build/bin/warpscope] [--reps N] [example ...]

Examples (examples/*.cu, with their arguments): saxpy local_arrays spill nbody (default: all).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

EXAMPLES = {
    "saxpy": ["100003"],
    "local_arrays": [],
    "spill": [],
    "nbody": ["all", "512", "1"],
}


def run(warpscope, program, args, cache, sass):
    env = dict(os.environ, WARPSCOPE_CACHE_DIR=cache)
    if not sass:
        env["WARPSCOPE_SASS"] = "none"
    cmd = [warpscope, "run", "--quiet", "--no-summary", "--", program] + args
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}")
    lines = [l for l in p.stdout.decode().splitlines() if not l.startswith("[timing]")]
    return seconds, "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", default="build/bin/warpscope")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("examples", nargs="*", default=list(EXAMPLES))
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    work = tempfile.mkdtemp(prefix="cubin_cost.")
    print(f"{'example':14s} {'cache':6s} {'no sass':>9s} {'sass':>9s} {'x':>6s}")
    for name in a.examples:
        program = os.path.join(work, name)
        subprocess.run([a.nvcc, "-cudart", "shared", "-arch=sm_90", "-o", program,
                        os.path.join(root, "examples", name + ".cu")], check=True)
        best = {}
        outputs = set()
        for _ in range(a.reps):
            for sass in (False, True):
                cache = os.path.join(work, f"cache-{name}-{int(sass)}")
                shutil.rmtree(cache, ignore_errors=True)
                for state in ("empty", "filled"):  # the first run fills the cache
                    s, out = run(a.warpscope, program, EXAMPLES[name], cache, sass)
                    outputs.add(out)
                    key = (state, sass)
                    best[key] = min(best.get(key, s), s)
        if len(outputs) != 1:
            sys.exit(f"{name}: the program's output differs between runs")
        for state in ("empty", "filled"):
            base, with_sass = best[(state, False)], best[(state, True)]
            print(f"{name:14s} {state:6s} {base:8.3f}s {with_sass:8.3f}s {with_sass / base:6.2f}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
