"""Independent stdlib port of the transformers v5 config rules that decide peviz's layer map and M-RoPE pair axes.

Each rule cites the transformers file and class or function it follows (huggingface/transformers, src/transformers/
models/<name>/...). layer_map(config, fallback_name) returns the object `peviz export layer-map --format json`
prints; pair_axis(config) returns the axis ("t", "h" or "w") of each rotary pair, or None for a model without M-RoPE.
Both raise ValueError with one line for a config peviz must refuse. Neither returns anything for a model without RoPE:
layer_map returns None there (GPT-2's learned table, T5's buckets, MPT's ALiBi are not drawn per layer).
"""

ROPE_FREE_MODEL_TYPES = {"gpt2", "t5", "mt5", "mpt", "bloom", "bert", "roberta", "opt", "gpt_bigcode", "falcon_mamba"}

# Multimodal wrappers saved flat (no text_config): the text config class transformers builds from the same keys
# (Qwen2VLConfig / Qwen2_5_VLConfig.__init__: "For BC use all kwargs to init TextConfig"; Llama4Config, Gemma3Config).
TEXT_MODEL_TYPE = {"qwen2_vl": "qwen2_vl_text", "qwen2_5_vl": "qwen2_5_vl_text", "qwen3_vl": "qwen3_vl_text",
                   "qwen3_vl_moe": "qwen3_vl_moe_text", "qwen3_5": "qwen3_5_text", "qwen3_5_moe": "qwen3_5_moe_text",
                   "llama4": "llama4_text", "gemma3": "gemma3_text"}

# layer_types names -> the map's attention kinds (configuration_utils.py, ALLOWED_ATTN_LAYER_TYPES); the legacy
# names are those remap_legacy_layer_types rewrites (configuration_utils.py, _LEGACY_LAYER_TYPE_REMAP).
SPAN_OF = {"full_attention": "full", "sliding_attention": "sliding", "chunked_attention": "chunked",
           "linear_attention": "linear"}
LEGACY_LAYER_TYPES = {"mamba": "linear_attention", "attention": "full_attention"}

QWEN_WINDOW_DEFAULTS = {  # (sliding_window, max_window_layers) class defaults
    "qwen2": (4096, 28),  # qwen2/configuration_qwen2.py, Qwen2Config
    "qwen3": (4096, 28),  # qwen3/configuration_qwen3.py, Qwen3Config
    "qwen2_vl_text": (4096, 80),  # qwen2_vl/configuration_qwen2_vl.py, Qwen2VLTextConfig
    "qwen2_5_vl_text": (4096, 80),  # qwen2_5_vl: Qwen2_5_VLTextConfig, modular copy of Qwen2VLTextConfig
}
# Model classes whose one causal mask is create_sliding_window_causal_mask when config.sliding_window is set
# (mistral/modeling_mistral.py, MistralModel.forward; the same line in Mixtral, Phi3, Starcoder2), with the class
# default of sliding_window (MistralConfig: 4096; the others None).
GLOBAL_WINDOW_DEFAULTS = {"mistral": 4096, "mixtral": None, "phi3": None, "starcoder2": None}
# M-RoPE: contiguous t|h|w sections (qwen2_vl/modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb) or interleaved
# (qwen3_vl/modeling_qwen3_vl.py, Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope), with the default section
# each rotary embedding falls back to (config.rope_parameters.get("mrope_section", default)).
MROPE_CONTIGUOUS = {"qwen2_vl_text", "qwen2_5_vl_text"}
MROPE_INTERLEAVED_DEFAULT = {"qwen3_vl_text": [24, 20, 20], "qwen3_vl_moe_text": [24, 20, 20],
                             "qwen3_5_text": [11, 11, 10], "qwen3_5_moe_text": [11, 11, 10]}

