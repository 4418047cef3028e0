#!/usr/bin/env python3
"""The PyTorch twin (core/train/twin/lab.py, as `peviz train --emit-pytorch` writes it) against peviz's engine.

For every encoding (the six and the fixes), on three settings (the default model; 2 layers x 6 heads, ALiBi's
slopes then not a power of two; addition, the default model on short sums), and for one encoding per mechanism with
EMA and dropout on (their masks: step 0's for the first batch; the five-step weights: the averaged ones):
  - the twin's stream gives peviz's first training batch token for token (std::mt19937_64 re-implemented), with
    peviz's position ids (sampled by the fixes) and test ids, its position tables match core's, and it starts from
    peviz's initial weights bit for bit;
  - from those weights and that batch, the loss and every parameter's gradient agree to 1e-5, relative, as
    ||twin - peviz|| / ||peviz|| per tensor (float32 on both sides);
  - the same in float64 (the twin's float64 model against peviz's double engine): 1e-10;
  - five optimizer steps (AdamW, warm-up + cosine) give the same five losses (1e-5) and weights: 1e-5 per tensor on
    the lab's own schedule, 1e-3 for five large steps (lr 0.01), where float32 itself moves that much (printed:
    the float32 twin against the float64 twin); the key biases, whose gradient is 0 but for rounding, apart;
  - the twin's run files reopen in peviz (twin_dump open: load_run / open_experiment) with the same loss curve;
  - on the shipped experiment (assets/lab, peviz's trained weights) the twin's exact match equals peviz's.
Prints what it measured. Exit 0 pass, 1 fail, 77 (ctest's skip) when torch cannot be imported.
usage: parity_test.py --peviz PEVIZ --dump TWIN_DUMP --assets ASSETS_LAB
"""
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from twin_checks import arguments, check, failures, load_lab, run  # noqa: E402,F401 (cuda_test.py imports them from here)

try:
    import torch
except ImportError:
    print("SKIPPED: torch not installed (Debian: apt-get install python3-torch)")
    sys.exit(77)

TOLERANCE = 1e-5      # float32, twin vs peviz: loss, gradients (FIRE's scalars: gradient_tolerances), five-step
#                       losses, weights on the lab's schedule
TOLERANCE64 = 1e-10   # float64 twin vs peviz's double engine: loss and every gradient
LARGE_STEP_WEIGHTS = 1e-3  # weights after five steps of lr 0.01 from warm-up 2: AdamW's float32 floor (see main)
# (flags, weight tolerance after five steps): the lab's default run, five steps into its 3000-step schedule; a
# small model taking five large steps (ALiBi's six slopes are not a power of two's); and addition on a five-step
# schedule (warm-up 2: large steps too). A fourth: EMA and dropout on (one encoding per mechanism), on the lab's
# schedule; its five-step weights are the EMA's, each tensor held to FLOOR_TOLERANCE.
FLOOR_TOLERANCE = None
SETTINGS = [(["--test-samples", "10"], TOLERANCE),
            (["--steps", "5", "--warmup", "2", "--test-samples", "10", "--layers", "2", "--heads", "6", "--d-model", "96",
              "--batch", "8", "--train-max", "9", "--test-max", "20", "--seed", "3", "--lr", "0.01"], LARGE_STEP_WEIGHTS),
            (["--task", "add", "--steps", "5", "--warmup", "2", "--test-samples", "10", "--batch", "8", "--train-max", "6",
              "--test-max", "12", "--seed", "1"], LARGE_STEP_WEIGHTS),
            (["--pe", "nope,sinusoidal,learned,coupled-rope,alibi,t5,fire", "--test-samples", "10", "--ema", "0.9",
              "--dropout", "0.2", "--seed", "5"], FLOOR_TOLERANCE)]


def shipped_seed0_runs(assets):
    """The default experiment's seed-0 run file per encoding, as its manifest lists them (a run file may be shared
    with another experiment: the RoPE runs are the fixes experiment's)."""
    with open(os.path.join(assets, "default-copy.json")) as f:
        runs = json.load(f)["runs"]
    return {r["pe"]: os.path.join(assets, r["file"]) for r in runs if r["seed"] == 0}


