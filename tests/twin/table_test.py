#!/usr/bin/env python3
"""peviz's lab table (its encodings and tasks) against the PyTorch twin, which reads it and types none of it.

  - `peviz train --list-encodings --list-tasks --format json` prints the table; `--emit-pytorch` writes the same
    lab_table.json beside lab.py; the twin's sources (core/train/twin/*.py) spell no encoding name that is not also
    the name of a model or position sampler they build (no copy of the table's rows);
  - for every task of the table and every encoding it takes (a tiny model each): the twin's first training batch,
    its position ids and test ids, and its float64 loss from peviz's initial weights are peviz's (twin_dump parity; 1e-10). An
    encoding whose model, ids or task the twin builds otherwise, or not at all, fails here;
  - a model, position sampler or task the twin does not know is refused, never trained as another.
Exit 0 pass, 1 fail, 77 (ctest's skip) when torch cannot be imported (after the checks that need no torch).
usage: table_test.py --peviz PEVIZ --dump TWIN_DUMP --assets ASSETS_LAB
"""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from twin_checks import arguments, check, failures, load_lab, run  # noqa: E402

TINY = ["--layers", "1", "--heads", "2", "--d-model", "16", "--batch", "4", "--train-max", "4", "--test-max", "8",
        "--test-samples", "5", "--steps", "20", "--warmup", "2"]
TOLERANCE64 = 1e-10  # the float64 loss, twin vs peviz's double engine (parity_test.py's rule 1: host-independent)
HERE = os.path.dirname(os.path.abspath(__file__))
TWIN_SOURCES = os.path.join(HERE, "..", "..", "core", "train", "twin")
def emit(peviz, table, task, folder):
    """The twin of every encoding `task` takes (its row's samplers), on the tiny model; their names."""
    encodings = [e["name"] for e in table["encodings"] if e["positions"] in task["positions"]]
    run([peviz, "train", "--task", task["name"], "--pe", ",".join(encodings), *TINY, "--emit-pytorch", folder])
    return encodings


def check_without_torch(peviz, table, tmp):
    """The printed table is the emitted one, and the twin's sources name no row that is not a model."""
    folder = os.path.join(tmp, "emitted")
    emit(peviz, table, table["tasks"][0], folder)
    with open(os.path.join(folder, "lab_table.json")) as f:
        check(json.load(f) == table, "the emitted lab_table.json is not what --list-encodings --list-tasks prints")
    models = {e["mechanism"] for e in table["encodings"]}
    built = models | {e["positions"] for e in table["encodings"]}  # what the twin implements may be spelt in it
    for name in sorted(f for f in os.listdir(TWIN_SOURCES) if f.endswith(".py")):
        with open(os.path.join(TWIN_SOURCES, name)) as f:
            literals = set(re.findall(r"\"([a-z0-9-]+)\"", f.read()))
        typed = sorted(e["name"] for e in table["encodings"] if e["name"] in literals and e["name"] not in built)
        check(not typed, f"core/train/twin/{name} types encoding names of peviz's table: {typed}")
    print(f"table: {len(table['encodings'])} encodings of {len(models)} models, {len(table['tasks'])} tasks")


def compare_first_batch(lab, torch, folder, spec, r):
    """The twin's first batch, ids, test ids and loss against twin_dump's of the same run; one line printed."""
    cfg = lab.run_config(spec["settings"], spec["model"], r["pe"], r["seed"])
    name = f"{cfg['task']} {r['pe']}"
    dump, meta = lab.read_safetensors(os.path.join(folder, f"dump-{r['pe']}-seed{r['seed']}.safetensors"))
    init, _ = lab.read_safetensors(os.path.join(folder, r["init"]))
    pairs = lab.training_batch(cfg["task"], cfg["batch"], cfg["train_max"], lab.MT19937_64(cfg["seed"] ^ lab.DATA_STREAM))
    check([t for s, _ in pairs for t in s] == dump["tokens"].long().tolist(), f"{name}: first batch's tokens differ")
    ids = lab.batch_positions(cfg, pairs, lab.MT19937_64(cfg["seed"] ^ lab.POSITION_STREAM))
    check([i for row in ids for i in row] == dump["positions"].long().tolist(), f"{name}: first batch's ids differ")
    test_ids = [i for row in lab.test_positions(cfg, cfg["test_max"], 3) for i in row]
    check(test_ids == dump["test_ids"].long().tolist(), f"{name}: test ids differ")
    tok, pos, tgt = lab.pad(pairs, ids, torch.device("cpu"))
    loss = lab.answer_loss_sum(lab.LabModel(cfg, init, torch.float64)(tok, pos), tgt) / int((tgt >= 0).sum())
    loss_rel = abs(loss.item() - float(meta["loss64"])) / abs(float(meta["loss64"]))
    check(loss_rel <= TOLERANCE64, f"{name}: loss differs from peviz's by {loss_rel:.3g} (model {cfg['mechanism']})")
    print(f"  {name:22} model {cfg['mechanism']:10} ids {cfg['positions']:10} loss {loss_rel:.1e}")
    return cfg, init


def check_refusals(lab, cfg, init):
    """What the table does not name is refused: a model, a sampler, a task, an encoding."""
    for what, call in (("a model", lambda: lab.LabModel({**cfg, "mechanism": "not-a-model"}, init)),
                       ("a sampler", lambda: lab.batch_positions({**cfg, "positions": "not-a-sampler"}, [([0] * 5, 1)], None)),
                       ("a test sampler", lambda: lab.test_positions({**cfg, "positions": "not-a-sampler"}, 1, 1)),
                       ("a task", lambda: lab.task_sequence("not-a-task", [1, 2])),
                       ("an encoding", lambda: lab.run_config({}, {}, "not-an-encoding", 0))):
        try:
            call()
            check(False, f"the twin took {what} that peviz's table does not name")
        except ValueError as e:
            print(f"  refused {what}: {e}")


def main():
    a = arguments()
    table = json.loads(run([a.peviz, "train", "--list-encodings", "--list-tasks", "--format", "json"]))
    with tempfile.TemporaryDirectory(prefix="peviz-twin-table-") as tmp:
        check_without_torch(a.peviz, table, tmp)
        try:
            import torch
        except ImportError:
            print("FAILED: " + "; ".join(failures) if failures else "SKIPPED: torch not installed (Debian: apt-get "
                  "install python3-torch); the table checks that need no torch passed")
            return 1 if failures else 77
        torch.set_num_threads(1)
        for task in table["tasks"]:
            folder = os.path.join(tmp, task["name"])
            encodings = emit(a.peviz, table, task, folder)
            run([a.dump, "parity", folder])
            lab = load_lab(os.path.join(folder, "lab.py"))
            with open(os.path.join(folder, "settings.json")) as f:
                spec = json.load(f)
            check([r["pe"] for r in spec["runs"]] == encodings, f"{task['name']}: the emitted runs are not the table's")
            for r in spec["runs"]:
                cfg, init = compare_first_batch(lab, torch, folder, spec, r)
        check_refusals(lab, cfg, init)
    print("FAILED: " + "; ".join(failures) if failures else "PASSED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