# Fields this port understands, for every model type (None) or the listed ones; a field whose name looks
# positional and is not here (or not for this model type) is reported as unmodelled.
MODELLED = {
    "rope_theta": None, "rope_scaling": None, "rope_parameters": None, "rotary_emb_base": None, "rotary_pct": None,
    "rotary_dim": None, "partial_rotary_factor": None, "rope_local_base_freq": None, "rope_interleave": None,
    "qk_rope_head_dim": None, "qk_nope_head_dim": None, "max_position_embeddings": None,
    "original_max_position_embeddings": None, "layer_types": None, "sliding_window": None,
    "sliding_window_pattern": {"gemma3_text"}, "attention_chunk_size": {"llama4_text"},
    "no_rope_layers": {"llama4_text", "smollm3"}, "no_rope_layer_interval": {"llama4_text", "smollm3"},
    "attn_temperature_tuning": {"llama4_text"}, "floor_scale": {"llama4_text"}, "attn_scale": {"llama4_text"},
    "full_attention_interval": {"qwen3_next", "qwen3_5_text", "qwen3_5_moe_text"},
    "use_sliding_window": set(QWEN_WINDOW_DEFAULTS) | {"smollm3"},
    "max_window_layers": set(QWEN_WINDOW_DEFAULTS) | {"smollm3"},
    "chunk_size_feed_forward": None,  # PretrainedConfig's feed-forward chunking, not an attention span
}
# Fields known to change what a query sees that the map does not draw.
KNOWN_UNMODELLED = {"index_topk", "cross_attention_layers", "use_bidirectional_attention"}
POSITIONAL_PARTS = ("rope", "rotary", "position", "window", "chunk", "alibi", "sliding", "nope", "temperature",
                    "layer_types", "sink", "bucket", "relative_attention")  # not "topk": MoE routing keys
ROPE_DICT_KEYS = {"rope_type", "type", "factor", "original_max_position_embeddings", "low_freq_factor",
                  "high_freq_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor",
                  "truncate", "short_factor", "long_factor", "rope_theta", "partial_rotary_factor", "mrope_section",
                  "mrope_interleaved"}


def text_part(config):
    """The language model's dict and its model type: a nested text_config wins (Llama4Config, Qwen3VLConfig...)."""
    nested = config.get("text_config")
    text = nested if isinstance(nested, dict) else config
    model_type = text.get("model_type") or config.get("model_type") or ""
    return text, TEXT_MODEL_TYPE.get(model_type, model_type)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def interval(text, key, default):
    """An every-Nth-layer interval: transformers computes (i + 1) % N, so N must be an integer >= 1."""
    v = text.get(key, default)
    if not is_int(v) or v < 1:
        raise ValueError(f"{key} must be an integer >= 1, got {v!r}")
    return v


def num_layers(text):
    n = text.get("num_hidden_layers")
    if not is_int(n) or n < 1:
        raise ValueError(f"num_hidden_layers must be an integer >= 1, got {n!r}")
    return n


def rotating_layers(text, model_type, n):
    """no_rope_layers[i] == 1 where layer i rotates (llama4/modeling_llama4.py, Llama4TextAttention:
    self.use_rope = config.no_rope_layers[layer_idx]; smollm3 likewise). Llama4TextConfig.__post_init__ derives the
    list when it is None or empty (`if self.no_rope_layers`); SmolLM3Config only when it is None."""
    if model_type not in ("llama4_text", "smollm3"):
        return [1] * n
    listed = text.get("no_rope_layers")
    derive = not listed if model_type == "llama4_text" else listed is None
    if derive:
        every = interval(text, "no_rope_layer_interval", 4)
        return [int((i + 1) % every != 0) for i in range(n)]
    if not isinstance(listed, list) or len(listed) != n:
        raise ValueError(f"no_rope_layers must list one 0 or 1 per layer ({n}), got {listed!r}")
    if any(not is_int(v) or v not in (0, 1) for v in listed):
        raise ValueError(f"no_rope_layers entries must be 0 or 1, got {listed!r}")
    return listed


def qwen_window(text, model_type):
    """Qwen2Config.__post_init__ (and Qwen3Config, Qwen2VLTextConfig): sliding_window is None unless
    use_sliding_window."""
    window, _ = QWEN_WINDOW_DEFAULTS[model_type]
    return text.get("sliding_window", window) if text.get("use_sliding_window", False) else None