def rel(a, b):
    """||a - b|| / ||b|| in double (0 when both are 0)."""
    a, b = a.double(), b.double()
    nb = b.norm().item()
    return (a - b).norm().item() / nb if nb > 0 else (a - b).norm().item()


def determined(name, t, d):
    """The weights their gradients determine: all but the key biases (qkvb[:, d:2d]). Softmax ignores a constant
    added to a row's scores and q . b_k is one, so their gradient is exactly 0 in exact arithmetic and rounding
    noise (~1e-10) in float32 on both sides; AdamW divides by sqrt(v) + 1e-8 and turns two different noises into
    different steps of up to a few lr. They are reported apart, as an absolute difference."""
    return torch.cat((t[:, :d], t[:, 2 * d:]), dim=1) if name == "qkvb" else t


def fire_bias_gradient(lab, cfg, init, tok, pos, tgt, n_targets, dtype, drop=None):
    """The model in dtype, its plain fire_bias, and the loss's gradient with respect to FIRE's bias [B, H, T, T]."""
    model = lab.LabModel(cfg, init, dtype)
    plain, kept = model.fire_bias, []

    def keep(positions):
        bias = plain(positions)
        bias.retain_grad()
        kept.append(bias)
        return bias
    model.fire_bias = keep
    (lab.answer_loss_sum(model(tok, pos, drop), tgt) / n_targets).backward()
    return model, plain, kept[0].grad


def gradient_tolerances(lab, cfg, init, tok, pos, tgt, n_targets, drop):
    """Float32 tolerances of the gradients that are one sum with cancellation: FIRE's scalars c and threshold, summed
    over every (row, query, key) pair of the batch. Their relative error in float32 is the error of the pairs' shares
    (that of the bias gradient, eps) times the sum's condition number kappa = sum |share| / |sum| (float64). Each
    float32 engine lies within kappa eps of float64, so the two may differ by 2 kappa eps; never less than TOLERANCE."""
    if cfg["mechanism"] != "fire":
        return {}
    model, plain, dbias = fire_bias_gradient(lab, cfg, init, tok, pos, tgt, n_targets, torch.float64, drop)
    eps = rel(fire_bias_gradient(lab, cfg, init, tok, pos, tgt, n_targets, torch.float32, drop)[2], dbias)
    B, T = pos.shape
    tolerances = {}
    for name, shape in (("c", (B, T, T)), ("threshold", (B, T))):
        share = getattr(model, "fire_" + name).detach().expand(*shape).clone().requires_grad_()
        (g,) = torch.autograd.grad(plain(pos, **{name: share}), share, grad_outputs=dbias)
        total, magnitude = abs(g.sum().item()), g.abs().sum().item()
        kappa = magnitude / total if total > 0 else (0.0 if magnitude == 0 else float("inf"))
        tolerances["fire_" + name] = max(TOLERANCE, 2 * kappa * eps)
        print(f"  fire_{name}: condition {kappa:.3g}, bias gradient's float32 error {eps:.3g}, "
              f"tolerance {tolerances['fire_' + name]:.3g}")
    return tolerances


