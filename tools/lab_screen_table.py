#!/usr/bin/env python3
"""Print the screening runs of docs/lab-runs/screen/ as one Markdown row per file and encoding.

Each file holds the JSON lines of one `peviz train --task reverse --pe alibi[,learned] --seeds 5 --threads 2 <flags>`
(the flags are in its name). A row gives the exact match at n = 20 (inside the training range) and n = 25 (the first
tested length beyond it) per seed, and the seed mean at 25 ("n/d": a learned table has no rows there).

usage: tools/lab_screen_table.py [docs/lab-runs/screen]
"""
import glob
import json
import os
import sys


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "docs/lab-runs/screen"
    print("| file | pe | n=20 per seed | n=25 per seed | n=25 mean |")
    print("|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(folder, "*.jsonl"))):
        with open(path) as f:
            runs = [json.loads(line) for line in f]
        for pe in sorted({r["pe"] for r in runs}):
            chosen = [r for r in runs if r["pe"] == pe]
            at20 = [r["exact_match"]["20"] for r in chosen]
            at25 = [r["exact_match"]["25"] for r in chosen]
            mean = "n/d" if None in at25 else "%.3f" % (sum(at25) / len(at25))
            print(f"| {os.path.basename(path)} | {pe} | {' '.join(map(str, at20))} | "
                  f"{' '.join(map(str, at25))} | {mean} |")


if __name__ == "__main__":
    main()
