"""A PyTorch prototype for issue 33 (not the Lab's engine): RoPE with randomized positions (Ruoss et al., ACL 2023)
and with coupled positions (Cho et al., NeurIPS 2024) beside plain RoPE, on the twin of peviz's default copy
experiment, several seeds, on a GPU where one is lent.

Coupled positions follow HanseulJo/position-coupling src/data/copy.py (CopyDatasetWithCoupledPositions): x_k and
y_k share the id s + k, the separator (and here BOS) takes s, EOS s + n + 1; s is random in [1, M - n] in
training and 1 in the "plain" evaluation ("sampled": random as in training).

During training a sequence of T tokens takes T positions drawn without replacement from [0, L) and sorted
(google-deepmind/randomized_positional_encodings, models/positional_encodings.py); evaluation scores exact match with
the plain positions 0..T-1 and, separately, with sorted random positions as in training. Everything else is the
twin's (core/train/twin/lab.py as `peviz train --emit-pytorch DIR` writes it, with peviz's initial weights).
usage: python3 tools/device/rand_positions_proto.py DIR [--steps N ...] [--ranges L ...] [--plain] [--coupled M ...]
       [--seeds S ...] [--device cuda]
Prints one JSON line per run: method, L, steps, seed, final loss, exact match per test length (plain / sampled).
"""
import argparse
import importlib.util
import json
import math
import os
import sys
import time

import torch


def load_lab(folder):
    spec = importlib.util.spec_from_file_location("lab", os.path.join(folder, "lab.py"))
    lab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lab)
    return lab


def rand_rope_model(lab):
    class RandRope(lab.LabModel):
        """The twin's RoPE model with rotary tables for L positions, indexed by per-sequence position ids."""

        def __init__(self, cfg, weights, span):
            super().__init__(dict(cfg, max_positions=span), weights)
            self.positions = None  # [B, T] ids, or None for 0..T-1

        def rope(self, x):
            T, half = x.shape[2], x.shape[3] // 2
            if self.positions is None:
                cos, sin = self.rope_cos[:T], self.rope_sin[:T]
            else:
                cos, sin = self.rope_cos[self.positions][:, None], self.rope_sin[self.positions][:, None]
            a, b = x[..., :half], x[..., half:]
            return torch.cat((a * cos - b * sin, b * cos + a * sin), dim=-1)

    return RandRope


def sorted_sample(batch, T, span, generator, device):
    """Per sequence, T distinct positions of [0, span), sorted."""
    keys = torch.rand(batch, span, generator=generator)
    return keys.argsort(dim=1)[:, :T].sort(dim=1).values.to(device)


def coupled_positions(lengths, T, span, generator, device, random_start):
    """Per sequence of n symbols (BOS x1..xn SEP y1..yn EOS, padded to T): ids s, s+1..s+n, s, s+1..s+n, s+n+1, ..."""
    rows = []
    for n in lengths:
        s = int(torch.randint(1, span - n, (1,), generator=generator)) if random_start else 1
        ids = [s] + [s + k for k in range(1, n + 1)] + [s] + [s + k for k in range(1, n + 1)]
        ids += [min(s + n + 1 + j, span - 1) for j in range(T - len(ids))]
        rows.append(ids[:T])
    return torch.tensor(rows, dtype=torch.long, device=device)


def sample_positions(method, lengths, T, span, generator, device, sampled):
    if method == "rand-rope" and sampled:
        return sorted_sample(len(lengths), T, span, generator, device)
    if method == "coupled-rope":
        return coupled_positions(lengths, T, span, generator, device, sampled)
    return None


@torch.no_grad()
def exact_match(lab, model, cfg, device, span, sampled, generator, method="rand-rope"):
    out = {}
    for n in lab.test_lengths(cfg["test_max"]):
        L = 2 * n + 3
        if L - 1 > span:
            out[n] = None
            continue
        seqs = torch.tensor(lab.test_sequences(cfg["task"], n, cfg["test_samples"], cfg["seed"]), dtype=torch.long).to(device)
        model.positions = sample_positions(method, [n] * len(seqs), L - 1, span, generator, device, sampled)
        pred = model(seqs[:, :-1])[:, n + 1:2 * n + 2].argmax(-1)
        out[n] = float((pred == seqs[:, n + 2:]).all(dim=1).float().mean())
    model.positions = None
    return out


def train(lab, cfg, init, device, span, method):
    RandRope = rand_rope_model(lab)
    model = RandRope(cfg, init, span).to(device)
    opt = lab.make_optimizer(list(model.parameters()))
    rng = lab.MT19937_64(cfg["seed"] ^ lab.DATA_STREAM)
    gen = torch.Generator().manual_seed(1000 + cfg["seed"])
    loss = float("nan")
    for step in range(cfg["steps"]):
        pairs = lab.training_batch(cfg["task"], cfg["batch"], cfg["train_max"], rng)
        tokens, targets = lab.pad(pairs, device)
        model.positions = sample_positions(method, [n for _, n in pairs], tokens.shape[1], span, gen, device, True)
        n_targets = sum(n + 1 for _, n in pairs)
        scaled = lab.answer_loss_sum(model(tokens), targets) / n_targets
        opt.zero_grad(set_to_none=True)
        scaled.backward()
        for group in opt.param_groups:
            group["lr"] = lab.learning_rate(step, cfg["steps"], cfg["lr"], cfg["warmup"])
        opt.step()
        loss = float(scaled.detach())
        if not math.isfinite(loss):
            break
    model.positions = None
    model.eval()
    return model, loss, gen


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("--steps", type=int, nargs="+", default=[3000])
    p.add_argument("--ranges", type=int, nargs="*", default=[128], help="rand-rope with positions below L (none: no rand-rope)")
    p.add_argument("--plain", action="store_true", help="also plain RoPE (positions 0..T-1 in training)")
    p.add_argument("--coupled", type=int, nargs="*", default=[], metavar="M", help="coupled RoPE, ids below M")
    p.add_argument("--seeds", type=int, nargs="+", help="only these seeds of DIR's runs (default: all)")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    a = p.parse_args()
    lab = load_lab(a.folder)
    spec = json.load(open(os.path.join(a.folder, "settings.json")))
    device = torch.device(a.device)
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"# torch {torch.__version__} on {torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu'}", flush=True)
    methods = ([("rope", None)] if a.plain else []) + [("rand-rope", L) for L in a.ranges] + \
              [("coupled-rope", M) for M in a.coupled]
    for steps in a.steps:
        for method, L in methods:
            for r in spec["runs"]:
                if a.seeds is not None and r["seed"] not in a.seeds:
                    continue
                cfg = lab.run_config(dict(spec["settings"], steps=steps), spec["model"], "rope", r["seed"])
                init, _ = lab.read_safetensors(os.path.join(a.folder, r["init"]))
                span = L or cfg["max_positions"]
                t0 = time.time()
                model, loss, gen = train(lab, cfg, init, device, span, method)
                plain = exact_match(lab, model, cfg, device, span, False, gen, method)
                sampled = exact_match(lab, model, cfg, device, span, True, gen, method) if method != "rope" else None
                pick = lambda d: {str(n): (None if v is None else round(v, 3)) for n, v in d.items() if n in (10, 20, 25, 30, 35, 40)}
                print(json.dumps({"method": method, "L": L, "steps": steps, "seed": r["seed"], "loss": round(loss, 5),
                                  "plain": pick(plain), "sampled": pick(sampled) if sampled else None,
                                  "seconds": round(time.time() - t0, 1)}, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