def compare_run(lab, folder, spec, r, worst, weight_tolerance):
    cfg = lab.run_config(spec["settings"], spec["model"], r["pe"], r["seed"])
    name = f"{r['pe']} ({cfg['layers']}x{cfg['heads']}x{cfg['d_model']}" + (
        f", ema {cfg['ema_decay']:g}, dropout {cfg['dropout']:g})" if cfg.get("dropout") else ")")
    dump, meta = lab.read_safetensors(os.path.join(folder, f"dump-{r['pe']}-seed{r['seed']}.safetensors"))
    init, _ = lab.read_safetensors(os.path.join(folder, r["init"]))
    # The same data: the twin's first batch of the stream, packed as peviz packs it.
    pairs = lab.training_batch(cfg["task"], cfg["batch"], cfg["train_max"], lab.MT19937_64(cfg["seed"] ^ lab.DATA_STREAM))
    tokens = [t for s, _ in pairs for t in s]
    firsts = [lab.answer_start(cfg["task"], n) for _, n in pairs]
    targets = [s[i + 1] if first <= i < len(s) - 1 else -1 for (s, _), first in zip(pairs, firsts) for i in range(len(s))]
    check(tokens == dump["tokens"].long().tolist(), f"{name}: the first batch's tokens differ from peviz's")
    check(targets == dump["targets"].long().tolist(), f"{name}: the first batch's targets differ from peviz's")
    check([len(s) for s, _ in pairs] == dump["seq_len"].long().tolist(), f"{name}: sequence lengths differ")
    ids = lab.batch_positions(cfg, pairs, lab.MT19937_64(cfg["seed"] ^ lab.POSITION_STREAM))
    check([i for row in ids for i in row] == dump["positions"].long().tolist(), f"{name}: the first batch's ids differ")
    test_ids = lab.test_positions(cfg, cfg["test_max"], 3)
    check([i for row in test_ids for i in row] == dump["test_ids"].long().tolist(), f"{name}: the test ids differ")
    # The same start and tables.
    for p, _ in lab.param_shapes(cfg):
        check(torch.equal(init[p], dump["init." + p]), f"{name}: initial {p} differs from peviz's")
    model = lab.LabModel(cfg, init)
    tables = {"table.sinusoid": lambda: model.table, "table.rope_cos": lambda: model.rope_cos,
              "table.rope_sin": lambda: model.rope_sin,
              "table.alibi_slopes": lambda: torch.tensor(lab.alibi_slopes(cfg["heads"])),
              "table.t5_bucket": lambda: torch.tensor([lab.t5_bucket(k, 32, 128) for k in range(cfg["max_positions"])])}
    for key, mine in tables.items():
        if key in dump:
            diff = (mine().double().flatten() - dump[key].double().flatten()).abs().max().item()
            check(diff <= 1e-7, f"{name}: {key} differs from core's by {diff:.3g}")
    # Loss and gradients of that batch.
    tok, pos, tgt = lab.pad(pairs, ids, torch.device("cpu"))
    n_targets = sum(len(s) - 1 - first for (s, _), first in zip(pairs, firsts))
    check(n_targets == int(meta["n_targets"]), f"{name}: answer-token count differs")
    drop = lab.step_dropout(cfg, 0, pairs, torch.device("cpu"))  # the first step's masks (None when off)
    loss = lab.answer_loss_sum(model(tok, pos, drop), tgt) / n_targets
    loss.backward()
    loss_rel = abs(loss.item() - float(meta["loss"])) / abs(float(meta["loss"]))
    grad_rel = {p: rel(getattr(model, p).grad, dump["grad." + p]) for p, _ in lab.param_shapes(cfg)}
    worst_grad = max(grad_rel, key=grad_rel.get)
    check(loss_rel <= TOLERANCE, f"{name}: loss {loss.item()} vs peviz {meta['loss']} (relative {loss_rel:.3g})")
    tolerance = gradient_tolerances(lab, cfg, init, tok, pos, tgt, n_targets, drop)
    for p, _ in lab.param_shapes(cfg):
        check(grad_rel[p] <= tolerance.get(p, TOLERANCE),
              f"{name}: gradient of {p} differs by {grad_rel[p]:.3g} (tolerance {tolerance.get(p, TOLERANCE):.3g})")
    # The same in float64 against peviz's double engine (its gradients stored as hi + lo floats).
    model64 = lab.LabModel(cfg, init, torch.float64)
    loss64 = lab.answer_loss_sum(model64(tok, pos, drop), tgt) / n_targets
    loss64.backward()
    loss64_rel = abs(loss64.item() - float(meta["loss64"])) / abs(float(meta["loss64"]))
    grad64_rel = {p: rel(getattr(model64, p).grad, dump["grad64hi." + p].double() + dump["grad64lo." + p].double())
                  for p, _ in lab.param_shapes(cfg)}
    worst64 = max(grad64_rel, key=grad64_rel.get)
    check(loss64_rel <= TOLERANCE64, f"{name}: float64 loss differs by {loss64_rel:.3g}")
    check(grad64_rel[worst64] <= TOLERANCE64, f"{name}: float64 gradient of {worst64} differs by {grad64_rel[worst64]:.3g}")
    # Five steps (of the run's own schedule).
    weights, result = lab.train_run(cfg, init, torch.device("cpu"), 1, 0, stop_after=5)
    weights64, _ = lab.train_run(cfg, init, torch.device("cpu"), 1, 0, dtype=torch.float64, stop_after=5)
    peviz_losses = json.loads(meta["losses"])
    step_rel = max(abs(a - b) / abs(b) for a, b in zip(result["loss"], peviz_losses))
    check(len(result["loss"]) == 5 and step_rel <= TOLERANCE, f"{name}: five-step losses differ by {step_rel:.3g}")
    d = cfg["d_model"]
    w_rel = {p: rel(determined(p, weights[p], d), determined(p, dump["step5." + p], d)) for p, _ in lab.param_shapes(cfg)}
    move_rel = {p: rel(determined(p, weights[p] - init[p], d), determined(p, dump["step5." + p] - init[p], d))
                for p, _ in lab.param_shapes(cfg)}
    floor = {p: rel(determined(p, weights[p], d), determined(p, weights64[p], d)) for p, _ in lab.param_shapes(cfg)}
    key_bias = (weights["qkvb"][:, d:2 * d] - dump["step5.qkvb"][:, d:2 * d]).abs().max().item()
    worst_move = max(move_rel, key=move_rel.get)
    # FLOOR_TOLERANCE: each float32 engine lies within the float32 twin's distance from the float64 twin (the floor) of
    # the exact weights, so the two may differ by twice that; never less than TOLERANCE. Dropout's masks leave some
    # bias gradients near 0, where AdamW turns rounding noise into steps (see main): alibi's qkvb, seed 5, floor 1e-5.
    limit = {p: max(TOLERANCE, 2 * floor[p]) if weight_tolerance is FLOOR_TOLERANCE else weight_tolerance for p in w_rel}
    worst_w = max(w_rel, key=lambda p: w_rel[p] / limit[p])
    check(w_rel[worst_w] <= limit[worst_w],
          f"{name}: weights after five steps differ by {w_rel[worst_w]:.3g} ({worst_w}; tolerance {limit[worst_w]:.3g})")
    print(f"{name:18} loss {loss_rel:.1e}  gradient {grad_rel[worst_grad]:.1e} ({worst_grad})  float64: loss "
          f"{loss64_rel:.1e} gradient {grad64_rel[worst64]:.1e} ({worst64})  5 steps: losses {step_rel:.1e} weights "
          f"{w_rel[worst_w]:.1e} ({worst_w}; float32 twin vs float64 twin {max(floor.values()):.1e}) update "
          f"{move_rel[worst_move]:.1e}  key biases {key_bias:.1e} (abs)")
    tag = {TOLERANCE: "lab schedule", LARGE_STEP_WEIGHTS: "large steps"}.get(weight_tolerance, "EMA and dropout")
    for key, value in (("loss", loss_rel), ("gradient", grad_rel[worst_grad]), ("float64 loss", loss64_rel),
                       ("float64 gradient", grad64_rel[worst64]), ("5-step losses", step_rel),
                       (f"weights ({tag})", w_rel[worst_w]), (f"float32 floor ({tag})", max(floor.values())),
                       ("key biases (abs)", key_bias)):
        worst[key] = max(worst.get(key, 0.0), value)
    return cfg, weights, result


