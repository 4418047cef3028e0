#!/usr/bin/env python3
"""Floating-point operations of one training step of the lab's model (matrix products and attention), expected
over the task's random packed batch; with a steps/s figure, the achieved GFLOP/s (docs/benchmarks.md).

usage: bench/train_flops.py [--layers 4 --d-model 64 --batch 32 --train-max 20] [--steps-per-s R]
A step is a forward and a backward pass: 2 FLOPs per multiply-add forward, twice that backward (the input's and
the weight's gradient), so 6 per weight and token; attention adds QK^T and PV per sequence (L^2 d each way).
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("--layers", type=int, default=4)
p.add_argument("--d-model", type=int, default=64)
p.add_argument("--batch", type=int, default=32)
p.add_argument("--train-max", type=int, default=20)
p.add_argument("--vocab", type=int, default=13)
p.add_argument("--steps-per-s", type=float, nargs="*", default=[])
a = p.parse_args()
d = a.d_model
lengths = [2 * n + 3 for n in range(1, a.train_max + 1)]  # n uniform in [1, train_max]
tokens = a.batch * sum(lengths) / len(lengths)
square = a.batch * sum(L * L for L in lengths) / len(lengths)
weights = a.layers * 12 * d * d + d * a.vocab        # qkv 3d^2, proj d^2, mlp 8d^2; the head
matmul = 6 * weights * tokens
attention = a.layers * 3 * 2 * 2 * square * d       # QK^T and PV, forward + 2 backward, 2 FLOPs a multiply-add
total = matmul + attention
print(f"expected tokens per step {tokens:.0f}; GFLOP per step: matrix products {matmul / 1e9:.4f}, "
      f"attention {attention / 1e9:.4f}, total {total / 1e9:.4f}")
for r in a.steps_per_s:
    print(f"at {r:.1f} steps/s: {total * r / 1e9:.1f} GFLOP/s")
