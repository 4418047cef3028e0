// RoPE context-extension scalings (linear, dynamic NTK, YaRN, Llama 3, LongRoPE) as HF transformers computes them.
//
// Every formula follows HF transformers src/transformers/modeling_rope_utils.py (functions named per
// scaling below) and keeps its conventions, including its quirks:
//  - `original_max_len` is HF's original_max_position_embeddings. When it is not given it falls back to
//    `max_len` (HF standardize_rope_params does the same). For `dynamic` it is the training context
//    that HF reads from config.max_position_embeddings.
//  - yarn and longrope derive factor = max_len / original_max_len when `factor` is not given.
//  - Frequencies are computed in double; HF computes them in float32, so values agree to ~1e-7 relative.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/limits.hpp"
#include "core/rope/rope.hpp"

namespace peviz {

enum class RopeScaling { none, linear, dynamic, yarn, llama3, longrope };

struct RopeScalingParams {
  RopeScaling kind = RopeScaling::none;
  std::optional<double> factor;            // >= 1; context extension ratio
  std::optional<int> original_max_len;     // tokens seen in pre-training (original_max_position_embeddings)
  std::optional<int> max_len;              // extended max_position_embeddings
  std::optional<int> seq_len;              // current sequence length (dynamic, longrope)
  std::optional<double> beta_fast;         // yarn: default 32 (rotations; extrapolate above)
  std::optional<double> beta_slow;         // yarn: default 1 (rotations; interpolate below)
  std::optional<double> low_freq_factor;   // llama3: default 1
  std::optional<double> high_freq_factor;  // llama3: default 4
  std::optional<double> attention_factor;  // yarn, longrope: overrides the derived factor, > 0
  std::optional<double> mscale;            // yarn: DeepSeek-style attention factor numerator
  std::optional<double> mscale_all_dim;    // yarn: DeepSeek-style attention factor denominator
  std::optional<bool> truncate;            // yarn: floor/ceil the correction range (HF default true)
  std::vector<double> short_factor;        // longrope: R/2 per-pair divisors for seq_len <= original
  std::vector<double> long_factor;         // longrope: R/2 per-pair divisors for seq_len > original
};

// The fields of RopeScalingParams a scaling reads (transformers' _compute_*_parameters), one table in
// rope_scaling.cpp: validate refuses a field given to a scaling that does not read it, and callers that fill a
// scaling's fields ask scaling_reads which to fill.
enum class ScalingField {
  factor, original_max_len, max_len, seq_len, beta_fast, beta_slow, mscale, mscale_all_dim, truncate,
  attention_factor, low_freq_factor, high_freq_factor, short_factor, long_factor
};
bool scaling_reads(RopeScaling kind, ScalingField field);

inline constexpr int kMaxContextLen = int(limits::original_len.max);  // bound on every *-len parameter (the table's)
// Dynamic NTK's base exponent is R/(R-2) (R = the rotary dimension): it needs R >= 4.
inline constexpr int kMinDynamicRotaryDim = 4;

struct ScaledRope {
  std::vector<double> inv_freq;     // R/2 scaled inverse frequencies
  double attention_factor = 1.0;    // multiplies cos and sin (HF attention_scaling)
  double factor = 1.0;              // the factor actually used (after derivation); 1 for none
  int original_max_len = 0;         // the original context actually used; 0 when not applicable
  std::vector<double> yarn_ramp;    // yarn only: per-pair ramp, 0 = extrapolate (keep), 1 = interpolate
};

// Throws ParamError naming the first bad flag: ranges, required values, and flags that the chosen
// scaling does not use.
void validate(const RopeParams& p, const RopeScalingParams& s);

// The scaled frequencies and attention factor. Validates first.
ScaledRope rope_scaled_inv_freq(const RopeParams& p, const RopeScalingParams& s);

// YaRN (Peng et al. 2023; HF _compute_yarn_parameters): the dimension at which a pair completes
// `num_rotations` turns over `context_len` positions, and the clamped ramp over pairs.
double yarn_correction_dim(double num_rotations, int dim, double base, double context_len);
std::vector<double> yarn_ramp(double beta_fast, double beta_slow, int dim, double base, double context_len,
                              bool truncate);
// YaRN get_mscale: 0.1 * mscale * ln(scale) + 1, or 1 when scale <= 1.
double yarn_get_mscale(double scale, double mscale = 1.0);

// One row per scaling, in enum order (rope_scaling.cpp kRopeScalingRows): its names, what front ends say and draw
// of it, and its computation. Adding a scaling = its enum value, its row, its scale function and the fields it reads.
struct RopeScalingRow {
  RopeScaling kind;
  std::string_view name;         // --scaling, the CLI's JSON, captions: none, linear, yarn, ...
  std::string_view rope_type;    // transformers' rope_type in config.json ("default" for none)
  std::string_view legacy_type = {};  // an older spelling transformers reads as this one ("su": Phi-3's LongRoPE), or ""
  std::string_view label;        // legends, notes and help: "linear (PI)", "YaRN"
  std::string_view explanation;  // what it does, one paragraph (the Context extension page's legend hint)
  int color = -1;                // palette index of its curve on the Context extension page; -1: not compared there
  ScaledRope (*scale)(const RopeParams&, const RopeScalingParams&) = nullptr;  // unvalidated (rope_scaled_inv_freq)
};
std::span<const RopeScalingRow> rope_scaling_rows();
const RopeScalingRow& rope_scaling_row(RopeScaling kind);
// The scalings compare_context_extensions computes side by side (color >= 0; LongRoPE needs per-pair factors), in
// table order.
std::vector<RopeScaling> compared_scalings();
// The names joined, `last` before the last: "none, linear, dynamic, yarn, llama3 or longrope".
std::string rope_scaling_names(std::string_view separator = ", ", std::string_view last = " or ");
// The labels of the scalings that read `field`, joined by "/": "YaRN/LongRoPE" for attention_factor.
std::string scaling_readers(ScalingField field);

std::string_view to_string(RopeScaling s);
std::optional<RopeScaling> parse_rope_scaling(std::string_view s);
// A config.json's rope_type (or legacy type): the row's rope_type or legacy_type; nullopt when none has it.
std::optional<RopeScaling> parse_rope_type(std::string_view rope_type);

}  // namespace peviz
