// Attention sharpness against context length: the factor each method puts on the logits q.k / sqrt(d) at a query
// position, and the weight one key that stands out by a margin keeps among the others.
//
// Conventions (docs/attention-scale.md cites each):
//  - A query at 0-based position p attends causally to n = p + 1 keys.
//  - logit_scale multiplies q.k / sqrt(d) before the softmax:
//      none    1
//      ssmax   s ln n                       Scalable-Softmax (Nakanishi 2025, arXiv 2501.19399): softmax of
//                                           (s ln n) z; s learned per layer and head (0.43 in its Figure 1)
//      logn    max(1, ln n / ln L)          Qwen's log-n attention (Qwen-7B modeling_qwen.py: logn_list, the query
//                                           at position p times math.log(p + 1, seq_length) past seq_length L)
//      yarn    (0.1 ln s + 1)^2             YaRN (Peng et al. 2023: sqrt(1/t) = 0.1 ln s + 1; transformers' get_mscale): the factor is
//                                           on cos and sin, so on both q and k: squared on the logits; 1 for s <= 1
//      llama4  1 + a ln(floor(n / F) + 1)   Llama 4's attn_temperature_tuning on its NoPE layers
//                                           (models/llama4/modeling_llama4.py): on q only, so once on the logits
//  - needle_weight: the softmax weight of one key whose logit exceeds each of the other n - 1 keys' by D, all
//    logits then scaled by c = logit_scale: 1 / (1 + (n - 1) e^(-c D)). With the others' logits spread as a
//    Gaussian of standard deviation sigma around the common value, the sum of their exponentials is taken at its
//    mean, (n - 1) e^(c^2 sigma^2 / 2) (the log-normal's mean): 1 / (1 + (n - 1) e^(c^2 sigma^2 / 2 - c D)), the
//    weight when that sum is typical (a large n; for a few keys it is the weight at the mean denominator).
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/models/model_config.hpp"

namespace peviz {

enum class ScaleMethod { none, ssmax, logn, yarn, llama4 };
inline constexpr ScaleMethod kAllScaleMethods[] = {ScaleMethod::none, ScaleMethod::ssmax, ScaleMethod::logn,
                                                   ScaleMethod::yarn, ScaleMethod::llama4};

// Each method's parameters; defaults and ranges from the limits table (ssmax-s, train-length, factor, attn-scale,
// floor-scale).
struct ScaleMethodParams {
  double ssmax_s = limits::ssmax_s.fallback;            // SSMax's s
  double train_length = limits::train_length.fallback;  // log-n's L
  double factor = limits::factor.fallback;              // YaRN's scale s
  double attn_scale = limits::attn_scale.fallback;      // Llama 4's a
  double floor_scale = limits::floor_scale.fallback;    // Llama 4's F
};

// "none", "ssmax", "logn", "yarn", "llama4" (the CLI's --method values) and the key's names ("SSMax", "log-n",
// "Llama 4", "YaRN", "none").
std::string_view to_string(ScaleMethod m);
std::string_view display_name(ScaleMethod m);
// The method named `name`; ParamError("method", ...) listing the names otherwise.
ScaleMethod parse_scale_method(std::string_view name);
// ParamError naming the flag when a parameter is outside its limit.
void validate(const ScaleMethodParams& p);

// The factor on q.k / sqrt(d) at query position `position` (>= 0).
double logit_scale_at(ScaleMethod m, const ScaleMethodParams& p, double position);
// The needle's weight among `keys` keys (>= 1) at logit scale `c`, margin `margin`, spread `spread` (see above).
double needle_weight(double c, double margin, double spread, double keys);

// A model's own scale, per group of layers as rope-test-vectors groups them (core/models/rope_test_vectors.hpp).
struct ScaleGroup {
  std::vector<int> layers;
  std::string layer_type;
  bool rope = true;               // false: NoPE layers (no attention factor on cos and sin)
  std::string rope_type;          // "" for NoPE
  double cos_sin_factor = 1;      // transformers' attention_scaling on cos and sin (squared on the logits)
  double softmax_factor = 1;      // DeepSeek's get_mscale(factor, mscale_all_dim)^2 on the softmax scale, else 1
  bool query_scaled = false;      // Llama 4's temperature tuning on these layers' queries
};
// The groups of `c` (a RoPE model; ParamError("config") otherwise).
std::vector<ScaleGroup> attention_scale_groups(const ModelConfig& c);
// A group's factor on q.k / sqrt(d) at `position`: cos_sin_factor^2 * softmax_factor * (Llama 4's query scale).
double group_logit_scale_at(const ModelConfig& c, const ScaleGroup& g, double position);

// The positions used when the caller gives none: 0, then 1, 2, 4, ... 2^20 (past a million).
std::vector<long long> default_scale_positions();
// ParamError("positions") unless 1..4096 positions, each in [0, 2^30].
void check_scale_positions(std::span<const long long> positions);

// `peviz export attention-scale --format json`: {"positions", "margin", "spread", "methods": [{"method", "params",
// "logit_scale", "needle_weight"}]} for methods, or {"model", "model_type", "positions", "margin", "spread",
// "groups": [{"layers", "layer_type", "rope", "rope_type", "logit_scale", "needle_weight"}]} for a config.
nlohmann::json attention_scale_json(std::span<const ScaleMethod> methods, const ScaleMethodParams& p,
                                    std::span<const long long> positions, double margin, double spread);
nlohmann::json attention_scale_json(const ModelConfig& c, std::span<const long long> positions, double margin,
                                    double spread);

}  // namespace peviz
