// The decoder-only transformer of the length-generalisation lab: parameters, activations, forward, backward.
//
// Exactly (issue 11): token embedding [+ absolute position table]; per layer pre-LayerNorm blocks
// x += attn(ln1(x)), x += mlp(ln2(x)) with biased q/k/v and output projections, scale 1/sqrt(head_dim),
// MLP d -> 4d -> d with exact GELU; final LayerNorm; untied output head with bias; cross-entropy on the
// targeted tokens only. Position encoding: see PositionEncoding. Parameters, their gradients, the
// activations and their gradients each live in ONE buffer allocated once, addressed by named offsets
// (karpathy/llm.c train_gpt2.c, ParameterTensors / ActivationTensors).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/train/layers.hpp"
#include "core/train/packed_batch.hpp"

namespace peviz::train {

enum class PositionEncoding { nope, sinusoidal, learned, rope, alibi, t5 };
inline constexpr std::array<PositionEncoding, 6> kAllPositionEncodings{
    PositionEncoding::nope, PositionEncoding::sinusoidal, PositionEncoding::learned,
    PositionEncoding::rope, PositionEncoding::alibi,      PositionEncoding::t5};
std::string_view to_string(PositionEncoding pe);
// "nope", "sinusoidal", "learned", "rope", "alibi", "t5"; false when unknown.
bool parse_position_encoding(std::string_view s, PositionEncoding& out);

// A model's shape. model_config(TrainSettings) derives it from a run's settings (whose defaults and ranges are the
// limits table's); the values here are a small model for tests that build one directly.
struct ModelConfig {
  int vocab = 13;          // token ids 0..vocab-1
  int layers = 2;
  int heads = 2;
  int d_model = 64;        // head_dim = d_model / heads, even
  PositionEncoding pe = PositionEncoding::rope;
  int learned_len = 43;    // learned: rows of the trainable table = longest training sequence
  int max_positions = 83;  // longest sequence any pass will see (tables for sinusoid / RoPE / T5 sized to it)
  double rope_base = 10000;
  int t5_buckets = 32;       // T5: causal buckets (core's t5_relative_position_bucket), one table for all layers
  int t5_max_distance = 128;
  int head_dim() const { return d_model / heads; }
};

// Parameter tensors in buffer order; per-layer tensors are stacked [layers, ...] as in llm.c.
enum class Param {
  wte, wpe, t5_bias, ln1w, ln1b, qkvw, qkvb, attprojw, attprojb, ln2w, ln2b, fcw, fcb, fcprojw, fcprojb, lnfw,
  lnfb, headw, headb, count
};
inline constexpr int kParamCount = int(Param::count);
// Names used in saved runs ("wte", "wpe", "t5_bias", "ln1w", ...).
std::string_view param_name(Param p);
// Shape of each tensor ({} with zero elements when the encoding does not use it: wpe, t5_bias).
std::vector<std::size_t> param_shape(const ModelConfig& c, Param p);

struct ParamLayout {
  std::array<std::size_t, kParamCount + 1> offset{};  // offset[p] .. offset[p+1]
  std::size_t total() const { return offset[kParamCount]; }
  std::size_t size(Param p) const { return offset[int(p) + 1] - offset[int(p)]; }
};
ParamLayout param_layout(const ModelConfig& c);

// Activation tensors for up to `token_capacity` packed tokens and `att_capacity` attention values per layer.
enum class Act {
  encoded, ln1, ln1_mean, ln1_rstd, qkv, atty, att, attproj, residual2, ln2, ln2_mean, ln2_rstd, fch, fch_gelu,
  fch_dgelu, fcproj, residual3, lnf, lnf_mean, lnf_rstd, logits, probs, count
};
inline constexpr int kActCount = int(Act::count);

template <class T>
struct Model {
  ModelConfig config;
  ParamLayout layout;
  int token_capacity = 0;               // tokens a packed batch may hold
  std::size_t att_capacity = 0;         // attention probabilities per layer (sum over sequences of heads * L^2)
  std::vector<T> params, grads;         // layout.total() each
  std::array<std::size_t, kActCount + 1> act_offset{};       // into acts
  std::array<std::size_t, kActCount + 1> grad_act_offset{};  // into grad_acts (no att block)
  std::vector<T> acts, grad_acts;       // activations and their gradients
  std::vector<T> scratch;               // two [L, L] blocks for attention backward (one per core)
  std::vector<T> pe_table;              // sinusoidal: core's interleaved table [max_positions, d_model]
  RopeTable<T> rope;                    // rope: cos/sin [max_positions, head_dim/2]
  std::vector<double> alibi_slopes;     // alibi: core's slopes [heads]
  std::vector<int> t5_bucket;           // t5: bucket of distance i - j, [max_positions]
  double last_loss = 0;

  T* param(Param p) { return params.data() + layout.offset[int(p)]; }
  const T* param(Param p) const { return params.data() + layout.offset[int(p)]; }
  T* grad(Param p) { return grads.data() + layout.offset[int(p)]; }
  T* act(Act a) { return acts.data() + act_offset[int(a)]; }
  const T* act(Act a) const { return acts.data() + act_offset[int(a)]; }
  T* grad_act(Act a) { return grad_acts.data() + grad_act_offset[int(a)]; }
};

// Allocates every buffer and initialises the weights GPT-2 style from `seed`: weights N(0, 0.02^2)
// (core's learned_random_table generator), biases 0, LayerNorm weights 1; the learned position table
// is core's learned_random_table(learned_len, d_model) itself; T5 scalars N(0, 0.02^2). The token
// embedding is N(0, 0.02^2) too, except beside the sinusoidal table: N(0, 1/2), the table's own RMS
// (Vaswani et al. 2017 §3.4; see token_embedding_std in model.cpp).
template <class T>
Model<T> make_model(const ModelConfig& c, int token_capacity, std::size_t att_capacity, std::uint64_t seed);

// Forward pass of a packed batch; returns the mean cross-entropy over its targets. Throws
// std::invalid_argument when the batch exceeds the capacities or a position exceeds max_positions
// (or learned_len with a learned table).
template <class T>
double model_forward(Model<T>& m, const PackedBatch& b);
// Backward pass after model_forward on the same batch: fills m.grads (overwritten, not accumulated).
template <class T>
void model_backward(Model<T>& m, const PackedBatch& b);

// Number of trainable parameters.
std::size_t parameter_count(const ModelConfig& c);

}  // namespace peviz::train
