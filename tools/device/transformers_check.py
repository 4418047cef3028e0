"""Checks tests/reference/transformers_layer_map.py against transformers' own config classes and rotary embeddings.

Run from the repository root where transformers >= 5 and torch are installed (CPU is enough):
    python3 tools/device/transformers_check.py --models assets/models --cases tests/reference/cases
For each config it builds transformers' config (AutoConfig.for_model; text config where the class has one), reads the
layer_types / no_rope_layers / sliding_window / attention_chunk_size / temperature-tuning values it derived, turns
them into the layer map, and for M-RoPE models finds each rotary pair's axis by running transformers' rotary embedding
(and apply_multimodal_rotary_pos_emb for Qwen2-VL's contiguous sections) on positions where only one axis is 1.
Prints a table and exits 1 when transformers and the port disagree (including one refusing and the other not).
"""
import argparse
import importlib
import json
import pathlib
import sys

import torch
import transformers
from transformers import AutoConfig

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "reference"))
import transformers_layer_map as reference  # noqa: E402

SPAN_OF = {"full_attention": "full", "sliding_attention": "sliding", "chunked_attention": "chunked",
           "linear_attention": "linear"}
GLOBAL_MASK = {"mistral", "mixtral", "phi3", "starcoder2"}  # one mask, sliding when config.sliding_window is set
ROTARY = {"qwen2_vl_text": ("qwen2_vl", "Qwen2VLRotaryEmbedding"),
          "qwen2_5_vl_text": ("qwen2_5_vl", "Qwen2_5_VLRotaryEmbedding"),
          "qwen3_vl_text": ("qwen3_vl", "Qwen3VLTextRotaryEmbedding"),
          "qwen3_vl_moe_text": ("qwen3_vl_moe", "Qwen3VLMoeTextRotaryEmbedding"),
          "qwen3_5_text": ("qwen3_5", "Qwen3_5TextRotaryEmbedding"),
          "qwen3_5_moe_text": ("qwen3_5_moe", "Qwen3_5MoeTextRotaryEmbedding")}


def build(d):
    """transformers' config for the file, and its text (language model) config."""
    kwargs = {k: v for k, v in d.items() if k != "model_type"}
    config = AutoConfig.for_model(d["model_type"], **kwargs)
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    return config, text


def transformers_map(text):
    """The layer map from the values transformers' config class derived."""
    model_type = text.model_type
    n = text.num_hidden_layers
    types = getattr(text, "layer_types", None)
    if types is None:  # classes without layer_types: one causal mask for every layer
        window = getattr(text, "sliding_window", None) if model_type in GLOBAL_MASK else None
        types = ["sliding_attention" if window is not None else "full_attention"] * n
    nope_aware = model_type in ("llama4_text", "smollm3")  # other classes keep the key but never read it
    rotates = list(text.no_rope_layers) if nope_aware else [1] * n
    layers = []
    for i, t in enumerate(types):
        span = SPAN_OF[t]
        positions = "none" if span == "linear" else ("rope" if rotates[i] else "nope")
        window = {"sliding": getattr(text, "sliding_window", None),
                  "chunked": getattr(text, "attention_chunk_size", None)}.get(span)
        scale = None
        if model_type == "llama4_text" and positions == "nope" and text.attn_temperature_tuning:
            scale = "log(floor((pos + 1) / %g) + 1) * %g + 1" % (text.floor_scale, text.attn_scale)
        layers.append({"index": i, "positions": positions, "attention": span, "window": window, "query_scale": scale})
    return layers, {"layer_types": types, "no_rope_layers": text.no_rope_layers if nope_aware else None,
                    "sliding_window": getattr(text, "sliding_window", None),
                    "attention_chunk_size": getattr(text, "attention_chunk_size", None)}


