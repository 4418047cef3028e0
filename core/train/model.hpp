// The decoder-only transformer of the length-generalisation lab: parameters, activations, forward, backward.
//
// Exactly: token embedding [+ absolute position table]; per layer pre-LayerNorm blocks
// x += attn(ln1(x)), x += mlp(ln2(x)) with biased q/k/v and output projections, scale 1/sqrt(head_dim),
// MLP d -> 4d -> d with exact GELU; final LayerNorm; untied output head with bias; cross-entropy on the
// targeted tokens only. Position encoding: see PositionEncoding. Parameters, their gradients, the
// activations and their gradients each live in ONE buffer allocated once, addressed by named offsets
// (karpathy/llm.c train_gpt2.c, ParameterTensors / ActivationTensors).
#pragma once
#include <array>
#include <cstdint>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include "core/encodings/alibi.hpp"
#include "core/train/layers.hpp"
#include "core/train/packed_batch.hpp"
#include "core/train/positions.hpp"

namespace peviz::train {

enum class PositionEncoding {
  nope, sinusoidal, learned, rope, alibi, t5, rand_sinusoidal, rand_learned, rand_rope, coupled, coupled_rope, fire,
  rand_fire, abacus, random_start
};

// How an encoding brings position into the model (the families of Kazemnejad et al. 2023, §3).
enum class PositionMechanism {
  none,            // NoPE: only the causal mask orders the tokens
  added_table,     // a fixed table added to the token embeddings (table: the rows)
  trainable_table, // a trainable table added to the token embeddings (wpe, as long as the training sequences)
  qk_rotation,     // queries and keys rotated by their positions (RoPE)
  fixed_bias,      // a fixed bias slope per head times the distance, added to the attention scores (slopes)
  trainable_bias,  // a trainable bias per head and distance bucket, added to the attention scores (T5)
  interpolated_bias,  // a trained function of the distance over the query's position, added to the scores (FIRE)
};

// One row per lab encoding: its spellings and what the model builds for it. Names, the CLI's --pe help, the
// state JSON, saved runs and the Lab's checkboxes all come from this table; adding an encoding of an existing
// mechanism = its enum value, its row and (for a table or slopes) its function. The classic six (`--pe all`, the
// Lab's default) read contiguous ids; the fixes (`--pe fixes`) are mechanisms of theirs given sampled ids
// (positions.hpp).
struct LabEncodingInfo {
  PositionEncoding id;
  std::string_view name;  // --pe, state JSON, saved runs: "nope", "rope", ...
  PositionMechanism mechanism;
  // Standard deviation of the initial token embedding: GPT-2's 0.02, or the RMS of an added fixed table
  // (model.cpp, token_embedding_std).
  double token_embedding_std = 0.02;
  // added_table: the [positions, d_model] table; fixed_bias: the slope of each head.
  std::vector<float> (*table)(int positions, int d_model) = nullptr;
  std::vector<double> (*slopes)(int heads) = nullptr;
  PositionSampler positions = PositionSampler::contiguous;  // the ids each sequence is given
  bool classic = true;                                       // one of the six `--pe all` trains; else a fix
};

std::vector<float> sinusoidal_lab_table(int positions, int d_model);

inline constexpr LabEncodingInfo kLabEncodings[] = {
    {.id = PositionEncoding::nope, .name = "nope", .mechanism = PositionMechanism::none},
    // sin^2 + cos^2 = 1 per pair: the sinusoid's entries have RMS sqrt(1/2).
    {.id = PositionEncoding::sinusoidal, .name = "sinusoidal", .mechanism = PositionMechanism::added_table,
     .token_embedding_std = std::numbers::sqrt2 / 2, .table = sinusoidal_lab_table},
    {.id = PositionEncoding::learned, .name = "learned", .mechanism = PositionMechanism::trainable_table},
    {.id = PositionEncoding::rope, .name = "rope", .mechanism = PositionMechanism::qk_rotation},
    {.id = PositionEncoding::alibi, .name = "alibi", .mechanism = PositionMechanism::fixed_bias, .slopes = alibi_slopes},
    {.id = PositionEncoding::t5, .name = "t5", .mechanism = PositionMechanism::trainable_bias},
    {.id = PositionEncoding::rand_sinusoidal, .name = "rand-sinusoidal", .mechanism = PositionMechanism::added_table,
     .token_embedding_std = std::numbers::sqrt2 / 2, .table = sinusoidal_lab_table,
     .positions = PositionSampler::randomized, .classic = false},
    {.id = PositionEncoding::rand_learned, .name = "rand-learned", .mechanism = PositionMechanism::trainable_table,
     .positions = PositionSampler::randomized, .classic = false},
    {.id = PositionEncoding::rand_rope, .name = "rand-rope", .mechanism = PositionMechanism::qk_rotation,
     .positions = PositionSampler::randomized, .classic = false},
    // Cho et al. couple ids over a learned absolute table (their APE runs).
    {.id = PositionEncoding::coupled, .name = "coupled", .mechanism = PositionMechanism::trainable_table,
     .positions = PositionSampler::coupled, .classic = false},
    // The same ids rotating queries and keys: the offset an answer looks for (+1, -1) is then a relative one.
    {.id = PositionEncoding::coupled_rope, .name = "coupled-rope", .mechanism = PositionMechanism::qk_rotation,
     .positions = PositionSampler::coupled, .classic = false},
    // Li et al. 2023 (fire.hpp): the contiguous ids, interpolated by the query's own position.
    {.id = PositionEncoding::fire, .name = "fire", .mechanism = PositionMechanism::interpolated_bias, .classic = false},
    // Zhou et al. 2024 ("Transformers Can Achieve Length Generalization But Not Robustly", §3) pair FIRE with
    // randomized ids: the same FIRE (its threshold L still starts at the longest training sequence), reading ids
    // drawn as rand-*'s, so training meets the id values and distances a longer test brings.
    {.id = PositionEncoding::rand_fire, .name = "rand-fire", .mechanism = PositionMechanism::interpolated_bias,
     .positions = PositionSampler::randomized, .classic = false},
    // McLeish et al. 2024: a trainable table read by each digit's index within its number (positions.hpp, abacus),
    // added to the token embeddings; attention itself has no position (their Abacus + NoPE runs).
    {.id = PositionEncoding::abacus, .name = "abacus", .mechanism = PositionMechanism::trainable_table,
     .positions = PositionSampler::abacus, .classic = false},
    // SHAPE (Kiyono et al. 2021): the learned table read from a random start, so its high rows are trained.
    {.id = PositionEncoding::random_start, .name = "random-start", .mechanism = PositionMechanism::trainable_table,
     .positions = PositionSampler::random_start, .classic = false},
};
inline constexpr std::size_t kLabEncodingCount = std::size(kLabEncodings);
inline constexpr std::array<PositionEncoding, kLabEncodingCount> kAllPositionEncodings = [] {
  std::array<PositionEncoding, kLabEncodingCount> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = kLabEncodings[i].id;
  return all;
}();
constexpr const LabEncodingInfo& lab_encoding_info(PositionEncoding pe) { return kLabEncodings[std::size_t(pe)]; }
constexpr PositionMechanism mechanism_of(PositionEncoding pe) { return lab_encoding_info(pe).mechanism; }
constexpr PositionSampler sampler_of(PositionEncoding pe) { return lab_encoding_info(pe).positions; }
// The first encoding of the table whose model this one's is (the same mechanism, table and slopes; ids apart):
// rand-rope -> rope, coupled -> learned, fire and rand-fire -> fire. The PyTorch twin implements one model per such encoding.
PositionEncoding mechanism_encoding(PositionEncoding pe);
// The classic six (`--pe all`) and the fixes (`--pe fixes`), table order.
std::vector<PositionEncoding> classic_encodings();
std::vector<PositionEncoding> fix_encodings();
std::string_view to_string(PositionEncoding pe);
// The names joined: "nope, sinusoidal, learned, rope, alibi, t5" with the given separator.
std::string lab_encoding_names(std::string_view separator = ", ");
// Any name of the table; false when unknown.
bool parse_position_encoding(std::string_view s, PositionEncoding& out);
// The group names a list of encodings may use: "all" (the classic six) and "fixes" (the rest); false when unknown.
inline constexpr std::string_view kClassicGroup = "all", kFixesGroup = "fixes";
bool parse_encoding_group(std::string_view s, std::vector<PositionEncoding>& out);

// How the attention logits of a query that sees n keys (n = its index in its sequence + 1) are scaled before the
// softmax (docs/attention-scale.md; core/models/attention_scale.hpp draws the same factors):
//   none   1
//   ssmax  s_h ln n, s trained per layer and head (Nakanishi 2025, Scalable-Softmax); s starts at 1 / ln learned_len,
//          so that at the longest training sequence the model starts as the plain softmax
//   logn   max(1, ln n / ln learned_len) (Qwen's log-n attention, L = the longest training sequence)
// The factor multiplies the whole logit row (q.k / sqrt(d) plus any position bias), as SSMax multiplies the
// softmax's input.
enum class LengthScale { none, ssmax, logn };
inline constexpr std::string_view kLengthScaleNames[] = {"none", "ssmax", "logn"};
std::string_view to_string(LengthScale s);
bool parse_length_scale(std::string_view s, LengthScale& out);

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
  int position_range = 0;  // sampled ids (rand-*, coupled): ids in [0, position_range), the rows of every table
  double rope_base = 10000;
  int t5_buckets = 32;       // T5: causal buckets (core's t5_relative_position_bucket), one table for all layers
  int t5_max_distance = 128;
  LengthScale length_scale = LengthScale::none;
  // A layer schedule (SmolLM3's no_rope_layer_interval, Llama 4's NoPE layers): with K > 0, layers K - 1, 2K - 1, ...
  // attend without the encoding (no rotation, no bias); 0: every layer uses it. Encodings acting in attention only.
  int nope_every = 0;
  // DroPE (Gelberg et al., ICLR 2026, "Extending the Context of Pretrained LLMs by Dropping Their Positional
  // Embeddings"): true once the positions are dropped, so that no layer rotates or adds a bias; a run sets it for its
  // last drope-steps steps (run.hpp positions_dropped) and keeps it for evaluation.
  bool positions_dropped = false;
  bool positions_in_layer(int l) const {
    return !positions_dropped && (nope_every == 0 || (l + 1) % nope_every != 0);
  }
  int head_dim() const { return d_model / heads; }
  // Rows of the position table or rotation: position_range with sampled ids, else learned_len for a trainable
  // table and max_positions for the others. A position id must be below it.
  int position_rows() const;
};

