"""Independent port of transformers v5's RoPE computations, for checking `peviz export rope-test-vectors`.

Each rule cites the transformers file and function or class it follows (huggingface/transformers, src/transformers/
modeling_rope_utils.py for the inverse frequencies, models/<name>/configuration_<name>.py for the class defaults,
models/<name>/modeling_<name>.py for how the rotary embedding is applied). Which layers rotate, which are NoPE or
linear attention, and each layer's layer_type come from transformers_layer_map.layer_map (not repeated here).

rope_test_vectors(config, positions, fallback_name) returns the object `peviz export rope-test-vectors --format json`
prints (without "origins" and "model"), or None for a model without RoPE; it raises ValueError whose text starts with
the offending key for a config peviz must refuse.

Numerics follow transformers' float32 tensors: inv_freq, the angles position * inv_freq and cos / sin are numpy float32
arrays, every Python scalar that meets a float32 tensor is first rounded to float32 (what torch's TensorIterator does
with a wrapped CPU scalar), and scalars computed on their own (the YaRN correction range, the attention factor, the
dynamic-NTK base) are Python floats as in transformers. The q.k scores are computed here in float64 from those cos/sin.
"""
import math
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import transformers_layer_map as layer_map_ref  # noqa: E402

f32 = np.float32

# Class defaults of the fields read here (configuration_<name>.py, <Name>Config.__init__), under the file's values.
CLASS_DEFAULTS = {
    "gemma3_text": {"head_dim": 256, "rope_theta": 1_000_000.0, "rope_local_base_freq": 10_000.0},  # Gemma3TextConfig
    "gpt_neox": {"rotary_pct": 0.25, "rotary_emb_base": 10_000},  # GPTNeoXConfig
    "phi": {"partial_rotary_factor": 0.5, "rope_theta": 10_000.0},  # PhiConfig
    "gptj": {"rotary_dim": 64},  # GPTJConfig
    "codegen": {"rotary_dim": 64},  # CodeGenConfig
}
# attribute_map aliases (GPTJConfig.attribute_map, CodeGenConfig.attribute_map): the file's name -> the common one.
ATTRIBUTE_MAP = {
    "gptj": {"n_embd": "hidden_size", "n_head": "num_attention_heads", "n_layer": "num_hidden_layers",
             "n_positions": "max_position_embeddings"},
    "codegen": {"n_embd": "hidden_size", "n_head": "num_attention_heads", "n_layer": "num_hidden_layers",
                "n_positions": "max_position_embeddings"},
}
# Rotary dim given in channels (GPTJAttention / CodeGenAttention: self.rotary_dim = config.rotary_dim).
ROTARY_DIM_MODELS = {"gptj", "codegen"}
# Pairs (2j, 2j + 1): gptj/modeling_gptj.py rotate_every_two, codegen likewise, llama4/modeling_llama4.py
# apply_rotary_emb (view_as_complex of pairs); and deepseek_v3/modeling_deepseek_v3.py apply_rotary_pos_emb_interleave
# when config.rope_interleave (DeepseekV3Config default True; other classes that read it default False).
INTERLEAVED_MODELS = {"gptj", "codegen", "llama4_text"}
ROPE_INTERLEAVE_DEFAULT = {"deepseek_v3": True}
# DeepseekV2/V3 attention rotates only qk_rope_head_dim channels (modeling_deepseek_v3.py: q_pe, k_pe split).
ROPE_HEAD_DIM_MODELS = {"deepseek_v2", "deepseek_v3"}
ROPE_TYPES = {"default", "linear", "dynamic", "yarn", "llama3", "longrope"}  # modeling_rope_utils.ROPE_INIT_FUNCTIONS
SPAN_TO_LAYER_TYPE = {span: name for name, span in layer_map_ref.SPAN_OF.items()}


def present(*values):
    """The first value that is not None (a null in the file counts as absent)."""
    for v in values:
        if v is not None:
            return v
    return None


