#!/usr/bin/env python3
"""Predicted against measured kernel duration on the H100 (docs/accuracy.md, "Predicted time").

Builds each program with nvcc (-cudart shared -lineinfo -arch=sm_90), runs it under
`warpscope run --json`, and pairs its launches in order with the rows of the H100's ncu CSV
(gpu__time_duration.sum). Prints one line per launch and the mean absolute percentage error over
launches of at least 20 us, for the design set (the examples, which the model's design choices
were checked on) and the held-out set (the accuracy corpus and the acceptance programs given).

  python3 scripts/time_accuracy.py BUILD_DIR [--acceptance NAME ...]
  python3 scripts/time_accuracy.py BUILD_DIR --acceptance-results RESDIR   (also the acceptance suite)
  python3 scripts/time_accuracy.py --acceptance-only                      (the committed predictions)
  python3 scripts/time_accuracy.py BUILD_DIR --h200    (the corpus under --arch h200 against the H200)

The acceptance suite (../shared/acceptance, 43 programs): run it first under warpscope
(`WARPSCOPE=BUILD/bin/warpscope bash /work/shared/acceptance/run_warpscope.sh BINDIR RESDIR`);
--acceptance-results reads RESDIR/<name>.json (KEEP_JSON=1) or else summarize.py's
RESDIR/<name>.metrics.csv (the first 30 launches, no limiter), writes each launch's prediction to
ACCEPTANCE_TSV (committed, so the table can be recomputed without the 5-minute run) and pairs
the launches in order with h100/<name>.ncu.csv's rows (as compare.py does; Nsight Compute
profiled the first 30 launches of each program). A pair whose kernel names differ is left out
and counted.

Design / held-out split of the acceptance suite, fixed before any of its errors was looked at
(2026-11-24): the program names of programs.txt sorted case-insensitively; even positions
(0, 2, 4, ...: alignedTypes, bf16TensorCoreGemm, binomialOptions, ...) are the design set, odd
positions (asyncAPI, binaryPartitionCG, BlackScholes, ...) the held-out set.
"""
import csv, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
H100 = os.path.join(ROOT, "tests/hw/data/h100")
ACCEPTANCE = "/work/shared/acceptance"
ACCEPTANCE_TSV = os.path.join(H100, "timing/acceptance_predictions.tsv")
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
    return durations_of(open(path).read().splitlines())


def durations_of(lines):
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    head = rows[0]
    j, k = head.index("gpu__time_duration.sum"), head.index("Kernel Name")
    out = []
    for r in rows[1:]:
        if len(r) > j and r[j].replace(",", "").replace(".", "").isdigit():
            out.append((r[k], float(r[j].replace(",", ""))))
    return out


def acceptance_split():
    """program name -> "design" or "held-out" (see the docstring: fixed before looking at errors)."""
    names = []
    for line in open(os.path.join(ACCEPTANCE, "programs.txt")):
        if line.strip() and not line.lstrip().startswith("#"):
            names.append(line.split("|")[0].strip())
    names.sort(key=str.lower)
    return {n: ("design" if i % 2 == 0 else "held-out") for i, n in enumerate(names)}


def save_acceptance(resdir):
    """Writes ACCEPTANCE_TSV from run_warpscope.sh's RESDIR/<name>.json."""
    out = []
    for name in sorted(acceptance_split(), key=str.lower):
        path = os.path.join(resdir, name + ".json")
        if os.path.exists(path):  # run with KEEP_JSON=1: the whole report, with the limiter
            try:
                launches = json.load(open(path))["launches"]
            except (ValueError, KeyError):
                continue
            for i, l in enumerate(launches):
                t = l.get("time", {})
                pred = f"{t['duration_ns']:.0f}" if t.get("available") else "-"
                out.append((name, str(i), l["name"].replace("\t", " "), pred, t.get("limiter", "-")))
            continue
        path = os.path.join(resdir, name + ".metrics.csv")  # summarize.py's: the first 30 launches
        if not os.path.exists(path):
            continue
        for r in csv.DictReader(open(path)):
            ns = r.get("gpu__time_duration.sum", "")
            out.append((name, r["index"], r["kernel"].replace("\t", " "), f"{float(ns):.0f}" if ns else "-", "-"))
    with open(ACCEPTANCE_TSV, "w") as f:
        f.write("# warpscope's predicted gpu__time_duration.sum (ns, hopper) per launch of the acceptance suite;\n")
        f.write("# written by scripts/time_accuracy.py --acceptance-results (program, launch index, kernel, ns, limiter)\n")
        for r in out:
            f.write("\t".join(r) + "\n")


def base_name(kernel):
    k = kernel.split("(")[0].split("<")[0].strip()  # "void reduce7<int, 256u, true>(...)" -> reduce7
    return k.split(" ")[-1]


def acceptance_rows():
    """(set, program, kernel, H100 ns, predicted ns, limiter) for the launches paired in order."""
    split = acceptance_split()
    pred = {}
    for line in open(ACCEPTANCE_TSV):
        if line.startswith("#"):
            continue
        name, idx, kernel, ns, limiter = line.rstrip("\n").split("\t")
        pred.setdefault(name, []).append((kernel, None if ns == "-" else float(ns), limiter))
    rows, mismatched, unpredicted = [], 0, 0
    for name in sorted(pred, key=str.lower):
        csv_path = os.path.join(ACCEPTANCE, "h100", name + ".ncu.csv")
        if not os.path.exists(csv_path):
            continue
        for (kernel, ns, limiter), (hk, hns) in zip(pred[name], durations(csv_path)):
            if base_name(kernel) != base_name(hk):
                mismatched += 1
                continue
            if ns is None:
                unpredicted += 1
                continue
            rows.append((split.get(name, "held-out"), name, kernel, hns, ns, limiter))
    return rows, mismatched, unpredicted