def main():
    a = arguments()
    torch.set_num_threads(1)
    repo_twin = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "train", "twin")
    worst = {}
    print("relative differences, twin vs peviz: ||twin - peviz|| / ||peviz|| per tensor, worst tensor named "
          "(update: of the change over five steps)")
    with tempfile.TemporaryDirectory(prefix="peviz-twin-parity-") as tmp:
        for k, (flags, weight_tolerance) in enumerate(SETTINGS):
            folder = os.path.join(tmp, f"settings{k}")
            run([a.peviz, "train", *([] if "--pe" in flags else ["--pe", "all,fixes"]), *flags, "--emit-pytorch", folder])
            for name in sorted(f for f in os.listdir(repo_twin) if f.endswith(".py")):
                with open(os.path.join(folder, name), "rb") as f, open(os.path.join(repo_twin, name), "rb") as g:
                    check(f.read() == g.read(), f"the emitted {name} is not core/train/twin/{name} byte for byte")
            run([a.dump, "parity", folder])
            lab = load_lab(os.path.join(folder, "lab.py"))
            rng = lab.MT19937_64(5489)  # C++11 [rand.predef]: the 10000th output of a default mt19937_64
            check([rng() for _ in range(10000)][-1] == 9981545732273789042, "MT19937_64 is not std::mt19937_64")
            with open(os.path.join(folder, "settings.json")) as f:
                spec = json.load(f)
            cfgs, weights, results = [], [], []
            for r in spec["runs"]:
                cfg, w, result = compare_run(lab, folder, spec, r, worst, weight_tolerance)
                cfgs.append(cfg), weights.append(w), results.append(result)
            # The twin's run files, reopened by peviz (load_run through open_experiment).
            lab.save_experiment(cfgs, weights, results, os.path.join(folder, "twin.safetensors"))
            lines = [json.loads(line) for line in run([a.dump, "open", os.path.join(folder, "twin.json")]).splitlines()]
            check(len(lines) == len(cfgs), "peviz did not reopen every twin run")
            for line, cfg, result in zip(lines, cfgs, results):
                check(line["pe"] == cfg["pe"] and line["loss"] == result["loss"], f"{cfg['pe']}: reopened loss curve differs")
                check(line["exact_match"] == {str(n): v for n, v in result["accuracy"]},
                      f"{cfg['pe']}: reopened exact match differs")
        # Peviz's trained weights (the shipped default experiment, seed 0) evaluated by both.
        print("exact match of peviz's trained weights (assets/lab, seed 0), peviz / twin:")
        for pe, path in shipped_seed0_runs(a.assets).items():  # the encodings the shipped experiment trained
            theirs = json.loads(run([a.dump, "evaluate", path]))["exact_match"]
            weights, meta = lab.read_safetensors(path)
            cfg = lab.settings_of_run_file(meta)
            mine = {str(n): v for n, v in lab.exact_match(lab.LabModel(cfg, weights).eval(), cfg, torch.device("cpu"))}
            print(f"  {pe:11} " + "  ".join(f"n={n}: {theirs[n]} / {mine[n]}" for n in theirs))
            check(mine == theirs, f"{pe}: the twin's exact match of peviz's weights differs")
    # AdamW's first steps move every weight by about lr whatever its gradient's size, and by lr g / (|g| + 1e-8) where
    # |g| is near eps: float32 rounding noise of ~1e-9 in such a gradient becomes a visible step. The float32 twin
    # is as far from the float64 twin (the "floor" printed) as peviz is from it, so large steps are held to 1e-3.
    print("worst over every encoding and setting (relative unless marked): " +
          ", ".join(f"{k} {v:.2e}" for k, v in worst.items()))
    print(f"tolerances: float32 {TOLERANCE:g}; float64 {TOLERANCE64:g}; weights after five large steps "
          f"{LARGE_STEP_WEIGHTS:g}; with EMA and dropout, 2 x the float32 floor per tensor (at least {TOLERANCE:g})")
    print("FAILED: " + "; ".join(failures) if failures else "PASSED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
