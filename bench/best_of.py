#!/usr/bin/env python3
"""Runs a Google Benchmark binary with interleaved repetitions and prints each benchmark's best
repetition (highest items_per_second). On a shared, loaded machine the best repetition is the
closest to what one quiet core does; the baseline in the same run gives the ratio.

  python3 bench/best_of.py build/bin/coalescer_bench [--benchmark_filter=...]
  REPS=20 taskset -c 1 python3 bench/best_of.py build/bin/coalescer_bench
"""
import collections
import json
import os
import subprocess
import sys


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd = [sys.argv[1], "--benchmark_format=json", "--benchmark_min_time=0.05",
           "--benchmark_enable_random_interleaving=true",
           "--benchmark_repetitions=%s" % os.environ.get("REPS", "20")] + sys.argv[2:]
    data = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    best = collections.OrderedDict()
    for b in data["benchmarks"]:
        if b.get("run_type") == "iteration" and "items_per_second" in b:
            best[b["run_name"]] = max(best.get(b["run_name"], 0.0), b["items_per_second"])
    for name in sorted(best):
        print(f"{name:40s} {best[name] / 1e6:8.2f} M/s  {1e9 / best[name]:7.2f} ns")


if __name__ == "__main__":
    main()
