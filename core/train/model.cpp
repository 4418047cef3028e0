// The lab's transformer: buffer layouts, GPT-2 initialisation, forward and backward over a packed batch.
#include "core/train/model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/alibi.hpp"
#include "core/encodings/t5_buckets.hpp"
#include "core/train/fire.hpp"

namespace peviz::train {

namespace {

constexpr std::string_view kParamNames[kParamCount] = {
    "wte", "wpe", "t5_bias", "ln1w", "ln1b", "qkvw", "qkvb", "attprojw", "attprojb", "ln2w",
    "ln2b", "fcw", "fcb",    "fcprojw", "fcprojb", "lnfw", "lnfb", "headw", "headb", "fire_w1", "fire_b1",
    "fire_w2", "fire_c", "fire_threshold", "ssmax_s"};

// The table is indexed by the enum.
static_assert([] {
  for (std::size_t i = 0; i < kLabEncodingCount; ++i)
    if (kLabEncodings[i].id != PositionEncoding(i)) return false;
  return true;
}());

// Values per token of each activation (att: values per layer, given separately), and whether it is per layer.
struct ActShape {
  std::size_t width;
  bool per_layer;
};
ActShape act_shape(const ModelConfig& c, Act a) {
  const std::size_t d = std::size_t(c.d_model);
  switch (a) {
    case Act::encoded: case Act::lnf: return {d, false};
    case Act::lnf_mean: case Act::lnf_rstd: return {1, false};
    case Act::logits: case Act::probs: return {std::size_t(c.vocab), false};
    case Act::ln1_mean: case Act::ln1_rstd: case Act::ln2_mean: case Act::ln2_rstd: return {1, true};
    case Act::qkv: return {3 * d, true};
    case Act::fch: case Act::fch_gelu: case Act::fch_dgelu: return {4 * d, true};
    case Act::att: return {0, true};
    default: return {d, true};
  }
}

// Offsets of every activation for `tokens` tokens and `att_per_layer` attention values per layer.
std::array<std::size_t, kActCount + 1> act_offsets(const ModelConfig& c, std::size_t tokens, std::size_t att_per_layer) {
  std::array<std::size_t, kActCount + 1> off{};
  for (int a = 0; a < kActCount; ++a) {
    const ActShape s = act_shape(c, Act(a));
    const std::size_t layers = s.per_layer ? std::size_t(c.layers) : 1;
    off[std::size_t(a) + 1] = off[std::size_t(a)] + layers * (Act(a) == Act::att ? att_per_layer : tokens * s.width);
  }
  return off;
}

std::uint64_t tensor_seed(std::uint64_t seed, Param p) { return seed ^ (0x9E3779B97F4A7C15ull * std::uint64_t(int(p) + 1)); }

// Token embedding scale: the RMS of the position signal added to it (the table's token_embedding_std), so that
// neither drowns the other at the first LayerNorm. GPT-2 draws wte and its learned wpe both N(0, 0.02^2) (HF
// GPT2Config initializer_range); Vaswani et al. 2017 §3.4 multiply the embeddings by sqrt(d_model) (tensor2tensor
// draws them N(0, 1/d_model)), unit-scale entries beside a sinusoid whose entries have RMS sqrt(1/2). With 0.02
// beside the sinusoid the token identity is a 3% ripple on the position signal and the model barely trains
// (docs/lab.md). No added table: GPT-2's 0.02.
double token_embedding_std(PositionEncoding pe) { return lab_encoding_info(pe).token_embedding_std; }

// N(0, stddev^2) from core's learned_random_table generator (which draws N(0, 0.02^2)), scaled.
template <class T>
void fill_normal(Model<T>& m, Param p, std::uint64_t seed, std::size_t cols, double stddev = 0.02) {
  const std::size_t n = m.layout.size(p);
  if (n == 0) return;
  const Matrix r = learned_random_table(int(n / cols), int(cols), tensor_seed(seed, p));
  const double scale = stddev / 0.02;
  std::transform(r.data.begin(), r.data.end(), m.param(p), [&](float v) { return T(double(v) * scale); });
}

template <class T>
void init_weights(Model<T>& m, std::uint64_t seed) {
  const ModelConfig& c = m.config;
  const std::size_t d = std::size_t(c.d_model);
  fill_normal(m, Param::wte, seed, d, token_embedding_std(c.pe));
  for (Param p : {Param::wpe, Param::qkvw, Param::attprojw, Param::fcw, Param::headw}) fill_normal(m, p, seed, d);
  fill_normal(m, Param::fcprojw, seed, 4 * d);
  if (mechanism_of(c.pe) == PositionMechanism::trainable_bias) fill_normal(m, Param::t5_bias, seed, std::size_t(c.t5_buckets));
  for (Param p : {Param::ln1w, Param::ln2w, Param::lnfw}) std::fill_n(m.param(p), m.layout.size(p), T(1));
}

// FIRE's MLP at torch.nn.Linear's scale, 1 / sqrt(fan_in): w1 and b1 (fan-in 1) N(0, 1), so that some units
// switch on inside u's [0, 1] (with b1 = 0 a unit with w1 < 0 would be off for every u, and stay off); w2 N(0, 1/32);
// c = 1; L = the longest training sequence, so that only a longer input is interpolated.
template <class T>
void init_fire(Model<T>& m, std::uint64_t seed) {
  if (mechanism_of(m.config.pe) != PositionMechanism::interpolated_bias) return;
  fill_normal(m, Param::fire_w1, seed, 1, 1.0);
  fill_normal(m, Param::fire_b1, seed, 1, 1.0);
  fill_normal(m, Param::fire_w2, seed, std::size_t(kFireHidden), 1.0 / std::sqrt(double(kFireHidden)));
  *m.param(Param::fire_c) = T(1);
  *m.param(Param::fire_threshold) = T(m.config.learned_len);
  m.fire_bias.assign(m.att_capacity, T(0));
  m.fire_dbias.assign(m.att_capacity, T(0));
}

// SSMax's s at 1 / ln(learned_len): at the longest training sequence the scale starts at 1, the plain softmax's.
template <class T>
void init_ssmax(Model<T>& m) {
  if (m.config.length_scale != LengthScale::ssmax) return;
  std::fill_n(m.param(Param::ssmax_s), m.layout.size(Param::ssmax_s), T(1.0 / std::log(double(m.config.learned_len))));
}

template <class T>
FireWeights<T> fire_weights(const Model<T>& m) {
  return {.w1 = m.param(Param::fire_w1), .b1 = m.param(Param::fire_b1), .w2 = m.param(Param::fire_w2),
          .c = m.param(Param::fire_c), .threshold = m.param(Param::fire_threshold),
          .heads = m.config.heads};
}

template <class T>
void init_position_tables(Model<T>& m) {
  const ModelConfig& c = m.config;
  const LabEncodingInfo& info = lab_encoding_info(c.pe);
  if (info.mechanism == PositionMechanism::added_table) {
    const std::vector<float> table = info.table(c.position_rows(), c.d_model);
    m.pe_table.assign(table.begin(), table.end());
  }
  if (info.mechanism == PositionMechanism::qk_rotation) m.rope = make_rope_table<T>(c.head_dim(), c.rope_base, c.position_rows());
  if (info.mechanism == PositionMechanism::fixed_bias) m.alibi_slopes = info.slopes(c.heads);
  if (info.mechanism == PositionMechanism::trainable_bias)
    for (int dist = 0; dist < c.max_positions; ++dist)  // key - query = -dist: the causal half
      m.t5_bucket.push_back(t5_relative_position_bucket(-dist, false, c.t5_buckets, c.t5_max_distance));
}

template <class T>
AttentionBias<T> attention_bias(const Model<T>& m) {
  AttentionBias<T> bias;
  if (mechanism_of(m.config.pe) == PositionMechanism::fixed_bias) bias.alibi_slopes = m.alibi_slopes.data();
  if (mechanism_of(m.config.pe) == PositionMechanism::trainable_bias) {
    bias.t5_table = m.param(Param::t5_bias);
    bias.t5_bucket = m.t5_bucket.data();
    bias.t5_buckets = m.config.t5_buckets;
  }
  if (mechanism_of(m.config.pe) == PositionMechanism::interpolated_bias) bias.fire = m.fire_bias.data();
  if (m.config.length_scale == LengthScale::logn) bias.logn_length = double(m.config.learned_len);
  return bias;
}

// The bias of layer l: SSMax's s are per layer; a layer the schedule leaves without positions has no position bias.
template <class T>
AttentionBias<T> layer_bias(const Model<T>& m, AttentionBias<T> bias, int l) {
  if (m.config.length_scale == LengthScale::ssmax) bias.ssmax_s = m.param(Param::ssmax_s) + std::size_t(l * m.config.heads);
  if (!m.config.positions_in_layer(l)) {
    bias.alibi_slopes = nullptr;
    bias.t5_table = nullptr;
    bias.fire = nullptr;
  }
  return bias;
}

template <class T>
void check_fits(const Model<T>& m, const PackedBatch& b) {
  if (b.n_tokens() > m.token_capacity) throw std::invalid_argument("packed batch exceeds the token capacity");
  const std::vector<int> off = attention_offsets(b, m.config.heads);
  if (std::size_t(off.back()) > m.att_capacity) throw std::invalid_argument("packed batch exceeds the attention capacity");
  const int longest = b.n_seqs() ? *std::max_element(b.seq_len.begin(), b.seq_len.end()) : 0;
  const int rows = m.config.position_rows();
  const bool ids_fit = std::all_of(b.positions.begin(), b.positions.end(), [&](int p) { return p >= 0 && p < rows; });
  if (longest > m.config.max_positions || !ids_fit) throw std::invalid_argument("a sequence is longer than the position tables");
}

// Per-layer slice of an activation (or its gradient) for layer l.
template <class T>
T* layer_slice(T* base, const Model<T>& m, Act a, int l) {
  const std::size_t width = act_shape(m.config, a).width;
  const std::size_t per_layer = a == Act::att ? m.att_capacity : std::size_t(m.token_capacity) * width;
  return base + std::size_t(l) * per_layer;
}

}  // namespace

std::vector<float> sinusoidal_lab_table(int positions, int d_model) {
  EncodingParams p;  // core's interleaved table, base 10000 (Vaswani et al. 2017 §3.5)
  p.d_model = d_model;
  p.seq_len = positions;
  return encode(p).data;
}

std::string_view to_string(PositionEncoding pe) { return lab_encoding_info(pe).name; }

std::string_view to_string(LengthScale s) { return kLengthScaleNames[std::size_t(s)]; }

bool parse_length_scale(std::string_view s, LengthScale& out) {
  for (std::size_t i = 0; i < std::size(kLengthScaleNames); ++i)
    if (kLengthScaleNames[i] == s) {
      out = LengthScale(i);
      return true;
    }
  return false;
}

PositionEncoding mechanism_encoding(PositionEncoding pe) {
  const LabEncodingInfo& info = lab_encoding_info(pe);
  for (const LabEncodingInfo& e : kLabEncodings)
    if (e.mechanism == info.mechanism && e.table == info.table && e.slopes == info.slopes) return e.id;
  return pe;
}

std::vector<PositionEncoding> classic_encodings() {
  std::vector<PositionEncoding> out;
  for (const LabEncodingInfo& e : kLabEncodings)
    if (e.classic) out.push_back(e.id);
  return out;
}

std::vector<PositionEncoding> fix_encodings() {
  std::vector<PositionEncoding> out;
  for (const LabEncodingInfo& e : kLabEncodings)
    if (!e.classic) out.push_back(e.id);
  return out;
}

bool parse_encoding_group(std::string_view s, std::vector<PositionEncoding>& out) {
  if (s == kClassicGroup) out = classic_encodings();
  else if (s == kFixesGroup) out = fix_encodings();
  else return false;
  return true;
}

int ModelConfig::position_rows() const {
  if (position_range > 0) return position_range;
  return mechanism_of(pe) == PositionMechanism::trainable_table ? learned_len : max_positions;
}

std::string lab_encoding_names(std::string_view separator) {
  std::string text;
  for (const LabEncodingInfo& e : kLabEncodings) text += (text.empty() ? "" : std::string(separator)) + std::string(e.name);
  return text;
}

bool parse_position_encoding(std::string_view s, PositionEncoding& out) {
  for (PositionEncoding pe : kAllPositionEncodings)
    if (to_string(pe) == s) {
      out = pe;
      return true;
    }
  return false;
}

std::string_view param_name(Param p) { return kParamNames[int(p)]; }

std::vector<std::size_t> param_shape(const ModelConfig& c, Param p) {
  const std::size_t L = std::size_t(c.layers), d = std::size_t(c.d_model), V = std::size_t(c.vocab);
  const bool fire = mechanism_of(c.pe) == PositionMechanism::interpolated_bias;
  switch (p) {
    case Param::wte: case Param::headw: return {V, d};
    case Param::wpe: return {mechanism_of(c.pe) == PositionMechanism::trainable_table ? std::size_t(c.position_rows()) : 0, d};
    case Param::t5_bias: return {std::size_t(mechanism_of(c.pe) == PositionMechanism::trainable_bias ? c.heads : 0), std::size_t(c.t5_buckets)};
    case Param::fire_w1: case Param::fire_b1: return {fire ? std::size_t(kFireHidden) : 0};
    case Param::fire_w2: return {fire ? std::size_t(c.heads) : 0, std::size_t(kFireHidden)};
    case Param::fire_c: case Param::fire_threshold: return {fire ? std::size_t(1) : 0};
    case Param::ssmax_s: return {c.length_scale == LengthScale::ssmax ? L : 0, std::size_t(c.heads)};
    case Param::qkvw: return {L, 3 * d, d};
    case Param::qkvb: return {L, 3 * d};
    case Param::attprojw: return {L, d, d};
    case Param::fcw: return {L, 4 * d, d};
    case Param::fcb: return {L, 4 * d};
    case Param::fcprojw: return {L, d, 4 * d};
    case Param::lnfw: case Param::lnfb: return {d};
    case Param::headb: return {V};
    default: return {L, d};  // ln1w ln1b attprojb ln2w ln2b fcprojb
  }
}

ParamLayout param_layout(const ModelConfig& c) {
  ParamLayout layout;
  for (int p = 0; p < kParamCount; ++p) {
    std::size_t n = 1;
    for (std::size_t dim : param_shape(c, Param(p))) n *= dim;
    layout.offset[std::size_t(p) + 1] = layout.offset[std::size_t(p)] + n;
  }
  return layout;
}

std::size_t parameter_count(const ModelConfig& c) { return param_layout(c).total(); }

template <class T>
Model<T> make_model(const ModelConfig& c, int token_capacity, std::size_t att_capacity, std::uint64_t seed) {
  Model<T> m;
  m.config = c;
  m.layout = param_layout(c);
  m.token_capacity = token_capacity;
  m.att_capacity = att_capacity;
  m.params.assign(m.layout.total(), T(0));
  m.grads.assign(m.layout.total(), T(0));
  m.act_offset = act_offsets(c, std::size_t(token_capacity), att_capacity);
  m.grad_act_offset = act_offsets(c, std::size_t(token_capacity), 0);
  m.acts.assign(m.act_offset.back(), T(0));
  m.grad_acts.assign(m.grad_act_offset.back(), T(0));
  const std::size_t blocks = c.length_scale == LengthScale::ssmax ? 6 : 4;  // attention (layers.hpp)
  m.scratch.assign(blocks * std::size_t(c.max_positions) * std::size_t(c.max_positions), T(0));
  m.weight_t.assign(std::size_t(c.d_model) * std::size_t(std::max(4 * c.d_model, c.vocab)), T(0));  // matmul_forward
  init_weights(m, seed);
  init_fire(m, seed);
  init_ssmax(m);
  init_position_tables(m);
  return m;
}

template <class T>
double model_forward(Model<T>& m, const PackedBatch& b) {
  check_fits(m, b);
  const ModelConfig& c = m.config;
  const int n = b.n_tokens(), d = c.d_model;
  const std::size_t pd = std::size_t(d);
  const T* wpe = mechanism_of(c.pe) == PositionMechanism::trainable_table ? m.param(Param::wpe)
                 : mechanism_of(c.pe) == PositionMechanism::added_table ? m.pe_table.data() : nullptr;
  embedding_forward(m.act(Act::encoded), b, m.param(Param::wte), wpe, d);
  if (mechanism_of(c.pe) == PositionMechanism::interpolated_bias) fire_forward(m.fire_bias.data(), b, fire_weights(m));
  const AttentionBias<T> bias = attention_bias(m);
  const T* x = m.act(Act::encoded);
  for (int l = 0; l < c.layers; ++l) {
    auto A = [&](Act a) { return layer_slice(m.acts.data() + m.act_offset[int(a)], m, a, l); };
    const std::size_t L = std::size_t(l);
    layernorm_forward(A(Act::ln1), A(Act::ln1_mean), A(Act::ln1_rstd), x, m.param(Param::ln1w) + L * pd,
                      m.param(Param::ln1b) + L * pd, n, d);
    matmul_forward(A(Act::qkv), A(Act::ln1), m.param(Param::qkvw) + L * 3 * pd * pd, m.param(Param::qkvb) + L * 3 * pd, n,
                   d, 3 * d, m.weight_t.data());
    const bool rotated = mechanism_of(c.pe) == PositionMechanism::qk_rotation && c.positions_in_layer(l);
    if (rotated) rope_forward(A(Act::qkv), b, m.rope, d, c.heads);
    attention_forward(A(Act::atty), A(Act::att), A(Act::qkv), b, layer_bias(m, bias, l), d, c.heads,
                      m.dropout.mask(l, DropoutSite::attention), m.scratch.data());
    // With dropout a branch's product is made alone, then masked and added to the residual stream.
    const DropoutMask branch2 = m.dropout.mask(l, DropoutSite::attention_branch);
    matmul_forward(A(Act::residual2), A(Act::atty), m.param(Param::attprojw) + L * pd * pd,
                   m.param(Param::attprojb) + L * pd, n, d, d, m.weight_t.data(), branch2.on() ? nullptr : x);
    if (branch2.on()) dropout_residual(A(Act::residual2), x, std::size_t(n) * pd, branch2);
    layernorm_forward(A(Act::ln2), A(Act::ln2_mean), A(Act::ln2_rstd), A(Act::residual2), m.param(Param::ln2w) + L * pd,
                      m.param(Param::ln2b) + L * pd, n, d);
    // fch is the product alone: GELU adds the bias in the sweep that reads it.
    matmul_forward<T>(A(Act::fch), A(Act::ln2), m.param(Param::fcw) + L * 4 * pd * pd, nullptr, n, d, 4 * d,
                      m.weight_t.data());
    gelu_forward(A(Act::fch_gelu), A(Act::fch_dgelu), A(Act::fch), m.param(Param::fcb) + L * 4 * pd, n, 4 * d);
    const DropoutMask branch3 = m.dropout.mask(l, DropoutSite::mlp_branch);
    matmul_forward(A(Act::residual3), A(Act::fch_gelu), m.param(Param::fcprojw) + L * 4 * pd * pd,
                   m.param(Param::fcprojb) + L * pd, n, 4 * d, d, m.weight_t.data(),
                   branch3.on() ? nullptr : A(Act::residual2));
    if (branch3.on()) dropout_residual(A(Act::residual3), A(Act::residual2), std::size_t(n) * pd, branch3);
    x = A(Act::residual3);
  }
  layernorm_forward(m.act(Act::lnf), m.act(Act::lnf_mean), m.act(Act::lnf_rstd), x, m.param(Param::lnfw),
                    m.param(Param::lnfb), n, d);
  matmul_forward(m.act(Act::logits), m.act(Act::lnf), m.param(Param::headw), m.param(Param::headb), n, d, c.vocab,
                 m.weight_t.data());
  m.last_loss = crossentropy_forward(m.act(Act::probs), m.act(Act::logits), b, c.vocab);
  return m.last_loss;
}

template <class T>
void model_backward(Model<T>& m, const PackedBatch& b) {
  const ModelConfig& c = m.config;
  const int n = b.n_tokens(), d = c.d_model;
  const std::size_t pd = std::size_t(d);
  std::fill(m.grads.begin(), m.grads.end(), T(0));
  // Every activation gradient is written by its one source (layers.hpp) before anything reads it.
  const int last = c.layers - 1;
  auto A = [&](Act a, int l) { return layer_slice(m.acts.data() + m.act_offset[int(a)], m, a, l); };
  auto G = [&](Act a, int l) { return layer_slice(m.grad_acts.data() + m.grad_act_offset[int(a)], m, a, l); };
  crossentropy_backward(m.grad_act(Act::logits), m.act(Act::probs), b, c.vocab);
  matmul_backward(m.grad_act(Act::lnf), m.grad(Param::headw), m.grad(Param::headb), m.grad_act(Act::logits),
                  m.act(Act::lnf), m.param(Param::headw), n, d, c.vocab);
  layernorm_backward(G(Act::residual3, last), m.grad(Param::lnfw), m.grad(Param::lnfb), m.grad_act(Act::lnf),
                     A(Act::residual3, last), m.param(Param::lnfw), m.act(Act::lnf_mean), m.act(Act::lnf_rstd), n, d);
  const AttentionBias<T> bias = attention_bias(m);
  AttentionBiasGrads<T> dbias;
  if (mechanism_of(c.pe) == PositionMechanism::trainable_bias) dbias.t5_table = m.grad(Param::t5_bias);
  const bool fire = mechanism_of(c.pe) == PositionMechanism::interpolated_bias;
  if (fire) {  // every layer adds its share; the entries in use are zeroed first
    std::fill_n(m.fire_dbias.begin(), attention_offsets(b, c.heads).back(), T(0));
    dbias.fire = m.fire_dbias.data();
  }
  for (int l = last; l >= 0; --l) {
    const std::size_t L = std::size_t(l);
    const T* x = l == 0 ? m.act(Act::encoded) : A(Act::residual3, l - 1);
    T* dx = l == 0 ? m.grad_act(Act::encoded) : G(Act::residual3, l - 1);
    // A residual add's gradient is its output's for both branches: the branch's product reads it in place, and the
    // LayerNorm that opens the branch adds it to its own input gradient. With dropout the branch's gradient is that
    // times the mask's factors, written into a buffer not yet (G residual2) or no longer (G ln2) in use.
    const std::size_t nd = std::size_t(n) * pd;
    const DropoutMask branch3 = m.dropout.mask(l, DropoutSite::mlp_branch);
    if (branch3.on()) dropout_scale(G(Act::residual2, l), G(Act::residual3, l), nd, 0, branch3);
    matmul_backward(G(Act::fch_gelu, l), m.grad(Param::fcprojw) + L * 4 * pd * pd, m.grad(Param::fcprojb) + L * pd,
                    branch3.on() ? G(Act::residual2, l) : G(Act::residual3, l), A(Act::fch_gelu, l),
                    m.param(Param::fcprojw) + L * 4 * pd * pd, n, 4 * d, d);
    gelu_backward(G(Act::fch, l), A(Act::fch_dgelu, l), G(Act::fch_gelu, l), n * 4 * d);
    matmul_backward(G(Act::ln2, l), m.grad(Param::fcw) + L * 4 * pd * pd, m.grad(Param::fcb) + L * 4 * pd, G(Act::fch, l),
                    A(Act::ln2, l), m.param(Param::fcw) + L * 4 * pd * pd, n, d, 4 * d);
    layernorm_backward(G(Act::residual2, l), m.grad(Param::ln2w) + L * pd, m.grad(Param::ln2b) + L * pd, G(Act::ln2, l),
                       A(Act::residual2, l), m.param(Param::ln2w) + L * pd, A(Act::ln2_mean, l), A(Act::ln2_rstd, l), n, d,
                       G(Act::residual3, l));
    const DropoutMask branch2 = m.dropout.mask(l, DropoutSite::attention_branch);
    if (branch2.on()) dropout_scale(G(Act::ln2, l), G(Act::residual2, l), nd, 0, branch2);
    matmul_backward(G(Act::atty, l), m.grad(Param::attprojw) + L * pd * pd, m.grad(Param::attprojb) + L * pd,
                    branch2.on() ? G(Act::ln2, l) : G(Act::residual2, l), A(Act::atty, l),
                    m.param(Param::attprojw) + L * pd * pd, n, d, d);
    if (c.length_scale == LengthScale::ssmax) dbias.ssmax_s = m.grad(Param::ssmax_s) + L * std::size_t(c.heads);
    AttentionBiasGrads<T> layer_dbias = dbias;  // a layer without positions adds nothing to a bias's gradient
    if (!c.positions_in_layer(l)) layer_dbias.t5_table = layer_dbias.fire = nullptr;
    attention_backward(G(Act::qkv, l), layer_dbias, G(Act::atty, l), A(Act::qkv, l), A(Act::att, l), b,
                       layer_bias(m, bias, l), d, c.heads, m.scratch.data(), m.dropout.mask(l, DropoutSite::attention));
    if (mechanism_of(c.pe) == PositionMechanism::qk_rotation && c.positions_in_layer(l))
      rope_backward(G(Act::qkv, l), b, m.rope, d, c.heads);
    matmul_backward(G(Act::ln1, l), m.grad(Param::qkvw) + L * 3 * pd * pd, m.grad(Param::qkvb) + L * 3 * pd,
                    G(Act::qkv, l), A(Act::ln1, l), m.param(Param::qkvw) + L * 3 * pd * pd, n, d, 3 * d);
    layernorm_backward(dx, m.grad(Param::ln1w) + L * pd, m.grad(Param::ln1b) + L * pd, G(Act::ln1, l), x,
                       m.param(Param::ln1w) + L * pd, A(Act::ln1_mean, l), A(Act::ln1_rstd, l), n, d,
                       G(Act::residual2, l));
  }
  embedding_backward(m.grad(Param::wte), mechanism_of(c.pe) == PositionMechanism::trainable_table ? m.grad(Param::wpe) : nullptr,
                     m.grad_act(Act::encoded), b, d);
  if (fire)
    fire_backward({.w1 = m.grad(Param::fire_w1), .b1 = m.grad(Param::fire_b1), .w2 = m.grad(Param::fire_w2),
                   .c = m.grad(Param::fire_c), .threshold = m.grad(Param::fire_threshold)},
                  m.fire_dbias.data(), b, fire_weights(m));
}

template Model<float> make_model<float>(const ModelConfig&, int, std::size_t, std::uint64_t);
template Model<double> make_model<double>(const ModelConfig&, int, std::size_t, std::uint64_t);
template double model_forward<float>(Model<float>&, const PackedBatch&);
template double model_forward<double>(Model<double>&, const PackedBatch&);
template void model_backward<float>(Model<float>&, const PackedBatch&);
template void model_backward<double>(Model<double>&, const PackedBatch&);

}  // namespace peviz::train
