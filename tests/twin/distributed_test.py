#!/usr/bin/env python3
"""The PyTorch twin under torchrun: two processes (DistributedDataParallel, gloo on CPU) train as one process does.

Emits a small experiment (`peviz train --emit-pytorch`) and trains it with the two commands peviz prints, run as
printed by sh with `python3` this interpreter and no GPU visible: `python3 DIR/lab.py` and, N = 2, `python3 DIR/lab.py
--ranks N` (torchrun: the global batch split across the ranks, the loss normalised by the global answer-token count;
on torch 1.13 this needs lab.torchrun_flags' --redirects 1 --tee 1). Checks that the first batch's loss and gradients
(lab.batch_loss, the part AdamW would hide a wrong scale from) agree, the first loss of each run's curve too, within
2 gamma_N (both float32 sums of the same terms in two orders: parity_test.py's rule 2, gamma_N there), and every
final weight within parity_test.py's weight_reach of eight steps (AdamW's steps are bounded whatever rounding does
to a gradient near 0). The rest of the curves, ||two - one|| / ||one|| per weight tensor and the exact-match numbers
(after eight steps near-ties of untrained logits decide them) are printed. EMA and dropout are on: each rank takes
its rows of the global batch's masks, the weights are the average.
Exit 0 pass, 1 fail, 77 (ctest's skip) when torch is not installed or torchrun cannot start here.
usage: distributed_test.py --peviz PEVIZ [--dump TWIN_DUMP --assets ASSETS_LAB (unused)]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import torch
except ImportError:
    print("SKIPPED: torch not installed (Debian: apt-get install python3-torch)")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity_test import determined, load_lab, run_gamma, weight_reach  # noqa: E402
FLAGS = ["--pe", "rope,t5", "--steps", "8", "--warmup", "3", "--layers", "2", "--d-model", "32", "--batch", "10",
         "--test-samples", "20", "--seed", "5", "--ema", "0.9", "--dropout", "0.2"]
TRAINED = FLAGS[FLAGS.index("--pe") + 1].split(",")  # the encodings FLAGS trains
PRINTED = re.compile(r"wrote .+ \(\d+ files\); train with: (?P<one>.+), or on N ranks: (?P<ranks>.+ --ranks) N\n")


# The first batch's gradients through lab.batch_loss, on one process or under torchrun (rank 0 writes them).
GRADIENTS = """
import importlib.util, json, os, sys
import torch, torch.distributed as dist
spec = importlib.util.spec_from_file_location("lab", sys.argv[1])
lab = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lab)
torch.set_num_threads(1)
world, rank = int(os.environ.get("WORLD_SIZE", "1")), int(os.environ.get("RANK", "0"))
if world > 1:
    dist.init_process_group("gloo")
folder = os.path.dirname(sys.argv[1])
with open(os.path.join(folder, "settings.json")) as f:
    s = json.load(f)
r = s["runs"][0]
cfg = lab.run_config(s["settings"], s["model"], r["pe"], r["seed"])
model = lab.LabModel(cfg, lab.read_safetensors(os.path.join(folder, r["init"]))[0])
trained = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
pairs = lab.training_batch(cfg["task"], cfg["batch"], cfg["train_max"], lab.MT19937_64(cfg["seed"] ^ lab.DATA_STREAM))
ids = lab.batch_positions(cfg, pairs, lab.MT19937_64(cfg["seed"] ^ lab.POSITION_STREAM))
drop = lab.step_dropout(cfg, 0, pairs, torch.device("cpu"), world, rank)  # step 0's masks, this rank's rows
scaled, loss = lab.batch_loss(trained, pairs, ids, torch.device("cpu"), world, rank, drop)
scaled.backward()
if rank == 0:
    grads = [(n, p.grad) for n, p in model.named_parameters()]
    lab.write_atomically(sys.argv[2], lab.safetensors_bytes(grads, {"loss": repr(loss)}))
if world > 1:
    dist.destroy_process_group()
