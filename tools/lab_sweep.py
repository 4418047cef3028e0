#!/usr/bin/env python3
"""Sweep lab settings and print, per task, one Markdown row per setting: the criteria for the lab's default.

For every setting, task and seed this runs `peviz train --task T --pe all --seed S --threads N <setting flags>`
and keeps its JSON lines in --raw-dir/<setting>/<task>-seed<S>.jsonl with the CPU seconds it used
(an existing file is reused, so an interrupted sweep resumes). A row gives, per encoding:
  fit    the lowest exact match over the tested n <= train_max, as the minimum over seeds;
  beyond the exact match at the first tested n > train_max, as the seed mean [min-max]
         (a learned table is "not defined" there and counts as 0).
and the criteria of the lab's default (docs/lab.md):
  fit        every encoding >= 0.9 at every tested n <= train_max on every seed;
  separation at the first n beyond, the seed mean of the best of NoPE, T5 and ALiBi is >= 0.3 and at
             least 0.2 above the best of RoPE, sinusoidal and learned;
  published  NoPE's and T5's seed means each >= 0.3 and above those of RoPE, sinusoidal and learned.

With --fixes (and --pe fixes, or any list) a row is one encoding of one setting and task instead: the lowest exact
match at n <= train_max over seeds, then the seed mean [min-max] at each tested n past train_max, the CPU seconds of
a run, and the issue's marks for the fixes (docs/lab.md, "What fixes it"): fit (>= 0.9 at every n <= train_max on
every seed), 35 (seed mean at n = 35 >= 0.9 on copy, >= 0.5 on reverse), 40 (>= 0.9 at n = 40), "35 each" and
"40 each" (every seed >= 0.9 there); on add, "20 on 4/5" and "30 on 4/5" (>= 0.9 at 20 or 30 digits on four fifths of
the seeds). --per-seed adds one row per encoding and seed: the curves behind the means.

usage: tools/lab_sweep.py --peviz build/peviz --raw-dir sweep --seeds 0 1 2 3 4 \
           --setting layers=3,heads=4,d-model=96 --setting layers=2,heads=2,d-model=64,steps=5000
       tools/lab_sweep.py --peviz build/peviz --raw-dir sweep-fixes --pe fixes --fixes --setting position-range=128
A setting is comma-separated `flag=value` pairs of `peviz train` (without the dashes); unnamed flags
keep peviz's defaults. The train_max of a setting is read from its `train-max` pair (default 20).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

ENCODINGS = ["nope", "sinusoidal", "learned", "rope", "alibi", "t5"]
EXTRAPOLATORS = ["nope", "t5", "alibi"]     # found to extrapolate (Kazemnejad et al. 2023; Press et al. 2022)
ABSOLUTE_LIKE = ["rope", "sinusoidal", "learned"]
DEFAULT_TRAIN_MAX = 20


def parse_setting(text):
    pairs = [p.split("=", 1) for p in text.split(",") if p]
    if any(len(p) != 2 for p in pairs):
        sys.exit(f"lab_sweep: a setting is flag=value pairs, got '{text}'")
    return pairs


def setting_flags(pairs):
    return [arg for flag, value in pairs for arg in (f"--{flag}", value)]


def cpu_seconds_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_one(args, pairs, slug, task, seed):
    folder = os.path.join(args.raw_dir, slug)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{task}-seed{seed}.jsonl")
    if not os.path.exists(path):
        cmd = [args.peviz, "train", "--task", task, "--pe", args.pe, "--seed", str(seed),
               "--threads", str(args.threads)] + setting_flags(pairs)
        print(time.strftime("%H:%M:%S"), "running:", " ".join(cmd), file=sys.stderr, flush=True)
        cpu0, wall0 = cpu_seconds_of_children(), time.time()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        meta = {"cpu_s": cpu_seconds_of_children() - cpu0, "wall_s": time.time() - wall0, "command": " ".join(cmd)}
        with open(path + ".tmp", "w") as f:
            f.write(json.dumps(meta) + "\n" + out)
        os.replace(path + ".tmp", path)
    with open(path) as f:
        meta = json.loads(f.readline())
        runs = {r["pe"]: r for r in map(json.loads, f)}
    return meta, runs


def fit(run, train_max):
    return min(v for n, v in run["exact_match"].items() if int(n) <= train_max)


def first_beyond(runs, train_max):
    return min(int(n) for n in runs["rope"]["exact_match"] if int(n) > train_max)


def beyond(run, n):
    v = run["exact_match"][str(n)]
    return 0.0 if v is None else v


def mean(values):
    return sum(values) / len(values)


def criteria(runs_by_seed, train_max):
    """The criteria of the lab's default over runs_by_seed (one {pe: JSON line} per seed)."""
    n_beyond = first_beyond(runs_by_seed[0], train_max)
    fits = {pe: min(fit(runs[pe], train_max) for runs in runs_by_seed) for pe in ENCODINGS}
    far = {pe: [beyond(runs[pe], n_beyond) for runs in runs_by_seed] for pe in ENCODINGS}
    means = {pe: mean(v) for pe, v in far.items()}
    best_x = max(means[pe] for pe in EXTRAPOLATORS)
    best_a = max(means[pe] for pe in ABSOLUTE_LIKE)
    return {"n_beyond": n_beyond, "fits": fits, "far": far, "means": means,
            "best_extrapolator": best_x, "best_absolute": best_a,
            "fit": all(v >= 0.9 for v in fits.values()),
            "separated": best_x >= 0.3 and best_x >= best_a + 0.2,
            "published": all(means[pe] >= 0.3 and means[pe] > best_a for pe in ("nope", "t5"))}