def normalized(config):
    """The config with its text part (text_config when nested) cleaned: nulls dropped, attribute_map aliases
    resolved and the class defaults filled in under the file's values (PretrainedConfig.__init__ / __setattr__)."""
    nested = isinstance(config.get("text_config"), dict)
    raw = config["text_config"] if nested else config
    _, model_type = layer_map_ref.text_part(config)
    text = {k: v for k, v in raw.items() if v is not None}
    for alias, name in ATTRIBUTE_MAP.get(model_type, {}).items():
        if alias in text and name not in text:
            text[name] = text[alias]
    text = {**CLASS_DEFAULTS.get(model_type, {}), **text}
    if nested:
        return {**config, "text_config": text}, text, model_type
    return text, text, model_type


def rope_dict(text):
    """Where the rope parameters are and which key holds them: rope_scaling when a non-empty object (v4 files),
    else rope_parameters (v5's standardize_rope_params reads rope_scaling first)."""
    for key in ("rope_scaling", "rope_parameters"):
        if isinstance(text.get(key), dict) and text[key]:
            return key, text[key]
    return "rope_scaling", {}


def is_per_layer_type(d):
    """v5 rope_parameters keyed by layer type ({"full_attention": {...}, "sliding_attention": {...}}, as
    Gemma3TextConfig writes it): each layer type has its own dict."""
    return bool(d) and all(isinstance(v, dict) for v in d.values())


def rope_type_of(d, where, model_type):
    """rope_type, else the legacy "type" (modeling_rope_utils.rope_config_validation), with the legacy aliases:
    "su" is longrope, "mrope" is default (Qwen2VLConfig), and Phi3Config._rope_scaling_adjustment rewrites a legacy
    type "yarn" to longrope."""
    rope_type = d.get("rope_type")
    if rope_type is None:
        rope_type = d.get("type", "default")
        if model_type == "phi3" and rope_type == "yarn":
            rope_type = "longrope"
    rope_type = {"su": "longrope", "mrope": "default"}.get(rope_type, rope_type)
    if rope_type not in ROPE_TYPES:  # ROPE_INIT_FUNCTIONS[rope_type] raises KeyError
        raise ValueError(f"{where}.rope_type: unknown rope type {rope_type!r}")
    return rope_type


def layer_rope(text, model_type, layer_type):
    """(rope_type, parameter dict, where the dict is, base) for the layers of one layer type."""
    where, d = rope_dict(text)
    if is_per_layer_type(d):
        if layer_type not in d:
            raise ValueError(f"{where}: no parameters for layer type {layer_type}")
        where, d = f"{where}.{layer_type}", d[layer_type]
        if model_type == "gemma3_text" and layer_type == "sliding_attention":
            base = present(d.get("rope_theta"), text.get("rope_local_base_freq"))
        else:
            base = present(d.get("rope_theta"), text.get("rope_theta"), text.get("rotary_emb_base"), 10_000.0)
        return rope_type_of(d, where, model_type), d, where, base
    if model_type == "gemma3_text" and layer_type == "sliding_attention":
        # Gemma3RotaryEmbedding for local layers: rope_local_base_freq with rope_type default (no scaling)
        # (gemma3/modeling_gemma3.py, Gemma3TextModel: self.rotary_emb_local).
        return "default", {}, where, text["rope_local_base_freq"]
    base = present(d.get("rope_theta"), text.get("rope_theta"), text.get("rotary_emb_base"), 10_000.0)
    return rope_type_of(d, where, model_type), d, where, base


def head_and_rotary_dim(text, model_type, d):
    """head_dim (the channels q and k have per head for RoPE) and R, the channels that rotate
    (modeling_rope_utils._compute_default_rope_parameters: dim = int(head_dim * partial_rotary_factor))."""
    if model_type in ROPE_HEAD_DIM_MODELS:
        head_dim = text["qk_rope_head_dim"]
    else:
        head_dim = present(text.get("head_dim"), None)
        if head_dim is None:
            head_dim = text["hidden_size"] // text["num_attention_heads"]
    if model_type not in ROTARY_DIM_MODELS:
        factor = present(d.get("partial_rotary_factor"), text.get("partial_rotary_factor"))
        if factor is None and model_type == "gpt_neox":
            factor = text.get("rotary_pct")  # GPTNeoXConfig.rotary_pct
        rotary = int(head_dim * (1.0 if factor is None else factor))
    else:
        rotary = text["rotary_dim"]
    return head_dim, rotary


