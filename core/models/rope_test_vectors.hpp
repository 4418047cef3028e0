// Reference RoPE test vectors for a model config: per group of layers, what transformers' rotary embedding returns.
//
// Conventions, each as transformers (src/transformers/modeling_rope_utils.py and models/llama/modeling_llama.py,
// LlamaRotaryEmbedding.forward) computes it in float32:
//  - inv_freq: the layer type's scaled inverse frequencies (core/rope/rope_scaling.hpp), rounded to float32.
//  - The sequence holds every given position; its length is max(position) + 1, which picks dynamic NTK's base and
//    LongRoPE's short or long factors (dynamic_frequency_update, longrope_frequency_update).
//  - angle = float32(position * inv_freq_j), as the float32 matmul of inv_freq and position_ids rounds it;
//    cos[p][j] = float32(float32(cos(angle)) * float32(attention_factor)), sin likewise. Per pair j: transformers
//    repeats them over both halves (emb = cat(freqs, freqs)) for the halves layout, or over 2j and 2j + 1.
//  - scores[p] = q' . k' (no 1/sqrt(head_dim)) with q rotated to position p and k to position 0
//    (cos = attention_factor, sin = 0), for q[i] = (i + 1) / head_dim and k[i] = (head_dim - i) / head_dim: the two
//    differ channel by channel, so a wrong pairing or a wrong sign of sin changes the score. Channels past rotary_dim
//    pass through unrotated and unscaled. Pair j of the halves layout is channels (j, j + R/2); of the interleaved
//    layout (2j, 2j + 1); a pair (a, b) turns to (a cos - b sin, b cos + a sin).
#pragma once
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/models/model_config.hpp"

namespace peviz {

// Layers that share their layer type and rotary settings.
struct RopeVectorGroup {
  std::vector<int> layers;        // 0-based layer indices; empty when the config gives no num_hidden_layers
  std::string layer_type;         // transformers' name: "full_attention", "sliding_attention", ...
  bool rope = true;               // false: NoPE layers, or linear attention (no positions)
  bool attention = true;          // false: linear attention layers (recurrent: no q.k scores)
  int head_dim = 0;
  int rotary_dim = 0;             // channels that rotate (head_dim when every channel does); 0 for NoPE
  RopePairing pairing = RopePairing::halves;
  double base = 0;                // rope_theta of these layers
  double factor = 1;              // the scaling's factor as used (1 for none)
  std::string rope_type;          // transformers' rope_type: "default", "linear", "dynamic", "yarn", "llama3", "longrope"
  std::vector<float> inv_freq;    // rotary_dim / 2
  float attention_factor = 1;     // on cos and sin (transformers' attention_scaling)
  std::vector<std::vector<float>> cos, sin;  // [position][pair]
  std::vector<float> q, k;        // head_dim each: the score vectors above
  std::vector<double> scores;     // [position]
  std::vector<double> query_scale;  // [position]: Llama 4's query scale on these layers, empty when none
  std::vector<ValueOrigin> origins;  // where the layer type's rotary values came from; empty for NoPE groups
};

struct RopeTestVectors {
  std::vector<long long> positions;
  long long seq_len = 0;          // max(positions) + 1
  std::vector<RopeVectorGroup> groups;
};

// Limits on --positions (the limits table's): at most this many, each in [0, kMaxTestPosition].
inline constexpr std::size_t kMaxTestPositions = std::size_t(limits::rope_test_positions.max);
inline constexpr long long kMaxTestPosition = (long long)limits::rope_test_position.max;

// The layer type a RoPE layer of type `layer_type` takes its rotary settings from: its own when the config reads one
// for it (Gemma 3's sliding_attention), else the default one (Llama 4's chunked layers rotate with rope_theta's).
const LayerTypeRope& rope_of_layer(const ModelConfig& c, const std::string& layer_type);

// The positions used when the caller gives none: 0, 1, 2, 3, then powers of two to the model's context window.
std::vector<long long> default_test_positions(const ModelConfig& c);

// The vectors of every group of `c` (a RoPE model; ParamError("config") otherwise) at `positions` (non-empty, each
// in range; ParamError("positions") otherwise).
RopeTestVectors rope_test_vectors(const ModelConfig& c, std::span<const long long> positions);

// The file `peviz export rope-test-vectors --format json` writes: {"model", "model_type", "positions", "seq_len",
// "origins", "groups": [{"layers", "layer_type", "rope", "head_dim", "rotary_dim", "layout", "rope_type", "inv_freq",
// "attention_factor", "cos", "sin", "q", "k", "scores", "query_scale" (query-scaled groups only), "origins"}]}.
nlohmann::json rope_test_vectors_json(const ModelConfig& c, const RopeTestVectors& v);
// The same as safetensors bytes: F32 tensors "positions" and "group<i>.<key>" for inv_freq, cos, sin, q, k, scores
// (and query_scale), with every other key in "__metadata__" as JSON text ("groups": the groups without arrays).
std::string rope_test_vectors_safetensors(const ModelConfig& c, const RopeTestVectors& v);

// "0-2, 4-6, 8" for {0, 1, 2, 4, 5, 6, 8}.
std::string layer_ranges(const std::vector<int>& layers);

}  // namespace peviz