def row(pairs, task, results, train_max):
    c = criteria([runs for _, runs in results], train_max)
    cpu = mean([meta["cpu_s"] for meta, _ in results])
    cells = [f"{c['fits'][pe]:.2f} / {c['means'][pe]:.2f} [{min(c['far'][pe]):.2f}-{max(c['far'][pe]):.2f}]"
             for pe in ENCODINGS]
    verdict = ", ".join(name for name in ("fit", "separated", "published") if c[name]) or "-"
    label = " ".join(f"{flag}={value}" for flag, value in pairs) or "defaults"
    return (f"| {label} | {task} | {len(results)} | {c['n_beyond']} | " + " | ".join(cells) +
            f" | {cpu:.0f} | {verdict} |")


def fix_marks(task, fits, far):
    """(mark, met) of issue 56's bars: on copy and reverse the seed mean at n = 35 and 40, and every seed at 35 and 40
    ("35 each"); on add, n = 20 and 30 digits on at least four of five seeds (four fifths of the seeds run)."""
    def every(n):
        return n in far and min(far[n]) >= 0.9

    def most(n):
        return n in far and sum(v >= 0.9 for v in far[n]) >= 0.8 * len(far[n])
    if task == "add":
        return [("fit", fits >= 0.9), ("20 on 4/5", most(20)), ("30 on 4/5", most(30))]
    return [("fit", fits >= 0.9), ("35", 35 in far and mean(far[35]) >= (0.9 if task == "copy" else 0.5)),
            ("40", 40 in far and mean(far[40]) >= 0.9), ("35 each", every(35)), ("40 each", every(40))]


def per_seed_rows(pairs, task, results, train_max):
    """One row per encoding and seed (--per-seed): the exact match at every tested n past train_max."""
    label = " ".join(f"{flag}={value}" for flag, value in pairs) or "defaults"
    rows, lengths = [], []
    for pe in results[0][1]:
        for (meta, runs), seed in zip(results, meta_seeds(results)):
            r = runs[pe]
            lengths = sorted(int(n) for n in r["exact_match"] if int(n) > train_max)
            rows.append(f"| {label} | {task} | {pe} | {seed} | {fit(r, train_max):.2f} | " +
                        " | ".join(f"{beyond(r, n):.2f}" for n in lengths) + " |")
    return lengths, rows