"""


def emit(peviz, folder):
    """`peviz train --emit-pytorch folder`; returns the commands it printed: one process, and two ranks (N = 2)."""
    r = subprocess.run([peviz, "train", *FLAGS, "--emit-pytorch", folder], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: peviz train --emit-pytorch: {r.stderr.strip()}")
    m = PRINTED.fullmatch(r.stdout)
    if not m:
        sys.exit(f"FAIL: peviz train --emit-pytorch printed no command to train with: {r.stdout!r}")
    return m["one"], m["ranks"] + " 2"


def shell_env(tmp):
    """The environment the printed commands run in: `python3` is this interpreter (ahead of any other on the PATH),
    no GPU is visible (lab.py's default device is then the CPU, DDP's backend gloo), one thread per process."""
    bin_dir = os.path.join(tmp, "bin")
    os.mkdir(bin_dir)
    os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
    return dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), CUDA_VISIBLE_DEVICES="",
                OMP_NUM_THREADS="1")


def run_printed(command, folder, stem, env):
    """Runs a printed command as printed (sh -c), then renames the runs it wrote (run-<pe>.safetensors, the default
    --out) to <stem>-<pe>.safetensors. Returns the finished process."""
    print(f"$ {command}")
    r = subprocess.run(command, shell=True, capture_output=True, text=True, env=env, timeout=600)
    if r.returncode == 0:
        print("  " + "\n  ".join(r.stdout.strip().splitlines()))
        for pe in TRAINED:
            os.replace(os.path.join(folder, f"run-{pe}.safetensors"), os.path.join(folder, f"{stem}-{pe}.safetensors"))
    return r


def cannot_start(two):
    """77 with the reason where torchrun could not start its ranks here (no rendezvous, no loopback)."""
    reason = (two.stderr.strip().splitlines() or ["no output"])[-1]
    if any(word in two.stderr for word in ("Rendezvous", "rendezvous", "EADDRINUSE", "Address family")):
        print(f"SKIPPED: torchrun could not start here: {reason}")
        return 77
    sys.exit(f"FAIL: {two.args} exited {two.returncode}: {reason}")


def first_batch(lab, tmp, lab_py, env):
    """The first batch's loss gap and per-tensor gradient gaps, torchrun's two ranks against one process."""
    helper = os.path.join(tmp, "gradients.py")
    with open(helper, "w") as f:
        f.write(GRADIENTS)
    launcher = [sys.executable, "-m", "torch.distributed.run", *lab.torchrun_flags(2)]
    g_one = subprocess.run([sys.executable, helper, lab_py, os.path.join(tmp, "g1.safetensors")], capture_output=True,
                           text=True, env=env)
    g_two = subprocess.run([*launcher, helper, lab_py, os.path.join(tmp, "g2.safetensors")], capture_output=True,
                           text=True, env=env, timeout=600)
    if g_one.returncode != 0 or g_two.returncode != 0:
        sys.exit(f"FAIL: the gradient helper: {g_one.stderr.strip()} {g_two.stderr.strip()}")
    (g1, gm1), (g2, gm2) = (lab.read_safetensors(os.path.join(tmp, f)) for f in ("g1.safetensors", "g2.safetensors"))
    g_rel = {k: ((g2[k] - g1[k]).double().norm() / g1[k].double().norm()).item() for k in g1}
    return abs(float(gm2["loss"]) - float(gm1["loss"])) / float(gm1["loss"]), g_rel


def compare_runs(lab, folder, pe):
    """One encoding's runs, two ranks against one process: the failures found, printed with the gaps."""
    failures = []
    w1, m1 = lab.read_safetensors(os.path.join(folder, f"one-{pe}.safetensors"))
    w2, m2 = lab.read_safetensors(os.path.join(folder, f"two-{pe}.safetensors"))
    l1, l2 = json.loads(m1["loss"]), json.loads(m2["loss"])
    loss_rel = max(abs(x - y) / abs(x) for x, y in zip(l1, l2))
    first = abs(l1[0] - l2[0]) / abs(l1[0])
    d = w1["wte"].shape[1]
    w_rel = {k: ((determined(k, w2[k], d) - determined(k, w1[k], d)).double().norm() /
                 determined(k, w1[k], d).double().norm()).item() for k in w1}
    gap = {k: (w2[k].double() - w1[k].double()).abs().max().item() for k in w1}
    worst, widest = max(w_rel, key=w_rel.get), max(gap, key=gap.get)
    cfg = run_config(lab, folder, pe)
    bound = 2 * run_gamma(lab, cfg)
    reach = weight_reach(lab, cfg, max(w.abs().max().item() for w in w1.values()), steps=len(l1))
    print(f"  {pe:5} steps {len(l1)} / {len(l2)}  first loss {first:.2e} (bound {bound:.1e})  loss curve {loss_rel:.2e}"
          f"  final weights {w_rel[worst]:.2e} ({worst}), one weight at most {gap[widest]:.1e} ({widest}; bound "
          f"{reach:.1e})  exact match {m1['exact_match']} / {m2['exact_match']}")
    print(f"        losses one: {' '.join(f'{x:.6f}' for x in l1)}\n        losses two: "
          f"{' '.join(f'{x:.6f}' for x in l2)}")
    if len(l1) != 8 or len(l2) != 8 or first > bound:
        failures.append(f"{pe}: first losses differ by {first:.3g} (bound {bound:.3g})")
    if gap[widest] > reach:
        failures.append(f"{pe}: final weights differ by {gap[widest]:.3g} in one weight of {widest} (bound {reach:.3g})")
    return failures


def run_config(lab, folder, pe):
    """The run's settings as lab.py reads them."""
    with open(os.path.join(folder, "settings.json")) as f:
        spec = json.load(f)
    seed = next(r["seed"] for r in spec["runs"] if r["pe"] == pe)
    return lab.run_config(spec["settings"], spec["model"], pe, seed)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--peviz", required=True)
    p.add_argument("--dump")
    p.add_argument("--assets")
    a = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="peviz-twin-ddp-") as tmp:
        folder = os.path.join(tmp, "exp")
        one_command, two_command = emit(a.peviz, folder)
        env = shell_env(tmp)
        one = run_printed(one_command, folder, "one", env)
        if one.returncode != 0:
            sys.exit(f"FAIL: {one_command}: {one.stderr.strip()}")
        two = run_printed(two_command, folder, "two", env)
        if two.returncode != 0:
            return cannot_start(two)
        lab_py = os.path.join(folder, "lab.py")
        lab = load_lab(lab_py)
        print("relative differences, 2 ranks (lab.py --ranks 2, torchrun) vs one process (same global batch):")
        loss_gap, g_rel = first_batch(lab, tmp, lab_py, env)
        g_worst = max(g_rel, key=g_rel.get)
        print(f"  first batch (rope): loss {loss_gap:.2e}  gradient {g_rel[g_worst]:.2e} ({g_worst}), "
              f"||two - one|| / ||one|| per tensor")
        failures = []
        bound = 2 * run_gamma(lab, run_config(lab, folder, TRAINED[0]))
        if loss_gap > bound or g_rel[g_worst] > bound:
            failures.append(f"first batch: gradients differ by {g_rel[g_worst]:.3g} ({g_worst}), "
                            f"loss by {loss_gap:.3g} (bound 2 gamma_N {bound:.3g})")
        for pe in TRAINED:
            failures += compare_runs(lab, folder, pe)
        print("FAILED: " + "; ".join(failures) if failures else "PASSED")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
