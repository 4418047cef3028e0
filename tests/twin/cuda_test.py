#!/usr/bin/env python3
"""The PyTorch twin on a CUDA GPU against peviz's engine (the CPU twin is parity_test.py's; this is its --device cuda).

For every encoding (on a small model: 2 layers, 4 heads, d_model 32, so that what --prepare writes stays small), from
peviz's initial weights and first batch (twin_dump parity):
  - the loss, every parameter's gradient and five optimizer steps on the GPU hold parity_test.py's rule: float64 on
    the GPU against peviz's double engine to 1e-10, the GPU's float32 within its float32 bound of the GPU's float64
    (lab.py turns TF32 off);
  - the twin's exact match of peviz's trained weights (assets/lab, seed 0), evaluated on the GPU, equals peviz's;
  - torchrun with two ranks sharing the GPU (DistributedDataParallel, gloo on CUDA tensors) trains eight steps, its
    first loss as one process's within distributed_test.py's bound (the curve printed).
The parts that need peviz (emitting, the dumps, peviz's evaluation) can run on another machine: --prepare DIR writes
them, --check DIR reads them where the GPU is. Exit 0 pass, 1 fail, 77 (ctest's skip) without torch or CUDA.
usage: cuda_test.py --peviz PEVIZ --dump TWIN_DUMP --assets ASSETS_LAB     (both halves, in a temporary folder)
       cuda_test.py --prepare DIR --peviz PEVIZ --dump TWIN_DUMP --assets ASSETS_LAB
       cuda_test.py --check DIR [--device cpu]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity_test import (check, check_batch, check_steps, failures, load_lab, run_gamma, run,  # noqa: E402
                         shipped_seed0_runs)  # noqa: E402 (exits 77 without torch)

import torch  # noqa: E402

GRADIENT_FLAGS = ["--pe", "all", "--layers", "2", "--heads", "4", "--d-model", "32", "--test-samples", "10"]
DISTRIBUTED_FLAGS = ["--pe", "rope,t5", "--steps", "8", "--warmup", "3", "--layers", "2", "--d-model", "32",
                     "--batch", "10", "--test-samples", "20", "--seed", "5"]
DISTRIBUTED_TRAINED = DISTRIBUTED_FLAGS[DISTRIBUTED_FLAGS.index("--pe") + 1].split(",")  # the encodings it trains


def prepare(folder, peviz, dump, assets):
    """Everything --check needs from peviz, in `folder`."""
    os.makedirs(folder, exist_ok=True)
    run([peviz, "train", *GRADIENT_FLAGS, "--emit-pytorch", os.path.join(folder, "gradients")])
    run([dump, "parity", os.path.join(folder, "gradients")])
    run([peviz, "train", *DISTRIBUTED_FLAGS, "--emit-pytorch", os.path.join(folder, "distributed")])
    os.makedirs(os.path.join(folder, "trained"), exist_ok=True)
    with open(os.path.join(folder, "trained", "peviz.jsonl"), "w") as lines:
        for pe, path in shipped_seed0_runs(assets).items():  # the encodings the shipped experiment trained
            shutil.copy(path, os.path.join(folder, "trained", f"{pe}-seed0.safetensors"))
            lines.write(run([dump, "evaluate", path]).strip() + "\n")


def gradients_and_steps(lab, folder, r, spec, cuda, worst):
    """The first batch's loss and gradients, and five steps, on the GPU against peviz's dump of the same run, under
    parity_test.py's rule (float64 on the GPU against peviz's double engine; the GPU's float32 against its float64)."""
    cfg = lab.run_config(spec["settings"], spec["model"], r["pe"], r["seed"])
    dump, meta = lab.read_safetensors(os.path.join(folder, f"dump-{r['pe']}-seed{r['seed']}.safetensors"))
    init, _ = lab.read_safetensors(os.path.join(folder, r["init"]))
    pairs = lab.training_batch(cfg["task"], cfg["batch"], cfg["train_max"], lab.MT19937_64(cfg["seed"] ^ lab.DATA_STREAM))
    ids = lab.batch_positions(cfg, pairs, lab.MT19937_64(cfg["seed"] ^ lab.POSITION_STREAM))
    tok, pos, tgt = lab.pad(pairs, ids, cuda)
    batch = (tok, pos, tgt, None, int((tgt >= 0).sum()))
    batch_line = check_batch(lab, cfg, r["pe"], dump, meta, init, batch, worst, cuda)
    _, _, steps_line = check_steps(lab, cfg, r["pe"], dump, meta, init, worst, cuda)
    print(f"{r['pe']:11} {batch_line}\n{'':11} {steps_line}")


