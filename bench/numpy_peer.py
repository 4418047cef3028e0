#!/usr/bin/python3
"""Times the seed texts' NumPy code at the sizes of `peviz bench`: the baseline peviz is compared to.

Table (the annotated transformer / PyTorch tutorial recipe, in NumPy):
    div_term = exp(arange(0, d, 2) * -(log(10000) / d)); pe[:, 0::2] = sin(position * div_term); ...
Cosine similarity: pn = pe / |pe| per row; pn @ pn.T (OpenBLAS through NumPy).
Prints the same JSON shape as `peviz bench --json` with --json, else a table. Medians after one warm-up.

Whole process, as a user would run it:
    numpy_peer.py export-similarity L d OUT.npy
        the script a user would otherwise write: the seed table, pn @ pn.T, np.save.
    numpy_peer.py whole-process PEVIZ L d FOLDER [PAIRS]
        runs `PEVIZ export similarity --metric cosine --seq-len L --d-model d --format npy` and the
        script above as separate processes, interleaved, PAIRS times (default 5); prints the median wall
        time of each, their ratio and each one's peak RSS (ru_maxrss of the child, as /usr/bin/time -f %M),
        checks the two files agree, and deletes them.
"""
import json
import math
import os
import subprocess
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


def export_similarity(L, d, out):
    np.save(out, seed_cosine(seed_table(L, d)).astype(np.float32))


def run_child(argv, folder):
    """Wall seconds and peak RSS (KiB, from /usr/bin/time -f %M) of one child process."""
    rss_file = os.path.join(folder, "rss.txt")
    t0 = time.perf_counter()
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + argv, stdout=subprocess.DEVNULL, check=True)
    seconds = time.perf_counter() - t0
    with open(rss_file) as f:
        kib = int(f.read().split()[-1])
    os.remove(rss_file)
    return seconds, kib


def whole_process(peviz, L, d, folder, pairs):
    ours, theirs = os.path.join(folder, "peviz-sim.npy"), os.path.join(folder, "numpy-sim.npy")
    peviz_cmd = [peviz, "export", "similarity", "--metric", "cosine", "--seq-len", str(L), "--d-model", str(d),
                 "--format", "npy", "--quiet", "--out", ours]
    numpy_cmd = [sys.executable, os.path.abspath(__file__), "export-similarity", str(L), str(d), theirs]
    times = {"peviz": [], "numpy": []}
    rss = {"peviz": 0, "numpy": 0}
    for _ in range(pairs):
        for name, cmd in (("peviz", peviz_cmd), ("numpy", numpy_cmd)):
            seconds, kib = run_child(cmd, folder)
            times[name].append(seconds)
            rss[name] = max(rss[name], kib)
    a, b = np.load(ours, mmap_mode="r"), np.load(theirs, mmap_mode="r")
    rows = np.linspace(0, L - 1, 17).astype(int)
    agree = float(np.max(np.abs(a[rows] - b[rows])))
    os.remove(ours)
    os.remove(theirs)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    print(json.dumps({"seq_len": L, "d_model": d, "pairs": pairs, "median_s": med,
                      "ratio": med["numpy"] / med["peviz"], "peak_rss_kib": rss,
                      "max_abs_difference": agree, "loadavg": os.getloadavg()}))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "export-similarity":
        export_similarity(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
        return
    if len(sys.argv) in (6, 7) and sys.argv[1] == "whole-process":
        pairs = int(sys.argv[6]) if len(sys.argv) == 7 else 5
        whole_process(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], pairs)
        return
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
