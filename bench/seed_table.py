#!/usr/bin/python3
# Two builds' `peviz train --seeds` JSON lines side by side: final loss and exact match past the training length.
# usage: bench/seed_table.py FILE   (FILE: "== <before build>" then its JSON lines, "== <after build>" then its)
import json
import sys

rows, build = {}, None
for line in open(sys.argv[1]):
    if line.startswith("== "):
        build = "before" if build is None else "after"
    elif line.startswith("{"):
        r = json.loads(line)
        rows.setdefault((r["pe"], r["seed"]), {})[build] = r
print("pe     seed  final loss before / after   exact match n=25 before / after   n=30 before / after")
for (pe, seed), runs in sorted(rows.items()):
    if "before" in runs and "after" in runs:
        b, a = runs["before"], runs["after"]
        print(f"{pe:6} {seed:4}  {b['final_loss']:.3g} / {a['final_loss']:.3g}   "
              f"{b['exact_match']['25']} / {a['exact_match']['25']}   {b['exact_match']['30']} / {a['exact_match']['30']}")
