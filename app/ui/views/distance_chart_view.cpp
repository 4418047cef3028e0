// All methods on one distance chart: core's "score against relative distance" series for sinusoidal,
// RoPE, ALiBi, T5 and Shaw at the same L, each divided by its largest |value|, with a toggling legend.
#include <algorithm>
#include <memory>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "app/ui/views/rope_model_line.hpp"

namespace peviz::app {

void draw_distance_chart_view(AppState& s) {
  DistanceChartOptions& o = s.pages.distance_chart;
  constexpr Page page = Page::distance_chart;
  view_title("Every method against relative distance r = key - query");
  if (shows_controls(s)) {  // the settings; figures and presented slides leave them out
    draw_rope_model_line(s, page);
    page_slider(s, page, "length##dist", o.params.seq_len, limits::seq_len);
    next_slider_on_line("ALiBi heads");
    page_slider(s, page, "ALiBi heads", o.params.heads, limits::alibi_heads);
    next_on_line(radio_width("causal##dist"));
    if (ImGui::Checkbox("causal##dist", &o.params.causal)) s.pages.mark(page);
    next_slider_on_line("Shaw k##dist");
    page_slider(s, page, "Shaw k##dist", o.params.max_relative, limits::max_relative);
  }
  const auto& names = o.series.names;
  if (names.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  std::vector<const char*> labels;
  for (const auto& n : names) labels.push_back(n.c_str());
  if (shows_controls(s)) {  // the series shown (the plots' legends name them in a figure)
    std::unique_ptr<bool[]> shown(new bool[names.size()]);
    for (std::size_t i = 0; i < names.size(); ++i) shown[i] = o.shown[i];
    if (series_toggles("##dist_toggles", labels, shown.get()))
      for (std::size_t i = 0; i < names.size(); ++i) o.shown[i] = shown[i];
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Top, scores divided by their largest |value|: sinusoidal PE(0).PE(|r|) and RoPE 2 sum cos(r theta) "
                      "are the same sum of cosines, so their curves coincide (sinusoidal drawn wide under RoPE); both are "
                      "1 at r = 0; ALiBi runs to -1. Bottom, ids in their own units: the T5 bucket of r and Shaw's "
                      "clipped r.");
  if (!o.span_note.empty()) ImGui::TextUnformatted(o.span_note.c_str());
  ImGui::PopTextWrapPos();
  const int L = o.params.seq_len;
  const int n = int(o.series.distance.size());
  const float avail = ImGui::GetContentRegionAvail().y;
  const float ids_h = readable_height(0.35f * avail);
  const std::pair<double, double> r_range{-double(L - 1), double(L - 1)};
  auto draw = [&](bool ids) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!o.shown[i] || is_id_series(names[i]) != ids) continue;
      const float* values = ids ? o.series.values.row(i) : o.normalised.row(i);
      const float width = names[i] == "sinusoidal" ? 5.0f : 1.5f;  // wide under RoPE, which it equals
      plot::plot_line(labels[i], values, n, r_range.first, 1.0, 1, plot::series_color(int(i)), width);
    }
    plot::plot_vline(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.3f), 1.0f);
    if (o.span_window > 0 && o.span_window < L)  // the model's chunk or window
      for (double r : {-double(o.span_window), double(o.span_window)})
        plot::plot_vline(r, ImGui::GetColorU32(ImGuiCol_Text, 0.7f), 1.0f);
  };
  if (plot::begin_plot("##distance_chart", ImVec2(-1, readable_height(avail - ids_h - ImGui::GetStyle().ItemSpacing.y)))) {
    plot::setup_axes("relative distance r = j - i", "score / max |score|", {r_range.first, r_range.second}, {-1.1, 1.1},
                     plot::axis_integer);
    draw(false);
    plot::end_plot();
  }
  record_page_region(s);
  double lo = 0.0, hi = 1.0;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (is_id_series(names[i]))
      for (int k = 0; k < n; ++k) {
        const double v = o.series.values.row(i)[k];
        if (v == v) lo = std::min(lo, v), hi = std::max(hi, v);
      }
  if (plot::begin_plot("##distance_ids", ImVec2(-1, ids_h))) {
    plot::setup_axes("relative distance r = j - i", "T5 bucket id, Shaw clipped r", {r_range.first, r_range.second},
                     {lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)}, plot::axis_integer, plot::axis_integer);
    draw(true);
    plot::end_plot();
  }
}

}  // namespace peviz::app
