// The distance chart: every method's score against r = j - i on one normalised axis (core/encodings/distance_series).
#include <algorithm>
#include <string>

#include "app/model/app_state.hpp"
#include "app/model/figure.hpp"
#include "app/model/json_fields.hpp"
#include "app/model/page_model.hpp"

namespace peviz::app {

namespace distance_chart_local {  // this page's own names (the pages share a unity batch)
namespace {

constexpr PageSetting kSettings[] = {
    {.key = "seq_len", .help = "Distances r = 0..L-1", .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::seq_len>(),
     .limit = &limits::seq_len, .shared_flag = true},
    {.key = "d_model", .help = "The sinusoid's width", .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::d_model>(),
     .limit = &limits::d_model, .shared_flag = true},
    {.key = "sinusoid_base", .help = "The sinusoid's base", .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::sinusoid_base>(),
     .limit = &limits::base, .shared_flag = true},
    {.key = "rope_head_dim", .help = "RoPE's channels per head (even)",
     .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::rope, &RopeParams::head_dim>(), .limit = &limits::head_dim,
     .full_range = true, .shared_flag = true, .knob = true},
    {.key = "rope_base", .help = "RoPE's base (rope_theta)", .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::rope, &RopeParams::base>(),
     .limit = &limits::rope_base, .full_range = true, .shared_flag = true, .knob = true},
    {.key = "heads", .help = "ALiBi's heads (one curve each)", .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::heads>(),
     .limit = &limits::alibi_heads, .shared_flag = true},
    {.key = "causal", .help = "ALiBi and T5 in their causal form", .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::causal>(),
     .shared_flag = true},
    {.key = "num_buckets", .help = "T5's relative_attention_num_buckets",
     .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::num_buckets>(), .limit = &limits::num_buckets, .full_range = true,
     .shared_flag = true},
    {.key = "max_distance", .help = "T5's relative_attention_max_distance",
     .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::max_distance>(), .limit = &limits::t5_max_distance, .full_range = true,
     .shared_flag = true},
    {.key = "max_relative", .help = "Shaw's clipping distance k", .access = member<&PageStates::distance_chart, &DistanceChartOptions::params, &DistanceSeriesParams::max_relative>(),
     .limit = &limits::max_relative, .full_range = true, .shared_flag = true},
};

void take_model(PageStates& a) {
  a.distance_chart.params.rope = single_rope(a.rope_model);
  a.distance_chart.from_model = true;
}

// The flag, and the knobs still the model's (a knob moved on a page not updated since counts too).
bool follows_model(const PageStates& a) {
  return a.distance_chart.from_model && a.distance_chart.params.rope == single_rope(a.rope_model);
}

// The chunk or window of the model's RoPE layers of the layer type shown (any, for a model with one RoPE type).
void update_span(DistanceChartOptions& o, const LoadedRopeModel& loaded) {
  o.span_window = 0;
  o.span_note.clear();
  if (!o.from_model) return;
  const ModelConfig& m = *loaded.model;
  const std::string shown = shown_layer_type(loaded);
  const auto windowed = std::find_if(m.layers.begin(), m.layers.end(), [&](const ModelLayer& l) {
    return l.positions == LayerPositions::rope && l.window > 0 && (shown.empty() || l.layer_type == shown);
  });
  if (windowed == m.layers.end()) return;
  const LayerGroup& g = m.layer_groups[std::size_t(windowed->group)];
  o.span_window = g.window;
  const std::string size = std::to_string(g.window);
  o.span_note = m.name + ": its " + std::to_string(g.layers) + " RoPE layers " +
                (g.attention == LayerSpan::chunked
                     ? "attend inside chunks of " + size + " tokens, so no key is " + size + " or more away"
                     : "see a sliding window of " + size + " tokens") +
                (g.window < o.params.seq_len ? " (lines at r = +-" + size + ")."
                                             : ", beyond this chart's length " + std::to_string(o.params.seq_len) + ".");
}

void update(AppState& s) {
  DistanceChartOptions& o = s.pages.distance_chart;
  o.from_model = follows_model(s.pages);  // a knob moved: custom from now on
  update_span(o, s.pages.rope_model);
  o.series = distance_series(o.params);
  o.normalised = normalised_series(o.series);
  if (o.shown.size() == o.series.names.size()) return;
  o.shown.assign(o.series.names.size(), true);
  for (std::size_t i = 0; i < o.shown.size(); ++i)  // ALiBi: only heads 0 and H-1 on by default
    if (o.series.names[i].starts_with("alibi_h") && o.series.names[i] != "alibi_h0" && i + 3 != o.series.names.size())
      o.shown[i] = false;
}

// Columns: r, then every series (as peviz export distance-series).
NdArray export_data(const AppState& s) {
  const DistanceSeries& d = s.pages.distance_chart.series;
  std::vector<std::vector<float>> cols(1);
  for (int r : d.distance) cols[0].push_back(float(r));
  for (std::size_t k = 0; k < d.values.rows; ++k) cols.emplace_back(d.values.row(k), d.values.row(k) + d.values.cols);
  return data_columns(cols);
}

std::string caption(const AppState& s) {
  const DistanceSeriesParams& d = s.pages.distance_chart.params;
  const std::string dot = kCaptionDot;
  const std::string rope = follows_model(s.pages)
                               ? rope_model_label(s.pages.rope_model) + " (head_dim " + std::to_string(d.rope.head_dim) +
                                     ", base " + caption_number(d.rope.base) + ")"
                               : "head_dim " + std::to_string(d.rope.head_dim) + ", base " + caption_number(d.rope.base);
  return "L " + std::to_string(d.seq_len) + dot + "sinusoidal d " + std::to_string(d.d_model) + ", base " +
         caption_number(d.sinusoid_base) + dot + "RoPE " + rope + dot + "ALiBi " + counted(d.heads, "head")+
         dot + "T5 " + std::to_string(d.num_buckets) + "/" + std::to_string(d.max_distance) + dot + "Shaw k " +
         std::to_string(d.max_relative) + (d.causal ? dot + "causal" : "");
}

bool read_extra(const nlohmann::json& j, PageStates& a) {
  if (j.contains("heads")) a.distance_chart.shown.clear();  // the series list changes: legend toggles reset
  return read_model_knobs(j, a, knob_keys(kSettings), take_model, a.distance_chart.from_model);
}

void write_extra(const PageStates& a, nlohmann::json& j) { write_rope_model_json(j, a, follows_model(a)); }

void check(const PageStates& a) { validate(a.distance_chart.params); }

}  // namespace
}  // namespace distance_chart_local

extern const PageModel distance_chart_page{.name = "distance", .title = "Distance chart", .json_key = "distance",
                                           .update = distance_chart_local::update,
                                           .export_data = distance_chart_local::export_data,
                                           .caption = distance_chart_local::caption,
                                           .settings = distance_chart_local::kSettings,
                                           .read_extra = distance_chart_local::read_extra,
                                           .write_extra = distance_chart_local::write_extra, .extra_keys = kRopeModelKeys,
                                           .check = distance_chart_local::check,
                                           .take_rope_model = distance_chart_local::take_model,
                                           .follows_rope_model = distance_chart_local::follows_model};

}  // namespace peviz::app