def default_layer_types(text, model_type, n, rotates):
    """Each config class's layer_types when the file has none (or null)."""
    if model_type == "llama4_text":  # Llama4TextConfig.__post_init__
        return ["chunked_attention" if r else "full_attention" for r in rotates]
    if model_type == "smollm3":  # SmolLM3Config.__post_init__: sliding only on NoPE layers
        sliding = bool(text.get("use_sliding_window", False)) and text.get("sliding_window") is not None
        return ["sliding_attention" if sliding and not r else "full_attention" for r in rotates]
    if model_type == "gpt_oss":  # GptOssConfig.__post_init__: even layers slide
        return ["sliding_attention" if (i + 1) % 2 else "full_attention" for i in range(n)]
    if model_type in ("qwen3_next", "qwen3_5_text", "qwen3_5_moe_text"):
        every = interval(text, "full_attention_interval", 4)  # Qwen3NextConfig.__post_init__
        return ["linear_attention" if (i + 1) % every else "full_attention" for i in range(n)]
    if model_type == "gemma3_text":  # Gemma3TextConfig: _sliding_window_pattern = kwargs.get(..., 6)
        every = interval(text, "sliding_window_pattern", 6)
        return ["sliding_attention" if (i + 1) % every else "full_attention" for i in range(n)]
    if model_type in QWEN_WINDOW_DEFAULTS:  # Qwen2Config.__post_init__
        first = text.get("max_window_layers", QWEN_WINDOW_DEFAULTS[model_type][1])
        window = qwen_window(text, model_type)
        return ["sliding_attention" if window is not None and i >= first else "full_attention" for i in range(n)]
    if model_type in GLOBAL_WINDOW_DEFAULTS:  # one mask for all layers
        window = text.get("sliding_window", GLOBAL_WINDOW_DEFAULTS[model_type])
        return ["sliding_attention" if window is not None else "full_attention"] * n
    return ["full_attention"] * n


def layer_types(text, model_type, n, rotates):
    listed = text.get("layer_types")
    if listed is None:
        return default_layer_types(text, model_type, n, rotates)
    if not isinstance(listed, list) or len(listed) != n:  # PreTrainedConfig.validate_layer_type
        raise ValueError(f"layer_types must list one type per layer ({n}), got {len(listed) if isinstance(listed, list) else listed!r}")
    if model_type == "qwen3_next":  # Qwen3NextConfig.__post_init__: remap_legacy_layer_types
        listed = [LEGACY_LAYER_TYPES.get(t, t) for t in listed]
    for i, t in enumerate(listed):
        if t not in SPAN_OF:
            raise ValueError(f"layer_types[{i}] {t!r} is not full/sliding/chunked/linear_attention")
    return listed


def window_of(text, model_type, span):
    """The tokens a sliding layer sees back or a chunked layer's chunk, as each class stores it."""
    if span == "chunked":  # Llama4TextConfig.attention_chunk_size, default 8192
        return text.get("attention_chunk_size", 8192)
    if span != "sliding":
        return None
    if model_type in QWEN_WINDOW_DEFAULTS:
        return qwen_window(text, model_type)
    if model_type == "smollm3":  # SmolLM3Attention: window only when use_sliding_window
        return text.get("sliding_window") if text.get("use_sliding_window", False) else None
    default = {"gpt_oss": 128, "gemma3_text": 4096, "mistral": 4096}.get(model_type)  # class defaults
    return text.get("sliding_window", default)


def query_scale(text, model_type, positions):
    """Llama4TextAttention.forward: on NoPE layers when attn_temperature_tuning, queries are multiplied by
    log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1."""
    if model_type != "llama4_text" or positions != "nope" or not text.get("attn_temperature_tuning", True):
        return None
    f, s = text.get("floor_scale", 8192), text.get("attn_scale", 0.1)
    return "log(floor((pos + 1) / %g) + 1) * %g + 1" % (f, s)


