// The RoPE rules of the model config reader: head_dim, rotary fraction, base, rope_scaling / rope_parameters.
//
// Sources (huggingface/transformers, src/transformers/): modeling_rope_utils.py (RotaryEmbeddingConfigMixin
// .convert_rope_params_to_dict and .standardize_rope_params, the _compute_<type>_parameters functions) and the
// config classes named at each rule.
#include <algorithm>
#include <map>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/models/model_config.hpp"
#include "core/models/model_config_fields.hpp"

namespace peviz::model_config_detail {

namespace {

constexpr long long kMaxPositions = 1 << 30;
constexpr long long kMaxCount = 1 << 24;  // hidden_size, heads, layers

// head_dim; DeepseekV3Config (and V2) set head_dim = qk_rope_head_dim, the part of the head that rotates;
// otherwise head_dim when given, else hidden_size // num_attention_heads (_compute_*_parameters:
// `getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads`).
int head_dim_of(const Fields& f, std::string_view model_type) {
  const bool deepseek = in(model_type, {"deepseek_v2", "deepseek_v3"});
  if (deepseek && f.has("qk_rope_head_dim")) return int(*f.integer("qk_rope_head_dim", 1, kMaxHeadDim));
  if (const auto h = f.integer("head_dim", 1, kMaxHeadDim)) return int(*h);
  if (const auto h = f.integer("qk_rope_head_dim", 1, kMaxHeadDim)) return int(*h);
  const auto hidden = f.integer_alias({"hidden_size", "n_embd", "d_model"}, 1, kMaxCount);
  const auto heads = f.integer_alias({"num_attention_heads", "n_head", "n_heads"}, 1, kMaxCount);
  if (!hidden || !heads) refuse(f.name("head_dim") + " is missing, and so is hidden_size or num_attention_heads");
  return int(*hidden / *heads);
}

// The rotating channels R. GPTJConfig.rotary_dim counts channels; everyone else gives a fraction,
// partial_rotary_factor (GPTNeoXConfig: rotary_pct), and R = int(head_dim * fraction) as
// _compute_default_rope_parameters truncates it. standardize_rope_params writes the config-level
// partial_rotary_factor over the one inside rope_parameters, so the config-level one wins.
int rotary_dim_of(const Fields& f, const std::optional<Fields>& dict, int head_dim, std::string_view model_type) {
  if (in(model_type, {"gptj", "codegen"})) return int(f.integer("rotary_dim", 1, head_dim).value_or(head_dim));
  std::optional<double> fraction;
  std::string field;
  for (const Fields* src : {&f, dict ? &*dict : nullptr}) {
    if (!src || fraction) continue;
    for (std::string_view k : {"partial_rotary_factor", "rotary_pct"})
      if (!fraction && (fraction = src->number(k))) field = src->name(k);
  }
  if (!fraction) return head_dim;
  if (!(*fraction > limits::rotary_fraction.min && *fraction <= limits::rotary_fraction.max))
    refuse(field + " " + shown(*fraction) + " must be in " + range_text(limits::rotary_fraction));
  return int(double(head_dim) * *fraction);
}

// rope_theta: the rope dict's own, else the config's (convert_rope_params_to_dict: setdefault), else GPT-NeoX's
// rotary_emb_base (GPTNeoXConfig), else RotaryEmbeddingConfigMixin.default_theta = 10000.
double base_of(const Fields& f, const std::optional<Fields>& dict) {
  if (dict)
    if (const auto t = dict->number("rope_theta")) return *t;
  if (const auto t = f.number("rope_theta")) return *t;
  if (const auto t = f.number("rotary_emb_base")) return *t;
  return 10000.0;
}

// rope_type, else the legacy key type (`rope_parameters.get("type", "default")`), else "default" (no scaling).
RopeScaling kind_of(const Fields& dict, std::string_view model_type) {
  const bool typed = dict.has("rope_type");
  const std::string field = dict.name(typed ? "rope_type" : "type");
  const std::string name = (typed ? dict.text("rope_type") : dict.text("type")).value_or("default");
  // The table's rope_type or legacy type (rope_scaling.cpp): Qwen2VLConfig turns the legacy "mrope" into "default"
  // (M-RoPE changes which position each pair turns with, read_pair_axis, not the frequencies); older Phi-3 configs
  // wrote "su" for LongRoPE.
  const std::optional<RopeScaling> kind = parse_rope_type(name);
  // Phi3Config._rope_scaling_adjustment: an untyped Phi-3 yarn is LongRoPE too.
  if (kind == RopeScaling::yarn && !typed && model_type == "phi3") return RopeScaling::longrope;
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
  l.rope.head_dim = head_dim_of(f, model_type);
  const int r = rotary_dim_of(f, dict, l.rope.head_dim, model_type);
  l.rope.rotary_dim = r == l.rope.head_dim ? 0 : r;
  l.rope.base = theta ? *theta : base_of(f, dict);
  // GPT-J rotate_every_two; DeepseekV3Config.rope_interleave (default true) and configs that set it; Llama 4
  // rotates complex pairs (modeling_llama4.py, apply_rotary_emb: view_as_complex over (2j, 2j + 1)).
  const bool interleave = f.boolean("rope_interleave").value_or(model_type == "deepseek_v3");
  if (in(model_type, {"gptj", "codegen", "llama4_text"}) || interleave) l.rope.pairing = RopePairing::interleaved;
  if (dict) l.scaling = scaling_of(f, *dict, kind_of(*dict, model_type), max_pos);
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
