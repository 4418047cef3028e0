// The RoPE rules of the model config reader: head_dim, rotary fraction, base, rope_scaling / rope_parameters.
//
// Sources (huggingface/transformers, src/transformers/): modeling_rope_utils.py (RotaryEmbeddingConfigMixin
// .convert_rope_params_to_dict and .standardize_rope_params, the _compute_<type>_parameters functions) and the
// config classes named at each rule.
#include <algorithm>
#include <array>
#include <map>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/models/model_config.hpp"
#include "core/models/model_config_fields.hpp"

namespace peviz::model_config_detail {

namespace {

constexpr long long kMaxPositions = 1 << 30;
constexpr long long kMaxCount = 1 << 24;  // hidden_size, heads, layers

using Origins = std::vector<ValueOrigin>;
// The name of the first of `keys` present in f.
std::string present(const Fields& f, std::initializer_list<std::string_view> keys) {
  for (std::string_view k : keys)
    if (f.has(k)) return f.name(k);
  return f.name(*keys.begin());
}

// head_dim; DeepseekV3Config (and V2) set head_dim = qk_rope_head_dim, the part of the head that rotates;
// otherwise head_dim when given, else hidden_size // num_attention_heads (_compute_*_parameters:
// `getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads`).
int head_dim_of(const Fields& f, std::string_view model_type, Origins& o) {
  const bool deepseek = in(model_type, {"deepseek_v2", "deepseek_v3"});
  const std::array<std::string_view, 2> order = deepseek ? std::array<std::string_view, 2>{"qk_rope_head_dim", "head_dim"}
                                                         : std::array<std::string_view, 2>{"head_dim", "qk_rope_head_dim"};
  for (std::string_view key : order)
    if (const auto h = f.integer(key, 1, kMaxHeadDim)) {
      note(o, "head_dim", Origin::read, f.name(key));
      return int(*h);
    }
  const auto hidden = f.integer_alias({"hidden_size", "n_embd", "d_model"}, 1, kMaxCount);
  const auto heads = f.integer_alias({"num_attention_heads", "n_head", "n_heads"}, 1, kMaxCount);
  if (!hidden || !heads) refuse(f.name("head_dim") + " is missing, and so is hidden_size or num_attention_heads");
  note(o, "head_dim", Origin::derived,
       present(f, {"hidden_size", "n_embd", "d_model"}) + " // " + present(f, {"num_attention_heads", "n_head", "n_heads"}));
  return int(*hidden / *heads);
}

// The rotating channels R. GPTJConfig.rotary_dim counts channels; everyone else gives a fraction,
// partial_rotary_factor (GPTNeoXConfig: rotary_pct), and R = int(head_dim * fraction) as
// _compute_default_rope_parameters truncates it. standardize_rope_params writes the config-level
// partial_rotary_factor over the one inside rope_parameters, so the config-level one wins.
int rotary_dim_of(const Fields& f, const std::optional<Fields>& dict, int head_dim, std::string_view model_type,
                  Origins& o) {
  if (in(model_type, {"gptj", "codegen"})) {
    const auto r = f.integer("rotary_dim", 1, head_dim);
    if (r) note(o, "rotary_dim", Origin::read, f.name("rotary_dim"));
    else note(o, "rotary_dim", Origin::derived, "head_dim (no rotary_dim: every channel rotates)");
    return int(r.value_or(head_dim));
  }
  std::optional<double> fraction;
  std::string field;
  for (const Fields* src : {&f, dict ? &*dict : nullptr}) {
    if (!src || fraction) continue;
    for (std::string_view k : {"partial_rotary_factor", "rotary_pct"})
      if (!fraction && (fraction = src->number(k))) field = src->name(k);
  }
  if (!fraction) {
    note(o, "rotary_dim", Origin::derived, "head_dim (no partial_rotary_factor: every channel rotates)");
    return head_dim;
  }
  if (!(*fraction > limits::rotary_fraction.min && *fraction <= limits::rotary_fraction.max))
    refuse(field + " " + shown(*fraction) + " must be in " + range_text(limits::rotary_fraction));
  note(o, "rotary_dim", Origin::derived, "int(head_dim * " + field + ")");
  return int(double(head_dim) * *fraction);
}

// rope_theta: the rope dict's own, else the config's (convert_rope_params_to_dict: setdefault), else GPT-NeoX's
// rotary_emb_base (GPTNeoXConfig), else RotaryEmbeddingConfigMixin.default_theta = 10000.
double base_of(const Fields& f, const std::optional<Fields>& dict, Origins& o) {
  const auto read = [&](const Fields& src, std::string_view key) {
    const auto t = src.number(key);
    if (t) note(o, "rope_theta", Origin::read, src.name(key));
    return t;
  };
  if (dict)
    if (const auto t = read(*dict, "rope_theta")) return *t;
  if (const auto t = read(f, "rope_theta")) return *t;
  if (const auto t = read(f, "rotary_emb_base")) return *t;
  note(o, "rope_theta", Origin::class_default, "rope_theta (RotaryEmbeddingConfigMixin.default_theta 10000)");
  return 10000.0;
}

// rope_type, else the legacy key type (`rope_parameters.get("type", "default")`), else "default" (no scaling).
RopeScaling kind_of(const Fields& dict, std::string_view model_type, Origins& o) {
  const bool typed = dict.has("rope_type");
  const std::string field = dict.name(typed ? "rope_type" : "type");
  const std::string name = (typed ? dict.text("rope_type") : dict.text("type")).value_or("default");
  if (typed || dict.has("type")) note(o, "rope_type", Origin::read, field);
  else note(o, "rope_type", Origin::class_default, field + " (\"default\" when the rope dict has none)");
  // The table's rope_type or legacy type (rope_scaling.cpp): Qwen2VLConfig turns the legacy "mrope" into "default"
  // (M-RoPE changes which position each pair turns with, read_pair_axis, not the frequencies); older Phi-3 configs
  // wrote "su" for LongRoPE.
  const std::optional<RopeScaling> kind = parse_rope_type(name);
  // Phi3Config._rope_scaling_adjustment: an untyped Phi-3 yarn is LongRoPE too.
  if (kind == RopeScaling::yarn && !typed && model_type == "phi3") {
    o.back() = {"rope_type", Origin::derived, field + " 'yarn' read as longrope (Phi3Config._rope_scaling_adjustment)"};
    return RopeScaling::longrope;
  }
  if (kind) return *kind;
  refuse(field + " '" + name + "' is not supported");
}

// `required` keys fail the way transformers' rope_parameters_dict[key] would.
double required_number(const Fields& dict, std::string_view key, RopeScaling kind) {
  const auto v = dict.number(key);
  if (!v) refuse(dict.name(key) + " is missing (rope_type " + std::string(to_string(kind)) + " needs it)");
  return *v;
}

// The scaling's factor, checked against core's range (limits::factor) as soon as it is read: a factor of -2 is
// refused as itself, not as a field read after it that is missing.
std::optional<double> checked_factor(const Fields& dict, std::optional<double> factor) {
  if (factor) {
    try {
      check_real(limits::factor, *factor);
    } catch (const ParamError& e) {
      refuse(dict.name("factor") + ": " + e.rule);
    }
  }
  return factor;
}

// original_max_position_embeddings for llama3, yarn and longrope (standardize_rope_params): the config-level
// field first (Phi-3 writes it there, and transformers gives it priority), then the rope dict's, then
// max_position_embeddings.
int original_of(const Fields& f, const Fields& dict, int max_pos) {
  if (const auto o = f.integer("original_max_position_embeddings", 1, kMaxPositions)) return int(*o);
  if (const auto o = dict.integer("original_max_position_embeddings", 1, kMaxPositions)) return int(*o);
  if (!max_pos) refuse(dict.name("original_max_position_embeddings") + " is missing, and so is max_position_embeddings");
  return max_pos;
}

// The parameters of each scaling as _compute_<type>_parameters reads them.
RopeScalingParams scaling_of(const Fields& f, const Fields& dict, RopeScaling kind, int max_pos) {
  RopeScalingParams s;
  s.kind = kind;
  const auto opt_max = [&]() { return max_pos ? std::optional<int>(max_pos) : std::nullopt; };
  switch (kind) {
    case RopeScaling::none: break;
    case RopeScaling::linear: s.factor = required_number(dict, "factor", kind); break;
    case RopeScaling::dynamic:  // _compute_dynamic_ntk_parameters: the training context is max_position_embeddings
      s.factor = required_number(dict, "factor", kind);
      if (!max_pos) refuse(f.name("max_position_embeddings") + " is missing (rope_type dynamic needs it)");
      s.original_max_len = max_pos;
      break;
    case RopeScaling::yarn: {  // _compute_yarn_parameters; factor None -> max_position / original
      s.factor = checked_factor(dict, dict.number("factor"));
      s.original_max_len = original_of(f, dict, max_pos);
      s.max_len = opt_max();
      if (!s.factor && !s.max_len) refuse(dict.name("factor") + " is missing, and so is max_position_embeddings");
      // `get("beta_fast") or 32`: a 0 counts as absent.
      if (const auto b = dict.number("beta_fast"); b && *b != 0) s.beta_fast = b;
      if (const auto b = dict.number("beta_slow"); b && *b != 0) s.beta_slow = b;
      s.mscale = dict.number("mscale");
      s.mscale_all_dim = dict.number("mscale_all_dim");
      s.attention_factor = dict.number("attention_factor");
      s.truncate = dict.boolean("truncate");
      break;
    }
    case RopeScaling::llama3:  // _compute_llama3_parameters reads all four with rope_parameters_dict[...]
      s.factor = checked_factor(dict, required_number(dict, "factor", kind));
      s.low_freq_factor = required_number(dict, "low_freq_factor", kind);
      s.high_freq_factor = required_number(dict, "high_freq_factor", kind);
      s.original_max_len = original_of(f, dict, max_pos);
      s.max_len = opt_max();
      break;
    case RopeScaling::longrope: {  // _compute_longrope_parameters; factor None -> max_position / original
      const auto need_list = [&](std::string_view key) {
        auto v = dict.numbers(key);
        if (!v) refuse(dict.name(key) + " is missing (rope_type longrope needs it)");
        return *v;
      };
      s.short_factor = need_list("short_factor");
      s.long_factor = need_list("long_factor");
      s.factor = checked_factor(dict, dict.number("factor"));
      s.attention_factor = dict.number("attention_factor");
      s.original_max_len = original_of(f, dict, max_pos);
      s.max_len = opt_max();
      if (!s.factor && !s.max_len) refuse(dict.name("factor") + " is missing, and so is max_position_embeddings");
      break;
    }
  }
  return s;
}

// Where each field the scaling reads came from (scaling_of's rules, in the same order).
void note_scaling(const Fields& f, const Fields& dict, const RopeScalingParams& s, Origins& o) {
  struct Key {
    ScalingField field;
    std::string_view key;
  };
  static constexpr Key kKeys[] = {
      {ScalingField::factor, "factor"}, {ScalingField::original_max_len, "original_max_position_embeddings"},
      {ScalingField::max_len, "max_position_embeddings"}, {ScalingField::low_freq_factor, "low_freq_factor"},
      {ScalingField::high_freq_factor, "high_freq_factor"}, {ScalingField::beta_fast, "beta_fast"},
      {ScalingField::beta_slow, "beta_slow"}, {ScalingField::mscale, "mscale"},
      {ScalingField::mscale_all_dim, "mscale_all_dim"}, {ScalingField::truncate, "truncate"},
      {ScalingField::short_factor, "short_factor"}, {ScalingField::long_factor, "long_factor"},
      {ScalingField::attention_factor, "attention_factor"}};
  const std::string key_original = "original_max_position_embeddings";
  for (const Key& k : kKeys) {
    if (!scaling_reads(s.kind, k.field)) continue;
    const std::string value(k.key);
    if (k.field == ScalingField::max_len) {
      if (s.max_len) note(o, value, Origin::read, f.name(value));
    } else if (k.field == ScalingField::original_max_len && s.kind == RopeScaling::dynamic) {
      note(o, value, Origin::derived, f.name("max_position_embeddings") + " (dynamic NTK's training context)");
    } else if (k.field == ScalingField::original_max_len && f.has(key_original)) {
      note(o, value, Origin::read, f.name(key_original));
    } else if (dict.has(k.key) && !((k.key == "beta_fast" || k.key == "beta_slow") && dict.number(k.key) == 0.0)) {
      note(o, value, Origin::read, dict.name(k.key));
    } else if (k.field == ScalingField::original_max_len) {
      note(o, value, Origin::derived, f.name("max_position_embeddings"));
    } else if (k.field == ScalingField::factor) {
      note(o, value, Origin::derived, "max_position_embeddings / original_max_position_embeddings");
    } else if (k.field == ScalingField::beta_fast || k.field == ScalingField::beta_slow) {
      note(o, value, Origin::class_default, dict.name(k.key) + (k.field == ScalingField::beta_fast ? " 32" : " 1") +
                                                " (_compute_yarn_parameters: `get(...) or` default)");
    } else if (k.field == ScalingField::truncate) {
      note(o, value, Origin::class_default, dict.name(k.key) + " true (_compute_yarn_parameters)");
    } else if (k.field == ScalingField::attention_factor) {
      const bool deepseek_style = s.mscale && s.mscale_all_dim && *s.mscale != 0 && *s.mscale_all_dim != 0;
      note(o, value, Origin::derived,
           s.kind == RopeScaling::longrope ? "sqrt(1 + ln(factor) / ln(original_max_position_embeddings)), 1 when factor <= 1"
           : deepseek_style                ? "get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim)"
                                           : "get_mscale(factor) = 0.1 ln(factor) + 1, 1 when factor <= 1");
    }
  }
  if (!scaling_reads(s.kind, ScalingField::attention_factor))
    note(o, "attention_factor", Origin::derived, "1 (rope_type " + std::string(rope_scaling_row(s.kind).rope_type) +
                                                     " scales no attention)");
}

// Core's validation names CLI flags; a config's reader names the config's fields instead.
[[noreturn]] void refuse_as_config(const ParamError& e, const Fields& f, const std::optional<Fields>& dict,
                                   std::string_view model_type) {
  const std::string rotary = in(model_type, {"gptj", "codegen"}) ? "rotary_dim"
                             : f.has("rotary_pct") && !f.has("partial_rotary_factor") ? "rotary_pct"
                                                                                      : "partial_rotary_factor";
  const std::map<std::string, std::string> top = {
      {"head-dim", "head_dim"}, {"rotary-dim", rotary}, {"base", "rope_theta"},
      {"original-max-len", "original_max_position_embeddings"}, {"max-len", "max_position_embeddings"}};
  std::string field;
  if (const auto it = top.find(e.param); it != top.end()) field = f.name(it->second);
  else {
    field = e.param;  // factor, beta-fast, short-factor, ...: the rope dict's key with '_' for '-'
    std::replace(field.begin(), field.end(), '-', '_');
    field = dict ? dict->name(field) : f.name(field);
  }
  refuse(field + ": " + e.rule);
}

LayerTypeRope read_layer(const Fields& f, const std::optional<Fields>& dict, std::string layer_type,
                         std::optional<double> theta, const std::string& model_type, int max_pos) {
  LayerTypeRope l;
  l.layer_type = std::move(layer_type);
  Origins& o = l.origins;
  l.rope.head_dim = head_dim_of(f, model_type, o);
  const int r = rotary_dim_of(f, dict, l.rope.head_dim, model_type, o);
  l.rope.rotary_dim = r == l.rope.head_dim ? 0 : r;
  if (theta) note(o, "rope_theta", Origin::read, f.name("rope_local_base_freq"));
  l.rope.base = theta ? *theta : base_of(f, dict, o);
  // GPT-J rotate_every_two; DeepseekV3Config.rope_interleave (default true) and configs that set it; Llama 4
  // rotates complex pairs (modeling_llama4.py, apply_rotary_emb: view_as_complex over (2j, 2j + 1)).
  const bool interleave = f.boolean("rope_interleave").value_or(model_type == "deepseek_v3");
  if (in(model_type, {"gptj", "codegen", "llama4_text"}) || interleave) l.rope.pairing = RopePairing::interleaved;
  if (f.has("rope_interleave")) note(o, "layout", Origin::read, f.name("rope_interleave"));
  else if (l.rope.pairing == RopePairing::interleaved)
    note(o, "layout", Origin::derived, "interleaved for model_type " + model_type +
                                           (model_type == "deepseek_v3" ? " (rope_interleave's default true)"
                                                                        : " (its modeling code pairs 2j with 2j + 1)"));
  else note(o, "layout", Origin::derived, "halves (rotate_half, every model type but GPT-J, CodeGen, Llama 4, DeepSeek-V3)");
  if (dict) {
    l.scaling = scaling_of(f, *dict, kind_of(*dict, model_type, o), max_pos);
    note_scaling(f, *dict, l.scaling, o);
  } else {
    note(o, "rope_type", Origin::derived,
         theta ? "\"default\" on these layers (Gemma 3's local rotary embedding has no scaling)"
               : "\"default\" (the config has no rope_scaling or rope_parameters)");
    note(o, "attention_factor", Origin::derived, "1 (no scaling)");
  }
  try {
    validate(l.rope, l.scaling);
  } catch (const ParamError& e) {
    refuse_as_config(e, f, dict, model_type);
  }
  return l;
}

// rope_parameters keyed by layer type ({"full_attention": {...}, "sliding_attention": {...}}): every value is
// an object (standardize_rope_params: the keys are a subset of config.layer_types).
bool keyed_by_layer_type(const Fields& dict) {
  const nlohmann::json& o = dict.object;
  return !o.empty() && std::all_of(o.begin(), o.end(), [](const nlohmann::json& v) { return v.is_object(); });
}

// Layers per type: config.layer_types when listed, else Gemma 3's pattern (Gemma3TextConfig: layer i is
// sliding unless (i + 1) % sliding_window_pattern == 0), else every layer has the one type.
void count_layers(const Fields& f, std::vector<LayerTypeRope>& types) {
  std::map<std::string, int> count;
  const nlohmann::json* listed = f.find("layer_types");
  const auto layers = f.integer("num_hidden_layers", 1, kMaxCount);
  const auto pattern = f.integer("sliding_window_pattern", 1, kMaxCount);
  if (listed && listed->is_array()) {
    for (const nlohmann::json& t : *listed)
      if (t.is_string()) ++count[t.get<std::string>()];
  } else if (layers && pattern && types.size() == 2) {
    count["full_attention"] = int(*layers / *pattern);
    count["sliding_attention"] = int(*layers - *layers / *pattern);
  } else if (layers && types.size() == 1) {
    count[types.front().layer_type] = int(*layers);
  }
  for (LayerTypeRope& l : types) l.layers = count[l.layer_type];
}

}  // namespace

void read_rope_scheme(const Fields& f, ModelConfig& out) {
  out.scheme = PositionScheme::rope;
  out.max_position_embeddings = int(f.integer_alias({"max_position_embeddings", "n_positions"}, 1, kMaxPositions).value_or(0));
  out.heads = int(f.integer_alias({"num_attention_heads", "n_head", "n_heads"}, 1, kMaxCount).value_or(0));
  if (out.max_position_embeddings) note(out.origins, "max_position_embeddings", Origin::read, present(f, {"max_position_embeddings", "n_positions"}));
  // convert_rope_params_to_dict: `rope_parameters = rope_scaling or rope_parameters` (an empty {} is falsy too).
  const nlohmann::json* scaling = f.find("rope_scaling");
  const bool use_scaling = scaling && !(scaling->is_object() && scaling->empty());
  const std::optional<Fields> dict = f.object_at(use_scaling ? "rope_scaling" : "rope_parameters");
  const int max_pos = out.max_position_embeddings;
  const std::string& type = out.model_type;
  if (dict && keyed_by_layer_type(*dict)) {
    for (auto it = dict->object.begin(); it != dict->object.end(); ++it) {
      const Fields one{it.value(), dict->name(it.key()) + "."};
      out.layer_types.push_back(read_layer(f, one, it.key(), std::nullopt, type, max_pos));
    }
  } else {
    out.layer_types.push_back(read_layer(f, dict, "full_attention", std::nullopt, type, max_pos));
    // Gemma 3: the sliding-window layers use rope_local_base_freq and no scaling (Gemma3TextConfig; transformers
    // 4.50 modeling_gemma3.py builds rotary_emb_local with rope_type "default"; v5 writes it as
    // rope_parameters["sliding_attention"]).
    if (const auto local = f.number("rope_local_base_freq"))
      out.layer_types.push_back(read_layer(f, std::nullopt, "sliding_attention", local, type, max_pos));
  }
  std::stable_partition(out.layer_types.begin(), out.layer_types.end(),
                        [](const LayerTypeRope& l) { return l.layer_type == "full_attention"; });
  count_layers(f, out.layer_types);
  out.rope = out.layer_types.front().rope;
  out.scaling = out.layer_types.front().scaling;
  read_layer_map(f, out);
  const int rotary_dim = out.rope.rotary_dim ? out.rope.rotary_dim : out.rope.head_dim;
  read_pair_axis(dict, rotary_dim / 2, out);
}

}  // namespace peviz::model_config_detail
