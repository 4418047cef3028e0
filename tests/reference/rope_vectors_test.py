"""Compares `peviz export rope-test-vectors` with the transformers RoPE port (transformers_rope.py), config by config.

Usage: rope_vectors_test.py --peviz PATH_TO_peviz --models assets/models --corpus tests/corpus/model_config
Every *.json in both folders runs twice: at positions past every shipped context window (long LongRoPE factors,
dynamic NTK's rescaled base) and at a few small ones (short factors, dynamic's unscaled branch). Per group it checks
the layers, layer_type, rope flag, head_dim, rotary_dim, layout, rope_type, attention_factor, inv_freq, cos, sin, q, k,
scores and query_scale; a model without RoPE must be refused by peviz (exit 2, "not RoPE") and by the port alike.
Two hand-written configs must be refused naming their key (an unknown rope_type, a zero factor).
Prints one line per config and a summary; exits 1 listing every mismatch, 77 without numpy.
"""
import argparse
import json
import math
import pathlib
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy not installed")
    sys.exit(77)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import transformers_rope as reference  # noqa: E402

POSITION_SETS = ([0, 1, 2, 3, 7, 100, 4095, 4096, 4097, 32767, 65536, 131071, 1000000], [0, 1, 2, 100])

ULP1 = 2.0 ** -23  # float32's spacing at 1
# inv_freq: transformers and peviz each compute base ** (2j / R) with a float32 pow (not correctly rounded in every
# libm or in torch's vectorised kernels: up to about 1 ulp), then a reciprocal (0.5 ulp) and, for scaled types, a
# couple more float32 roundings (the YaRN blend, the llama3 smoothing, a division by the factor). peviz instead
# rounds once from double, with the exact exponent 2j/R where transformers rounds 2j/R to float32 first: for a rotary
# dim that is not a power of two (GPT-NeoX's 24, Phi-3.5's 96) that moves inv_freq by up to ln(base) * 2^-25
# relative, 2.3 ulps at base 10^4 (the largest seen here is 2.45 ulps). Four ulps of relative difference covers
# those without letting a wrong formula through (a base off by 10^-4 relative, a llama3 high_freq_factor of 3.9 for
# 4, a YaRN beta_fast of 16 for 32 all fail it).
INV_FREQ_REL = 4 * ULP1
ATTENTION_FACTOR_REL = 1e-6  # peviz stores it as float32 (7 digits); the port keeps transformers' Python float
QUERY_SCALE_REL = 1e-12  # float64 on both sides
Q_K_REL = 2.0 ** -24  # q and k are printed from float32: half an ulp of rounding
SUM_REL = 1e-12  # float64 summation order of the scores


def run(peviz, path, positions):
    args = [peviz, "export", "rope-test-vectors", "--config", str(path), "--positions",
            ",".join(str(p) for p in positions)]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def ulp32(x):
    return float(np.spacing(np.abs(np.float32(x))))


class Mismatches:
    def __init__(self):
        self.items = []

    def add(self, config, group, key, index, ours, theirs):
        self.items.append((config, group, key, index, ours, theirs))


