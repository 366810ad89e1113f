#!/usr/bin/env python3
"""Predicted against measured kernel duration on the H100 (docs/accuracy.md, "Predicted time").

Builds each program with nvcc (-cudart shared -lineinfo -arch=sm_90), runs it under
`warpscope run --json`, and pairs its launches in order with the rows of the H100's ncu CSV
(gpu__time_duration.sum). Prints one line per launch and the mean absolute percentage error over
launches of at least 20 us, for the design set (the examples, which the model's design choices
were checked on) and the held-out set (the accuracy corpus and the acceptance programs given).

  python3 scripts/time_accuracy.py BUILD_DIR [--acceptance NAME ...]
"""
import csv, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
H100 = os.path.join(ROOT, "tests/hw/data/h100")
# name, source, arguments, ncu CSV, set
RUNS = [
    ("nbody", "examples/nbody.cu", "all 512 1", "examples/nbody_metrics.csv", "design"),
    ("saxpy", "examples/saxpy.cu", "100003", "examples/saxpy_metrics.csv", "design"),
    ("local_arrays", "examples/local_arrays.cu", "8192", "examples/local_arrays_metrics.csv", "design"),
    ("aos_soa", "examples/aos_soa.cu", "65536", "examples/aos_soa_metrics.csv", "design"),
    ("padding2d", "examples/padding2d.cu", "1000 300", "examples/padding2d_metrics.csv", "design"),
    ("misaligned_copy", "examples/misaligned_copy.cu", "65536", "examples/misaligned_copy_metrics.csv", "design"),
    ("transpose", "tests/hw/accuracy/transpose.cu", "512", "accuracy/transpose_metrics.csv", "held-out"),
    ("reduce", "tests/hw/accuracy/reduce.cu", "262144", "accuracy/reduce_metrics.csv", "held-out"),
    ("histogram", "tests/hw/accuracy/histogram.cu", "262144", "accuracy/histogram_metrics.csv", "held-out"),
    ("stencil", "tests/hw/accuracy/stencil.cu", "262144 512 512", "accuracy/stencil_metrics.csv", "held-out"),
    ("matmul", "tests/hw/accuracy/matmul.cu", "256", "accuracy/matmul_metrics.csv", "held-out"),
    ("spill", "tests/hw/accuracy/spill.cu", "65536", "accuracy/spill_metrics.csv", "held-out"),
]


def durations(path):
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    head = rows[0]
    j, k = head.index("gpu__time_duration.sum"), head.index("Kernel Name")
    out = []
    for r in rows[1:]:
        if len(r) > j and r[j].replace(",", "").replace(".", "").isdigit():
            out.append((r[k], float(r[j].replace(",", ""))))
    return out


def main():
    build = sys.argv[1]
    runs = list(RUNS)
    if "--acceptance" in sys.argv:
        acc = "/work/shared/acceptance"
        for name in sys.argv[sys.argv.index("--acceptance") + 1:]:
            runs.append((name, f"{acc}/programs/{name}", "", f"{acc}/h100/{name}.ncu.csv", "held-out"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, src, args, csv_path, group in runs:
            exe = src if not src.endswith(".cu") else os.path.join(tmp, name)
            if src.endswith(".cu"):
                subprocess.run(["nvcc", "-cudart", "shared", "-lineinfo", "-arch=sm_90", "-I", os.path.join(ROOT, "examples"),
                                "-o", exe, os.path.join(ROOT, src)], check=True)
            report = os.path.join(tmp, name + ".json")
            subprocess.run([os.path.join(build, "bin/warpscope"), "run", "--json", report, "--", exe] + args.split(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            launches = json.load(open(report))["launches"]
            measured = durations(csv_path if csv_path.startswith("/") else os.path.join(H100, csv_path))
            for l, (kname, ns) in zip(launches, measured):
                t = l.get("time", {})
                if not t.get("available"):
                    continue
                rows.append((group, name, l["name"], ns, t["duration_ns"], t["limiter"]))
    print(f"{'set':9} {'program':16} {'kernel':44} {'H100 us':>9} {'pred us':>9} {'err %':>7}  limiter")
    for g, p, k, m, pr, lim in rows:
        print(f"{g:9} {p:16} {k[:44]:44} {m/1e3:9.2f} {pr/1e3:9.2f} {100*(pr-m)/m:7.1f}  {lim}")
    for g in ("design", "held-out", None):
        sel = [r for r in rows if (g is None or r[0] == g) and r[3] >= 20000]
        if sel:
            mape = sum(abs(r[4] - r[3]) / r[3] for r in sel) / len(sel) * 100
            print(f"MAPE {g or 'all'} (launches >= 20 us): {mape:.1f} % over {len(sel)} launches")
    allrows = [r for r in rows]
    if allrows:
        mape = sum(abs(r[4] - r[3]) / r[3] for r in allrows) / len(allrows) * 100
        print(f"MAPE all launches (any length): {mape:.1f} % over {len(allrows)} launches")


if __name__ == "__main__":
    main()
