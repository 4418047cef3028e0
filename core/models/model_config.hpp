// Reads a Hugging Face config.json as transformers does and returns the model's position scheme.
//
// The rules, field by field, follow transformers' config classes and src/transformers/modeling_rope_utils.py
// (RotaryEmbeddingConfigMixin.standardize_rope_params and the _compute_*_parameters functions); each rule
// cites its source where it is applied (core/models/model_config.cpp, core/models/model_config_rope.cpp) and
// docs/model-config.md lists them. What the reader does not know (a rope_type, a position embedding type, a
// model_type without position fields) is refused with one line naming the field and its value; fields that
// have nothing to do with positions are ignored. Every error is a ParamError("config", rule).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/models/value_origin.hpp"
#include "core/rope/rope_scaling.hpp"

namespace peviz {

enum class PositionScheme { rope, learned_absolute, t5_relative, alibi };

// The RoPE of one kind of attention layer. Gemma 3 has two: full_attention (rope_theta, rope_scaling) and
// sliding_attention (rope_local_base_freq, no scaling); most models have one, named full_attention.
struct LayerTypeRope {
  std::string layer_type;      // "full_attention", "sliding_attention", ... as transformers names it
  int layers = 0;              // layers of this type (0 when the config does not say)
  RopeParams rope;             // head_dim, rotary_dim, base (rope_theta), pairing
  RopeScalingParams scaling;   // rope_type and its parameters; seq_len is left unset (the caller's)
  std::vector<ValueOrigin> origins;  // head_dim, rotary_dim, rope_theta, layout, rope_type and the scaling's fields
};

// How one layer sees position and over what span (core/models/model_config_layers.cpp derives it as transformers'
// config classes do; docs/model-config.md lists the fields).
enum class LayerPositions { rope, nope, none };  // rotates q and k / attends without positions / not attention
enum class LayerSpan { full, sliding, chunked, linear };  // linear: a linear-attention (recurrent) layer

struct ModelLayer {
  LayerPositions positions = LayerPositions::rope;
  LayerSpan attention = LayerSpan::full;
  int window = 0;              // tokens a query sees back (sliding) or its chunk's size (chunked); 0 = all
  std::string layer_type;      // transformers' name: "full_attention", "chunked_attention", ...
  bool query_scaled = false;   // Llama 4: the queries are scaled by position (ModelConfig::query_scale)
  int group = 0;               // its index in ModelConfig::layer_groups
};

// Layers that see position the same way over the same span, in order of first appearance, with their count.
struct LayerGroup {
  LayerPositions positions = LayerPositions::rope;
  LayerSpan attention = LayerSpan::full;
  int window = 0;
  bool query_scaled = false;
  int layers = 0;
};

// Llama 4's attn_temperature_tuning on its NoPE layers (models/llama4/modeling_llama4.py,
// Llama4TextAttention.forward): q *= log(floor((pos + 1) / floor_scale) + 1) * attn_scale + 1.
struct QueryScale {
  double floor_scale = 8192;
  double attn_scale = 0.1;
};

// Multimodal RoPE (Qwen2-VL and later): the position axis each rotary pair turns with.
enum class RopeAxis { t, h, w };

struct ModelConfig {
  std::string name;                       // _name_or_path, else the caller's fallback name
  std::string model_type;                 // "llama", "qwen2", ... ("" when the file has none)
  PositionScheme scheme = PositionScheme::rope;
  int max_position_embeddings = 0;        // the context window (extended, for scaled RoPE); 0 = not given
  // RoPE: `rope` and `scaling` are those of the default layer type (full_attention when present, else
  // the first); `layer_types` lists every layer type, the default one included.
  RopeParams rope;
  RopeScalingParams scaling;
  std::vector<LayerTypeRope> layer_types;
  int heads = 0;          // attention heads (T5 and ALiBi: one bias per head; others: informative)
  int width = 0;          // learned absolute: channels of the position table (n_embd / hidden_size)
  int num_buckets = 0;    // T5: relative_attention_num_buckets
  int max_distance = 0;   // T5: relative_attention_max_distance
  bool bidirectional = true;  // T5: the encoder's buckets (the decoder's are causal)
  // RoPE models: one entry per layer (empty when the config gives no num_hidden_layers).
  std::vector<ModelLayer> layers;
  std::vector<LayerGroup> layer_groups;  // the layers grouped, computed once when the config is read
  QueryScale query_scale;        // used by the layers with query_scaled
  std::vector<RopeAxis> pair_axis;  // M-RoPE: one per rotary pair; empty = every pair turns with the token index
  // Fields present in the file that change positions or attention spans and that peviz does not model, each
  // as "field value: what it does" (never silently dropped).
  std::vector<std::string> unmodelled;
  // RoPE models: where the layer map's values came from (num_hidden_layers, layer_types, no_rope_layers, windows,
  // the query scale), and max_position_embeddings.
  std::vector<ValueOrigin> origins;
};

// Parses `json_text` (a config.json) into the model's position scheme. `fallback_name` names the model when
// the file has no _name_or_path. Throws ParamError("config", "<field> <value> ...") on anything it refuses.
ModelConfig read_model_config(std::string_view json_text, std::string_view fallback_name);

// Reads the file (at most 16 MiB) and parses it; the fallback name is the file's folder for a file called
// config.json ("…/Llama-3.1-8B/config.json" -> "Llama-3.1-8B"), else the file name without .json.
ModelConfig load_model_config(const std::string& path);

// The RoPE of layer type `layer_type` ("" = the default one). Throws ParamError("layer-type", ...) naming
// the config's layer types when it has no such type, or when the model does not use RoPE.
const LayerTypeRope& layer_type_rope(const ModelConfig& c, std::string_view layer_type);

// "rope", "learned_absolute", "t5_relative", "alibi".
std::string_view to_string(PositionScheme s);
// "rope", "nope", "none"; "full", "sliding", "chunked", "linear"; "t", "h", "w".
std::string_view to_string(LayerPositions p);
std::string_view to_string(LayerSpan s);
std::string_view to_string(RopeAxis a);

// "RoPE, chunked 8192", "NoPE, full, queries scaled", "no positions (linear attention)".
std::string describe(const LayerGroup& g);
// "36 RoPE, chunked 8192 · 12 NoPE, full, queries scaled"; "" for a model without a layer map.
std::string describe_layers(const ModelConfig& c);

// Llama 4's query scale at position `pos` (0-based): log(floor((pos + 1) / floor_scale) + 1) * attn_scale + 1; 1 for
// every position below floor_scale - 1.
double query_scale_at(const QueryScale& q, double pos);
// The query scale of a layer as a formula in pos ("log(floor((pos + 1) / 8192) + 1) * 0.1 + 1"), "" when none.
std::string query_scale_formula(const ModelConfig& c, const ModelLayer& layer);

}  // namespace peviz