def compare_group(out, name, g, want, got, positions):
    """Adds every difference between the port's group `want` and peviz's group `got`."""
    def bad(key, index, ours, theirs):
        out.add(name, g, key, index, ours, theirs)

    for key in ("layers", "layer_type", "rope", "head_dim", "rotary_dim", "layout", "rope_type"):
        if key in want and got.get(key) != want[key]:
            bad(key, None, want[key], got.get(key))
    expected_keys = set(want) - {"angle", "pairs", "cos0"} | {"origins"}
    for key in sorted(expected_keys ^ set(got)):
        bad("keys", key, "present" if key in expected_keys else "absent", "present" if key in got else "absent")
    if want["layer_type"] != got.get("layer_type") or want["rope"] != got.get("rope"):
        return  # a different kind of group: the arrays mean different things
    for key in ("q", "k"):
        if key in want:
            theirs = got.get(key) or []
            if len(theirs) != len(want[key]):
                bad(key, "length", len(want[key]), len(theirs))
                return
            for i, (a, b) in enumerate(zip(want[key], theirs)):
                if abs(a - b) > Q_K_REL * abs(a):
                    bad(key, i, a, b)
    if "query_scale" in want and "query_scale" in got:
        for i, (a, b) in enumerate(zip(want["query_scale"], got["query_scale"])):
            if abs(a - b) > QUERY_SCALE_REL * abs(a):
                bad("query_scale", i, a, b)
    if not want["rope"]:
        if "scores" in want:
            total = sum(abs(a * b) for a, b in zip(want["q"], want["k"]))
            for i, (a, b) in enumerate(zip(want["scores"], got.get("scores") or [])):
                # q and k exact in the port; peviz may hold them in float32 (half an ulp each)
                if abs(a - b) > (2 * Q_K_REL + SUM_REL) * total:
                    bad("scores", i, a, b)
        return
    if any(got.get(key) != want[key] for key in ("rotary_dim", "layout")):
        return  # the arrays are not comparable pair by pair
    af = want["attention_factor"]
    if abs(got.get("attention_factor", math.nan) - af) > ATTENTION_FACTOR_REL * abs(af) or \
            not math.isfinite(got.get("attention_factor", math.nan)):
        bad("attention_factor", None, af, got.get("attention_factor"))
    inv = want["inv_freq"]
    theirs_inv = got.get("inv_freq") or []
    if len(theirs_inv) != len(inv):
        bad("inv_freq", "length", len(inv), len(theirs_inv))
        return
    d_inv = []
    for j, (a, b) in enumerate(zip(inv, theirs_inv)):
        a = float(a)
        d_inv.append(abs(a - b))
        if abs(a - b) > INV_FREQ_REL * abs(a):
            bad("inv_freq", j, a, b)
    # cos and sin. angle = float32(p * inv_freq_j). An inv_freq that differs by Δ (k ulps) moves the exact product
    # by p * Δ, and the two products may then round to float32 on different sides: one more ulp of the angle. cos
    # and sin change by at most the angle's change (|d cos/dθ| <= 1), and both sides scale by the attention factor.
    # Last, cos/sin of the same float32 angle differ by the libm's and the two float32 roundings (cos, then times
    # the factor): 4 ulps of 1, scaled. With identical inv_freq the angles are identical and only that last term is
    # left.
    af32 = float(np.float32(af))
    bounds = []
    for key in ("cos", "sin"):
        ours_rows, theirs_rows = want[key], got.get(key) or []
        if len(theirs_rows) != len(ours_rows):
            bad(key, "rows", len(ours_rows), len(theirs_rows))
            return
        rows = []
        for i, (ours, theirs) in enumerate(zip(ours_rows, theirs_rows)):
            if len(theirs) != len(ours):
                bad(key, (i, "length"), len(ours), len(theirs))
                return
            row = []
            for j, (a, b) in enumerate(zip(ours, theirs)):
                p = positions[i]
                tol = af32 * (p * d_inv[j] + ulp32(want["angle"][i][j])) + 4 * ULP1 * af32
                row.append(tol)
                if abs(float(a) - b) > tol:
                    bad(key, (p, j), float(a), b)
            rows.append(row)
        bounds.append(rows)
    # scores: pair (a, b) contributes (q_a c - q_b s) k_a c0 + (q_b c + q_a s) k_b c0 with k at position 0
    # (c0 = float32(attention_factor), s0 = 0), so a cos off by δc and a sin off by δs move it by at most
    # c0 (|q_a k_a| + |q_b k_b|) δc + c0 (|q_a k_b| + |q_b k_a|) δs: the bound is the sum over pairs, plus the
    # float32 rounding of q and k and float64 summation on the whole.
    q, k, c0 = want["q"], want["k"], float(want["cos0"][0])
    magnitude = sum(abs(x * y) for x, y in zip(q, k)) * max(1.0, c0 * c0 * 2)
    theirs_scores = got.get("scores") or []
    if len(theirs_scores) != len(want["scores"]):
        bad("scores", "length", len(want["scores"]), len(theirs_scores))
        return
    for i, (a, b) in enumerate(zip(want["scores"], theirs_scores)):
        tol = (2 * Q_K_REL + SUM_REL) * magnitude
        for j, (ca, cb) in enumerate(want["pairs"]):
            tol += c0 * (abs(q[ca] * k[ca]) + abs(q[cb] * k[cb])) * bounds[0][i][j]
            tol += c0 * (abs(q[ca] * k[cb]) + abs(q[cb] * k[ca])) * bounds[1][i][j]
        if abs(a - b) > tol:
            bad("scores", positions[i], a, b)


