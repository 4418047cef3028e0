#!/usr/bin/env python3
"""Prints peviz's exact match beside its PyTorch twin's for the same settings and seeds: one Markdown row per
(encoding, seed), then with several seeds one row per encoding of seed means and the largest gap of a single seed.

peviz's side: the JSON lines `peviz train` printed (e.g. docs/lab-runs/sweep/<setting>/copy-seed0.jsonl; several
files for several seeds).
The twin's side, one of:
  --twin DIR/run.json   the experiment lab.py wrote, read through peviz's own loader when --open-with names a program
                        that prints one run_full_json line per run (tests' twin_dump: `twin_dump open PATH`), else
                        from the manifest itself;
  --twin-lines F.jsonl  the JSON lines lab.py (or tools/twin_parallel.py) printed; also any other `peviz train`
                        lines, to compare peviz with itself (e.g. under another OpenBLAS kernel).

usage: python3 tools/twin_table.py --peviz-lines FILE.jsonl [FILE.jsonl ...]
                                   (--twin DIR/run.json [--open-with build/tests/twin_dump] | --twin-lines F [F ...])
                                   [--labels peviz twin]
"""
import argparse
import json
import subprocess
import sys


def cell(v):
    return "n/d" if v is None else f"{v:.3f}"


def read_lines(paths):
    """{(pe, seed): JSON line} of every line with a "pe"."""
    out = {}
    for path in paths:
        with open(path) as f:
            for j in map(json.loads, filter(str.strip, f)):
                if "pe" in j:
                    out[(j["pe"], j["seed"])] = j
    return out


def read_twin(a):
    if a.twin_lines:
        return read_lines(a.twin_lines), ", ".join(a.twin_lines)
    if a.open_with:
        out = subprocess.run([a.open_with, "open", a.twin], capture_output=True, text=True, check=True).stdout
        return ({(j["pe"], j["seed"]): j for j in map(json.loads, out.splitlines())},
                f"`{a.open_with} open {a.twin}` (peviz's open_experiment)")
    with open(a.twin) as f:
        return {(j["pe"], j["seed"]): j for j in json.load(f)["runs"]}, a.twin


def seed_rows(keys, peviz, twin, lengths):
    for key in keys:
        a_run, b_run = peviz[key], twin[key]
        if a_run["steps"] != b_run["steps"]:
            sys.exit(f"twin_table: {key[0]} seed {key[1]}: steps differ ({a_run['steps']}/{b_run['steps']})")
        cells = [f"{cell(a_run['exact_match'][n])} / {cell(b_run['exact_match'].get(n))}" for n in lengths]
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) +
              f" | {a_run['final_loss']:.2g} / {b_run['final_loss']:.2g} | {a_run['steps_per_s']:.1f} / "
              f"{b_run['steps_per_s']:.1f} |")


def mean_rows(keys, peviz, twin, lengths, labels):
    """Per encoding and length: seed mean on each side and the largest |difference| of one seed."""
    print(f"\nseed means, {labels[0]} / {labels[1]}, and [the largest gap of one seed]\n")
    print("| pe | seeds | " + " | ".join(f"n={n}" for n in lengths) + " |")
    print("|---" * (len(lengths) + 2) + "|")
    for pe in dict.fromkeys(k[0] for k in keys):
        mine = [k for k in keys if k[0] == pe]
        cells = []
        for n in lengths:
            pairs = [(peviz[k]["exact_match"][n], twin[k]["exact_match"].get(n)) for k in mine]
            if any(x is None or y is None for x, y in pairs):
                cells.append("n/d")
                continue
            mean = lambda v: sum(v) / len(v)
            gap = max(abs(x - y) for x, y in pairs)
            cells.append(f"{mean([x for x, _ in pairs]):.3f} / {mean([y for _, y in pairs]):.3f} [{gap:.3f}]")
        print(f"| {pe} | {len(mine)} | " + " | ".join(cells) + " |")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--peviz-lines", required=True, nargs="+", help="JSON lines printed by peviz train")
    p.add_argument("--twin", help="the twin's experiment manifest (<stem>.json) or one run file")
    p.add_argument("--twin-lines", nargs="+", help="JSON lines printed by lab.py (or by another peviz train)")
    p.add_argument("--open-with", help="a program run as `PROGRAM open PATH` printing one JSON line per run")
    p.add_argument("--labels", nargs=2, default=["peviz", "twin"], help="the two sides' names in the heading")
    a = p.parse_args()
    if bool(a.twin) == bool(a.twin_lines):
        sys.exit("twin_table: give one of --twin and --twin-lines")
    peviz = read_lines(a.peviz_lines)
    twin, source = read_twin(a)
    keys = [k for k in peviz if k in twin]
    if not keys:
        sys.exit("twin_table: no (encoding, seed) in both")
    lengths = list(peviz[keys[0]]["exact_match"])
    print(f"exact match, {a.labels[0]} / {a.labels[1]} ({a.labels[0]}: {', '.join(a.peviz_lines)}; "
          f"{a.labels[1]}: {source})\n")
    print("| pe | seed | " + " | ".join(f"n={n}" for n in lengths) + " | final loss | steps/s |")
    print("|---" * (len(lengths) + 4) + "|")
    seed_rows(keys, peviz, twin, lengths)
    if len({k[1] for k in keys}) > 1:
        mean_rows(keys, peviz, twin, lengths, a.labels)


if __name__ == "__main__":
    main()