// Parameter tensors in buffer order; per-layer tensors are stacked [layers, ...] as in llm.c. FIRE's come last, so
// that every other tensor keeps its seed (tensor_seed in model.cpp hashes the position in this list).
enum class Param {
  wte, wpe, t5_bias, ln1w, ln1b, qkvw, qkvb, attprojw, attprojb, ln2w, ln2b, fcw, fcb, fcprojw, fcprojb, lnfw,
  lnfb, headw, headb, fire_w1, fire_b1, fire_w2, fire_c, fire_threshold, ssmax_s, count
};
inline constexpr int kParamCount = int(Param::count);
// Names used in saved runs ("wte", "wpe", "t5_bias", "fire_w1", ..., "ln1w", ...).
std::string_view param_name(Param p);
// Shape of each tensor (zero elements when the encoding does not use it: wpe, t5_bias, fire_*; ssmax_s [layers,
// heads] only with LengthScale::ssmax).
std::vector<std::size_t> param_shape(const ModelConfig& c, Param p);

struct ParamLayout {
  std::array<std::size_t, kParamCount + 1> offset{};  // offset[p] .. offset[p+1]
  std::size_t total() const { return offset[kParamCount]; }
  std::size_t size(Param p) const { return offset[int(p) + 1] - offset[int(p)]; }
};
ParamLayout param_layout(const ModelConfig& c);