def rotary_sin(text, module_name, class_name, axis):
    """sin of each rotary pair's angle from transformers' rotary embedding, position 1 on `axis` and 0 elsewhere."""
    module = importlib.import_module(f"transformers.models.{module_name}.modeling_{module_name}")
    rotary = getattr(module, class_name)(config=text)
    head_dim = getattr(text, "head_dim", None) or text.hidden_size // text.num_attention_heads
    position_ids = torch.zeros(3, 1, 1, dtype=torch.long)
    position_ids[axis] = 1
    x = torch.zeros(1, 1, head_dim)
    cos, sin = rotary(x, position_ids)
    if sin.dim() == 4:  # Qwen2-VL: per-axis cos/sin, split by apply_multimodal_rotary_pos_emb
        q = torch.cat([torch.zeros(1, 1, 1, head_dim // 2), torch.ones(1, 1, 1, head_dim // 2)], dim=-1)
        section = text.rope_parameters["mrope_section"]
        q_embed, _ = module.apply_multimodal_rotary_pos_emb(q, q, cos, sin, section)
        return -q_embed.reshape(-1)[: head_dim // 2]  # q = (0, 1): first half of q_embed is -sin
    return sin.reshape(-1)


def transformers_pair_axis(text):
    if text.model_type not in ROTARY:
        return None
    module_name, class_name = ROTARY[text.model_type]
    sins = [rotary_sin(text, module_name, class_name, a) for a in range(3)]
    pairs = reference.rotary_pairs(text.to_dict(), text.rope_parameters or {})
    axis = []
    for j in range(pairs):
        moving = [name for name, s in zip("thw", sins) if float(s[j]) != 0.0]
        axis.append(moving[0] if len(moving) == 1 else "?")
    return axis


def compare(path):
    """(status, transformers summary, difference or '')."""
    d = json.loads(path.read_text())
    try:
        want = reference.layer_map(d, path.stem)
        want_axis = reference.pair_axis(d) if want else None
        port_error = None
    except ValueError as e:
        want, want_axis, port_error = None, None, str(e)
    if want is None and port_error is None:
        return "skip", "not RoPE", ""
    try:
        _, text = build(d)
        layers, derived = transformers_map(text)
        axis = transformers_pair_axis(text)
    except Exception as e:  # a config transformers refuses, at construction or on the tiny tensor
        if port_error:
            return "ok", f"both refuse ({type(e).__name__})", ""
        return "DIFF", f"transformers refuses: {type(e).__name__}: {e}"[:200], "port accepts"
    if port_error:
        return "DIFF", "transformers accepts", f"port refuses: {port_error}"
    summary = (f"types={''.join(SPAN_OF[t][0] for t in derived['layer_types'])} "
               f"rope={''.join(str(int(bool(r))) for r in (derived['no_rope_layers'] or []))} "
               f"sw={derived['sliding_window']} chunk={derived['attention_chunk_size']}"
               + (f" axis={''.join(axis)}" if axis else ""))
    for w, g in zip(want["layers"], layers):
        for key in w:
            if w[key] != g[key]:
                return "DIFF", summary, f"layer {w['index']} {key}: transformers {g[key]!r}, port {w[key]!r}"
    if len(layers) != len(want["layers"]):
        return "DIFF", summary, f"{len(layers)} layers, port {len(want['layers'])}"
    if axis != want_axis:
        return "DIFF", summary, f"pair axis: transformers {axis}, port {want_axis}"
    return "ok", summary, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", required=True, type=pathlib.Path)
    parser.add_argument("--cases", required=True, type=pathlib.Path)
    args = parser.parse_args()
    print(f"transformers {transformers.__version__}, torch {torch.__version__}")
    print("compared per layer: positions, attention, window, query_scale; and the M-RoPE axis of every rotary pair")
    failed = False
    for path in sorted(args.models.glob("*.json")) + sorted(args.cases.glob("*.json")):
        status, summary, difference = compare(path)
        failed |= status == "DIFF"
        print(f"{status:4} {path.name:45} {summary}" + (f"\n     -> {difference}" if difference else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
