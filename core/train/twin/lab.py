#!/usr/bin/env python3
"""The PyTorch twin of a peviz lab experiment: the same model, data, loss, optimizer, schedule and evaluation.

Written by `peviz train ... --emit-pytorch DIR` beside DIR/lab_data.py (the task streams and position ids it
imports), DIR/lab_files.py (safetensors and numbers as peviz writes them), DIR/lab_table.json (peviz's encodings
and tasks: each encoding's model and position ids; this file names no encoding), DIR/settings.json and
DIR/init-<pe>-seed<S>.safetensors (peviz's initial weights). PyTorch and the standard library only.

    python3 DIR/lab.py [--device cpu|cuda] [--out DIR/run.safetensors] [--threads N] [--stop-after N]
    python3 DIR/lab.py --ranks N [...]                            # N ranks on this machine under torchrun (DDP:
                                                                  # gloo on CPU, nccl on CUDA; --backend gloo:
                                                                  # several ranks on one GPU)
    torchrun [...] DIR/lab.py [...]                               # launched yourself (several machines); torch
                                                                  # 1.13 needs --redirects 1 --tee 1 (torchrun_flags)
    python3 DIR/lab.py --evaluate RUN.safetensors                 # exact match of a saved run's weights

It writes what `peviz train --out` writes (core/train/experiment.hpp, run_io.hpp): one .safetensors per run with
its settings, loss curve and exact match in __metadata__; with several runs also <stem>-<pe>[-seed<S>]-loss.csv,
-accuracy.csv and <stem>.json. `peviz --open <stem>.json` shows them on the Lab page.

Each part mirrors one part of peviz's engine (core/train/): the task streams and position ids (lab_data.py:
tasks.cpp and positions.cpp, std::mt19937_64 re-implemented, so one seed gives peviz's batches bit for bit), the
position encodings, the pre-LN blocks with dropout (model.cpp; its masks: lab_data.py, dropout.hpp's hash), the loss
on answer tokens (layers.cpp crossentropy), AdamW, the weights' EMA and the warm-up + cosine schedule (adamw.cpp)
and the greedy exact-match evaluation (evaluate.cpp). Sequences are padded to the longest of a
batch instead of packed: with causal attention and padding at the end, every real token sees exactly the
tokens it sees in peviz's block-causal packing, and padded rows carry no loss, hence no gradient.
"""
import argparse
import json
import math
import os
import struct
import sys
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # lab_data.py, lab_files.py beside it, however loaded
from lab_data import (BOS, DATA_STREAM, EOS, MASK64, MT19937_64, POSITION_STREAM, SEP, SYMBOLS,  # noqa: E402,F401
                      TEST_POSITION_STREAM, VOCAB, answer_start, batch_positions, coupled_positions, pad,
                      random_symbols, randomized_positions, sequence_length, step_dropout, task_sequence, test_lengths,
                      test_positions, test_sequences, training_batch)
from lab_files import float_text, read_safetensors, safetensors_bytes, shortest, write_atomically  # noqa: E402,F401

TABLE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab_table.json")
# Parameter tensors in peviz's buffer order (core/train/model.hpp Param).
PARAMS = ["wte", "wpe", "t5_bias", "ln1w", "ln1b", "qkvw", "qkvb", "attprojw", "attprojb", "ln2w", "ln2b",
          "fcw", "fcb", "fcprojw", "fcprojb", "lnfw", "lnfb", "headw", "headb", "fire_w1", "fire_b1", "fire_w2",
          "fire_c", "fire_threshold", "ssmax_s"]
FIRE_HIDDEN, FIRE_MIN_C, FIRE_MIN_THRESHOLD = 32, 1e-3, 1.0  # core/train/fire.hpp
OPTIONAL_REALS = {"ema": "ema_decay", "dropout": "dropout"}  # run_io.cpp: in a run file only when not 0


# ---- peviz's table of encodings and tasks (core/train/twin.hpp lab_table_json) ------------------------------

_table = None


def lab_table():
    """lab_table.json beside this file, read once: {"encodings": [{"name", "mechanism", "positions", "group"}...],
    "tasks": [{"name", "positions"}...]}."""
    global _table
    if _table is None:
        with open(TABLE_FILE) as f:
            _table = json.load(f)
    return _table


def encoding_row(pe):
    """The table's row of an encoding: "mechanism" names the model built (a fix shares a classic one's), "positions"
    the ids it reads (lab_data.batch_positions)."""
    for row in lab_table()["encodings"]:
        if row["name"] == pe:
            return row
    raise ValueError(f"{pe!r} is not an encoding of peviz's table ({TABLE_FILE})")