def meta_seeds(results):
    """The seed of each result, read from its runs' JSON lines."""
    return [next(iter(runs.values()))["seed"] for _, runs in results]


def fixes_rows(pairs, task, results, train_max):
    """One row per encoding of the runs (--fixes): fit, exact match past train_max, CPU seconds, marks."""
    label = " ".join(f"{flag}={value}" for flag, value in pairs) or "defaults"
    rows = []
    for pe in results[0][1]:
        runs = [r[pe] for _, r in results]
        lengths = sorted(int(n) for n in runs[0]["exact_match"] if int(n) > train_max)
        fits = min(fit(r, train_max) for r in runs)
        far = {n: [beyond(r, n) for r in runs] for n in lengths}
        cells = [f"{mean(v):.2f} [{min(v):.2f}-{max(v):.2f}]" for v in far.values()]
        marks = [name for name, ok in fix_marks(task, fits, far) if ok]
        cpu = mean([meta["cpu_s"] for meta, _ in results]) / len(results[0][1])
        rows.append(f"| {label} | {task} | {pe} | {len(runs)} | {fits:.2f} | " + " | ".join(cells) +
                    f" | {cpu:.0f} | {', '.join(marks) or '-'} |")
    return lengths, rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--peviz", required=True)
    p.add_argument("--raw-dir", required=True)
    p.add_argument("--tasks", nargs="+", default=["copy", "reverse"])
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--setting", action="append", default=[], help="flag=value,... (repeatable)")
    p.add_argument("--report-only", action="store_true", help="print rows from the runs already in --raw-dir")
    p.add_argument("--pe", default="all", help="peviz train --pe (a raw dir holds one list's runs)")
    p.add_argument("--fixes", action="store_true", help="one row per encoding, the fixes' marks (see above)")
    p.add_argument("--per-seed", action="store_true", help="with --fixes: also one row per encoding and seed")
    args = p.parse_args()
    settings = [parse_setting(s) for s in (args.setting or [""])]
    if not args.fixes:
        print("| setting | task | seeds | first n beyond | " +
              " | ".join(f"{pe}: fit min / beyond mean [min-max]" for pe in ENCODINGS) +
              " | CPU s per seed | criteria met |")
        print("|" + "---|" * (len(ENCODINGS) + 6))
    for pairs in settings:
        slug = "_".join(f"{flag}{value}" for flag, value in pairs) or "defaults"
        train_max = int(dict(pairs).get("train-max", DEFAULT_TRAIN_MAX))  # peviz's JSON lines say it too
        for task in args.tasks:
            results = []
            for seed in args.seeds:
                path = os.path.join(args.raw_dir, slug, f"{task}-seed{seed}.jsonl")
                if args.report_only and not os.path.exists(path):
                    continue
                results.append(run_one(args, pairs, slug, task, seed))
            if results and args.fixes:
                train_max = next(iter(results[0][1].values())).get("train_max", train_max)
                lengths, rows = fixes_rows(pairs, task, results, train_max)
                print("\n| setting | task | encoding | seeds | fit min | " +
                      " | ".join(f"n = {n}: mean [min-max]" for n in lengths) + " | CPU s per run | marks |")
                print("|" + "---|" * (len(lengths) + 7))
                print("\n".join(rows), flush=True)
                if args.per_seed:
                    lengths, rows = per_seed_rows(pairs, task, results, train_max)
                    print("\n| setting | task | encoding | seed | fit min | " + " | ".join(f"n = {n}" for n in lengths) + " |")
                    print("|" + "---|" * (len(lengths) + 5))
                    print("\n".join(rows), flush=True)
            elif results:
                train_max = results[0][1]["rope"].get("train_max", train_max)
                print(row(pairs, task, results, train_max), flush=True)


if __name__ == "__main__":
    main()
