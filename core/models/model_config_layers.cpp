// The layer map of the model config reader: for every layer, RoPE or not and over what span, M-RoPE's pair axes,
// and the positional fields the reader does not model.
//
// Sources (huggingface/transformers v5, src/transformers/models/<name>/configuration_<name>.py, __post_init__ /
// __init__ of each config class), cited at each rule; docs/model-config.md lists them.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/base/errors.hpp"
#include "core/models/model_config.hpp"
#include "core/models/model_config_fields.hpp"

namespace peviz::model_config_detail {

namespace {

constexpr long long kMaxLayers = 1 << 16;
constexpr long long kMaxSpan = 1 << 30;

// transformers' layer type names (configuration_utils.py, ALLOWED_LAYER_TYPES) that peviz models.
struct LayerTypeName {
  std::string_view name;
  LayerSpan span;
};
constexpr LayerTypeName kLayerTypes[] = {{"full_attention", LayerSpan::full},
                                         {"sliding_attention", LayerSpan::sliding},
                                         {"chunked_attention", LayerSpan::chunked},
                                         {"linear_attention", LayerSpan::linear}};

LayerSpan span_of(const std::string& type, const std::string& field) {
  for (const LayerTypeName& t : kLayerTypes)
    if (t.name == type) return t.span;
  refuse(field + " '" + type + "' is not a layer type peviz models (full_attention, sliding_attention, "
                               "chunked_attention, linear_attention)");
}

// Which layers rotate. Llama4TextConfig and SmolLM3Config: no_rope_layers[i] = 1 where layer i uses RoPE; when
// absent it is int((i + 1) % no_rope_layer_interval != 0) (interval 4 by default in both). Llama 4 derives it for
// an empty list too (`if self.no_rope_layers`); SmolLM3 keeps an empty list, which its attention cannot index.
std::vector<bool> rotating_layers(const Fields& f, const std::string& model_type, int n) {
  std::vector<bool> rotates(std::size_t(n), true);
  if (!in(model_type, {"llama4_text", "smollm3"})) return rotates;
  const nlohmann::json* listed = f.find("no_rope_layers");
  const bool derive = !listed || (model_type == "llama4_text" && listed->is_array() && listed->empty());
  if (!derive) {
    if (!listed->is_array()) refuse(f.name("no_rope_layers") + " " + shown(*listed) + " must be a list of 0 and 1");
    if (listed->size() != std::size_t(n))
      refuse(f.name("no_rope_layers") + " has " + std::to_string(listed->size()) + " entries for " +
             std::to_string(n) + " layers (num_hidden_layers)");
    for (std::size_t i = 0; i < listed->size(); ++i) {
      const nlohmann::json& v = (*listed)[i];
      if (!v.is_number_integer() || (v.get<long long>() != 0 && v.get<long long>() != 1))
        refuse(f.name("no_rope_layers") + "[" + std::to_string(i) + "] " + shown(v) + " must be 0 or 1");
      rotates[i] = v.get<long long>() == 1;
    }
    return rotates;
  }
  const long long interval = f.integer("no_rope_layer_interval", 1, kMaxLayers).value_or(4);
  for (int i = 0; i < n; ++i) rotates[std::size_t(i)] = (i + 1) % interval != 0;
  return rotates;
}

bool qwen_family(std::string_view model_type) {
  return in(model_type, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen2_vl", "qwen2_5_vl", "qwen2_vl_text",
                         "qwen2_5_vl_text"});
}

// Qwen2Config / Qwen3Config / Qwen2VLTextConfig: sliding_window (4096) counts only when use_sliding_window is true.
std::optional<long long> qwen_window(const Fields& f) {
  if (!f.boolean("use_sliding_window").value_or(false)) return std::nullopt;
  return f.integer("sliding_window", 1, kMaxSpan).value_or(4096);
}

// Each config class's default layer_types, when the file lists none.
std::string default_layer_type(const Fields& f, const std::string& model_type, int i, bool rotates) {
  const auto every = [&](std::string_view key, long long fallback) { return f.integer(key, 1, kMaxLayers).value_or(fallback); };
  // Llama4TextConfig: "chunked_attention" where the layer rotates, "full_attention" where it does not.
  if (model_type == "llama4_text") return rotates ? "chunked_attention" : "full_attention";
  // GptOssConfig: sliding on even layers (0, 2, ...), full on odd ones.
  if (model_type == "gpt_oss") return (i + 1) % 2 ? "sliding_attention" : "full_attention";
  // Qwen3NextConfig: linear attention except every full_attention_interval-th layer (4).
  if (in(model_type, {"qwen3_next", "qwen3_5", "qwen3_5_moe"}))
    return (i + 1) % every("full_attention_interval", 4) ? "linear_attention" : "full_attention";
  // Gemma3TextConfig: sliding unless (i + 1) % sliding_window_pattern == 0.
  if (model_type == "gemma3_text")
    return (i + 1) % every("sliding_window_pattern", 6) ? "sliding_attention" : "full_attention";
  // SmolLM3Config: sliding on the NoPE layers, when use_sliding_window and sliding_window are both set.
  if (model_type == "smollm3")
    return !rotates && f.boolean("use_sliding_window").value_or(false) && f.has("sliding_window") ? "sliding_attention"
                                                                                                  : "full_attention";
  // Qwen2Config, Qwen3Config (and their MoE and VL text configs): sliding from max_window_layers on (28; the VL
  // text configs 80).
  if (qwen_family(model_type)) {
    const long long first = every("max_window_layers", in(model_type, {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe"}) ? 28 : 80);
    return qwen_window(f) && i >= first ? "sliding_attention" : "full_attention";
  }
  // MistralModel (and Mixtral, Phi3, Starcoder2) builds one sliding mask for every layer when sliding_window is set;
  // MistralConfig's default is 4096, the others' None.
  if (model_type == "mistral" && !f.object.contains("sliding_window"))  // absent: the default 4096 (null: none)
    return "sliding_attention";
  if (in(model_type, {"mistral", "mixtral", "phi3", "starcoder2"}) && f.has("sliding_window")) return "sliding_attention";
  return "full_attention";
}

std::vector<std::string> layer_type_names(const Fields& f, const std::string& model_type, int n,
                                          const std::vector<bool>& rotates) {
  std::vector<std::string> names;
  const nlohmann::json* listed = f.find("layer_types");
  if (listed) {  // PretrainedConfig layer_type_validation: one entry per layer
    if (!listed->is_array() || listed->size() != std::size_t(n))
      refuse(f.name("layer_types") + " must list one type per layer (" + std::to_string(n) +
             ", num_hidden_layers), got " + shown(*listed));
    for (std::size_t i = 0; i < listed->size(); ++i) {
      if (!(*listed)[i].is_string()) refuse(f.name("layer_types") + "[" + std::to_string(i) + "] is not a name");
      std::string name = (*listed)[i].get<std::string>();
      // Qwen3NextConfig: remap_legacy_layer_types (configuration_utils.py) reads "mamba" and "attention".
      if (model_type == "qwen3_next" && name == "mamba") name = "linear_attention";
      if (model_type == "qwen3_next" && name == "attention") name = "full_attention";
      names.push_back(std::move(name));
    }
    return names;
  }
  for (int i = 0; i < n; ++i) names.push_back(default_layer_type(f, model_type, i, rotates[std::size_t(i)]));
  return names;
}

// The tokens a sliding layer sees back, or a chunked layer's chunk; 0 where the model keeps none (SmolLM3 and the
// Qwen family without use_sliding_window: their attention then passes no window).
int window_of(const Fields& f, LayerSpan span, const std::string& model_type) {
  // The span field `key`, or the class's default `fallback` where it has one (0: none, the field is required).
  const auto need = [&](std::string_view key, long long fallback) {
    const auto v = f.integer(key, 1, kMaxSpan);
    if (!v && fallback == 0) refuse(f.name(key) + " is missing (the config has " + std::string(to_string(span)) + " layers)");
    return int(v.value_or(fallback));
  };
  if (span == LayerSpan::sliding) {
    if (qwen_family(model_type)) return int(qwen_window(f).value_or(0));
    if (model_type == "smollm3")
      return f.boolean("use_sliding_window").value_or(false) ? int(f.integer("sliding_window", 1, kMaxSpan).value_or(0)) : 0;
    // Class defaults: GptOssConfig 128, Gemma3TextConfig and MistralConfig 4096.
    return need("sliding_window", model_type == "gpt_oss" ? 128 : in(model_type, {"gemma3_text", "mistral"}) ? 4096 : 0);
  }
  // Llama4TextConfig.attention_chunk_size: 8192 by default.
  if (span == LayerSpan::chunked)
    return need("attention_chunk_size", model_type == "llama4_text" ? 8192 : 0);
  return 0;
}

// The rule default_layer_type follows for a model type, as the inspector states it.
std::string default_layer_rule(const std::string& model_type) {
  if (model_type == "llama4_text") return "chunked_attention where the layer rotates, else full_attention (Llama4TextConfig)";
  if (model_type == "gpt_oss") return "sliding_attention on even layers, full_attention on odd ones (GptOssConfig)";
  if (in(model_type, {"qwen3_next", "qwen3_5", "qwen3_5_moe"}))
    return "full_attention every full_attention_interval-th layer, else linear_attention (Qwen3NextConfig)";
  if (model_type == "gemma3_text") return "sliding_attention unless (i + 1) % sliding_window_pattern == 0 (Gemma3TextConfig)";
  if (model_type == "smollm3") return "sliding_attention on the NoPE layers when use_sliding_window and sliding_window are set (SmolLM3Config)";
  if (qwen_family(model_type)) return "sliding_attention from max_window_layers on when use_sliding_window is true (Qwen2Config)";
  if (in(model_type, {"mistral", "mixtral", "phi3", "starcoder2"}))
    return "sliding_attention on every layer when sliding_window is set (MistralModel's one mask)";
  return "full_attention on every layer (the config lists no layer_types)";
}

// Where the layer map's values came from.
void note_layer_map(const Fields& f, const ModelConfig& c, std::vector<ValueOrigin>& o) {
  const std::string& type = c.model_type;
  for (std::string_view k : {"num_hidden_layers", "n_layer", "num_layers"})
    if (f.has(k)) {
      note(o, "num_hidden_layers", Origin::read, f.name(k));
      break;
    }
  if (f.has("layer_types")) note(o, "layer_types", Origin::read, f.name("layer_types"));
  else note(o, "layer_types", Origin::derived, default_layer_rule(type));
  if (in(type, {"llama4_text", "smollm3"})) {
    const nlohmann::json* listed = f.find("no_rope_layers");
    if (listed && !(type == "llama4_text" && listed->is_array() && listed->empty()))
      note(o, "no_rope_layers", Origin::read, f.name("no_rope_layers"));
    else
      note(o, "no_rope_layers", Origin::derived,
           "NoPE where (i + 1) % no_rope_layer_interval == 0, interval " +
               (f.has("no_rope_layer_interval") ? "read from " + f.name("no_rope_layer_interval") : std::string("4 (default)")));
  } else {
    note(o, "no_rope_layers", Origin::derived, "none: model_type " + (type.empty() ? "''" : type) + " rotates every attention layer");
  }
  const auto read_or_default = [&](const std::string& key, const std::string& fallback) {
    if (f.has(key)) note(o, key, Origin::read, f.name(key));
    else note(o, key, Origin::class_default, f.name(key) + " " + fallback + " (the " + type + " config class's default)");
  };
  for (const auto& span_key : {std::pair{LayerSpan::sliding, "sliding_window"}, std::pair{LayerSpan::chunked, "attention_chunk_size"}}) {
    const LayerSpan span = span_key.first;
    const auto it = std::find_if(c.layers.begin(), c.layers.end(), [span](const ModelLayer& l) { return l.attention == span && l.window; });
    if (it != c.layers.end()) read_or_default(span_key.second, std::to_string(it->window));
  }
  if (std::any_of(c.layers.begin(), c.layers.end(), [](const ModelLayer& l) { return l.query_scaled; })) {
    read_or_default("attn_temperature_tuning", "true");
    read_or_default("floor_scale", shown(c.query_scale.floor_scale));
    read_or_default("attn_scale", shown(c.query_scale.attn_scale));
  }
}

// Fills layer_groups and each layer's group.
void group_layers(ModelConfig& c) {
  for (ModelLayer& l : c.layers) {
    const auto same = [&](const LayerGroup& g) {
      return g.positions == l.positions && g.attention == l.attention && g.window == l.window &&
             g.query_scaled == l.query_scaled;
    };
    auto& groups = c.layer_groups;
    l.group = int(std::find_if(groups.begin(), groups.end(), same) - groups.begin());
    if (l.group == int(groups.size())) groups.push_back({l.positions, l.attention, l.window, l.query_scaled, 0});
    ++groups[std::size_t(l.group)].layers;
  }
}

}  // namespace

void read_layer_map(const Fields& f, ModelConfig& out) {
  const auto n = f.integer_alias({"num_hidden_layers", "n_layer", "num_layers"}, 1, kMaxLayers);
  if (!n) return;
  const std::string& type = out.model_type;
  const std::vector<bool> rotates = rotating_layers(f, type, int(*n));
  const std::vector<std::string> names = layer_type_names(f, type, int(*n), rotates);
  // Llama4TextConfig: attn_temperature_tuning (true), floor_scale (8192), attn_scale (0.1); the attention applies
  // it where the layer does not rotate (Llama4TextAttention: `if self.attn_temperature_tuning and not self.use_rope`).
  // The published Scout config writes attn_temperature_tuning as a number (4); Python tests it for truth.
  const nlohmann::json* tuning = f.find("attn_temperature_tuning");
  const bool tuned = type == "llama4_text" && (!tuning || (tuning->is_boolean() ? tuning->get<bool>()
                                                           : tuning->is_number() ? tuning->get<double>() != 0
                                                                                 : f.boolean("attn_temperature_tuning").value()));
  if (tuned) {
    out.query_scale.floor_scale = f.number("floor_scale").value_or(8192);
    out.query_scale.attn_scale = f.number("attn_scale").value_or(0.1);
    if (!(out.query_scale.floor_scale > 0)) refuse(f.name("floor_scale") + " must be > 0");
  }
  for (int i = 0; i < int(*n); ++i) {
    ModelLayer layer;
    layer.layer_type = names[std::size_t(i)];
    layer.attention = span_of(layer.layer_type, f.name("layer_types") + "[" + std::to_string(i) + "]");
    layer.window = window_of(f, layer.attention, type);
    layer.positions = layer.attention == LayerSpan::linear ? LayerPositions::none
                      : rotates[std::size_t(i)]            ? LayerPositions::rope
                                                           : LayerPositions::nope;
    layer.query_scaled = tuned && layer.positions == LayerPositions::nope;
    out.layers.push_back(std::move(layer));
  }
  group_layers(out);
  note_layer_map(f, out, out.origins);
}

// Qwen2-VL / Qwen2.5-VL (modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb): mrope_section splits the pairs
// into contiguous t, h, w runs. Qwen3-VL (modeling_qwen3_vl.py, Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope,
// whatever mrope_interleaved says; sections [24, 20, 20] when the config has none): pair j takes h where j % 3 == 1
// and j < 3 * section[1], w where j % 3 == 2 and j < 3 * section[2], else t.
void read_pair_axis(const std::optional<Fields>& dict, int rotary_pairs, ModelConfig& out) {
  const bool qwen3_vl = in(out.model_type, {"qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text"});
  const bool listed = dict && dict->has("mrope_section");
  if (!listed && !qwen3_vl) return;
  const auto sections = listed ? dict->numbers("mrope_section") : std::optional<std::vector<double>>({24, 20, 20});
  const std::string field = listed ? dict->name("mrope_section") : "mrope_section (Qwen3-VL's default [24, 20, 20])";
  if (!sections || sections->size() != 3) refuse(field + " must list three sections (t, h, w)");
  long long sum = 0;
  for (double s : *sections) {
    if (s < 0 || s > rotary_pairs || s != std::floor(s))
      refuse(field + " " + shown(s) + " is not a count of pairs (0 to " + std::to_string(rotary_pairs) + ")");
    sum += (long long)s;
  }
  if (sum != rotary_pairs)
    refuse(field + " sums to " + std::to_string(sum) + ", not to the " + std::to_string(rotary_pairs) +
           " rotary pairs (head_dim / 2)");
  const long long s0 = (long long)(*sections)[0], s1 = (long long)(*sections)[1], s2 = (long long)(*sections)[2];
  const bool interleaved = qwen3_vl || (listed && dict->boolean("mrope_interleaved").value_or(false));
  for (long long j = 0; j < rotary_pairs; ++j) {
    RopeAxis a = RopeAxis::t;
    if (interleaved) {
      if (j % 3 == 1 && j < 3 * s1) a = RopeAxis::h;
      else if (j % 3 == 2 && j < 3 * s2) a = RopeAxis::w;
    } else if (j >= s0) {
      a = j < s0 + s1 ? RopeAxis::h : RopeAxis::w;
    }
    out.pair_axis.push_back(a);
  }
}

namespace {

// A field that bears on positions or spans and that the reader models, for every model type or for those listed.
struct KnownField {
  std::string_view name;
  std::initializer_list<std::string_view> model_types;  // empty: all
};
const KnownField kModelled[] = {
    {"rope_theta", {}}, {"rope_scaling", {}}, {"rope_parameters", {}}, {"rotary_emb_base", {}}, {"rotary_pct", {}},
    {"rotary_dim", {}}, {"partial_rotary_factor", {}}, {"rope_local_base_freq", {}}, {"rope_interleave", {}},
    {"qk_rope_head_dim", {}}, {"qk_nope_head_dim", {}}, {"max_position_embeddings", {}},
    {"original_max_position_embeddings", {}}, {"n_positions", {}}, {"max_seq_len", {}}, {"layer_types", {}},
    {"sliding_window", {}}, {"sliding_window_pattern", {"gemma3_text"}},
    {"position_embedding_type", {}}, {"relative_attention_num_buckets", {}},
    {"relative_attention_max_distance", {}}, {"alibi", {}}, {"attention_chunk_size", {"llama4_text"}},
    {"no_rope_layers", {"llama4_text", "smollm3"}}, {"no_rope_layer_interval", {"llama4_text", "smollm3"}},
    {"attn_temperature_tuning", {"llama4_text"}}, {"floor_scale", {"llama4_text"}}, {"attn_scale", {"llama4_text"}},
    {"full_attention_interval", {"qwen3_next", "qwen3_5", "qwen3_5_moe"}},
    {"use_sliding_window", {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "smollm3", "qwen2_vl", "qwen2_5_vl",
                            "qwen2_vl_text", "qwen2_5_vl_text"}},
    {"max_window_layers", {"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "smollm3", "qwen2_vl", "qwen2_5_vl",
                           "qwen2_vl_text", "qwen2_5_vl_text"}},
    // Not positional despite the name: PretrainedConfig's feed-forward chunking.
    {"chunk_size_feed_forward", {}},
};
// The keys of a rope dict that the scaling reader and M-RoPE read (modeling_rope_utils.py, the VL models).
constexpr std::string_view kRopeDictKeys[] = {
    "rope_type", "type", "factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor",
    "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate", "short_factor",
    "long_factor", "rope_theta", "partial_rotary_factor", "mrope_section", "mrope_interleaved"};
// Known fields that change what a query sees and that the map does not draw, with what they do.
struct UnmodelledField {
  std::string_view name;
  std::string_view effect;
};
constexpr UnmodelledField kKnownUnmodelled[] = {
    {"index_topk", "sparse attention: each query attends to the top-k keys an indexer picks (the map shows the dense span)"},
    {"vision_config", "the vision encoder's own patch positions are not drawn (the map is the language model's)"},
    {"audio_config", "the audio encoder's own positions are not drawn (the map is the language model's)"},
    {"cross_attention_layers", "these layers attend to another sequence (an image's), not to earlier tokens"},
    {"use_bidirectional_attention", "every token sees the tokens after it too (no causal mask)"},
};
// Name parts that mark a field as positional.
constexpr std::string_view kPositionalParts[] = {"rope", "rotary", "position", "window", "chunk", "alibi",
                                                 "sliding", "nope", "temperature", "layer_types", "sink",
                                                 "bucket", "relative_attention"};  // not "topk": MoE routing

bool modelled(std::string_view key, std::string_view model_type) {
  for (const KnownField& k : kModelled)
    if (k.name == key) return k.model_types.size() == 0 || in(model_type, k.model_types);
  return false;
}

bool looks_positional(std::string_view key) {
  return std::any_of(std::begin(kPositionalParts), std::end(kPositionalParts),
                     [&](std::string_view part) { return key.find(part) != std::string_view::npos; });
}

void note_rope_dict(const Fields& dict, ModelConfig& out) {
  const nlohmann::json& o = dict.object;
  if (!o.is_object()) return;
  // A dict keyed by layer type ({"full_attention": {...}, ...}) holds one rope dict per type.
  const bool keyed = !o.empty() && std::all_of(o.begin(), o.end(), [](const nlohmann::json& v) { return v.is_object(); });
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (keyed) {
      note_rope_dict(Fields{it.value(), dict.name(it.key()) + "."}, out);
    } else if (!it.value().is_null() &&
               std::find(std::begin(kRopeDictKeys), std::end(kRopeDictKeys), it.key()) == std::end(kRopeDictKeys)) {
      out.unmodelled.push_back(dict.name(it.key()) + " " + shown(it.value()) + ": a RoPE parameter peviz does not read");
    }
  }
}

}  // namespace

void note_unmodelled(const Fields& file, ModelConfig& out) {
  for (auto it = file.object.begin(); it != file.object.end(); ++it) {
    const std::string& key = it.key();
    if (it.value().is_null() || it.value() == false || key == "text_config") continue;  // false turns nothing on
    const auto known = std::find_if(std::begin(kKnownUnmodelled), std::end(kKnownUnmodelled),
                                    [&](const UnmodelledField& u) { return u.name == key; });
    if (known != std::end(kKnownUnmodelled)) {
      const std::string value = it.value().is_object() ? "" : " " + shown(it.value());
      out.unmodelled.push_back(file.name(key) + value + ": " + std::string(known->effect));
    } else if (looks_positional(key) && !modelled(key, out.model_type)) {
      out.unmodelled.push_back(file.name(key) + " " + shown(it.value()) + ": a positional field peviz does not model");
    }
  }
  for (std::string_view dict_key : {"rope_scaling", "rope_parameters"})
    if (const auto dict = file.object_at(dict_key)) note_rope_dict(*dict, out);
}

}  // namespace peviz::model_config_detail

namespace peviz {

std::string_view to_string(LayerPositions p) {
  switch (p) {
    case LayerPositions::rope: return "rope";
    case LayerPositions::nope: return "nope";
    case LayerPositions::none: return "none";
  }
  return "?";
}

std::string_view to_string(LayerSpan s) {
  switch (s) {
    case LayerSpan::full: return "full";
    case LayerSpan::sliding: return "sliding";
    case LayerSpan::chunked: return "chunked";
    case LayerSpan::linear: return "linear";
  }
  return "?";
}

std::string_view to_string(RopeAxis a) {
  switch (a) {
    case RopeAxis::t: return "t";
    case RopeAxis::h: return "h";
    case RopeAxis::w: return "w";
  }
  return "?";
}

std::string describe(const LayerGroup& g) {
  if (g.attention == LayerSpan::linear) return "no positions (linear attention)";
  std::string text = g.positions == LayerPositions::rope ? "RoPE, " : "NoPE, ";
  text += to_string(g.attention);
  if (g.window) text += " " + std::to_string(g.window);
  if (g.query_scaled) text += ", queries scaled";
  return text;
}

std::string describe_layers(const ModelConfig& c) {
  std::string text;
  for (const LayerGroup& g : c.layer_groups)
    text += (text.empty() ? "" : " \u00b7 ") + std::to_string(g.layers) + " " + describe(g);
  return text;
}

double query_scale_at(const QueryScale& q, double pos) {
  return std::log(std::floor((pos + 1.0) / q.floor_scale) + 1.0) * q.attn_scale + 1.0;
}

std::string query_scale_formula(const ModelConfig& c, const ModelLayer& layer) {
  if (!layer.query_scaled) return "";
  char text[160];
  std::snprintf(text, sizeof text, "log(floor((pos + 1) / %g) + 1) * %g + 1", c.query_scale.floor_scale,
                c.query_scale.attn_scale);
  return text;
}

}  // namespace peviz