# ---- the position encodings (core/encodings/absolute_encodings, core/rope/rope, core/encodings/alibi, core/encodings/t5_buckets) ---------------

def sinusoid_table(max_positions, d, base=10000.0):
    """Interleaved, Vaswani et al. 2017 §3.5: PE(t, 2i) = sin(t w_i), PE(t, 2i+1) = cos(t w_i), w_i = base^(-2i/d)."""
    w = torch.exp(-2.0 * torch.arange((d + 1) // 2, dtype=torch.float64) * math.log(base) / d)
    angle = torch.arange(max_positions, dtype=torch.float64)[:, None] * w
    table = torch.zeros(max_positions, d, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle[:, :d // 2])
    return table.float()


def rope_tables(head_dim, base, max_positions, dtype=torch.float32):
    """cos and sin [position, pair] of position * base^(-2j/head_dim), angles in double, rounded once (HF LLaMA)."""
    inv_freq = torch.tensor([base ** (-2.0 * j / head_dim) for j in range(head_dim // 2)], dtype=torch.float64)
    angle = torch.arange(max_positions, dtype=torch.float64)[:, None] * inv_freq
    return torch.cos(angle).to(dtype), torch.sin(angle).to(dtype)


def alibi_slopes(heads):
    """Press et al. 2022 (ofirpress/attention_with_linear_biases get_slopes), as core/encodings/alibi.cpp."""
    p = 1
    while p * 2 <= heads:
        p *= 2
    start = 2.0 ** (-8.0 / p)
    slopes = [start * start ** h for h in range(p)]
    return slopes if p == heads else slopes + alibi_slopes(2 * p)[0::2][:heads - p]


def t5_bucket(distance, buckets, max_distance):
    """Causal bucket of key - query = -distance (HF T5Attention._relative_position_bucket, float32 as torch)."""
    exact = buckets // 2
    if distance < exact:
        return distance
    ratio = torch.tensor(float(distance), dtype=torch.float32) / torch.tensor(float(exact), dtype=torch.float32)
    scale = torch.tensor(math.log(max_distance / exact), dtype=torch.float32)
    large = torch.log(ratio) / scale * torch.tensor(float(buckets - exact), dtype=torch.float32)
    return min(exact + int(large.item()), buckets - 1)


# ---- the model (core/train/model.cpp, layers.cpp, attention.cpp) ----------------------------------------------

def param_shapes(cfg):
    """Shape of every tensor (model.cpp param_shape); wpe, t5_bias and fire_* only for their encodings."""
    L, d, V, pe = cfg["layers"], cfg["d_model"], VOCAB, cfg["mechanism"]
    shapes = {"wte": [V, d], "wpe": [cfg["position_rows"], d] if pe == "learned" else None,
              "t5_bias": [cfg["heads"], cfg["t5_buckets"]] if pe == "t5" else None,
              "ln1w": [L, d], "ln1b": [L, d], "qkvw": [L, 3 * d, d], "qkvb": [L, 3 * d], "attprojw": [L, d, d],
              "attprojb": [L, d], "ln2w": [L, d], "ln2b": [L, d], "fcw": [L, 4 * d, d], "fcb": [L, 4 * d],
              "fcprojw": [L, d, 4 * d], "fcprojb": [L, d], "lnfw": [d], "lnfb": [d], "headw": [V, d], "headb": [V]}
    if pe == "fire":
        shapes.update({"fire_w1": [FIRE_HIDDEN], "fire_b1": [FIRE_HIDDEN], "fire_w2": [cfg["heads"], FIRE_HIDDEN],
                       "fire_c": [1], "fire_threshold": [1]})
    if cfg.get("length_scale", "none") == "ssmax":
        shapes["ssmax_s"] = [L, cfg["heads"]]
    return [(name, shapes[name]) for name in PARAMS if shapes.get(name) is not None]


class LabModel(torch.nn.Module):
    """Token embedding [+ position table]; per layer x += attn(ln1(x)), x += mlp(ln2(x)); final LayerNorm; head.
    Parameters carry peviz's names and stacked [layers, ...] shapes, so weights move between the two as they are."""

    def __init__(self, cfg, weights, dtype=torch.float32):
        """dtype float64 reproduces peviz's double engine (its gradient checks): tables rounded as it rounds them."""
        super().__init__()
        self.cfg, self.kind = cfg, cfg["mechanism"]
        for name, shape in param_shapes(cfg):
            if list(weights[name].shape) != shape:
                raise ValueError(f"tensor {name} has shape {list(weights[name].shape)}, the settings give {shape}")
            setattr(self, name, torch.nn.Parameter(weights[name].clone().to(dtype)))
        P, hd, rows = cfg["max_positions"], cfg["d_model"] // cfg["heads"], cfg["position_rows"]
        distance = (torch.arange(P)[:, None] - torch.arange(P)[None, :]).clamp(min=0)  # i - j, 0 for a later key
        if self.kind == "sinusoidal":  # core's float table, also beside double weights
            self.register_buffer("table", sinusoid_table(rows, cfg["d_model"]).to(dtype))
        elif self.kind == "rope":
            cos, sin = rope_tables(hd, cfg["rope_base"], rows, dtype)
            self.register_buffer("rope_cos", cos)
            self.register_buffer("rope_sin", sin)
        elif self.kind == "alibi":  # -m_h (i - j), in double then rounded once (attention.cpp bias_mask_softmax)
            slopes = torch.tensor(alibi_slopes(cfg["heads"]), dtype=torch.float64)
            self.register_buffer("alibi", (-slopes[:, None, None] * distance.double()).to(dtype))
        elif self.kind == "t5":
            table = [t5_bucket(k, cfg["t5_buckets"], cfg["t5_max_distance"]) for k in range(P)]
            self.register_buffer("t5_index", torch.tensor(table)[distance])
        elif self.kind not in ("nope", "learned", "fire"):  # these three need their parameters only
            raise ValueError(f"the twin builds no model {self.kind!r} (peviz's table gives it to {cfg['pe']})")
        self.nope_every = cfg.get("nope_every", 0)  # model.hpp ModelConfig::nope_every: layers without positions
        # model.hpp ModelConfig::positions_dropped (DroPE): the trained model's; train_run sets it per step.
        self.drop_positions = cfg.get("drope_steps", 0) > 0
        # The length scale of row i (model.hpp LengthScale): ln(i + 1) and log-n's factor in double, rounded once.
        self.length_scale = cfg.get("length_scale", "none")
        ln_n = torch.log(torch.arange(1, P + 1, dtype=torch.float64))
        if self.length_scale == "ssmax":
            self.register_buffer("ln_n", ln_n.to(dtype))
        elif self.length_scale == "logn":
            self.register_buffer("logn", (ln_n / math.log(cfg["learned_len"])).clamp(min=1.0).to(dtype))
        elif self.length_scale != "none":
            raise ValueError(f"the twin knows no length scale {self.length_scale!r}")

    def embed(self, tokens, positions):
        x = self.wte[tokens]
        if self.kind == "learned":
            x = x + self.wpe[positions]
        if self.kind == "sinusoidal":
            x = x + self.table[positions]
        return x

    def rope(self, x, positions):
        """Halves pairing: (x_j, x_{j+half}) -> (x_j cos - x_{j+half} sin, x_{j+half} cos + x_j sin); x [B, H, T, hd]."""
        half = x.shape[3] // 2
        cos, sin = self.rope_cos[positions][:, None], self.rope_sin[positions][:, None]
        a, b = x[..., :half], x[..., half:]
        return torch.cat((a * cos - b * sin, b * cos + a * sin), dim=-1)

    def fire_bias(self, positions, c=None, threshold=None):
        """FIRE (Li et al. 2023; core/train/fire.hpp): b_h(i, j) = w2_h . relu(w1 u + b1) with
        u = log(c d + 1) / log(c max(L, p_i) + 1), d = p_i - p_j (0 for a later key); [B, H, T, T].
        c and threshold default to the parameters; copies expanded to [B, T, T] and [B, T] give each pair its own."""
        c = (self.fire_c if c is None else c).clamp(min=FIRE_MIN_C)
        threshold = (self.fire_threshold if threshold is None else threshold).clamp(min=FIRE_MIN_THRESHOLD)
        p = positions.to(c.dtype)
        distance = (p[:, :, None] - p[:, None, :]).clamp(min=0)
        # max(L, p_i) with fire.cpp's gradient: all of it to L where L > p_i, none at a tie (torch.maximum would split
        # it; randomized ids meet the initial L, an integer, exactly).
        scale = torch.where(threshold > p, threshold, p)[:, :, None]
        u = torch.log(c * distance + 1) / torch.log(c * scale + 1)
        hidden = torch.relu(u[..., None] * self.fire_w1 + self.fire_b1)
        return (hidden @ self.fire_w2.t()).permute(0, 3, 1, 2)

    def attention(self, x, positions, l, fire=None, dropout=None):
        B, T, C = x.shape
        H = self.cfg["heads"]
        qkv = F.linear(x, self.qkvw[l], self.qkvb[l])
        q, k, v = (t.view(B, T, H, C // H).transpose(1, 2) for t in qkv.split(C, dim=2))
        positional = not self.drop_positions and (self.nope_every == 0 or (l + 1) % self.nope_every != 0)
        if self.kind == "rope" and positional:
            q, k = self.rope(q, positions), self.rope(k, positions)
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C // H))
        if self.kind == "alibi" and positional:
            scores = scores + self.alibi[:, :T, :T]
        if self.kind == "t5" and positional:
            scores = scores + self.t5_bias[:, self.t5_index[:T, :T]]
        if fire is not None and positional:
            scores = scores + fire
        if self.length_scale == "ssmax":  # the whole row times s_h ln n (attention.cpp length_scale_of)
            scores = scores * (self.ssmax_s[l][:, None, None] * self.ln_n[:T][None, :, None])
        elif self.length_scale == "logn":
            scores = scores * self.logn[:T][None, None, :, None]
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        probs = scores.masked_fill(~causal, float("-inf")).softmax(-1)
        weights = probs if dropout is None else probs * dropout.attention(l, probs.shape, probs.dtype)
        y = (weights @ v).transpose(1, 2).reshape(B, T, C)
        return F.linear(y, self.attprojw[l], self.attprojb[l]), probs

    def mlp(self, x, l):
        """d -> 4d -> d with exact GELU (Hendrycks & Gimpel 2016; torch approximate='none')."""
        return F.linear(F.gelu(F.linear(x, self.fcw[l], self.fcb[l])), self.fcprojw[l], self.fcprojb[l])

    def forward(self, tokens, positions=None, dropout=None):
        """Logits [B, T, vocab]; positions [B, T] (None: 0..T-1 in every row); dropout: a training step's masks
        (lab_data.Dropout) on the probabilities and on each residual branch before its add (model.cpp)."""
        d = self.cfg["d_model"]
        if positions is None:
            positions = torch.arange(tokens.shape[1], device=tokens.device).expand(tokens.shape)
        x = self.embed(tokens, positions)
        fire = self.fire_bias(positions) if self.kind == "fire" else None  # one FIRE for every layer, as peviz's
        def dropped(branch, l, site):
            return branch if dropout is None else branch * dropout.branch(l, site, branch.shape, branch.dtype)
        for l in range(self.cfg["layers"]):
            a, _ = self.attention(F.layer_norm(x, (d,), self.ln1w[l], self.ln1b[l], 1e-5), positions, l, fire, dropout)
            x = x + dropped(a, l, 1)
            x = x + dropped(self.mlp(F.layer_norm(x, (d,), self.ln2w[l], self.ln2b[l], 1e-5), l), l, 2)
        return F.linear(F.layer_norm(x, (d,), self.lnfw, self.lnfb, 1e-5), self.headw, self.headb)


def answer_loss_sum(logits, targets):
    """Sum of the cross-entropy over the answer tokens (targets >= 0); peviz divides by their count."""
    keep = targets >= 0
    return F.cross_entropy(logits[keep], targets[keep], reduction="sum")


# ---- AdamW and the schedule (core/train/adamw.cpp) -------------------------------------------------------------

def learning_rate(step, total, peak, warmup):
    """0-based step: linear warm-up peak (step + 1) / warmup, then cosine to 0 at the last step."""
    if step < warmup:
        return peak * (step + 1) / warmup
    span = max(1, total - 1 - warmup)
    progress = min(1.0, (step - warmup) / span)
    return peak * 0.5 * (1.0 + math.cos(math.pi * progress))


def run_learning_rate(cfg, step):
    """run.cpp run_learning_rate: with DroPE, the steps with positions and the recalibration on schedules of their own."""
    drope = cfg.get("drope_steps", 0)
    first = cfg["steps"] - drope
    if step < first:
        return learning_rate(step, first, cfg["lr"], cfg["warmup"])
    return learning_rate(step - first, drope, cfg["lr"], min(cfg["warmup"], drope // 10))


def make_optimizer(params):
    """torch.optim.AdamW, betas (0.9, 0.999), eps 1e-8, decoupled weight decay 0.01 on every parameter."""
    try:
        return torch.optim.AdamW(params, lr=0.0, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01, foreach=False)
    except TypeError:  # a PyTorch without the foreach argument
        return torch.optim.AdamW(params, lr=0.0, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)


# ---- evaluation (core/train/evaluate.cpp) ----------------------------------------------------------------------

@torch.no_grad()
def exact_match(model, cfg, device):
    """Per test length: the fraction of test sequences whose whole answer greedy decoding gets right, in one
    teacher-forced pass (right iff every answer position's argmax, first maximum, is its target); None where a
    learned table is shorter than the sequence."""
    out = []
    for n in test_lengths(cfg["test_max"]):
        L, first = sequence_length(cfg["task"], n), answer_start(cfg["task"], n)
        if cfg["mechanism"] == "learned" and L > cfg["position_rows"]:
            out.append((n, None))
            continue
        seqs = torch.tensor(test_sequences(cfg["task"], n, cfg["test_samples"], cfg["seed"]), dtype=torch.long)
        ids = torch.tensor(test_positions(cfg, n, cfg["test_samples"]), dtype=torch.long)
        per_seq = L * (cfg["d_model"] * 16 + cfg["heads"] * L) * cfg["layers"]
        chunk = max(1, int(5e7 // per_seq))
        exact = 0
        for at in range(0, len(seqs), chunk):
            s = seqs[at:at + chunk].to(device)
            pred = model(s[:, :-1], ids[at:at + chunk, :-1].to(device))[:, first:L - 1].argmax(-1)
            exact += int((pred == s[:, first + 1:]).all(dim=1).sum())
        out.append((n, exact / cfg["test_samples"]))
    return out


# ---- run files and experiments (core/train/run_io.cpp, experiment.cpp; the formats: lab_files.py) --------------

def settings_metadata(cfg):
    """run_io.cpp settings_metadata: the run's settings as strings."""
    return {"format": "peviz-train-run-1", "task": cfg["task"], "pe": cfg["pe"], "layers": str(cfg["layers"]),
            "heads": str(cfg["heads"]), "d-model": str(cfg["d_model"]), "batch": str(cfg["batch"]),
            "steps": str(cfg["steps"]), "train-max": str(cfg["train_max"]), "test-max": str(cfg["test_max"]),
            "test-samples": str(cfg["test_samples"]), "seed": str(cfg["seed"]), "base": shortest(cfg["rope_base"]),
            "lr": shortest(cfg["lr"]), "warmup": str(cfg["warmup"]),
            **({"position-range": str(cfg["position_range"])} if cfg["positions"] != "contiguous" else {}),
            **{key: shortest(cfg[field]) for key, field in OPTIONAL_REALS.items() if cfg.get(field, 0) != 0},
            **({"length-scale": cfg["length_scale"]} if cfg.get("length_scale", "none") != "none" else {}),
            **({"nope-every": str(cfg["nope_every"])} if cfg.get("nope_every", 0) else {}),
            **({"drope-steps": str(cfg["drope_steps"])} if cfg.get("drope_steps", 0) else {})}


def run_summary(cfg, result):
    """run_io.cpp run_summary_json, keys in its order."""
    j = {"pe": cfg["pe"], "task": cfg["task"], "seed": cfg["seed"], "train_max": cfg["train_max"],
         "params": sum(math.prod(s) for _, s in param_shapes(cfg)), "steps": len(result["loss"]),
         "steps_per_s": result["steps_per_s"], "final_loss": result["loss"][-1] if result["loss"] else None,
         "exact_match": {str(n): a for n, a in result["accuracy"]}}
    if result["diverged_at"]:
        j["diverged_at"] = result["diverged_at"]
    for key in ("length_scale", "nope_every", "drope_steps"):  # only when on, as run_io.cpp
        if cfg.get(key, 0) not in (0, "none"):
            j[key] = cfg[key]
    return j


def save_run(path, cfg, weights, result):
    """run_io.cpp save_run: the weights (model.hpp names, F32) and the run in __metadata__."""
    meta = settings_metadata(cfg)
    meta["loss"] = "[" + ",".join(float_text(v) for v in result["loss"]) + "]"
    meta["exact_match"] = json.dumps({str(n): a for n, a in result["accuracy"]}, sort_keys=True, separators=(",", ":"))
    meta["steps_per_s"] = shortest(result["steps_per_s"])
    meta["cancelled"] = "true" if result.get("cancelled") else "false"
    meta["diverged_at"] = str(result["diverged_at"])
    write_atomically(path, safetensors_bytes([(n, weights[n]) for n, _ in param_shapes(cfg)], meta))


def file_names(cfgs, out):
    """experiment.cpp experiment_file_names: one run is `out` itself; several are <stem>-<pe>[-seed<S>]."""
    if len(cfgs) == 1:
        return [out]
    stem = os.path.splitext(out)[0]
    encodings, seeds = {c["pe"] for c in cfgs}, {c["seed"] for c in cfgs}
    return [stem + (f"-{c['pe']}" if len(encodings) > 1 or len(seeds) == 1 else "") +
            (f"-seed{c['seed']}" if len(seeds) > 1 else "") + ".safetensors" for c in cfgs]


def save_experiment(cfgs, weights, results, out):
    """experiment.cpp save_experiment: run files, their loss and accuracy CSVs, and the JSON manifest."""
    names = file_names(cfgs, out)
    if len(cfgs) == 1:
        save_run(out, cfgs[0], weights[0], results[0])
        return [out]
    manifest = {"format": "peviz-lab-experiment-1", "runs": []}
    for cfg, w, r, name in zip(cfgs, weights, results, names):
        base = os.path.splitext(name)[0]
        save_run(name, cfg, w, r)
        write_atomically(base + "-loss.csv", "step,loss\n" + "".join(f"{i + 1},{shortest(v)}\n" for i, v in enumerate(r["loss"])))
        write_atomically(base + "-accuracy.csv", "n,exact_match\n" +
                         "".join(f"{n},{'' if a is None else shortest(a)}\n" for n, a in r["accuracy"]))
        entry = {"file": os.path.basename(name), **run_summary(cfg, r)}
        entry["settings"] = dict(sorted(settings_metadata(cfg).items()))
        manifest["runs"].append(entry)
    write_atomically(os.path.splitext(out)[0] + ".json", json.dumps(manifest, indent=1) + "\n")
    return names + [os.path.splitext(out)[0] + ".json"]


# ---- training (core/train/run.cpp TrainRun::step), on one process or several (DistributedDataParallel) --------

def run_config(settings, model, pe, seed):
    """One run's settings (settings.json's "settings" and "model", or a run file's metadata) as one dict, with the
    rows of its position tables (model.hpp ModelConfig::position_rows)."""
    row = encoding_row(pe)
    cfg = {**settings, **model, "pe": pe, "seed": seed, "mechanism": row["mechanism"], "positions": row["positions"]}
    cfg["position_rows"] = (cfg["position_range"] if row["positions"] != "contiguous" else cfg["learned_len"]
                            if row["mechanism"] == "learned" else cfg["max_positions"])
    return cfg


def batch_loss(trained, pairs, ids, device, world, rank, dropout=None):
    """(the loss this rank back-propagates, the global batch's mean answer-token loss as a float).

    Every rank draws the whole global batch from the same stream and keeps its share (sequences rank, rank + world,
    ...). Its loss is its answer tokens' cross-entropy sum divided by the global answer-token count and multiplied by
    `world`, because DistributedDataParallel averages gradients over ranks (torch/nn/parallel/distributed.py: the
    reducer all-reduces each bucket and divides by world_size). The ranks' gradients then add up to one process's
    gradient of the global batch's mean loss, peviz's loss (layers.cpp crossentropy: a mean over the batch's targets)."""
    # The answer and EOS of every sequence of the global batch: the tokens after the last SEP.
    n_targets = sum(s[::-1].index(SEP) for s, _ in pairs)
    tokens, positions, targets = pad(pairs[rank::world], ids[rank::world], device)
    local = answer_loss_sum(trained(tokens, positions, dropout), targets)
    total = local.detach().clone()
    if world > 1:
        dist.all_reduce(total)
    return local * (world / n_targets), float(total) / n_targets


def train_run(cfg, init, device, world, rank, log=None, dtype=torch.float32, stop_after=None):
    """Steps as peviz does: the next batch of the run's stream, forward, stop at a loss that is not finite (no update),
    backward, AdamW at learning_rate(step); on `world` processes each takes its share of every batch (batch_loss).
    stop_after: end after that many steps of the schedule, as a cancelled peviz run does (evaluated all the same)."""
    model = LabModel(cfg, init, dtype).to(device)
    model.drop_positions = False  # DroPE: positions until its last steps
    trained = model
    if world > 1:
        trained = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda"
                                                            else None, broadcast_buffers=False)
    opt = make_optimizer(list(model.parameters()))
    decay = cfg.get("ema_decay", 0)
    ema = [p.detach().clone() for p in model.parameters()] if decay else []  # run.cpp: from the initial weights
    rng, position_rng = MT19937_64(cfg["seed"] ^ DATA_STREAM), MT19937_64(cfg["seed"] ^ POSITION_STREAM)
    losses, diverged_at, seconds = [], 0, 0.0
    for step in range(cfg["steps"] if stop_after is None else min(stop_after, cfg["steps"])):
        t0 = time.perf_counter()
        pairs = training_batch(cfg["task"], cfg["batch"], cfg["train_max"], rng)
        ids = batch_positions(cfg, pairs, position_rng)
        drop = step_dropout(cfg, step, pairs, device, world, rank)
        drope = cfg.get("drope_steps", 0)  # run.cpp positions_dropped(settings, step + 1)
        model.drop_positions = drope > 0 and step + 1 > cfg["steps"] - drope
        scaled, loss = batch_loss(trained, pairs, ids, device, world, rank, drop)
        if not math.isfinite(loss):
            diverged_at = step + 1
            break
        opt.zero_grad(set_to_none=True)
        scaled.backward()
        for p in model.parameters():  # peviz's AdamW steps every tensor: one the step did not use (DroPE's T5 table
            if p.grad is None:        # and FIRE) with a gradient of 0, where torch.optim would skip it
                p.grad = torch.zeros_like(p)
        for group in opt.param_groups:
            group["lr"] = run_learning_rate(cfg, step)
        opt.step()
        with torch.no_grad():  # adamw.cpp ema_update: ema = decay ema + (1 - decay) w, the same float operations
            for e, p in zip(ema, model.parameters()):
                e.mul_(decay).add_(p * (1.0 - decay))
        seconds += time.perf_counter() - t0
        losses.append(struct.unpack("<f", struct.pack("<f", loss))[0])  # peviz keeps float(loss)
        if log and (step + 1) % 500 == 0:
            log(f"{cfg['pe']} seed {cfg['seed']}: step {step + 1} of {cfg['steps']}, loss {losses[-1]:.4g}")
    with torch.no_grad():  # run.cpp finish(): the average replaces the weights, evaluated and saved
        for e, p in zip(ema, model.parameters()):
            p.copy_(e)
    accuracy = []
    if not diverged_at and rank == 0:
        model.eval()
        accuracy = exact_match(model, cfg, device)
    weights = {name: p.detach().cpu() for name, p in model.named_parameters()}
    return weights, {"loss": losses, "accuracy": accuracy, "diverged_at": diverged_at,
                     "cancelled": not diverged_at and len(losses) < cfg["steps"],
                     "steps_per_s": len(losses) / seconds if seconds > 0 else 0.0}


def settings_of_run_file(meta):
    """A run file's __metadata__ (run_io.cpp settings_metadata) back to a run config."""
    i = lambda key: int(meta[key])
    settings = {"task": meta["task"], "layers": i("layers"), "heads": i("heads"), "d_model": i("d-model"),
                "batch": i("batch"), "steps": i("steps"), "train_max": i("train-max"), "test_max": i("test-max"),
                "test_samples": i("test-samples"), "rope_base": float(meta["base"]), "lr": float(meta["lr"]),
                "warmup": i("warmup"), "position_range": i("position-range") if "position-range" in meta else 0,
                **{field: float(meta.get(key, 0)) for key, field in OPTIONAL_REALS.items()},
                "length_scale": meta.get("length-scale", "none"), "nope_every": int(meta.get("nope-every", 0)),
                "drope_steps": int(meta.get("drope-steps", 0))}
    longest = 2 * max(settings["train_max"], settings["test_max"]) + 3
    model = {"vocab": VOCAB, "learned_len": 2 * settings["train_max"] + 3, "max_positions": longest,
             "t5_buckets": 32, "t5_max_distance": 128}
    return run_config(settings, model, meta["pe"], int(meta["seed"]))


def torchrun_flags(ranks):
    """torchrun's options for `ranks` processes on this machine. Debian 12's torch 1.13 on Python 3.11 cannot parse
    torchrun's default --redirects 0 --tee 0: Std.from_str("0") finds no zero member of the IntFlag and returns None,
    and torchrun stops with "'NoneType' object has no attribute 'get'" (pytorch/pytorch#92319). Where it does, both
    name stdout (1): the same output, rank 0's lines prefixed "[default0]:"."""
    flags = ["--standalone", "--nproc_per_node", str(ranks)]
    try:
        from torch.distributed.elastic.multiprocessing.api import Std
        broken = Std.from_str("0") is None
    except (ImportError, AttributeError):
        broken = False
    return flags + ["--redirects", "1", "--tee", "1"] if broken else flags


def launch_ranks(ranks, argv):
    """--ranks N: this file on N ranks under torchrun (torch.distributed.run, on this interpreter), each with the same
    options; under torchrun's environment each trains its share. Returns the exit status."""
    from torch.distributed import run
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError
    try:
        run.main([*torchrun_flags(ranks), os.path.abspath(__file__), *argv])
    except ChildFailedError as e:
        print(f"lab.py: a rank failed:\n{e}", file=sys.stderr)
        return 1
    return 0


def arguments(here):
    """The command line (defaults beside lab.py in `here`); --ranks below 1 is refused."""
    p = argparse.ArgumentParser(description="Train the runs of DIR/settings.json as peviz would, in PyTorch.")
    p.add_argument("--settings", default=os.path.join(here, "settings.json"), help="settings.json (default: beside lab.py)")
    p.add_argument("--out", default=os.path.join(here, "run.safetensors"),
                   help="run file; several runs: <stem>-<pe>[-seed<S>].safetensors, CSVs and <stem>.json")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu", help="cpu or cuda")
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    p.add_argument("--backend", choices=["nccl", "gloo"], help="torchrun's process group (default: nccl on CUDA, gloo "
                   "on CPU; gloo also on CUDA, where ranks outnumber GPUs and share them)")
    p.add_argument("--stop-after", type=int, metavar="N", help="end every run after N steps of its schedule (saved as "
                   "cancelled, as peviz saves a run stopped early)")
    p.add_argument("--evaluate", metavar="RUN", help="print the exact match of a saved run's weights and exit")
    p.add_argument("--ranks", type=int, default=1, metavar="N", help="train on N processes of this machine, started "
                   "under torchrun (DistributedDataParallel); 1: this process alone")
    a = p.parse_args()
    if a.ranks < 1:
        p.error(f"--ranks: must be at least 1, got {a.ranks}")
    return a


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    a = arguments(here)
    world, rank = int(os.environ.get("WORLD_SIZE", "1")), int(os.environ.get("RANK", "0"))
    if a.ranks > 1 and "LOCAL_RANK" not in os.environ:  # not yet under torchrun: start the ranks, each with --ranks N
        return launch_ranks(a.ranks, sys.argv[1:])
    if a.ranks not in (1, world):
        sys.exit(f"lab.py: --ranks {a.ranks} under torchrun's {world} processes: leave --ranks out there")
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    device = torch.device(a.device)
    if device.type == "cuda":
        # float32 products in float32, as peviz's SGEMM: no TF32 (PyTorch's default for matmul, said here for cuDNN too).
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    if world > 1:
        if device.type == "cuda":  # rank r on GPU r, or r mod the GPU count where ranks share GPUs (gloo only)
            device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")) % torch.cuda.device_count())
            torch.cuda.set_device(device)
        dist.init_process_group(a.backend or ("nccl" if device.type == "cuda" else "gloo"))
    if a.evaluate:
        weights, meta = read_safetensors(a.evaluate)
        cfg = settings_of_run_file(meta)
        model = LabModel(cfg, weights).to(device).eval()
        print(json.dumps({"pe": cfg["pe"], "seed": cfg["seed"],
                          "exact_match": {str(n): v for n, v in exact_match(model, cfg, device)}}, separators=(",", ":")))
        return 0
    try:
        with open(a.settings) as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"lab.py: cannot read {a.settings}: {e}")
    if spec.get("format") != "peviz-pytorch-twin-1":
        sys.exit(f"lab.py: {a.settings} is not a peviz twin settings file (format {spec.get('format')!r})")
    if spec["settings"]["batch"] < world:
        sys.exit(f"lab.py: batch {spec['settings']['batch']} is smaller than the {world} processes")
    log = (lambda text: print(text, file=sys.stderr, flush=True)) if rank == 0 else None
    cfgs, weights, results = [], [], []
    for r in spec["runs"]:
        cfg = run_config(spec["settings"], spec["model"], r["pe"], r["seed"])
        init, _ = read_safetensors(os.path.join(os.path.dirname(os.path.abspath(a.settings)), r["init"]))
        w, result = train_run(cfg, init, device, world, rank, log, stop_after=a.stop_after)
        if rank == 0:
            print(json.dumps(run_summary(cfg, result), separators=(",", ":")), flush=True)
        cfgs.append(cfg), weights.append(w), results.append(result)
    if rank == 0:
        save_experiment(cfgs, weights, results, a.out)
    if world > 1:
        dist.barrier()
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