def unmodelled(config, text, model_type):
    """Fields present (not null) that bear on positions or spans and that this map does not draw."""
    out = [k for k in ("vision_config", "audio_config") if config.get(k) is not None]
    for key, value in text.items():
        if value is None or value is False or key == "text_config":
            continue
        allowed = MODELLED.get(key, ())
        if key in KNOWN_UNMODELLED:
            out.append(key)
        elif any(p in key for p in POSITIONAL_PARTS) and not (allowed is None or model_type in allowed):
            out.append(key)
    for dict_key in ("rope_scaling", "rope_parameters"):
        d = text.get(dict_key)
        if isinstance(d, dict):
            dicts = d.items() if d and all(isinstance(v, dict) for v in d.values()) else [("", d)]
            for sub, one in dicts:
                prefix = f"{dict_key}.{sub}." if sub else f"{dict_key}."
                out += [prefix + k for k, v in one.items() if v is not None and k not in ROPE_DICT_KEYS]
    return sorted(set(out))


def uses_rope(config, text, model_type):
    if model_type in ROPE_FREE_MODEL_TYPES or (config.get("model_type") in ROPE_FREE_MODEL_TYPES):
        return False
    return True


def layer_map(config, fallback_name):
    """The layer map peviz prints, or None for a model without RoPE."""
    text, model_type = text_part(config)
    if not uses_rope(config, text, model_type):
        return None
    n = num_layers(text)
    rotates = rotating_layers(text, model_type, n)
    layers = []
    for i, t in enumerate(layer_types(text, model_type, n, rotates)):
        span = SPAN_OF[t]
        positions = "none" if span == "linear" else ("rope" if rotates[i] else "nope")
        layers.append({"index": i, "positions": positions, "attention": span,
                       "window": window_of(text, model_type, span),
                       "query_scale": query_scale(text, model_type, positions)})
    name = config.get("_name_or_path") or fallback_name
    return {"model": name, "model_type": model_type, "layers": layers,
            "unmodelled": unmodelled(config, text, model_type)}


def rope_dict(text):
    """Qwen2VLTextConfig.__init__: self.rope_parameters = rope_scaling or rope_parameters."""
    for key in ("rope_scaling", "rope_parameters"):
        if isinstance(text.get(key), dict) and text[key]:
            return text[key]
    return {}


def rotary_pairs(text, rope):
    """head_dim (or hidden_size // num_attention_heads) times partial_rotary_factor, halved."""
    head_dim = text.get("head_dim") or text["hidden_size"] // text["num_attention_heads"]
    factor = rope.get("partial_rotary_factor", text.get("partial_rotary_factor", 1.0))
    return int(head_dim * factor) // 2


def pair_axis(config):
    """The axis each rotary pair turns with, or None without M-RoPE."""
    text, model_type = text_part(config)
    rope = rope_dict(text)
    if model_type in MROPE_CONTIGUOUS:
        if "mrope_section" not in rope:
            return None
        sections = rope["mrope_section"]
    elif model_type in MROPE_INTERLEAVED_DEFAULT:
        sections = rope.get("mrope_section", MROPE_INTERLEAVED_DEFAULT[model_type])
    else:
        return None
    pairs = rotary_pairs(text, rope)
    if not isinstance(sections, list) or len(sections) != 3 or not all(is_int(s) and s >= 0 for s in sections):
        raise ValueError(f"mrope_section must be three non-negative integers, got {sections!r}")
    if sum(sections) != pairs:
        raise ValueError(f"mrope_section {sections} must sum to the {pairs} rotary pairs")
    if model_type in MROPE_CONTIGUOUS:  # cos.split(mrope_section * 2): chunk i takes axis i % 3
        return ["t"] * sections[0] + ["h"] * sections[1] + ["w"] * sections[2]
    axis = ["t"] * pairs  # apply_interleaved_mrope: start from T, overwrite slice(offset, 3 * section, 3)
    for dim, offset, name in ((1, 1, "h"), (2, 2, "w")):
        for j in range(offset, min(3 * sections[dim], pairs), 3):
            axis[j] = name
    return axis
