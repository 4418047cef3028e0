#!/usr/bin/env python3
"""The PyTorch peer of `peviz train`: the same model, task, batch and optimizer on ONE thread; prints steps/s.

Model (as core/train/model.hpp): token embedding [+ position table], pre-LayerNorm blocks with biased
q/k/v and output projections, scale 1/sqrt(head_dim), MLP d -> 4d -> d with exact GELU, final
LayerNorm, untied head with bias; cross-entropy on y1..yn and EOS only. AdamW (0.9, 0.999, 1e-8,
weight decay 0.01 on every parameter), lr 1e-3, linear warm-up 100 steps, cosine to 0 at the last step.
Batches are padded to the longest sequence of the batch (what a PyTorch user writes; peviz packs).

usage: /usr/bin/python3 bench/torch_peer.py [--pe rope] [--steps 300] [--seed 0]
Exits 0 with a message when torch is not installed (Debian: apt-get install python3-torch).
"""
import argparse
import json
import math
import random
import sys
import time

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    print("torch_peer: torch is not installed (apt-get install python3-torch); skipped")
    sys.exit(0)

BOS, SEP, EOS, VOCAB, PAD = 10, 11, 12, 13, 0


def batch(rng, task, size, train_max):
    seqs = []
    for _ in range(size):
        n = rng.randint(1, train_max)
        x = [rng.randrange(10) for _ in range(n)]
        y = x if task == "copy" else x[::-1] if task == "reverse" else sorted(x)
        seqs.append(([BOS] + x + [SEP] + y + [EOS], n))
    T = max(len(s) for s, _ in seqs)
    tokens = torch.full((size, T), PAD, dtype=torch.long)
    targets = torch.full((size, T), -100, dtype=torch.long)
    lengths = torch.zeros(size, dtype=torch.long)
    for b, (s, n) in enumerate(seqs):
        tokens[b, :len(s)] = torch.tensor(s)
        targets[b, n + 1:len(s) - 1] = torch.tensor(s[n + 2:])  # SEP..y_n predict y1..EOS
        lengths[b] = len(s)
    return tokens, targets, lengths


def t5_bucket(dist, buckets=32, max_distance=128):  # HF T5 causal bucket of key - query = -dist
    exact = buckets // 2
    large = exact + (torch.log(dist.float().clamp(min=1) / exact) / math.log(max_distance / exact) * (buckets - exact)).long()
    return torch.where(dist < exact, dist, large.clamp(max=buckets - 1))


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.fcproj = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x, bias, rope):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        if rope is not None:  # halves pairing (HF LLaMA rotate_half)
            cos, sin = rope
            rot = lambda t: t * cos + torch.cat((-t[..., t.shape[-1] // 2:], t[..., :t.shape[-1] // 2]), -1) * sin
            q, k = rot(q), rot(k)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.heads) + bias
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, C)
        x = x + self.proj(y)
        return x + self.fcproj(F.gelu(self.fc(self.ln2(x))))


class Model(nn.Module):
    def __init__(self, pe, layers, heads, d, train_max, max_positions, base):
        super().__init__()
        self.pe, self.heads, self.d = pe, heads, d
        self.wte = nn.Embedding(VOCAB, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.lnf, self.head = nn.LayerNorm(d), nn.Linear(d, VOCAB)
        pos = torch.arange(max_positions, dtype=torch.float64)
        if pe == "learned":
            self.wpe = nn.Parameter(torch.randn(2 * train_max + 3, d) * 0.02)
        if pe == "sinusoidal":  # interleaved: sin at even, cos at odd channels
            w = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
            table = torch.zeros(max_positions, d, dtype=torch.float64)
            table[:, 0::2], table[:, 1::2] = torch.sin(pos[:, None] * w), torch.cos(pos[:, None] * w)
            self.register_buffer("table", table.float())
        if pe == "rope":
            hd = d // heads
            ang = pos[:, None] * base ** (-torch.arange(0, hd, 2, dtype=torch.float64) / hd)
            self.register_buffer("cos", torch.cat((ang.cos(), ang.cos()), -1).float())
            self.register_buffer("sin", torch.cat((ang.sin(), ang.sin()), -1).float())
        dist = pos[:, None] - pos[None, :]
        if pe == "alibi":
            slopes = torch.tensor([2 ** (-8 * (h + 1) / heads) for h in range(heads)])  # powers of two
            self.register_buffer("alibi", -slopes[:, None, None] * dist.float())
        if pe == "t5":
            self.t5 = nn.Parameter(torch.randn(heads, 32) * 0.02)
            self.register_buffer("bucket", t5_bucket(dist.long().clamp(min=0)))
        for m in self.modules():  # GPT-2: N(0, 0.02^2) weights, zero biases (as core/train/model.cpp)
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, 0, 0.02)
                if getattr(m, "bias", None) is not None:
                    nn.init.zeros_(m.bias)
        if pe == "sinusoidal":  # token embedding at the sinusoid's RMS, sqrt(1/2) (model.cpp token_embedding_std)
            nn.init.normal_(self.wte.weight, 0, math.sqrt(0.5))

    def forward(self, tokens, lengths):
        B, T = tokens.shape
        x = self.wte(tokens)
        if self.pe == "learned":
            x = x + self.wpe[:T]
        if self.pe == "sinusoidal":
            x = x + self.table[:T]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        keep = causal[None, None] & (torch.arange(T)[None, :] < lengths[:, None])[:, None, None, :]
        bias = torch.zeros(B, 1, T, T).masked_fill(~keep, float("-inf"))
        if self.pe == "alibi":
            bias = bias + self.alibi[:, :T, :T]
        if self.pe == "t5":
            bias = bias + self.t5[:, self.bucket[:T, :T]]
        rope = (self.cos[:T], self.sin[:T]) if self.pe == "rope" else None
        for block in self.blocks:
            x = block(x, bias, rope)
        return self.head(self.lnf(x))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--pe", default="rope", choices=["nope", "sinusoidal", "learned", "rope", "alibi", "t5"])
    p.add_argument("--task", default="copy")
    p.add_argument("--steps", type=int, default=300, help="timed steps (of a 3000-step schedule)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--layers", type=int, default=4)   # peviz train's defaults (core/base/limits.hpp)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--d-model", type=int, default=64)
    a = p.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    layers, heads, d, bsz, train_max, total, warmup = a.layers, a.heads, a.d_model, 32, 20, 3000, 100
    model = Model(a.pe, layers, heads, d, train_max, 2 * 40 + 3, 10000.0)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / warmup if s < warmup else 0.5 * (1 + math.cos(math.pi * (s - warmup) / (total - 1 - warmup))))

    def step():
        tokens, targets, lengths = batch(rng, a.task, bsz, train_max)
        loss = F.cross_entropy(model(tokens, lengths).view(-1, VOCAB), targets.view(-1), ignore_index=-100)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        return loss.item()

    for _ in range(10):  # warm-up, not timed
        step()
    t0 = time.perf_counter()
    for _ in range(a.steps):
        loss = step()
    rate = a.steps / (time.perf_counter() - t0)
    print(json.dumps({"peer": "pytorch " + torch.__version__, "threads": torch.get_num_threads(), "pe": a.pe,
                      "layers": layers, "heads": heads, "d_model": d,
                      "steps_per_s": rate, "loss_after": loss}))


if __name__ == "__main__":
    main()
