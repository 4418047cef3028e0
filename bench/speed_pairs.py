#!/usr/bin/env python3
"""Pairs the lines of bench/train_speed.sh's output (peviz, then PyTorch) and prints each ratio.

usage: bench/train_speed.sh > speed.txt; python3 bench/speed_pairs.py speed.txt
"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
for a, b in zip(rows[0::2], rows[1::2]):
    print(f"{a['pe']:<11} peviz {a['steps_per_s']:6.1f}  pytorch {b['steps_per_s']:6.1f}  "
          f"ratio {a['steps_per_s'] / b['steps_per_s']:.2f}")
