#!/usr/bin/env python3
"""Error of --sample-ctas on the example programs: runs each under `warpscope run` with every CTA
and with a fraction of them, and prints, per counter, the median and worst relative error over
the launches (launches whose full count is 0 are skipped for that counter).
Usage: python3 bench/sampling_error.py [FRACTION]   (default 0.1; run from the repository root
after building)."""
import json, statistics, subprocess, sys, tempfile, os

FRACTION = float(sys.argv[1]) if len(sys.argv) > 1 else 0.1
RUNS = [("nbody", ["all", "2048", "1"]), ("saxpy", ["1000003"]), ("local_arrays", ["65536"]),
        ("aos_soa", ["262144"]), ("padding2d", ["1000", "300"]), ("misaligned_copy", ["262144"]),
        ("spill", ["65536"])]
COUNTERS = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
            "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
            "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
            "dram__bytes_read.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]

def report(name, args, fraction):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    cmd = ["build/bin/warpscope", "run", "--no-summary", "--quiet", "--json", path]
    if fraction < 1:
        cmd += ["--sample-ctas", str(fraction)]
    subprocess.run(cmd + [f"examples/{name}.cu", "--"] + args, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        j = json.load(f)
    os.unlink(path)
    return j

errors = {c: [] for c in COUNTERS}
for name, args in RUNS:
    full, part = report(name, args, 1.0), report(name, args, FRACTION)
    for a, b in zip(full["launches"], part["launches"]):
        for c in COUNTERS:
            x, y = a["metrics"].get(c, 0), b["metrics"].get(c, 0)
            if x:
                errors[c].append(abs(y - x) / x)
print(f"sampling {FRACTION:g} of the CTAs, {len(RUNS)} example programs")
print(f"| counter | launches | median error | worst error |")
print(f"|---|---|---|---|")
for c in COUNTERS:
    e = errors[c]
    if e:
        print(f"| `{c}` | {len(e)} | {100*statistics.median(e):.2f} % | {100*max(e):.2f} % |")