def report(rows, title):
    print(f"== {title}")
    print(f"{'set':9} {'program':16} {'kernel':44} {'H100 us':>9} {'pred us':>9} {'err %':>7}  limiter")
    for g, p, k, m, pr, lim in rows:
        print(f"{g:9} {p[:16]:16} {k[:44]:44} {m/1e3:9.2f} {pr/1e3:9.2f} {100*(pr-m)/m:7.1f}  {lim}")
    for g in ("design", "held-out", None):
        sel = [r for r in rows if (g is None or r[0] == g) and r[3] >= 20000]
        if sel:
            mape = sum(abs(r[4] - r[3]) / r[3] for r in sel) / len(sel) * 100
            print(f"MAPE {g or 'all'} (launches >= 20 us): {mape:.1f} % over {len(sel)} launches")
    if rows:
        mape = sum(abs(r[4] - r[3]) / r[3] for r in rows) / len(rows) * 100
        print(f"MAPE all launches (any length): {mape:.1f} % over {len(rows)} launches")
    programs = {}
    for r in rows:
        if r[3] >= 20000:
            programs.setdefault((r[0], r[1]), []).append(100 * (r[4] - r[3]) / r[3])
    if programs:
        print("per program (launches >= 20 us): set, program, launches, mean error %, MAPE %")
        for (g, p), errs in sorted(programs.items()):
            print(f"  {g:9} {p[:24]:24} {len(errs):4d} {sum(errs) / len(errs):8.1f} {sum(map(abs, errs)) / len(errs):8.1f}")
    worst, seen = [], set()
    for r in sorted((r for r in rows if r[3] >= 20000), key=lambda r: -abs(r[4] - r[3]) / r[3]):
        if (r[1], r[2]) not in seen:  # the worst launch of each kernel
            seen.add((r[1], r[2]))
            worst.append(r)
    worst = worst[:15]
    if worst:
        print("worst launches >= 20 us (the worst of each kernel):")
        for g, p, k, m, pr, lim in worst:
            print(f"  {g:9} {p[:22]:22} {k[:40]:40} {m/1e3:9.2f} {pr/1e3:9.2f} {100*(pr-m)/m:7.1f}  {lim}")


def acceptance_main():
    rows, mismatched, unpredicted = acceptance_rows()
    report(rows, "acceptance suite (../shared/acceptance, H100 durations of the first 30 launches)")
    print(f"pairs left out: {mismatched} with different kernel names, {unpredicted} without a prediction")
    return rows


H200_CORPUS = os.path.join(ROOT, "tests/hw/data/h200/profile/timing/corpus_sol.csv")


def h200_sections():
    """program -> its ncu CSV lines in corpus_sol.csv (capture_timing.sh on the H200: "== name args" headers)."""
    out, name = {}, None
    for line in open(H200_CORPUS).read().splitlines():
        if line.startswith("== "):
            name = line.split()[1]
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def h200_main(build):
    """The accuracy corpus under --arch h200 against the H200's durations (all held-out: no h200
    constant was looked at against these programs; tests/hw/data/h200/profile)."""
    sections = h200_sections()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, src, args, _csv, _group in RUNS:
            if name not in sections:
                continue
            exe = os.path.join(tmp, name)
            subprocess.run(["nvcc", "-cudart", "shared", "-lineinfo", "-arch=sm_90", "-I", os.path.join(ROOT, "examples"),
                            "-o", exe, os.path.join(ROOT, src)], check=True)
            report_path = os.path.join(tmp, name + ".json")
            subprocess.run([os.path.join(build, "bin/warpscope"), "run", "--arch", "h200", "--json", report_path, "--", exe]
                           + args.split(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            launches = json.load(open(report_path))["launches"]
            for l, (kname, ns) in zip(launches, durations_of(sections[name])):
                t = l.get("time", {})
                if t.get("available") and base_name(l["name"]) == base_name(kname):
                    rows.append(("held-out", name, l["name"], ns, t["duration_ns"], t["limiter"]))
    report(rows, "accuracy corpus under --arch h200 (held-out) against the H200 (ncu --clock-control none)")


def main():
    if sys.argv[1:] == ["--acceptance-only"]:
        acceptance_main()
        return
    build = sys.argv[1]
    if "--h200" in sys.argv:
        h200_main(build)
        return
    if "--acceptance-results" in sys.argv:
        save_acceptance(sys.argv[sys.argv.index("--acceptance-results") + 1])
    runs = list(RUNS)
    if "--acceptance" in sys.argv and "--acceptance-results" not in sys.argv:
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
            report_path = os.path.join(tmp, name + ".json")
            subprocess.run([os.path.join(build, "bin/warpscope"), "run", "--json", report_path, "--", exe] + args.split(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            launches = json.load(open(report_path))["launches"]
            measured = durations(csv_path if csv_path.startswith("/") else os.path.join(H100, csv_path))
            for l, (kname, ns) in zip(launches, measured):
                t = l.get("time", {})
                if not t.get("available"):
                    continue
                rows.append((group, name, l["name"], ns, t["duration_ns"], t["limiter"]))
    report(rows, "examples (design) and accuracy corpus (held-out)")
    if "--acceptance-results" in sys.argv:
        acc = acceptance_main()
        report(rows + acc, "all three together")


if __name__ == "__main__":
    main()
