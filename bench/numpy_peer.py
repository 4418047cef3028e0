#!/usr/bin/python3
"""Times the seed texts' NumPy code at the sizes of `peviz bench`: the baseline peviz is compared to.

Table (the annotated transformer / PyTorch tutorial recipe, in NumPy):
    div_term = exp(arange(0, d, 2) * -(log(10000) / d)); pe[:, 0::2] = sin(position * div_term); ...
Cosine similarity: pn = pe / |pe| per row; pn @ pn.T (OpenBLAS through NumPy).
Prints the same JSON shape as `peviz bench --json` with --json, else a table. Medians after one warm-up.
"""
import json
import math
import sys
import time

import numpy as np

SIZES = [(512, 512), (2048, 512), (4096, 1024), (8192, 1024)]


def seed_table(L, d):
    pe = np.zeros((L, d), dtype=np.float32)
    position = np.arange(0, L, dtype=np.float32)[:, None]
    div_term = np.exp(np.arange(0, d, 2, dtype=np.float32) * -(math.log(10000.0) / d))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def seed_cosine(pe):
    pn = pe / np.linalg.norm(pe, axis=1, keepdims=True)
    return pn @ pn.T


def median_ms(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2]


def main():
    as_json = "--json" in sys.argv
    reps = 7
    table, sim = {}, {}
    for L, d in SIZES:
        key = f"{L}x{d}"
        table[key] = median_ms(lambda: seed_table(L, d), reps)
        pe = seed_table(L, d)
        sim[key] = median_ms(lambda: seed_cosine(pe), reps)
        if not as_json:
            print(f"L x d = {key:<10} table {table[key]:9.3f} ms   cosine similarity {sim[key]:9.3f} ms")
    if as_json:
        print(json.dumps({"table": table, "similarity": sim}))


if __name__ == "__main__":
    main()
