// RoPE scalings ported from HF transformers modeling_rope_utils.py: validation, inv_freq and attention factor.
#include "core/rope/rope_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "core/base/errors.hpp"

namespace peviz {

namespace {

std::string num(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

constexpr unsigned bit(RopeScaling k) { return 1u << unsigned(k); }

// Which scalings read each field, and its command-line flag (the name a refusal gives).
struct FieldUse {
  ScalingField field;
  const char* flag;
  unsigned kinds;  // bit(kind) for each scaling that reads it
};
using K = RopeScaling;
constexpr unsigned kWithContexts = bit(K::dynamic) | bit(K::yarn) | bit(K::llama3) | bit(K::longrope);
constexpr FieldUse kFieldUses[] = {
    {ScalingField::factor, "factor", bit(K::linear) | kWithContexts},
    {ScalingField::original_max_len, "original-max-len", kWithContexts},
    {ScalingField::max_len, "max-len", kWithContexts},
    {ScalingField::seq_len, "seq-len", bit(K::dynamic) | bit(K::longrope)},
    {ScalingField::beta_fast, "beta-fast", bit(K::yarn)},
    {ScalingField::beta_slow, "beta-slow", bit(K::yarn)},
    {ScalingField::mscale, "mscale", bit(K::yarn)},
    {ScalingField::mscale_all_dim, "mscale-all-dim", bit(K::yarn)},
    {ScalingField::truncate, "no-truncate", bit(K::yarn)},
    {ScalingField::attention_factor, "attention-factor", bit(K::yarn) | bit(K::longrope)},
    {ScalingField::low_freq_factor, "low-freq-factor", bit(K::llama3)},
    {ScalingField::high_freq_factor, "high-freq-factor", bit(K::llama3)},
    {ScalingField::short_factor, "short-factor", bit(K::longrope)},
    {ScalingField::long_factor, "long-factor", bit(K::longrope)}};

bool given(const RopeScalingParams& s, ScalingField f) {
  switch (f) {
    case ScalingField::factor: return s.factor.has_value();
    case ScalingField::original_max_len: return s.original_max_len.has_value();
    case ScalingField::max_len: return s.max_len.has_value();
    case ScalingField::seq_len: return s.seq_len.has_value();
    case ScalingField::beta_fast: return s.beta_fast.has_value();
    case ScalingField::beta_slow: return s.beta_slow.has_value();
    case ScalingField::mscale: return s.mscale.has_value();
    case ScalingField::mscale_all_dim: return s.mscale_all_dim.has_value();
    case ScalingField::truncate: return s.truncate.has_value();
    case ScalingField::attention_factor: return s.attention_factor.has_value();
    case ScalingField::low_freq_factor: return s.low_freq_factor.has_value();
    case ScalingField::high_freq_factor: return s.high_freq_factor.has_value();
    case ScalingField::short_factor: return !s.short_factor.empty();
    case ScalingField::long_factor: return !s.long_factor.empty();
  }
  return false;
}

void check_min(const std::optional<double>& v, std::string_view flag, double lo, bool inclusive) {
  if (!v) return;
  if (!std::isfinite(*v) || (inclusive ? *v < lo : *v <= lo))
    throw ParamError(std::string(flag),
                     std::string("must be a finite number ") + (inclusive ? ">= " : "> ") + num(lo) + ", got " + num(*v));
}

void check_limit(const std::optional<double>& v, const Limit& l) {
  if (v) check_real(l, *v);
}

void check_len(const std::optional<int>& v, std::string_view flag, int lo) {
  if (v && (*v < lo || *v > kMaxContextLen))
    throw ParamError(std::string(flag), "must be an integer in [" + std::to_string(lo) + ", " +
                                            std::to_string(kMaxContextLen) + "], got " + std::to_string(*v));
}

void check_list(const std::vector<double>& v, std::string_view flag, int pairs) {
  if (v.size() != std::size_t(pairs))
    throw ParamError(std::string(flag), "must list rotary-dim/2 = " + std::to_string(pairs) + " numbers, got " +
                                            std::to_string(v.size()));
  for (double x : v)
    if (!std::isfinite(x) || x <= 0.0)
      throw ParamError(std::string(flag), "every entry must be a finite number > 0, got " + num(x));
}

// YaRN's betas and llama3's factors in force: the given ones, else transformers' defaults (the limits table's).
double fast_beta(const RopeScalingParams& s) { return s.beta_fast.value_or(limits::beta_fast.fallback); }
double slow_beta(const RopeScalingParams& s) { return s.beta_slow.value_or(limits::beta_slow.fallback); }
double low_factor(const RopeScalingParams& s) { return s.low_freq_factor.value_or(limits::low_freq_factor.fallback); }
double high_factor(const RopeScalingParams& s) { return s.high_freq_factor.value_or(limits::high_freq_factor.fallback); }

// original_max_position_embeddings, falling back to max_position_embeddings as HF does.
int original_len(const RopeScalingParams& s) { return s.original_max_len ? *s.original_max_len : *s.max_len; }

// factor, or max_len / original_max_len when absent (HF yarn and longrope).
double resolved_factor(const RopeScalingParams& s) {
  if (s.factor) return *s.factor;
  return double(*s.max_len) / double(original_len(s));
}

}  // namespace

namespace {

// Every field belongs to some scalings: giving it to another is refused, naming the ones it belongs to, so that a
// typo in --scaling cannot pass silently.
void check_fields_used(const RopeScalingParams& s) {
  for (const FieldUse& u : kFieldUses) {
    if (!given(s, u.field) || (u.kinds & bit(s.kind))) continue;
    std::string which;
    for (unsigned k = 0; k < 32; ++k) {  // in the enum's order
      if (!(u.kinds & (1u << k))) continue;
      if (!which.empty()) which += '|';
      which += to_string(RopeScaling(k));
    }
    throw ParamError(u.flag, "only applies to --scaling " + which + ", not " + std::string(to_string(s.kind)));
  }
}

// Each given value within its range.
void check_field_ranges(const RopeScalingParams& s) {
  check_limit(s.factor, limits::factor);
  check_len(s.original_max_len, "original-max-len", 2);
  check_len(s.max_len, "max-len", 2);
  check_len(s.seq_len, "seq-len", 1);
  check_limit(s.beta_fast, limits::beta_fast);
  check_limit(s.beta_slow, limits::beta_slow);
  check_min(s.mscale, "mscale", 0.0, true);
  check_min(s.mscale_all_dim, "mscale-all-dim", 0.0, true);
  check_min(s.attention_factor, "attention-factor", 0.0, false);
  check_limit(s.low_freq_factor, limits::low_freq_factor);
  check_limit(s.high_freq_factor, limits::high_freq_factor);
}

// The factor and the lengths a scaling needs, given or derived (factor = max-len / original-max-len).
void check_factor_and_lengths(const RopeScalingParams& s) {
  using K = RopeScaling;
  const K k = s.kind;
  const std::string kind(to_string(k));
  if (!s.factor && (k == K::linear || k == K::dynamic || k == K::llama3))
    throw ParamError("factor", "is required for --scaling " + kind);
  if (!s.factor && !s.max_len)
    throw ParamError("factor", "is required for --scaling " + kind + " unless --max-len is given (factor = "
                                                                    "max-len / original-max-len)");
  if (k != K::linear && !s.original_max_len && !s.max_len)
    throw ParamError("original-max-len", "is required for --scaling " + kind + " (or give --max-len)");
  if (!s.factor && resolved_factor(s) < 1.0)
    throw ParamError("max-len", "must be >= --original-max-len (" + std::to_string(original_len(s)) +
                                    ") so that the derived factor is >= 1, got " + std::to_string(*s.max_len));
}

// What one scaling asks of the others: dynamic's rotary dimension, YaRN's and llama3's ordered pairs,
// LongRoPE's two lists of one factor per pair.
void check_kind_rules(const RopeParams& p, const RopeScalingParams& s) {
  using K = RopeScaling;
  const K k = s.kind;
  if (k == K::dynamic && rotary_dim(p) < kMinDynamicRotaryDim)
    throw ParamError(p.rotary_dim ? "rotary-dim" : "head-dim",
                     "dynamic scaling needs a rotary dimension >= " + std::to_string(kMinDynamicRotaryDim) +
                         " (its exponent is R/(R-2)), got " +
                         std::to_string(rotary_dim(p)));
  if (k == K::yarn && fast_beta(s) <= slow_beta(s))
    throw ParamError("beta-fast", "must be greater than --beta-slow (" + num(slow_beta(s)) + "), got " +
                                      num(fast_beta(s)));
  if (k == K::llama3 && low_factor(s) >= high_factor(s))
    throw ParamError("high-freq-factor", "must be greater than --low-freq-factor (" +
                                             num(low_factor(s)) + "), got " +
                                             num(high_factor(s)));
  if (k == K::longrope) {
    const int pairs = rotary_dim(p) / 2;
    if (s.short_factor.empty()) throw ParamError("short-factor", "is required for --scaling longrope");
    if (s.long_factor.empty()) throw ParamError("long-factor", "is required for --scaling longrope");
    check_list(s.short_factor, "short-factor", pairs);
    check_list(s.long_factor, "long-factor", pairs);
  }
}

}  // namespace

bool scaling_reads(RopeScaling kind, ScalingField field) {
  for (const FieldUse& u : kFieldUses)
    if (u.field == field) return u.kinds & bit(kind);
  return false;
}

void validate(const RopeParams& p, const RopeScalingParams& s) {
  validate(p);
  check_fields_used(s);
  if (s.kind == RopeScaling::none) return;
  check_field_ranges(s);
  check_factor_and_lengths(s);
  check_kind_rules(p, s);
}

double yarn_get_mscale(double scale, double mscale) {
  // HF _compute_yarn_parameters.get_mscale (from DeepSeek-V2's yarn_get_mscale).
  if (scale <= 1.0) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

double yarn_correction_dim(double num_rotations, int dim, double base, double context_len) {
  // HF find_correction_dim: the (fractional) dimension index 2j at which the pair turns
  // `num_rotations` times over `context_len` positions: dim * ln(L / (n 2 pi)) / (2 ln base).
  return (double(dim) * std::log(context_len / (num_rotations * 2.0 * std::numbers::pi))) / (2.0 * std::log(base));
}

std::vector<double> yarn_ramp(double beta_fast, double beta_slow, int dim, double base, double context_len,
                              bool truncate) {
  // HF find_correction_range: low from beta_fast, high from beta_slow, floor/ceil when truncating,
  // clamped to [0, dim - 1] (dim, not dim/2: HF's bound, kept as is).
  double low = yarn_correction_dim(beta_fast, dim, base, context_len);
  double high = yarn_correction_dim(beta_slow, dim, base, context_len);
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, double(dim - 1));
  // HF linear_ramp_factor: clamp((j - low) / (high - low), 0, 1) over j < dim/2; +0.001 avoids 0/0.
  if (low == high) high += 0.001;
  std::vector<double> ramp(std::size_t(dim / 2));
  for (int j = 0; j < dim / 2; ++j) ramp[std::size_t(j)] = std::clamp((double(j) - low) / (high - low), 0.0, 1.0);
  return ramp;
}

namespace {

// One function per scaling, after validate(): transformers' modeling_rope_utils.py, as each comment says.
ScaledRope scale_none(const RopeParams& p, const RopeScalingParams&) {
  ScaledRope out;
  out.inv_freq = rope_inv_freq(p);
  return out;
}

// HF _compute_linear_scaling_rope_parameters: position interpolation (Chen et al. 2023, kaiokendev) as
// inv_freq / factor.
ScaledRope scale_linear(const RopeParams& p, const RopeScalingParams& s) {
  ScaledRope out;
  out.factor = *s.factor;
  out.inv_freq = rope_inv_freq(p);
  for (double& f : out.inv_freq) f /= out.factor;
  return out;
}

// HF _compute_dynamic_ntk_parameters: seq = max(seq_len, max_pos) (seq_len absent -> max_pos);
// base' = base * (factor * seq / max_pos - (factor - 1)) ** (dim / (dim - 2)).
ScaledRope scale_dynamic(const RopeParams& p, const RopeScalingParams& s) {
  ScaledRope out;
  const int dim = rotary_dim(p);
  out.factor = *s.factor;
  out.original_max_len = original_len(s);
  const double max_pos = out.original_max_len;
  const double seq = (s.seq_len && *s.seq_len > out.original_max_len) ? double(*s.seq_len) : max_pos;
  RopeParams q = p;
  q.base = p.base * std::pow(out.factor * seq / max_pos - (out.factor - 1.0), double(dim) / double(dim - 2));
  out.inv_freq = rope_inv_freq(q);
  return out;
}

// HF _compute_yarn_parameters (YaRN, Peng et al. 2023).
ScaledRope scale_yarn(const RopeParams& p, const RopeScalingParams& s) {
  ScaledRope out;
  out.factor = resolved_factor(s);
  out.original_max_len = original_len(s);
  if (s.attention_factor) {
    out.attention_factor = *s.attention_factor;
  } else if (s.mscale.value_or(0.0) != 0.0 && s.mscale_all_dim.value_or(0.0) != 0.0) {
    // `if mscale and mscale_all_dim`: both present and non-zero.
    out.attention_factor = yarn_get_mscale(out.factor, *s.mscale) / yarn_get_mscale(out.factor, *s.mscale_all_dim);
  } else {
    out.attention_factor = yarn_get_mscale(out.factor);
  }
  out.yarn_ramp = yarn_ramp(fast_beta(s), slow_beta(s), rotary_dim(p), p.base, double(out.original_max_len),
                            s.truncate.value_or(true));
  const std::vector<double> extrapolation = rope_inv_freq(p);
  out.inv_freq.resize(extrapolation.size());
  for (std::size_t j = 0; j < extrapolation.size(); ++j) {
    // inv_freq_extrapolation_factor = 1 - ramp; inv = interp * (1 - extrap_factor) + extrap * extrap_factor.
    const double extrap_factor = 1.0 - out.yarn_ramp[j];
    const double interpolation = extrapolation[j] / out.factor;
    out.inv_freq[j] = interpolation * (1.0 - extrap_factor) + extrapolation[j] * extrap_factor;
  }
  return out;
}

// HF _compute_llama3_parameters (Llama 3.1 reference: factor 8, low 1, high 4, original 8192).
ScaledRope scale_llama3(const RopeParams& p, const RopeScalingParams& s) {
  ScaledRope out;
  out.factor = *s.factor;
  out.original_max_len = original_len(s);
  const double low = low_factor(s), high = high_factor(s);
  const double old_len = out.original_max_len;
  const double low_freq_wavelen = old_len / low, high_freq_wavelen = old_len / high;
  out.inv_freq = rope_inv_freq(p);
  for (double& f : out.inv_freq) {
    const double wavelen = 2.0 * std::numbers::pi / f;
    // wavelen < high_freq_wavelen: unchanged; wavelen > low_freq_wavelen: divided by factor.
    double scaled = wavelen > low_freq_wavelen ? f / out.factor : f;
    const bool medium = !(wavelen < high_freq_wavelen) && !(wavelen > low_freq_wavelen);
    if (medium) {
      const double smooth = (old_len / wavelen - low) / (high - low);
      scaled = (1.0 - smooth) * scaled / out.factor + smooth * scaled;
    }
    f = scaled;
  }
  return out;
}

// HF _compute_longrope_parameters (LongRoPE, Ding et al. 2024; Phi-3): long factors when
// seq_len > original_max_position_embeddings, else short; inv = 1 / (ext * base^(2j/dim)).
ScaledRope scale_longrope(const RopeParams& p, const RopeScalingParams& s) {
  ScaledRope out;
  out.factor = resolved_factor(s);
  out.original_max_len = original_len(s);
  if (s.attention_factor) out.attention_factor = *s.attention_factor;
  else if (out.factor <= 1.0) out.attention_factor = 1.0;
  else out.attention_factor = std::sqrt(1.0 + std::log(out.factor) / std::log(double(out.original_max_len)));
  const bool long_ctx = s.seq_len && *s.seq_len > out.original_max_len;
  const std::vector<double>& ext = long_ctx ? s.long_factor : s.short_factor;
  out.inv_freq = rope_inv_freq(p);
  for (std::size_t j = 0; j < out.inv_freq.size(); ++j) out.inv_freq[j] /= ext[j];
  return out;
}

// The scalings, once (rope_scaling.hpp RopeScalingRow); explanations after transformers' modeling_rope_utils.py
// and the papers it cites.
constexpr RopeScalingRow kRopeScalingRows[] = {
    {.kind = RopeScaling::none, .name = "none", .rope_type = "default", .legacy_type = "mrope", .label = "none",
     .explanation = "No scaling: the model's own inverse frequencies base^(-2j/d).", .color = 0, .scale = scale_none},
    {.kind = RopeScaling::linear, .name = "linear", .rope_type = "linear", .label = "linear (PI)",
     .explanation = "PI = position interpolation (Chen et al. 2023): every position is divided by the factor, so every "
                    "pair turns factor times more slowly.",
     .color = 1, .scale = scale_linear},
    {.kind = RopeScaling::dynamic, .name = "dynamic", .rope_type = "dynamic", .label = "dynamic NTK",
     .explanation = "Dynamic NTK-aware scaling (bloc97, 2023; rope_type \"dynamic\"): the base is raised so that the "
                    "slowest pair is interpolated and the fastest barely change; 'dynamic' because the new base "
                    "depends on the sequence length.",
     .color = 2, .scale = scale_dynamic},
    {.kind = RopeScaling::yarn, .name = "yarn", .rope_type = "yarn", .label = "YaRN",
     .explanation = "YaRN (Peng et al. 2023): pairs that turn often inside the original context keep their frequency, "
                    "slow pairs are interpolated by the factor, a linear ramp between (beta_fast, beta_slow); "
                    "attention is scaled by 0.1 ln(factor) + 1.",
     .color = 3, .scale = scale_yarn},
    {.kind = RopeScaling::llama3, .name = "llama3", .rope_type = "llama3", .label = "llama3",
     .explanation = "llama3 (Meta, Llama 3.1): like YaRN's ramp, but the cut is by wavelength: shorter than original / "
                    "high_freq_factor kept, longer than original / low_freq_factor divided by the factor, smooth "
                    "between.",
     .color = 4, .scale = scale_llama3},
    {.kind = RopeScaling::longrope, .name = "longrope", .rope_type = "longrope", .legacy_type = "su",
     .label = "LongRoPE",
     .explanation = "LongRoPE (Ding et al. 2024; Phi-3): every pair divided by its own searched factor, the short "
                    "factors up to the original context and the long ones beyond it.",
     .scale = scale_longrope}};

// The labels or names of the rows `pick` keeps, joined; `last` before the last.
template <class Pick>
std::string joined(Pick pick, std::string_view separator, std::string_view last) {
  std::vector<std::string_view> kept;
  for (const RopeScalingRow& r : kRopeScalingRows)
    if (const std::string_view v = pick(r); !v.empty()) kept.push_back(v);
  std::string text;
  for (std::size_t i = 0; i < kept.size(); ++i)
    text += std::string(i == 0 ? "" : i + 1 == kept.size() ? last : separator) + std::string(kept[i]);
  return text;
}

}  // namespace

std::span<const RopeScalingRow> rope_scaling_rows() { return kRopeScalingRows; }

const RopeScalingRow& rope_scaling_row(RopeScaling kind) {
  for (const RopeScalingRow& r : kRopeScalingRows)
    if (r.kind == kind) return r;
  return kRopeScalingRows[0];
}

std::vector<RopeScaling> compared_scalings() {
  std::vector<RopeScaling> out;
  for (const RopeScalingRow& r : kRopeScalingRows)
    if (r.color >= 0) out.push_back(r.kind);
  return out;
}

std::string rope_scaling_names(std::string_view separator, std::string_view last) {
  return joined([](const RopeScalingRow& r) { return r.name; }, separator, last);
}

std::string scaling_readers(ScalingField field) {
  return joined([field](const RopeScalingRow& r) { return scaling_reads(r.kind, field) ? r.label : ""; }, "/", "/");
}

std::string_view to_string(RopeScaling s) { return rope_scaling_row(s).name; }

std::optional<RopeScaling> parse_rope_type(std::string_view rope_type) {
  for (const RopeScalingRow& r : kRopeScalingRows)
    if (r.rope_type == rope_type || (!r.legacy_type.empty() && r.legacy_type == rope_type)) return r.kind;
  return std::nullopt;
}

std::optional<RopeScaling> parse_rope_scaling(std::string_view s) {
  for (const RopeScalingRow& r : kRopeScalingRows)
    if (r.name == s) return r.kind;
  return std::nullopt;
}

ScaledRope rope_scaled_inv_freq(const RopeParams& p, const RopeScalingParams& s) {
  validate(p, s);
  return rope_scaling_row(s.kind).scale(p, s);
}

}  // namespace peviz
