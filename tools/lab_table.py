#!/usr/bin/env python3
"""Run `peviz train` for the length-generalisation table of docs/lab.md and print it as Markdown.

For every task and seed: `peviz train --task T --pe all --seed S --threads N` (defaults otherwise:
3000 steps, 2 layers, 2 heads, d 64, batch 32, train-max 20, test-max 40, 200 test sequences per
length). Each command's JSON lines are kept in --raw-dir/<task>-seed<S>.jsonl; an existing file is
reused, so an interrupted run resumes. Cells are exact match per seed (seed 0 / 1 / 2); "n/d" = not
defined (the learned table has no rows there).

usage: tools/lab_table.py --peviz build/peviz --raw-dir lab-runs [--tasks copy reverse] [--seeds 0 1 2]
"""
import argparse
import json
import os
import subprocess
import sys

ENCODINGS = ["nope", "sinusoidal", "learned", "rope", "alibi", "t5"]


def run(peviz, task, seed, threads, raw_dir, extra):
    path = os.path.join(raw_dir, f"{task}-seed{seed}.jsonl")
    if not os.path.exists(path):
        cmd = [peviz, "train", "--task", task, "--pe", "all", "--seed", str(seed), "--threads", str(threads)] + extra
        print("running:", " ".join(cmd), file=sys.stderr, flush=True)
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        with open(path + ".tmp", "w") as f:
            f.write(out)
        os.replace(path + ".tmp", path)
    with open(path) as f:
        return {r["pe"]: r for r in map(json.loads, f)}


TRAIN_MAX = 20  # the default train_max the table is run with


def lowest_in_range(run):
    return min(v for n, v in run["exact_match"].items() if int(n) <= TRAIN_MAX)


def cell(values):
    return " / ".join("n/d" if v is None else f"{v:.2f}" for v in values)


def table(task, by_seed):
    lengths = sorted({int(n) for runs in by_seed for r in runs.values() for n in r["exact_match"]})
    head = "| pe | " + " | ".join(f"n={n}" for n in lengths) + " | final loss |"
    lines = [f"**{task}** (exact match, seeds {' / '.join(str(s) for s in ARGS.seeds)})", "", head,
             "|" + "---|" * (len(lengths) + 2)]
    for pe in ENCODINGS:
        runs = [r[pe] for r in by_seed]
        cells = [cell([r["exact_match"][str(n)] for r in runs]) for n in lengths]
        loss = " / ".join(f"{r['final_loss']:.4f}" for r in runs)
        lines.append(f"| {pe} | " + " | ".join(cells) + f" | {loss} |")
    lines.append("")
    lines.append(f"lowest exact match over the tested n <= {TRAIN_MAX} (seeds {' / '.join(str(s) for s in ARGS.seeds)}): " +
                 "; ".join(f"{pe} " + " / ".join(f"{lowest_in_range(r[pe]):.3f}" for r in by_seed) for pe in ENCODINGS))
    beyond = [f"{pe} seed {s} n={n}: {v}" for pe in ENCODINGS for s, runs in zip(ARGS.seeds, by_seed)
              for n, v in runs[pe]["exact_match"].items() if int(n) > TRAIN_MAX and v is not None and v > 0.05]
    lines.append("")
    lines.append(f"scores above 0.05 beyond n = {TRAIN_MAX}: " + ("; ".join(beyond) if beyond else "none"))
    speeds = [r["steps_per_s"] for runs in by_seed for r in runs.values()]
    lines.append("")
    lines.append(f"steps/s per run (one thread each, {ARGS.threads} runs in parallel): "
                 f"min {min(speeds):.1f}, max {max(speeds):.1f}")
    return "\n".join(lines)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--peviz", default="build/peviz")
    p.add_argument("--raw-dir", default="lab-runs")
    p.add_argument("--tasks", nargs="+", default=["copy", "reverse"])
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("extra", nargs="*", help="more `peviz train` flags after --")
    ARGS = p.parse_args()
    os.makedirs(ARGS.raw_dir, exist_ok=True)
    for task in ARGS.tasks:
        by_seed = [run(ARGS.peviz, task, s, ARGS.threads, ARGS.raw_dir, ARGS.extra) for s in ARGS.seeds]
        print(table(task, by_seed))
        print()
