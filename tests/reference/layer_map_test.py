"""Compares `peviz export layer-map` (and rope-inv-freq's pair_axis) with the transformers port, file by file.

Usage: layer_map_test.py --peviz PATH_TO_peviz --models assets/models --cases tests/reference/cases
Prints one line per config (ok, skip, or the first difference) and exits 1 on any difference.
"""
import argparse
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import transformers_layer_map as reference  # noqa: E402

LAYER_KEYS = ("index", "positions", "attention", "window", "query_scale")


def run(peviz, command, path):
    args = [peviz, "export", command, "--config", str(path), "--format", "json"]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def field_name(entry):
    """An unmodelled entry's field path: its text up to the first space or colon, without "text_config."."""
    name = entry.split(" ", 1)[0].split(":", 1)[0]
    return name[len("text_config."):] if name.startswith("text_config.") else name


def find_key(node, key):
    if isinstance(node, dict):
        if key in node:
            return node[key]
        for value in node.values():
            found = find_key(value, key)
            if found is not None:
                return found
    return None


def refusal_problem(result):
    """None when peviz refused as the house style says: exit 2, one stderr line starting "peviz: "."""
    lines = result.stderr.splitlines()
    if result.returncode != 2:
        return f"expected exit 2, got {result.returncode}"
    if len(lines) != 1 or not lines[0].startswith("peviz: "):
        return f"expected one stderr line starting 'peviz: ', got {lines!r}"
    return None


def layer_difference(want, got):
    if len(got.get("layers", [])) != len(want["layers"]):
        return f"{len(got.get('layers', []))} layers, reference {len(want['layers'])}"
    for w, g in zip(want["layers"], got["layers"]):
        for key in LAYER_KEYS:
            if g.get(key) != w[key]:
                return f"layer {w['index']} {key}: {g.get(key)!r}, reference {w[key]!r}"
    got_fields = {field_name(e) for e in got.get("unmodelled", [])}
    if got_fields != set(want["unmodelled"]):
        return f"unmodelled {sorted(got_fields)}, reference {sorted(want['unmodelled'])}"
    return None


def check_refusal(peviz, path, config):
    """The command whose reference refuses must be refused by peviz too."""
    try:
        reference.layer_map(config, path.stem)
    except ValueError as e:
        problem = refusal_problem(run(peviz, "layer-map", path))
        return f"layer-map: {problem} (reference: {e})" if problem else None
    try:
        reference.pair_axis(config)
    except ValueError as e:
        problem = refusal_problem(run(peviz, "rope-inv-freq", path))
        return f"rope-inv-freq: {problem} (reference: {e})" if problem else None
    return "not refused by the reference"


def check(peviz, path):
    """None when peviz agrees with the reference, "skip ..." for a model without RoPE, else the difference."""
    config = json.loads(path.read_text())
    try:
        want = reference.layer_map(config, path.stem)
        axis = reference.pair_axis(config) if want else None
    except ValueError:
        return check_refusal(peviz, path, config)
    if want is None:
        return "skip (not RoPE)"
    result = run(peviz, "layer-map", path)
    if result.returncode != 0:
        return f"layer-map exited {result.returncode}: {result.stderr.strip()}"
    difference = layer_difference(want, json.loads(result.stdout))
    if difference or axis is None:
        return difference
    result = run(peviz, "rope-inv-freq", path)
    if result.returncode != 0:
        return f"rope-inv-freq exited {result.returncode}: {result.stderr.strip()}"
    got = find_key(json.loads(result.stdout), "pair_axis")
    if got != axis:
        return f"pair_axis {''.join(got or [])!r}, reference {''.join(axis)!r}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peviz", required=True)
    parser.add_argument("--models", required=True, type=pathlib.Path)
    parser.add_argument("--cases", required=True, type=pathlib.Path)
    args = parser.parse_args()
    failed = False
    for path in sorted(args.models.glob("*.json")) + sorted(args.cases.glob("*.json")):
        outcome = check(args.peviz, path)
        failed |= outcome is not None and not outcome.startswith("skip")
        print(f"{path.name}: {outcome or 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
