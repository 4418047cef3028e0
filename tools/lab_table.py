#!/usr/bin/env python3
"""Run `peviz train` at the lab's defaults for copy and reverse over several seeds; print the Markdown tables of docs/lab.md.

For every task and seed: `peviz train --task T --pe all --seed S --threads N [extra flags]`. Each command's JSON
lines are kept in --raw-dir/<task>-seed<S>.jsonl (the first line may be lab_sweep.py's CPU-time record); an
existing file is reused, so an interrupted run resumes and lab_sweep.py's runs of the same settings can be read.
Cells are exact match, the mean over the seeds and [min-max]; "n/d" = not defined (the learned table has no rows
there). Under each table: the criteria of the lab's default (lab_sweep.py), as met or not by these runs.

usage: tools/lab_table.py --peviz build/peviz --raw-dir lab-runs [--tasks copy reverse] [--seeds 0 1 2 3 4] [-- flags]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_sweep import ENCODINGS, criteria  # noqa: E402  (the one definition of the criteria)


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
        rows = [json.loads(line) for line in f]
    return {r["pe"]: r for r in rows if "pe" in r}


def cell(values):
    defined = [v for v in values if v is not None]
    if not defined:
        return "n/d"
    mean = sum(defined) / len(defined)
    return f"{mean:.2f} [{min(defined):.2f}-{max(defined):.2f}]" + ("" if len(defined) == len(values) else " (some n/d)")


def table(task, seeds, by_seed, threads):
    train_max = by_seed[0]["rope"].get("train_max", 20)  # lines from before peviz printed it ran at the default 20
    lengths = sorted({int(n) for runs in by_seed for r in runs.values() for n in r["exact_match"]})
    lines = [f"**{task}** (exact match: mean over seeds {', '.join(map(str, seeds))} [min-max]; trained to n = {train_max})",
             "", "| pe | " + " | ".join(f"n={n}" for n in lengths) + " | final loss [min-max] |",
             "|" + "---|" * (len(lengths) + 2)]
    for pe in ENCODINGS:
        runs = [r[pe] for r in by_seed]
        cells = [cell([r["exact_match"][str(n)] for r in runs]) for n in lengths]
        losses = [r["final_loss"] for r in runs]
        lines.append(f"| {pe} | " + " | ".join(cells) + f" | {min(losses):.4f}-{max(losses):.4f} |")
    verdict = criteria(by_seed, train_max)
    lines += ["", f"criteria (docs/lab.md): fit (every encoding >= 0.9 at every n <= {train_max}, every seed): "
              f"{'met' if verdict['fit'] else 'NOT met'}; separation at n = {verdict['n_beyond']} (best of NoPE, T5, "
              f"ALiBi {verdict['best_extrapolator']:.3f} >= 0.3 and >= best of RoPE, sinusoidal, learned "
              f"{verdict['best_absolute']:.3f} + 0.2): {'met' if verdict['separated'] else 'NOT met'}; published "
              f"(NoPE and T5 each >= 0.3 and above RoPE, sinusoidal, learned): "
              f"{'met' if verdict['published'] else 'not met'}"]
    speeds = [r["steps_per_s"] for runs in by_seed for r in runs.values()]
    lines += ["", f"steps/s per run (one thread each, {threads} runs in parallel): "
              f"min {min(speeds):.1f}, max {max(speeds):.1f}"]
    return "\n".join(lines)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--peviz", default="build/peviz")
    p.add_argument("--raw-dir", default="lab-runs")
    p.add_argument("--tasks", nargs="+", default=["copy", "reverse"])
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("extra", nargs="*", help="more `peviz train` flags after --")
    args = p.parse_args()
    os.makedirs(args.raw_dir, exist_ok=True)
    for task in args.tasks:
        by_seed = [run(args.peviz, task, s, args.threads, args.raw_dir, args.extra) for s in args.seeds]
        print(table(task, args.seeds, by_seed, args.threads))
        print()