def evaluation(lab, folder, cuda):
    """The twin's exact match of peviz's trained weights, on the GPU, against peviz's own evaluation."""
    print("exact match of peviz's trained weights (assets/lab, seed 0) on the GPU, peviz / twin:")
    with open(os.path.join(folder, "trained", "peviz.jsonl")) as f:
        theirs = {j["pe"]: j["exact_match"] for j in map(json.loads, f)}
    for pe in theirs:
        weights, meta = lab.read_safetensors(os.path.join(folder, "trained", f"{pe}-seed0.safetensors"))
        cfg = lab.settings_of_run_file(meta)
        mine = {str(n): v for n, v in lab.exact_match(lab.LabModel(cfg, weights).to(cuda).eval(), cfg, cuda)}
        print(f"  {pe:11} " + "  ".join(f"n={n}: {theirs[pe][n]} / {mine[n]}" for n in theirs[pe]))
        check(mine == theirs[pe], f"{pe}: the twin's exact match of peviz's weights on the GPU differs")


def distributed(lab, folder, device):
    """torchrun, two ranks sharing the device (gloo), against one process: the loss curves of eight steps, read back
    from the run files each wrote."""
    lab_py = os.path.join(folder, "lab.py")
    run([sys.executable, lab_py, "--device", device.type, "--out", os.path.join(folder, "one.safetensors")])
    torchrun = shutil.which("torchrun")
    launcher = [torchrun] if torchrun else [sys.executable, "-m", "torch.distributed.run"]
    from torch.distributed.elastic.multiprocessing.api import Std
    if Std.from_str("0") is None:  # PyTorch 1.13 on Python 3.11 (pytorch/pytorch#92319; distributed_test.py)
        launcher += ["--redirects", "1", "--tee", "1"]
    run([*launcher, "--standalone", "--nproc_per_node", "2", lab_py, "--device", device.type, "--backend", "gloo",
         "--out", os.path.join(folder, "two.safetensors")])
    for pe in DISTRIBUTED_TRAINED:
        curve_one = json.loads(lab.read_safetensors(os.path.join(folder, f"one-{pe}.safetensors"))[1]["loss"])
        curve_two = json.loads(lab.read_safetensors(os.path.join(folder, f"two-{pe}.safetensors"))[1]["loss"])
        worst = max(abs(x - y) / abs(x) for x, y in zip(curve_one, curve_two))
        first = abs(curve_one[0] - curve_two[0]) / abs(curve_one[0])
        with open(os.path.join(folder, "settings.json")) as f:
            spec = json.load(f)
        bound = 2 * run_gamma(lab, lab.run_config(spec["settings"], spec["model"], pe, spec["runs"][0]["seed"]))
        check(len(curve_one) == len(curve_two) == 8 and first <= bound,
              f"{pe}: two ranks' first loss differs from one process's by {first:.3g} (bound {bound:.3g})")
        print(f"torchrun, 2 ranks sharing the device (gloo) vs 1 process, {pe}: first loss {first:.1e} (bound "
              f"{bound:.1e}), loss curve {worst:.1e}")


def check_on_gpu(folder, cuda):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    name = torch.cuda.get_device_name(0) if cuda.type == "cuda" else "cpu (a dry run of the checks)"
    print(f"device: {name}, torch {torch.__version__}")
    print("relative differences, twin on the GPU vs peviz: ||twin - peviz|| / ||peviz|| per tensor")
    small = os.path.join(folder, "gradients")
    lab = load_lab(os.path.join(small, "lab.py"))
    with open(os.path.join(small, "settings.json")) as f:
        spec = json.load(f)
    worst = {}
    for r in spec["runs"]:
        gradients_and_steps(lab, small, r, spec, cuda, worst)
    print("worst over every encoding: " + ", ".join(f"{k} {v:.2e}" for k, v in worst.items()))
    evaluation(lab, folder, cuda)
    distributed(lab, os.path.join(folder, "distributed"), cuda)
    print("FAILED: " + "; ".join(failures) if failures else "PASSED")
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--peviz")
    p.add_argument("--dump")
    p.add_argument("--assets")
    p.add_argument("--prepare", metavar="DIR")
    p.add_argument("--check", metavar="DIR")
    p.add_argument("--device", default="cuda", help="cpu: run --check's comparisons on the CPU (to try the test itself)")
    a = p.parse_args()
    if a.prepare:
        prepare(a.prepare, a.peviz, a.dump, a.assets)
        return 0
    device = torch.device(a.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        print("SKIPPED: no CUDA device (torch.cuda.is_available() is False); run --prepare here and --check on a GPU")
        return 77
    if a.check:
        return check_on_gpu(a.check, device)
    with tempfile.TemporaryDirectory(prefix="peviz-twin-cuda-") as tmp:
        prepare(tmp, a.peviz, a.dump, a.assets)
        return check_on_gpu(tmp, device)


if __name__ == "__main__":
    sys.exit(main())