// Activation tensors for up to `token_capacity` packed tokens and `att_capacity` attention values per layer.
enum class Act {
  encoded, ln1, ln1_mean, ln1_rstd, qkv, atty, att, residual2, ln2, ln2_mean, ln2_rstd, fch, fch_gelu, fch_dgelu,
  residual3, lnf, lnf_mean, lnf_rstd, logits, probs, count
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
  std::vector<T> scratch;               // four [L, L] blocks for attention (two per core: dropout's, backward's)
  std::vector<T> weight_t;              // matmul_forward's W^T, the largest linear layer's [C, OC]
  std::vector<T> pe_table;              // sinusoidal: core's interleaved table [max_positions, d_model]
  RopeTable<T> rope;                    // rope: cos/sin [max_positions, head_dim/2]
  std::vector<double> alibi_slopes;     // alibi: core's slopes [heads]
  std::vector<int> t5_bucket;           // t5: bucket of distance i - j, [max_positions]
  std::vector<T> fire_bias, fire_dbias;  // fire: the bias and its gradient over the layers, [att_capacity] each
  double last_loss = 0;
  Dropout dropout;                      // the training step's (dropout.hpp); off (p = 0) unless a step sets it

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
// (Vaswani et al. 2017 §3.4; see token_embedding_std in model.cpp). FIRE's MLP at torch.nn.Linear's scale
// (N(0, 1/fan_in) weights: w1 and b1 N(0, 1), w2 N(0, 1/32)), c = 1 and L = learned_len, the longest
// training sequence (init_fire in model.cpp).
template <class T>
Model<T> make_model(const ModelConfig& c, int token_capacity, std::size_t att_capacity, std::uint64_t seed);

// Forward pass of a packed batch; returns the mean cross-entropy over its targets. m.dropout, when on, drops
// attention probabilities and both residual branches of every layer (dropout.hpp), and the backward after it
// multiplies by the same masks. Throws
// std::invalid_argument when the batch exceeds the capacities, a sequence is longer than max_positions or a
// position id is not below position_rows().
template <class T>
double model_forward(Model<T>& m, const PackedBatch& b);
// Backward pass after model_forward on the same batch: fills m.grads (overwritten, not accumulated).
template <class T>
void model_backward(Model<T>& m, const PackedBatch& b);

// Number of trainable parameters.
std::size_t parameter_count(const ModelConfig& c);

}  // namespace peviz::train