def positive(d, key, where):
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 or math.isinf(v):
        raise ValueError(f"{where}.{key}: must be a positive number, got {v!r}")
    return float(v)


def original_max(text, d):
    """original_max_position_embeddings: the config's (Phi3, DeepSeek set it at top level), else the rope dict's,
    else max_position_embeddings."""
    return present(text.get("original_max_position_embeddings"), d.get("original_max_position_embeddings"),
                   text.get("max_position_embeddings"))


def default_pos_freqs(base, rotary):
    """base ** (arange(0, dim, 2).float() / dim) on float32 tensors (_compute_default_rope_parameters). The power
    is taken in float64 on the float32 operands and rounded once: the correctly rounded float32 result, which torch's
    vectorised powf (SLEEF, 1 ulp) matches to within an ulp; numpy's own float32 pow may be another ulp away."""
    exponent = np.arange(0, rotary, 2).astype(f32) / f32(rotary)
    return (np.float64(f32(base)) ** exponent.astype(np.float64)).astype(f32)


def get_mscale(scale, mscale=1.0):
    """modeling_rope_utils._compute_yarn_parameters.get_mscale."""
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def inv_freq_and_attention(rope_type, d, where, text, rotary, base, seq_len):
    """(inv_freq as float32, attention_factor as a Python float) for one layer type."""
    one = f32(1.0)
    if rope_type == "default":  # _compute_default_rope_parameters
        return one / default_pos_freqs(base, rotary), 1.0
    if rope_type == "linear":  # _compute_linear_scaling_rope_parameters: inv_freq /= factor
        factor = positive(d, "factor", where)
        return (one / default_pos_freqs(base, rotary)) / f32(factor), 1.0
    if rope_type == "dynamic":
        # _compute_dynamic_ntk_parameters at seq_len (dynamic_frequency_update recomputes past the cached length and
        # goes back to the original inv_freq at or under max_position_embeddings).
        factor = positive(d, "factor", where)
        max_pos = text["max_position_embeddings"]
        if seq_len > max_pos:
            base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (rotary / (rotary - 2))
        return one / default_pos_freqs(base, rotary), 1.0
    if rope_type == "yarn":
        return yarn(d, where, text, rotary, base)
    if rope_type == "llama3":
        return llama3(d, where, text, rotary, base)
    return longrope(d, where, text, rotary, base, seq_len)


