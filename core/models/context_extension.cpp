// Every RoPE scaling at the same knobs, for the side-by-side wavelength comparison, and model presets.
#include "core/models/context_extension.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/models/shipped_models.hpp"

namespace peviz {

ContextExtension compare_context_extensions(const ContextExtensionParams& p) {
  check_real(limits::factor, p.factor);
  ContextExtension out;
  out.target_len = p.target_len > 0 ? double(p.target_len) : double(p.original_len) * p.factor;
  if (p.target_len < 0 || out.target_len > limits::context_len.max)
    throw ParamError(p.target_len ? "target-len" : "factor", "the target context must be in " +
                                                                 range_text(limits::context_len) + ", got " +
                                                                 std::to_string(out.target_len));
  for (RopeScaling kind : compared_scalings()) {
    RopeScalingParams s;
    s.kind = kind;
    const auto reads = [kind](ScalingField f) { return scaling_reads(kind, f); };
    if (reads(ScalingField::factor)) s.factor = p.factor;
    if (reads(ScalingField::original_max_len)) s.original_max_len = p.original_len;
    if (reads(ScalingField::seq_len)) s.seq_len = int(out.target_len);
    if (reads(ScalingField::beta_fast)) s.beta_fast = p.beta_fast;
    if (reads(ScalingField::beta_slow)) s.beta_slow = p.beta_slow;
    if (reads(ScalingField::low_freq_factor)) s.low_freq_factor = p.low_freq_factor;
    if (reads(ScalingField::high_freq_factor)) s.high_freq_factor = p.high_freq_factor;
    out.rows.push_back(scaling_wavelengths(kind, rope_scaled_inv_freq(p.rope, s), p.original_len, out.target_len));
  }
  return out;
}

ScalingWavelengths scaling_wavelengths(RopeScaling kind, ScaledRope scaled, double original_len, double target_len) {
  ScalingWavelengths row;
  row.kind = kind;
  row.scaled = std::move(scaled);
  for (double f : row.scaled.inv_freq) {
    const double w = 2.0 * std::numbers::pi / f;
    row.wavelength.push_back(w);
    row.pairs_beyond_original += w > original_len;
    row.pairs_beyond_target += w > target_len;
  }
  return row;
}

std::span<const RopeModelPreset> rope_model_presets() {
  static const std::vector<RopeModelPreset> presets = [] {
    std::vector<RopeModelPreset> out;
    for (const auto& model : shipped_models()) {
      if (model->scheme != PositionScheme::rope) continue;
      out.push_back(rope_model_preset(*model));
      out.back().model = model;
    }
    return out;
  }();
  return presets;
}

const RopeModelPreset& default_rope_model_preset() {
  for (const RopeModelPreset& p : rope_model_presets())
    if (p.name == kDefaultRopeModel) return p;
  throw std::logic_error("the default model " + std::string(kDefaultRopeModel) + " is not shipped");
}

namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// " (default)" or " (derived)" after a value the config did not spell out (the config inspector says from what),
// "" after one it read or one with no recorded origin.
std::string origin_mark(const std::vector<ValueOrigin>& origins, std::string_view value) {
  for (const ValueOrigin& o : origins)
    if (o.value == value) return o.origin == Origin::read ? "" : o.origin == Origin::class_default ? " (default)" : " (derived)";
  return "";
}

}  // namespace

RopeModelPreset rope_model_preset(const ModelConfig& model, std::string_view layer_type) {
  if (model.scheme != PositionScheme::rope)
    throw ParamError("config", model.name + " has " + std::string(to_string(model.scheme)) + " positions, not RoPE");
  const LayerTypeRope& lt = layer_type_rope(model, layer_type);
  const RopeScalingParams& sc = lt.scaling;
  RopeModelPreset m;
  m.name = model.name;
  m.layer_type = lt.layer_type;
  m.model_scaling = sc.kind;
  m.params.rope = lt.rope;
  const int max_pos = model.max_position_embeddings;
  m.params.original_len = sc.original_max_len.value_or(max_pos > 0 ? max_pos : m.params.original_len);
  // Linear scaling names no original context (HF _compute_linear_scaling_rope_parameters divides every frequency
  // by the factor): max_position_embeddings is the stretched window, so the original is max_position / factor.
  if (sc.kind == RopeScaling::linear && !sc.original_max_len && sc.factor && max_pos > 0)
    m.params.original_len = std::max(2, int(std::lround(max_pos / *sc.factor)));
  if (sc.kind == RopeScaling::none) {
    m.params.factor = 1.0;
  } else {
    const double derived = max_pos > m.params.original_len ? double(max_pos) / m.params.original_len : 1.0;
    m.params.factor = std::max(1.0, sc.factor.value_or(derived));
  }
  m.params.target_len = max_pos > m.params.original_len ? max_pos : 0;
  m.params.beta_fast = sc.beta_fast.value_or(m.params.beta_fast);
  m.params.beta_slow = sc.beta_slow.value_or(m.params.beta_slow);
  m.params.low_freq_factor = sc.low_freq_factor.value_or(m.params.low_freq_factor);
  m.params.high_freq_factor = sc.high_freq_factor.value_or(m.params.high_freq_factor);
  // Each value the file did not spell out is marked: Phi-3's 'yarn' read as longrope, a factor or an original
  // context derived from max_position_embeddings, rope_theta left at the class's default.
  const std::string original_mark = sc.original_max_len ? origin_mark(lt.origins, "original_max_position_embeddings")
                                                        : std::string(" (derived)");
  const std::string factor_mark = sc.factor ? origin_mark(lt.origins, "factor") : std::string(" (derived)");
  m.note = (model.layer_types.size() > 1 ? lt.layer_type + ": " : "") + "rope_theta " + number_text(lt.rope.base) +
           origin_mark(lt.origins, "rope_theta") + ", " +
           (sc.kind == RopeScaling::none
                ? std::string("no scaling")
                : std::string(to_string(sc.kind)) + origin_mark(lt.origins, "rope_type") + " x" +
                      number_text(m.params.factor) + factor_mark + " from " + std::to_string(m.params.original_len) +
                      original_mark) +
           (max_pos > 0 ? "; max_position_embeddings " + std::to_string(max_pos) : "");
  return m;
}

}  // namespace peviz
