// Every RoPE scaling at the same knobs, for the side-by-side wavelength comparison, and model presets.
#include "core/context_extension.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/errors.hpp"

namespace peviz {

ContextExtension compare_context_extensions(const ContextExtensionParams& p) {
  if (!std::isfinite(p.factor) || p.factor < 1.0)
    throw ParamError("factor", "must be a finite number >= 1, got " + std::to_string(p.factor));
  ContextExtension out;
  out.target_len = p.target_len > 0 ? double(p.target_len) : double(p.original_len) * p.factor;
  if (p.target_len < 0 || out.target_len > double(kMaxContextLen))
    throw ParamError(p.target_len ? "target-len" : "factor",
                     "the target context must be in [1, 2^30], got " + std::to_string(out.target_len));
  for (RopeScaling kind : {RopeScaling::none, RopeScaling::linear, RopeScaling::dynamic, RopeScaling::yarn,
                           RopeScaling::llama3}) {
    RopeScalingParams s;
    s.kind = kind;
    if (kind != RopeScaling::none) s.factor = p.factor;
    if (kind != RopeScaling::none && kind != RopeScaling::linear) s.original_max_len = p.original_len;
    if (kind == RopeScaling::dynamic) s.seq_len = int(out.target_len);
    if (kind == RopeScaling::yarn) s.beta_fast = p.beta_fast, s.beta_slow = p.beta_slow;
    if (kind == RopeScaling::llama3) s.low_freq_factor = p.low_freq_factor, s.high_freq_factor = p.high_freq_factor;
    ScalingWavelengths row;
    row.kind = kind;
    row.scaled = rope_scaled_inv_freq(p.rope, s);  // validates
    for (double f : row.scaled.inv_freq) {
      const double w = 2.0 * std::numbers::pi / f;
      row.wavelength.push_back(w);
      row.pairs_beyond_original += w > double(p.original_len);
      row.pairs_beyond_target += w > out.target_len;
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::span<const RopeModelPreset> rope_model_presets() {
  auto make = [](std::string name, int head_dim, double base, double factor, int original, int target,
                 RopeScaling kind, std::string note) {
    RopeModelPreset m;
    m.name = std::move(name);
    m.params.rope.head_dim = head_dim;
    m.params.rope.base = base;
    m.params.factor = factor;
    m.params.original_len = original;
    m.params.target_len = target;
    m.model_scaling = kind;
    m.note = std::move(note);
    return m;
  };
  static const RopeModelPreset presets[] = {
      // meta-llama/Llama-2-7b-hf config.json: rope_theta 10000, max_position_embeddings 4096, no rope_scaling.
      make("Llama-2 7B", 128, 10000.0, 4.0, 4096, 0, RopeScaling::none,
           "ships without scaling (4096 tokens); factor 4 shows stretching it to 16384"),
      // meta-llama/Llama-3.1-8B config.json: rope_theta 500000, rope_scaling {rope_type llama3, factor 8,
      // low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192}.
      make("Llama-3.1 8B", 128, 500000.0, 8.0, 8192, 131072, RopeScaling::llama3,
           "llama3 scaling x8 from 8192; max_position_embeddings 131072"),
      // Qwen/Qwen2-7B-Instruct: rope_theta 1e6, 32768 tokens; its model card adds rope_scaling
      // {type yarn, factor 4, original_max_position_embeddings 32768} for 131072 tokens.
      make("Qwen2-style (base 1e6, YaRN)", 128, 1e6, 4.0, 32768, 0, RopeScaling::yarn,
           "YaRN x4 from 32768 to 131072 tokens"),
  };
  return presets;
}

namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

RopeModelPreset rope_model_preset(const ModelConfig& model, std::string_view layer_type) {
  if (model.scheme != PositionScheme::rope)
    throw ParamError("config", model.name + " has " + std::string(to_string(model.scheme)) + " positions, not RoPE");
  const LayerTypeRope& lt = layer_type_rope(model, layer_type);
  const RopeScalingParams& sc = lt.scaling;
  RopeModelPreset m;
  m.name = model.name;
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
  m.note = (model.layer_types.size() > 1 ? lt.layer_type + ": " : "") + "rope_theta " + number_text(lt.rope.base) + ", " +
           (sc.kind == RopeScaling::none ? std::string("no scaling")
                                         : std::string(to_string(sc.kind)) + " x" + number_text(m.params.factor) +
                                               " from " + std::to_string(m.params.original_len)) +
           (max_pos > 0 ? "; max_position_embeddings " + std::to_string(max_pos) : "");
  return m;
}

}  // namespace peviz