def yarn(d, where, text, rotary, base):
    """modeling_rope_utils._compute_yarn_parameters."""
    original = original_max(text, d)
    if d.get("factor") is None:
        factor = text["max_position_embeddings"] / original
    else:
        factor = positive(d, "factor", where)
    beta_fast = d.get("beta_fast") or 32
    beta_slow = d.get("beta_slow") or 1
    truncate = d.get("truncate", True)
    attention_factor = d.get("attention_factor")
    mscale, mscale_all_dim = d.get("mscale"), d.get("mscale_all_dim")
    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = get_mscale(factor)

    def find_correction_dim(num_rotations):
        return (rotary * math.log(original / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = find_correction_dim(beta_fast), find_correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, rotary - 1)
    if low == high:  # linear_ramp_factor: prevent singularity
        high += 0.001
    ramp = np.clip((np.arange(rotary // 2, dtype=f32) - f32(low)) / f32(high - low), f32(0), f32(1))
    extrapolation = f32(1) - ramp
    pos = default_pos_freqs(base, rotary)
    inv_extrapolation = f32(1) / pos
    inv_interpolation = f32(1) / (f32(factor) * pos)
    inv = inv_interpolation * (f32(1) - extrapolation) + inv_extrapolation * extrapolation
    return inv.astype(f32), float(attention_factor)


def llama3(d, where, text, rotary, base):
    """modeling_rope_utils._compute_llama3_parameters."""
    factor = positive(d, "factor", where)
    low_freq_factor = positive(d, "low_freq_factor", where)
    high_freq_factor = positive(d, "high_freq_factor", where)
    original = original_max(text, d)
    inv = f32(1) / default_pos_freqs(base, rotary)
    low_freq_wavelen = original / low_freq_factor
    high_freq_wavelen = original / high_freq_factor
    wavelen = f32(2 * math.pi) / inv
    inv_llama = np.where(wavelen > f32(low_freq_wavelen), inv / f32(factor), inv).astype(f32)
    smooth = (f32(original) / wavelen - f32(low_freq_factor)) / f32(high_freq_factor - low_freq_factor)
    smoothed = (f32(1) - smooth) * inv_llama / f32(factor) + smooth * inv_llama
    medium = ~(wavelen < f32(high_freq_wavelen)) & ~(wavelen > f32(low_freq_wavelen))
    return np.where(medium, smoothed, inv_llama).astype(f32), 1.0


def longrope(d, where, text, rotary, base, seq_len):
    """modeling_rope_utils._compute_longrope_parameters, with longrope_frequency_update's choice of long factors past
    original_max_position_embeddings."""
    original = original_max(text, d)
    if text.get("original_max_position_embeddings") is not None:
        factor = text["max_position_embeddings"] / text["original_max_position_embeddings"]
    elif d.get("factor") is not None:
        factor = positive(d, "factor", where)
    else:
        factor = text["max_position_embeddings"] / original
    attention_factor = d.get("attention_factor")
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
    key = "long_factor" if seq_len > original else "short_factor"
    ext = d.get(key)
    if not isinstance(ext, list) or len(ext) != rotary // 2:
        raise ValueError(f"{where}.{key}: must list {rotary // 2} factors")
    ext = np.array(ext, dtype=f32)
    return (f32(1) / (ext * default_pos_freqs(base, rotary))).astype(f32), float(attention_factor)


def cos_sin(inv, attention_factor, positions):
    """LlamaRotaryEmbedding.forward: freqs = inv_freq.float() @ position_ids.float() (one product per entry, rounded
    to float32), cos = freqs.cos() * attention_scaling, all float32. [position][pair]."""
    angle = np.array(positions, dtype=f32)[:, None] * inv[None, :]
    af = f32(attention_factor)
    cos = np.cos(angle.astype(np.float64)).astype(f32) * af
    sin = np.sin(angle.astype(np.float64)).astype(f32) * af
    return angle.astype(f32), cos.astype(f32), sin.astype(f32)


def pairs(head_dim, rotary, layout):
    """The channel pairs (a, b) of each rotary pair j: (j, j + R/2) for rotate_half, (2j, 2j + 1) interleaved."""
    half = rotary // 2
    if layout == "interleaved":
        return [(2 * j, 2 * j + 1) for j in range(half)]
    return [(j, j + half) for j in range(half)]


def score_vectors(head_dim):
    q = [(i + 1) / head_dim for i in range(head_dim)]
    k = [(head_dim - i) / head_dim for i in range(head_dim)]
    return q, k


def rotated_score(q, k, pair_list, cos_p, sin_p, cos_0, sin_0):
    """q rotated with (cos_p, sin_p) dotted with k rotated with (cos_0, sin_0), float64; channels in no pair pass
    through. A pair (a, b) turns to (a cos - b sin, b cos + a sin)."""
    rotated = set()
    total = 0.0
    for j, (a, b) in enumerate(pair_list):
        c, s, c0, s0 = float(cos_p[j]), float(sin_p[j]), float(cos_0[j]), float(sin_0[j])
        qa, qb = q[a] * c - q[b] * s, q[b] * c + q[a] * s
        ka, kb = k[a] * c0 - k[b] * s0, k[b] * c0 + k[a] * s0
        total += qa * ka + qb * kb
        rotated.update((a, b))
    return total + sum(q[i] * k[i] for i in range(len(q)) if i not in rotated)


def llama4_query_scale(text, positions):
    """Llama4TextAttention.forward on NoPE layers with attn_temperature_tuning:
    log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1."""
    floor_scale, attn_scale = text.get("floor_scale", 8192), text.get("attn_scale", 0.1)
    return [math.log(math.floor((p + 1) / floor_scale) + 1) * attn_scale + 1 for p in positions]


def layer_groups(config, text, fallback_name):
    """[(layer_type, positions kind, query_scale text or None, [layer indices])] in order of first layer, from the
    layer-map port. A config without num_hidden_layers gives one group with no layer indices (peviz's convention,
    core/models/rope_test_vectors.hpp), typed as a one-layer model's layer 0."""
    layers_missing = text.get("num_hidden_layers") is None
    if layers_missing:
        text["num_hidden_layers"] = 1
    try:
        lm = layer_map_ref.layer_map(config, fallback_name)
    finally:
        if layers_missing:
            del text["num_hidden_layers"]
    if lm is None:
        return None, None
    groups = {}
    for layer in lm["layers"]:
        key = (SPAN_TO_LAYER_TYPE[layer["attention"]], layer["positions"], layer["query_scale"])
        groups.setdefault(key, []).append(layer["index"])
    out = [(t, kind, qs, [] if layers_missing else idx) for (t, kind, qs), idx in groups.items()]
    return out, lm["model_type"]


def rope_test_vectors(config, positions, fallback_name="model"):
    """The test vectors of every layer group, or None when the model has no RoPE."""
    config, text, model_type = normalized(config)
    groups, lm_model_type = layer_groups(config, text, fallback_name)
    if groups is None:
        return None
    seq_len = max(positions) + 1
    out = {"model_type": lm_model_type, "positions": list(positions), "seq_len": seq_len, "groups": []}
    for layer_type, kind, query_scale_text, layers in groups:
        where, d = rope_dict(text)
        if is_per_layer_type(d):
            d = d.get(layer_type, {})
        head_dim, rotary = head_and_rotary_dim(text, model_type, d)
        group = {"layers": layers, "layer_type": layer_type, "rope": kind == "rope", "head_dim": head_dim}
        out["groups"].append(group)
        if kind == "none":  # linear attention: no positions, no q.k scores
            continue
        q, k = score_vectors(head_dim)
        group["q"], group["k"] = q, k
        if kind == "nope":
            plain = sum(a * b for a, b in zip(q, k))
            group["scores"] = [plain] * len(positions)
            if query_scale_text is not None:
                group["query_scale"] = llama4_query_scale(text, positions)
            continue
        rope_type, d, where, base = layer_rope(text, model_type, layer_type)
        if rotary < 2 or rotary > head_dim or rotary % 2:
            raise ValueError(f"rotary dim {rotary} must be even, in [2, head_dim {head_dim}]")
        interleaved = model_type in INTERLEAVED_MODELS or bool(
            text.get("rope_interleave", ROPE_INTERLEAVE_DEFAULT.get(model_type, False)))
        layout = "interleaved" if interleaved else "halves"
        inv, attention_factor = inv_freq_and_attention(rope_type, d, where, text, rotary, base, seq_len)
        angle, cos, sin = cos_sin(inv, attention_factor, positions)
        _, cos0, sin0 = cos_sin(inv, attention_factor, [0])
        pair_list = pairs(head_dim, rotary, layout)
        group.update({
            "rotary_dim": rotary, "layout": layout, "rope_type": rope_type, "inv_freq": inv,
            "attention_factor": attention_factor, "angle": angle, "cos": cos, "sin": sin,
            "pairs": pair_list, "cos0": cos0[0],
            "scores": [rotated_score(q, k, pair_list, cos[i], sin[i], cos0[0], sin0[0]) for i in range(len(positions))],
        })
    return out
