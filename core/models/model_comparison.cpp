// Real models side by side (core/models/model_comparison.hpp).
#include "core/models/model_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/models/context_extension.hpp"
#include "core/base/limits.hpp"
#include "core/rope/rope_bounds.hpp"

namespace peviz {

namespace {

std::vector<double> wavelengths(const std::vector<double>& inv_freq) {
  std::vector<double> out;
  for (double f : inv_freq) out.push_back(2.0 * std::numbers::pi / f);
  return out;
}

int pairs_within(const std::vector<double>& wavelength, double context) {
  return int(std::count_if(wavelength.begin(), wavelength.end(), [&](double w) { return w <= context; }));
}

// The longest distance the layers that rotate with `lt` see: a layer of that type (any RoPE layer when the model has
// one RoPE) that attends fully sees the whole context; sliding and chunked layers see their window or chunk.
int rope_span(const ModelConfig& model, const LayerTypeRope& lt, int context) {
  int span = 0;
  for (const ModelLayer& l : model.layers) {
    if (l.positions != LayerPositions::rope) continue;
    if (model.layer_types.size() > 1 && l.layer_type != lt.layer_type) continue;
    span = std::max(span, l.window ? std::min(l.window, context) : context);
  }
  return span ? span : context;
}

}  // namespace

ModelRope model_rope(const ModelConfig& model, std::string_view layer_type) {
  const RopeModelPreset preset = rope_model_preset(model, layer_type);  // validates the scheme and layer type
  const LayerTypeRope& lt = layer_type_rope(model, layer_type);
  ModelRope out;
  out.rope = lt.rope;
  // The extended context: max_position_embeddings when above the original, else original x factor (Qwen2.5's
  // YaRN opt-in keeps max_position_embeddings 32768 and scales it by 4).
  const ContextExtensionParams& p = preset.params;
  out.original_len = p.original_len;
  out.extended_len = p.target_len > p.original_len ? p.target_len : int(std::lround(p.original_len * p.factor));
  out.span = rope_span(model, lt, out.extended_len);
  RopeScalingParams scaling = lt.scaling;
  if (scaling_reads(scaling.kind, ScalingField::seq_len)) scaling.seq_len = out.extended_len;
  // yarn and longrope derive a missing factor from max_len / original (transformers reads the config's).
  if ((scaling.kind == RopeScaling::yarn || scaling.kind == RopeScaling::longrope) && !scaling.max_len &&
      model.max_position_embeddings > 0)
    scaling.max_len = model.max_position_embeddings;
  out.scaled = rope_scaled_inv_freq(lt.rope, scaling);
  return out;
}

namespace {
// The context Men et al.'s bound is computed over: the span, up to the bounds' largest context.
long long bounds_len(const RopeModelSummary& m) {
  return std::min<long long>(m.span, (long long)limits::bounds_context_len.max);
}
}  // namespace

RopeModelSummary summarize_rope_model(const ModelConfig& model, std::string_view layer_type) {
  const ModelRope r = model_rope(model, layer_type);
  const LayerTypeRope& lt = layer_type_rope(model, layer_type);
  RopeModelSummary out;
  out.name = model.layer_types.size() > 1 ? model.name + " (" + lt.layer_type + ")" : model.name;
  out.head_dim = r.rope.head_dim;
  out.rotary_dim = rotary_dim(r.rope);
  out.base = r.rope.base;
  out.scaling = lt.scaling.kind;
  out.original_len = r.original_len;
  out.extended_len = r.extended_len;
  out.factor = r.scaled.factor;
  out.attention_factor = r.scaled.attention_factor;
  out.wavelength = wavelengths(rope_inv_freq(r.rope));
  out.scaled_wavelength = wavelengths(r.scaled.inv_freq);
  out.pairs_turning_original = pairs_within(out.wavelength, out.original_len);
  out.pairs_turning_extended = pairs_within(out.scaled_wavelength, out.extended_len);
  out.span = r.span;
  out.layers = int(model.layers.size());
  for (const ModelLayer& l : model.layers) {
    out.nope_layers += l.positions == LayerPositions::nope;
    out.positionless_layers += l.positions == LayerPositions::none;
  }
  const long long bound_len = bounds_len(out);
  out.critical_dim = liu_critical_dim(out.rotary_dim, out.base, out.original_len);
  out.min_base = rope_min_base(out.rotary_dim, bound_len);
  out.fails_at = first_negative_rope_bound(out.rotary_dim, out.base, bound_len - 1);
  return out;
}

HoldingBaseScan holding_base_scan(const RopeModelSummary& m) {
  const double smallest = m.min_base.value_or(0.0);
  return HoldingBaseScan(m.rotary_dim, bounds_len(m), smallest, limits::bounds_islands_listed * smallest);
}

const ComparisonColumn kComparisonColumns[13] = {
    {"model", "model",
     "The model (and layer type); its organisation prefix is left out here (hover a name for it, the "
     "legend has it)."},
    {"layers", "layers",
     "layers: the model's layers, and how many attend without positions (NoPE) or are not attention at all"
     " (linear attention); hover a cell for the whole layer map."},
    {"rotary_dim", "R",
     "R: rotating channels per head (head_dim x partial rotary factor)."},
    {"base", "base",
     "rope_theta."},
    {"scaling", "scaling",
     "rope_scaling: its type and factor."},
    {"original_len", "orig.",
     "orig.: the context it was trained on."},
    {"extended_len", "ext.",
     "ext.: the extended context (max_position_embeddings: the context it claims)."},
    {"span", "span",
     "span: the longest distance a layer with this RoPE sees: the extended context, or the window or chunk"
     " when every such layer slides or attends in chunks (Llama 4's RoPE layers: chunks of 8192). Men base"
     " is computed over it."},
    {"pairs_turning_original", "turn o.",
     "turn o.: pairs whose unscaled wavelength fits inside the original context (they complete a turn "
     "there), of R/2."},
    {"pairs_turning_extended", "turn e.",
     "turn e.: pairs whose scaled wavelength fits inside the extended context, of R/2."},
    {"critical_dim", "d_extra",
     "Liu et al. 2023, Eq. 13, d_extra: channels whose pair completes a turn inside the original context, "
     "of R; past 2 pi base^(d_extra/R) the first untrained angle appears."},
    {"men_min_base", "Men base",
     "Men et al. 2024: the smallest base with B(m) >= 0 for every m below the span. It is no threshold: "
     "islands of larger bases fail again, and every base holds only from about 2x it (span 4096) to 5x "
     "(span 32768). Hover a cell for the ranges that hold, scanned while the page is shown."},
    {"ok", "ok",
     "ok: whether the model's own base keeps B(m) >= 0 for every m below the span, checked at that base "
     "(being above Men base is not enough; hover a no for the first failing m); scaling is not counted: it"
     " acts like a larger base."},
};

}  // namespace peviz
