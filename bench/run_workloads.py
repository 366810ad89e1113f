#!/usr/bin/env python3
"""Times `warpscope run` on the workloads of bench/workloads.cu (the CUDA program), with memory
statistics off (--no-stats) and on, on 1 and N host threads. Each run is a child process whose
wall time, warp- and thread-instructions per second (the launches' instructions from the
report, over the whole run's wall time) and peak memory (the largest resident set of warpscope
and the program, from wait4) are printed with their ratio to the 1-thread, statistics-off run
of the same workload; the program's output (its checksum line) is compared across runs.

    python3 bench/run_workloads.py [--warpscope build/bin/warpscope] [--threads N] [workload ...]

Workloads: nbody4096 nbody16384 saxpy2^24 transpose4096 reduce2^24 matmul1024 (default: all).
Figures include the program's own work (its CPU reference checks, host-device copies) and
warpscope's set-up (ptxas, loading); bench/workload_bench.cpp times the launches alone.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

WORKLOADS = {
    "nbody4096": ["nbody", "4096"],
    "nbody16384": ["nbody", "16384"],
    "saxpy2^24": ["saxpy", str(1 << 24)],
    "transpose4096": ["transpose", "4096"],
    "reduce2^24": ["reduce", str(1 << 24)],
    "matmul1024": ["matmul", "1024"],
}


def run(warpscope, program, args, threads, stats):
    """Wall seconds, peak resident MiB (wait4 of this child: the largest of warpscope and the
    program it ran), the program's output, and the warp and thread instructions of its launches
    (from the report's JSON) of one run."""
    report = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    cmd = [warpscope, "run", "--quiet", "--no-summary", "--json", report, "--threads", str(threads)]
    if not stats:
        cmd.append("--no-stats")
    cmd += [program, "--"] + args
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}")
    with open(report) as f:
        launches = json.load(f)["launches"]
    os.unlink(report)
    warp = sum(l["metrics"]["smsp__inst_executed.sum"] for l in launches)
    thread = sum(l["metrics"]["smsp__thread_inst_executed.sum"] for l in launches)
    return seconds, usage.ru_maxrss / 1024.0, out.decode().strip(), warp, thread


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", default="build/bin/warpscope")
    ap.add_argument("--program", default=os.path.join(os.path.dirname(__file__), "workloads.cu"))
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("workloads", nargs="*")
    a = ap.parse_args()
    names = a.workloads or list(WORKLOADS)
    warpscope = os.path.abspath(a.warpscope)
    # Compile once (warpscope caches the build of a .cu file).
    run(warpscope, a.program, ["saxpy", "1024"], 1, False)
    print(f"{'workload':<14} {'stats':>5} {'threads':>7} {'seconds':>9} {'warp-inst/s':>12} {'thread-inst/s':>14} "
          f"{'peak MiB':>9} {'x time':>7} {'x peak':>7}")
    ok = True
    for name in names:
        args = WORKLOADS[name]
        configs = [(False, 1), (False, a.threads), (True, 1), (True, a.threads)]
        if a.threads == 1:
            configs = [(False, 1), (True, 1)]
        base = None
        outputs = set()
        for stats, threads in configs:
            seconds, peak, out, warp, thread = run(warpscope, a.program, args, threads, stats)
            outputs.add(out)
            if base is None:
                base = (seconds, peak)
            print(f"{name:<14} {'on' if stats else 'off':>5} {threads:>7} {seconds:>9.2f} {warp / seconds / 1e6:>11.2f}M "
                  f"{thread / seconds / 1e6:>13.1f}M {peak:>9.1f} {seconds / base[0]:>7.2f} {peak / base[1]:>7.2f}")
        same = len(outputs) == 1 and " ok " in next(iter(outputs))
        ok = ok and same
        print(f"{name:<14} program output ({next(iter(outputs))}) identical and checked: {'yes' if same else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
