// The model config reader: which position scheme a config.json describes, and the learned, T5 and ALiBi ones.
#include "core/models/model_config.hpp"

#include <algorithm>
#include <filesystem>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/models/model_config_fields.hpp"

namespace peviz {

namespace {

using model_config_detail::Fields;
using model_config_detail::refuse;
using model_config_detail::shown;

constexpr std::size_t kMaxConfigBytes = std::size_t(16) << 20;
constexpr long long kMaxWidth = 1 << 20;     // channels of a learned table
constexpr long long kMaxPositions = 1 << 30;  // any *_position* / *seq_len field

bool in(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// The __init__ defaults of transformers' config classes for the fields read here: a config.json may leave
// out a field whose value is the class default (Gemma 3's text_config often omits head_dim and rope_theta).
// Gemma3TextConfig, GPTNeoXConfig, PhiConfig, GPTJConfig, GPT2Config, T5Config, MptConfig, BloomConfig,
// BertConfig (models/<name>/configuration_<name>.py).
nlohmann::json class_defaults(std::string_view model_type) {
  if (model_type == "gemma3_text")
    return {{"head_dim", 256}, {"hidden_size", 2304}, {"num_attention_heads", 8}, {"num_hidden_layers", 26},
            {"max_position_embeddings", 131072}, {"rope_theta", 1000000.0}, {"rope_local_base_freq", 10000.0},
            {"sliding_window_pattern", 6}};
  if (model_type == "gpt_neox")  // GPTNeoXConfig.convert_rope_params_to_dict: rotary_pct 0.25, rotary_emb_base
    return {{"hidden_size", 6144}, {"num_attention_heads", 64}, {"max_position_embeddings", 2048},
            {"rotary_pct", 0.25}, {"rotary_emb_base", 10000.0}};
  if (model_type == "phi")
    return {{"hidden_size", 2048}, {"num_attention_heads", 32}, {"max_position_embeddings", 2048},
            {"partial_rotary_factor", 0.5}, {"rope_theta", 10000.0}};
  if (model_type == "gptj") return {{"n_embd", 4096}, {"n_head", 16}, {"n_positions", 2048}, {"rotary_dim", 64}};
  if (model_type == "gpt2") return {{"n_embd", 768}, {"n_head", 12}, {"n_positions", 1024}};
  if (in(model_type, {"t5", "mt5"}))
    return {{"d_model", 512}, {"num_heads", 8}, {"relative_attention_num_buckets", 32},
            {"relative_attention_max_distance", 128}};
  if (model_type == "mpt") return {{"d_model", 2048}, {"n_heads", 16}, {"max_seq_len", 2048}};
  if (model_type == "bloom") return {{"hidden_size", 64}, {"n_head", 8}};
  if (in(model_type, {"bert", "roberta", "xlm-roberta"}))
    return {{"hidden_size", 768}, {"num_attention_heads", 12}, {"max_position_embeddings", 512},
            {"position_embedding_type", "absolute"}};
  return nlohmann::json::object();
}

nlohmann::json with_defaults(const nlohmann::json& config, std::string_view model_type) {
  nlohmann::json merged = class_defaults(model_type);
  merged.update(config);  // the file's values win, a null included (transformers passes None on)
  return merged;
}

// Model types whose config.json may carry no RoPE field at all (rope_theta defaults to 10000).
bool rope_model_type(std::string_view t) {
  return in(t, {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2",
                "gemma3_text", "phi", "phi3", "gpt_neox", "gptj", "deepseek_v2", "deepseek_v3", "olmo", "olmo2",
                "starcoder2", "stablelm", "falcon", "cohere", "glm", "glm4", "llama4_text", "smollm3", "gpt_oss",
                "qwen3_next", "qwen2_vl", "qwen2_5_vl", "qwen3_vl_text", "qwen3_vl_moe_text"});
}

bool has_rope_fields(const Fields& f) {
  for (std::string_view k : {"rope_theta", "rope_scaling", "rope_parameters", "rotary_emb_base", "rotary_pct",
                             "rotary_dim", "partial_rotary_factor", "rope_local_base_freq", "qk_rope_head_dim"})
    if (f.has(k)) return true;
  return false;
}

int heads_of(const Fields& f) {
  // attribute_map of GPT2Config / MptConfig / BloomConfig / T5Config: n_head, n_heads, num_heads.
  const auto h = f.integer_alias({"num_attention_heads", "n_head", "n_heads", "num_heads"}, 1, limits::alibi_heads.max);
  if (!h) refuse(f.name("num_attention_heads") + " is missing");
  return int(*h);
}

int max_positions_of(const Fields& f) {
  return int(f.integer_alias({"max_position_embeddings", "n_positions", "max_seq_len"}, 1, kMaxPositions).value_or(0));
}

// GPT-2 style learned absolute positions: a table of max_position_embeddings rows (GPT2Config n_positions,
// BertConfig max_position_embeddings) and hidden_size channels (GPT2Config n_embd).
void read_learned(const Fields& f, ModelConfig& out) {
  if (const auto t = f.text("position_embedding_type"); t && *t != "absolute")  // BertConfig
    refuse(f.name("position_embedding_type") + " '" + *t + "' is not supported (only 'absolute')");
  out.scheme = PositionScheme::learned_absolute;
  out.max_position_embeddings = max_positions_of(f);
  if (!out.max_position_embeddings) refuse(f.name("max_position_embeddings") + " is missing");
  const auto width = f.integer_alias({"hidden_size", "n_embd", "d_model"}, 1, kMaxWidth);
  if (!width) refuse(f.name("hidden_size") + " is missing");
  out.width = int(*width);
  out.heads = heads_of(f);
}

// T5Config: relative_attention_num_buckets (32), relative_attention_max_distance (128), num_heads; the
// encoder's buckets are bidirectional (models/t5/modeling_t5.py, T5Attention.compute_bias).
void read_t5(const Fields& f, ModelConfig& out) {
  out.scheme = PositionScheme::t5_relative;
  out.heads = heads_of(f);
  out.width = int(f.integer_alias({"d_model", "hidden_size"}, 1, kMaxWidth).value_or(0));
  const Limit& b = limits::num_buckets;
  const Limit& d = limits::t5_max_distance;
  const auto buckets = f.integer("relative_attention_num_buckets", (long long)b.min, (long long)b.max);
  const auto distance = f.integer("relative_attention_max_distance", (long long)d.min, (long long)d.max);
  if (!buckets) refuse(f.name("relative_attention_num_buckets") + " is missing");
  if (!distance) refuse(f.name("relative_attention_max_distance") + " is missing");
  out.num_buckets = int(*buckets);
  out.max_distance = int(*distance);
}

// ALiBi: MptModel always adds build_mpt_alibi_tensor(n_heads, max_seq_len) with alibi_bias_max 8
// (models/mpt/modeling_mpt.py; the config's attn_config is not consulted); BloomModel build_alibi_tensor
// (models/bloom/modeling_bloom.py); FalconModel when FalconConfig.alibi is true.
void read_alibi(const Fields& f, ModelConfig& out) {
  out.scheme = PositionScheme::alibi;
  out.heads = heads_of(f);
  out.max_position_embeddings = max_positions_of(f);
}

enum class Family { rope, learned, t5, alibi };

Family family_of(const Fields& f, std::string_view model_type) {
  if (in(model_type, {"mpt", "bloom"})) return Family::alibi;
  if (model_type == "falcon" && f.boolean("alibi").value_or(false)) return Family::alibi;
  if (in(model_type, {"t5", "mt5"}) || f.has("relative_attention_num_buckets")) return Family::t5;
  if (in(model_type, {"gpt2", "gpt_bigcode", "gpt_neo", "bert", "roberta", "xlm-roberta", "opt"}))
    return Family::learned;
  if (rope_model_type(model_type) || has_rope_fields(f)) return Family::rope;
  if (model_type.empty()) refuse("not a model config: no model_type and no position fields");
  refuse("model_type '" + std::string(model_type) + "' is not supported (no RoPE, learned, T5 or ALiBi fields)");
}

// A value "read" from a field the file leaves out came from the config class's default (with_defaults).
void mark_class_defaults(const Fields& file, ModelConfig& out) {
  const nlohmann::json defaults = class_defaults(out.model_type);
  const auto mark = [&](std::vector<ValueOrigin>& origins) {
    for (ValueOrigin& o : origins) {
      if (o.origin != Origin::read || o.source.rfind(file.prefix, 0) != 0) continue;
      const std::string key = o.source.substr(file.prefix.size());
      if (defaults.contains(key) && !file.has(key)) {
        o.origin = Origin::class_default;
        o.source += " " + shown(defaults[key]) + " (the " + out.model_type + " config class's default)";
      }
    }
  };
  for (LayerTypeRope& l : out.layer_types) mark(l.origins);
  mark(out.origins);
}

std::string name_of(const Fields& top, std::string_view fallback) {
  const auto n = top.text("_name_or_path");
  return n && !n->empty() ? *n : std::string(fallback);
}

}  // namespace

std::string_view to_string(PositionScheme s) {
  switch (s) {
    case PositionScheme::rope: return "rope";
    case PositionScheme::learned_absolute: return "learned_absolute";
    case PositionScheme::t5_relative: return "t5_relative";
    case PositionScheme::alibi: return "alibi";
  }
  return "?";
}

ModelConfig read_model_config(std::string_view json_text, std::string_view fallback_name) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    refuse("not a JSON file (parse error at byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::exception&) {
    refuse("not a JSON file (a number or string it cannot hold)");
  }
  if (!j.is_object()) refuse("not a model config: the file holds " + shown(j) + ", not a JSON object");
  const Fields top{j, ""};
  ModelConfig out;
  out.name = name_of(top, fallback_name);
  // Multimodal wrappers keep the language model in text_config (Gemma3Config.text_config ->
  // Gemma3TextConfig); its model_type and fields are the ones that count.
  const std::optional<Fields> nested = top.object_at("text_config");
  const Fields& raw = nested ? *nested : top;
  const std::string outer = top.text("model_type").value_or("");
  out.model_type = raw.text("model_type").value_or(nested && outer == "gemma3" ? "gemma3_text" : outer);
  const nlohmann::json merged = with_defaults(raw.object, out.model_type);
  const Fields f{merged, raw.prefix};
  switch (family_of(f, out.model_type)) {
    case Family::learned: read_learned(f, out); break;
    case Family::t5: read_t5(f, out); break;
    case Family::alibi: read_alibi(f, out); break;
    case Family::rope: model_config_detail::read_rope_scheme(f, out); break;
  }
  mark_class_defaults(raw, out);
  model_config_detail::note_unmodelled(top, out);
  if (nested) model_config_detail::note_unmodelled(*nested, out);
  return out;
}

ModelConfig load_model_config(const std::string& path) {
  const std::string text = read_file_bytes(path, "config", kMaxConfigBytes);
  const std::filesystem::path p(path);
  std::string fallback = p.stem().string();
  if (p.filename() == "config.json" && p.has_parent_path()) {
    const std::filesystem::path folder = std::filesystem::absolute(p).parent_path().filename();
    if (!folder.empty()) fallback = folder.string();
  }
  return read_model_config(text, fallback);
}

const LayerTypeRope& layer_type_rope(const ModelConfig& c, std::string_view layer_type) {
  if (c.scheme != PositionScheme::rope || c.layer_types.empty())
    throw ParamError("layer-type", "the model uses " + std::string(to_string(c.scheme)) + ", not RoPE");
  const auto named = [&](std::string_view t) {
    return std::find_if(c.layer_types.begin(), c.layer_types.end(),
                        [&](const LayerTypeRope& l) { return l.layer_type == t; });
  };
  if (layer_type.empty()) {
    const auto full = named("full_attention");
    return full != c.layer_types.end() ? *full : c.layer_types.front();
  }
  const auto it = named(layer_type);
  if (it != c.layer_types.end()) return *it;
  std::string names;
  for (const LayerTypeRope& l : c.layer_types) names += (names.empty() ? "" : ", ") + l.layer_type;
  throw ParamError("layer-type", "must be one of the config's layer types (" + names + "), got '" +
                                     std::string(layer_type) + "'");
}

}  // namespace peviz
