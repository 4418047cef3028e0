#!/usr/bin/env python3
"""Trains the runs of an emitted twin experiment (`peviz train ... --emit-pytorch DIR`) as separate processes, N at
once, and prints each run's JSON line (lab.py's) as it ends: many cores or one GPU used by many small runs.

Each run gets its own settings file (DIR/parallel[-TAG]/settings-<pe>-seed<S>.json, the emitted settings with that
run alone) and its own run file (run-<pe>-seed<S>.safetensors there, the format peviz opens); a run's stderr goes to
<pe>-seed<S>.log there. lab.py itself is unchanged: this only splits its list of runs.

usage: python3 tools/twin_parallel.py DIR [--jobs N] [--device cpu|cuda] [--threads T] [--seeds 0,1] [--tag TAG]
                                          [--python PY]
"""
import argparse
import json
import os
import subprocess
import sys
import time


def split_runs(folder, tag, seeds):
    """One settings file per run of DIR/settings.json (those of `seeds`, or all), in DIR/parallel[-TAG]/ (init paths
    made absolute)."""
    with open(os.path.join(folder, "settings.json")) as f:
        spec = json.load(f)
    out = os.path.join(folder, "parallel" + (f"-{tag}" if tag else ""))
    os.makedirs(out, exist_ok=True)
    jobs = []
    for r in spec["runs"]:
        if seeds is not None and r["seed"] not in seeds:
            continue
        name = f"{r['pe']}-seed{r['seed']}"
        one = dict(spec, runs=[dict(r, init=os.path.abspath(os.path.join(folder, r["init"])))])
        path = os.path.join(out, f"settings-{name}.json")
        with open(path, "w") as f:
            json.dump(one, f, indent=1)
        jobs.append((name, path, os.path.join(out, f"run-{name}.safetensors"), os.path.join(out, f"{name}.log")))
    return jobs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder", help="the folder peviz train --emit-pytorch wrote")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once (default: the CPU count)")
    p.add_argument("--device", default="cpu", help="lab.py --device")
    p.add_argument("--threads", type=int, default=1, help="lab.py --threads per run")
    p.add_argument("--seeds", help="only these seeds, e.g. 0,1 (default: every run)")
    p.add_argument("--tag", default="", help="write into DIR/parallel-TAG (several of these at once on one DIR)")
    p.add_argument("--python", default=sys.executable, help="the Python that has torch")
    a = p.parse_args()
    seeds = None if a.seeds is None else {int(s) for s in a.seeds.split(",")}
    lab = os.path.join(a.folder, "lab.py")
    if not os.path.isfile(lab):
        sys.exit(f"twin_parallel: {lab} does not exist (write it with peviz train ... --emit-pytorch {a.folder})")
    pending, running, failed = split_runs(a.folder, a.tag, seeds), [], 0
    start = time.monotonic()
    while pending or running:
        while pending and len(running) < max(1, a.jobs):
            name, settings, out, log = pending.pop(0)
            cmd = [a.python, lab, "--settings", settings, "--out", out, "--device", a.device, "--threads", str(a.threads)]
            log_file = open(log, "w")  # closed when the run ends
            running.append((name, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log_file, text=True), log_file))
        time.sleep(0.5)
        for run in [r for r in running if r[1].poll() is not None]:
            running.remove(run)
            name, proc, log_file = run
            log_file.close()
            line = proc.stdout.read().strip()
            if proc.returncode != 0 or not line:
                failed += 1
                print(f"twin_parallel: {name} exited {proc.returncode} (see its log)", file=sys.stderr)
            else:
                print(line, flush=True)
    print(f"twin_parallel: {time.monotonic() - start:.1f} s wall, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