def check_config(out, path, tag):
    """One line for the config; mismatches go to `out`."""
    name = f"{path.stem} ({tag})"
    config = json.loads(path.read_text())
    lines = []
    for positions in POSITION_SETS:
        result = run(PEVIZ, path, positions)
        try:
            want = reference.rope_test_vectors(config, positions, path.stem)
        except (ValueError, KeyError, TypeError) as e:
            out.add(name, None, "refused by the port", str(positions[-1]), repr(e),
                    f"exit {result.returncode}: {result.stderr.strip()}")
            return f"FAIL {name}: the port refuses it ({e})"
        if want is None:
            if result.returncode == 2 and "not RoPE" in result.stderr:
                return f"ok {name}: not RoPE (peviz and the port agree)"
            out.add(name, None, "not RoPE", None, "no RoPE", f"exit {result.returncode}: {result.stderr.strip()}")
            return f"FAIL {name}: the port says no RoPE, peviz did not refuse"
        if result.returncode != 0:
            out.add(name, None, "exit", None, 0, f"{result.returncode}: {result.stderr.strip()}")
            return f"FAIL {name}: peviz exited {result.returncode}"
        got = json.loads(result.stdout)
        for key in ("positions", "seq_len"):
            if got.get(key) != want[key]:
                out.add(name, None, key, None, want[key], got.get(key))
        if len(got.get("groups", [])) != len(want["groups"]):
            out.add(name, None, "groups", None, [(g["layer_type"], g["rope"]) for g in want["groups"]],
                    [(g.get("layer_type"), g.get("rope")) for g in got.get("groups", [])])
            return f"FAIL {name}: {len(got.get('groups', []))} groups, the port {len(want['groups'])}"
        for g, (w, h) in enumerate(zip(want["groups"], got["groups"])):
            compare_group(out, f"{name} positions<={positions[-1]}", g, w, h, positions)
        lines = want["groups"]
    layers = sum(len(g["layers"]) for g in lines)
    kinds = ", ".join(f"{g['layer_type']}/{g.get('rope_type', 'nope' if 'q' in g else 'none')}" for g in lines)
    plural = "group" if len(lines) == 1 else "groups"
    return f"ok {name}: {len(lines)} {plural}, {layers} layers [{kinds}]"


def check_refusals(out, folder):
    """peviz must refuse these with exit 2 and one stderr line naming the key; the port must refuse them too."""
    base = {"model_type": "llama", "hidden_size": 512, "num_attention_heads": 4, "num_hidden_layers": 2,
            "max_position_embeddings": 2048, "rope_theta": 10000.0}
    cases = {"rope-type-warp": ({"rope_type": "warp", "factor": 2.0}, "rope_scaling.rope_type"),
             "factor-zero": ({"rope_type": "linear", "factor": 0}, "rope_scaling.factor")}
    lines = []
    for case, (scaling, key) in cases.items():
        path = pathlib.Path(folder) / f"{case}.json"
        config = {**base, "rope_scaling": scaling}
        path.write_text(json.dumps(config))
        result = run(PEVIZ, path, [0, 1])
        stderr = result.stderr.splitlines()
        problems = []
        if result.returncode != 2:
            problems.append(f"exit {result.returncode}")
        if len(stderr) != 1 or key not in stderr[0]:
            problems.append(f"stderr {stderr!r} (want one line naming {key})")
        try:
            reference.rope_test_vectors(config, [0, 1], case)
            problems.append("the port does not refuse it")
        except ValueError as e:
            if not str(e).startswith(key):
                problems.append(f"the port refuses it naming another key: {e}")
        if problems:
            out.add(case, None, "refusal", key, "exit 2 naming the key", "; ".join(problems))
            lines.append(f"FAIL refuse {case}: {'; '.join(problems)}")
        else:
            lines.append(f"ok refuse {case}: {stderr[0]}")
    return lines


def main():
    global PEVIZ
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peviz", required=True)
    parser.add_argument("--models", required=True, type=pathlib.Path)
    parser.add_argument("--corpus", required=True, type=pathlib.Path)
    args = parser.parse_args()
    PEVIZ = args.peviz
    out = Mismatches()
    paths = [(p, "models") for p in sorted(args.models.glob("*.json"))] + \
            [(p, "corpus") for p in sorted(args.corpus.glob("*.json"))]
    failed_configs = 0
    for path, tag in paths:
        before = len(out.items)
        line = check_config(out, path, tag)
        if len(out.items) > before and line.startswith("ok"):
            line = f"FAIL {path.stem} ({tag}): {len(out.items) - before} mismatches"
        failed_configs += not line.startswith("ok")
        print(line, flush=True)
    with tempfile.TemporaryDirectory() as folder:
        refusal_lines = check_refusals(out, folder)
    for line in refusal_lines:
        print(line)
    failed_refusals = sum(not line.startswith("ok") for line in refusal_lines)
    for config, group, key, index, ours, theirs in out.items:
        where = f"group {group}" if group is not None else "file"
        at = f"[{index}]" if index is not None else ""
        print(f"MISMATCH {config} {where} {key}{at}: ours {ours!r}, peviz {theirs!r}")
    passed = len(paths) - failed_configs + len(refusal_lines) - failed_refusals
    print(f"{passed} passed, {failed_configs + failed_refusals} failed")
    return 1 if out.items else 0


PEVIZ = None

if __name__ == "__main__":
    sys.exit(main())
