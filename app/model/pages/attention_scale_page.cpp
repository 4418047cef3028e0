// The attention-against-length page: each method's factor on the logits and the needle's weight against the number
// of keys, and the loaded model's own per group of layers (core/models/attention_scale.hpp).
#include <cmath>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"
#include "core/models/model_comparison.hpp"

namespace peviz::app {

namespace attention_scale_local {  // this page's own names (the pages share a unity batch)
namespace {

template <auto Member>
constexpr SettingAccess option() {
  return member<&PageStates::attention_scale, Member>();
}
template <auto Member>
constexpr SettingAccess method_param() {
  return member<&PageStates::attention_scale, &AttentionScaleOptions::params, Member>();
}

constexpr PageSetting kSettings[] = {
    {.key = "margin", .help = "The needle's logit margin D over every other key",
     .access = option<&AttentionScaleOptions::margin>(), .limit = &limits::needle_margin},
    {.key = "spread", .help = "Standard deviation of the other keys' logits (0 = all equal)",
     .access = option<&AttentionScaleOptions::spread>(), .limit = &limits::needle_spread},
    {.key = "max_position_log10", .help = "Query positions up to 10^this",
     .access = option<&AttentionScaleOptions::max_position_log10>(), .limit = &limits::scale_max_log10},
    {.key = "ssmax_s", .help = "SSMax's s: the logits times s ln n",
     .access = method_param<&ScaleMethodParams::ssmax_s>(), .limit = &limits::ssmax_s},
    {.key = "train_length", .help = "log-n's training length L: the logits times ln n / ln L past it",
     .access = method_param<&ScaleMethodParams::train_length>(), .limit = &limits::train_length},
    {.key = "factor", .help = "YaRN's scale factor s: the logits times (0.1 ln s + 1)^2",
     .access = method_param<&ScaleMethodParams::factor>(), .limit = &limits::factor},
    {.key = "attn_scale", .help = "Llama 4's attn_scale a",
     .access = method_param<&ScaleMethodParams::attn_scale>(), .limit = &limits::attn_scale},
    {.key = "floor_scale", .help = "Llama 4's floor_scale F",
     .access = method_param<&ScaleMethodParams::floor_scale>(), .limit = &limits::floor_scale},
    {.key = "show_none", .help = "Draw the plain softmax", .access = option<&AttentionScaleOptions::show_none>(),
     .in_caption = false},
    {.key = "show_ssmax", .help = "Draw SSMax", .access = option<&AttentionScaleOptions::show_ssmax>(),
     .in_caption = false},
    {.key = "show_logn", .help = "Draw log-n", .access = option<&AttentionScaleOptions::show_logn>(),
     .in_caption = false},
    {.key = "show_yarn", .help = "Draw YaRN", .access = option<&AttentionScaleOptions::show_yarn>(),
     .in_caption = false},
    {.key = "show_llama4", .help = "Draw Llama 4's temperature", .access = option<&AttentionScaleOptions::show_llama4>(),
     .in_caption = false},
    {.key = "show_model", .help = "Draw the loaded model's own scale, per group of its layers",
     .access = option<&AttentionScaleOptions::show_model>()},
};

// "Llama-4-Scout: NoPE, queries scaled (12 layers)".
std::string group_label(const std::string& model, const ScaleGroup& g, std::size_t groups) {
  std::string label = model + ": " + (g.rope ? "RoPE" : "NoPE");
  if (g.rope && g.rope_type != "default") label += " " + g.rope_type;
  if (g.query_scaled) label += ", queries scaled";
  if (groups > 1 && !g.layers.empty()) label += " (" + std::to_string(g.layers.size()) + " layers)";
  return label;
}

void update_model(AttentionScaleOptions& o, const ModelConfig& m) {
  o.model_labels.clear();
  o.model_scale.clear();
  o.model_weight.clear();
  const std::vector<ScaleGroup> groups = attention_scale_groups(m);
  for (const ScaleGroup& g : groups) {
    o.model_labels.push_back(group_label(m.name, g, groups.size()));
    std::vector<float> scale, weight;
    for (float x : o.log10_keys) {
      const double keys = std::pow(10.0, double(x)), c = group_logit_scale_at(m, g, keys - 1);
      scale.push_back(float(c));
      weight.push_back(float(needle_weight(c, o.margin, o.spread, keys)));
    }
    o.model_scale.push_back(std::move(scale));
    o.model_weight.push_back(std::move(weight));
  }
  const ModelRope r = model_rope(m);
  o.model_trained = r.original_len;
  o.model_extended = r.extended_len;
}

void update(AppState& s) {
  AttentionScaleOptions& o = s.pages.attention_scale;
  validate(o.params);
  check_real(limits::needle_margin, o.margin);
  check_real(limits::needle_spread, o.spread);
  check_int(limits::scale_max_log10, o.max_position_log10);
  o.log10_keys.clear();
  for (int i = 0; i < kScaleSamples; ++i) o.log10_keys.push_back(float(o.max_position_log10 * i / double(kScaleSamples - 1)));
  for (std::size_t k = 0; k < std::size(kAllScaleMethods); ++k) {
    o.scale[k].clear();
    o.weight[k].clear();
    for (float x : o.log10_keys) {
      const double keys = std::pow(10.0, double(x)), c = logit_scale_at(kAllScaleMethods[k], o.params, keys - 1);
      o.scale[k].push_back(float(c));
      o.weight[k].push_back(float(needle_weight(c, o.margin, o.spread, keys)));
    }
  }
  o.model_labels.clear();
  o.model_scale.clear();
  o.model_weight.clear();
  if (o.show_model) update_model(o, *s.pages.rope_model.model);
}

// Columns: log10 n, then per method (none, SSMax, log-n, YaRN, Llama 4) its logit scale and needle weight, then the
// same per group of the loaded model's layers while it is drawn.
NdArray export_data(const AppState& s) {
  const AttentionScaleOptions& o = s.pages.attention_scale;
  std::vector<std::vector<float>> cols = {o.log10_keys};
  for (std::size_t k = 0; k < o.scale.size(); ++k) {
    cols.push_back(o.scale[k]);
    cols.push_back(o.weight[k]);
  }
  for (std::size_t g = 0; g < o.model_scale.size(); ++g) {
    cols.push_back(o.model_scale[g]);
    cols.push_back(o.model_weight[g]);
  }
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const AttentionScaleOptions& o = s.pages.attention_scale;
  const std::string dot = kCaptionDot;
  std::string text = "Attention against length" + dot + "margin " + caption_number(o.margin);
  if (o.spread > 0) text += ", spread " + caption_number(o.spread);
  text += dot + "SSMax s " + caption_number(o.params.ssmax_s) + ", log-n L " + caption_number(o.params.train_length) +
          ", YaRN s " + caption_number(o.params.factor) + ", Llama 4 a " + caption_number(o.params.attn_scale) +
          " F " + caption_number(o.params.floor_scale);
  if (o.show_model) text += dot + rope_model_label(s.pages.rope_model);
  return text + dot + "n \u2264 1e" + std::to_string(o.max_position_log10);
}

void take_model(PageStates& a) { a.attention_scale.show_model = true; }
bool follows_model(const PageStates& a) { return a.attention_scale.show_model; }

bool read_extra(const nlohmann::json& j, PageStates& a) {
  read_rope_model_json(j, a, {});  // a model named is loaded; the table's settings are read as well
  return false;
}

void write_extra(const PageStates& a, nlohmann::json& j) { write_rope_model_json(j, a, a.attention_scale.show_model); }

}  // namespace
}  // namespace attention_scale_local

extern const PageModel attention_scale_page{
    .name = "attention-scale", .title = "Softmax", .json_key = "attention_scale",
    .update = attention_scale_local::update, .export_data = attention_scale_local::export_data,
    .caption = attention_scale_local::caption, .settings = attention_scale_local::kSettings,
    .read_extra = attention_scale_local::read_extra, .write_extra = attention_scale_local::write_extra,
    .extra_keys = kRopeModelKeys, .take_rope_model = attention_scale_local::take_model,
    .follows_rope_model = attention_scale_local::follows_model, .parts = kAttentionScaleParts};

}  // namespace peviz::app
