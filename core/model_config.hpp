// Reads a Hugging Face config.json as transformers does and returns the model's position scheme.
//
// The rules, field by field, follow transformers' config classes and src/transformers/modeling_rope_utils.py
// (RotaryEmbeddingConfigMixin.standardize_rope_params and the _compute_*_parameters functions); each rule
// cites its source where it is applied (core/model_config.cpp, core/model_config_rope.cpp) and
// docs/model-config.md lists them. What the reader does not know (a rope_type, a position embedding type, a
// model_type without position fields) is refused with one line naming the field and its value; fields that
// have nothing to do with positions are ignored. Every error is a ParamError("config", rule).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/rope_scaling.hpp"

namespace peviz {

enum class PositionScheme { rope, learned_absolute, t5_relative, alibi };

// The RoPE of one kind of attention layer. Gemma 3 has two: full_attention (rope_theta, rope_scaling) and
// sliding_attention (rope_local_base_freq, no scaling); most models have one, named full_attention.
struct LayerTypeRope {
  std::string layer_type;      // "full_attention", "sliding_attention", ... as transformers names it
  int layers = 0;              // layers of this type (0 when the config does not say)
  RopeParams rope;             // head_dim, rotary_dim, base (rope_theta), pairing
  RopeScalingParams scaling;   // rope_type and its parameters; seq_len is left unset (the caller's)
};

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

}  // namespace peviz
