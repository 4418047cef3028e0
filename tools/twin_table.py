#!/usr/bin/env python3
"""Prints peviz's exact match beside its PyTorch twin's for the same settings and seed: one Markdown row per encoding.

peviz's side: the JSON lines `peviz train` printed (e.g. docs/lab-runs/sweep/<setting>/copy-seed0.jsonl).
The twin's side: the experiment lab.py wrote (<stem>.json), read through peviz's own loader when --open-with names
a program that prints one run_full_json line per run (tests' twin_dump: `twin_dump open PATH`), else from the
manifest itself.

usage: python3 tools/twin_table.py --peviz-lines FILE.jsonl --twin DIR/run.json [--open-with build/tests/twin_dump]
"""
import argparse
import json
import subprocess
import sys


def cell(v):
    return "n/d" if v is None else f"{v:.3f}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--peviz-lines", required=True, help="JSON lines printed by peviz train")
    p.add_argument("--twin", required=True, help="the twin's experiment manifest (<stem>.json) or one run file")
    p.add_argument("--open-with", help="a program run as `PROGRAM open PATH` printing one JSON line per run")
    a = p.parse_args()
    with open(a.peviz_lines) as f:
        peviz = {j["pe"]: j for j in map(json.loads, f) if "pe" in j}
    if a.open_with:
        out = subprocess.run([a.open_with, "open", a.twin], capture_output=True, text=True, check=True).stdout
        twin = {j["pe"]: j for j in map(json.loads, out.splitlines())}
        source = f"`{a.open_with} open {a.twin}` (peviz's open_experiment)"
    else:
        with open(a.twin) as f:
            twin = {j["pe"]: j for j in json.load(f)["runs"]}
        source = a.twin
    pes = [pe for pe in peviz if pe in twin]
    if not pes:
        sys.exit("twin_table: no encoding in both files")
    lengths = list(peviz[pes[0]]["exact_match"])
    print(f"exact match, peviz / twin (peviz: {a.peviz_lines}; twin: {source})\n")
    print("| pe | seed | " + " | ".join(f"n={n}" for n in lengths) + " | final loss | steps/s |")
    print("|---" * (len(lengths) + 4) + "|")
    for pe in pes:
        a_run, b_run = peviz[pe], twin[pe]
        if a_run["seed"] != b_run["seed"] or a_run["steps"] != b_run["steps"]:
            sys.exit(f"twin_table: {pe}: seeds or steps differ ({a_run['seed']}/{b_run['seed']}, "
                     f"{a_run['steps']}/{b_run['steps']})")
        cells = [f"{cell(a_run['exact_match'][n])} / {cell(b_run['exact_match'].get(n))}" for n in lengths]
        print(f"| {pe} | {a_run['seed']} | " + " | ".join(cells) +
              f" | {a_run['final_loss']:.2g} / {b_run['final_loss']:.2g} | {a_run['steps_per_s']:.1f} / "
              f"{b_run['steps_per_s']:.1f} |")


if __name__ == "__main__":
    main()
