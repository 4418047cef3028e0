#!/usr/bin/env python3
"""Where a trained lab run's answers go wrong: per test length, how many test sequences are wrong at each answer
position (teacher-forced argmax, as peviz's exact match reads it), from the run file through the PyTorch twin.

usage: /usr/bin/python3 tools/lab_answer_errors.py --peviz build/peviz RUN.safetensors --lengths 15 20 [--samples 100]
Prints one line per length: the exact match over the first --samples test sequences (peviz's test set of the run's
seed) and the count of wrong sequences at answer position 0, 1, ... (y1.. or c0.., then EOS).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

TWIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "train", "twin")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--peviz", required=True)
    p.add_argument("run")
    p.add_argument("--lengths", nargs="+", type=int, required=True)
    p.add_argument("--samples", type=int, default=100)
    a = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="peviz-answer-errors-") as tmp:
        for name in (f for f in os.listdir(TWIN) if f.endswith(".py")):  # lab.py and the modules it imports
            shutil.copy(os.path.join(TWIN, name), tmp)
        table = subprocess.run([a.peviz, "train", "--list-encodings", "--list-tasks", "--format", "json"],
                               check=True, capture_output=True, text=True).stdout
        with open(os.path.join(tmp, "lab_table.json"), "w") as f:
            f.write(table)
        sys.path.insert(0, tmp)
        import torch
        import lab
        weights, meta = lab.read_safetensors(a.run)
        cfg = lab.settings_of_run_file(meta)
        model = lab.LabModel(cfg, weights).eval()
        print(f"{a.run}: {cfg['pe']} on {cfg['task']}, seed {cfg['seed']}, {cfg['layers']} layers")
        for n in a.lengths:
            seqs = torch.tensor(lab.test_sequences(cfg["task"], n, cfg["test_samples"], cfg["seed"])[:a.samples])
            ids = torch.tensor(lab.test_positions(cfg, n, cfg["test_samples"])[:a.samples])
            first = lab.answer_start(cfg["task"], n)
            with torch.no_grad():
                pred = model(seqs[:, :-1], ids[:, :-1])[:, first:].argmax(-1)
            wrong = pred != seqs[:, first + 1:]
            exact = float((~wrong).all(dim=1).float().mean())
            print(f"n = {n}: exact {exact:.2f}; wrong sequences per answer position: {wrong.sum(dim=0).tolist()}")


if __name__ == "__main__":
    main()
