// All methods on one distance chart: core's "score against relative distance" series for sinusoidal,
// RoPE, ALiBi, T5 and Shaw at the same L, each divided by its largest |value|, with a toggling legend.
#include <algorithm>
#include <memory>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/analysis_views.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

void draw_distance_chart_view(AppState& s) {
  DistanceChartOptions& o = s.analysis.distance_chart;
  constexpr Page page = Page::distance_chart;
  view_title("Every method against relative distance r = key - query");
  page_slider(s, page, "length##dist", o.params.seq_len, limits::seq_len);
  ImGui::SameLine();
  page_slider(s, page, "ALiBi heads", o.params.heads, limits::alibi_heads);
  ImGui::SameLine();
  if (ImGui::Checkbox("causal##dist", &o.params.causal)) s.analysis.mark(page);
  ImGui::SameLine();
  page_slider(s, page, "Shaw k##dist", o.params.max_relative, limits::max_relative);
  const auto& names = o.series.names;
  if (names.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  std::vector<const char*> labels;
  for (const auto& n : names) labels.push_back(n.c_str());
  std::unique_ptr<bool[]> shown(new bool[names.size()]);
  for (std::size_t i = 0; i < names.size(); ++i) shown[i] = o.shown[i];
  if (series_toggles("##dist_toggles", labels, shown.get()))
    for (std::size_t i = 0; i < names.size(); ++i) o.shown[i] = shown[i];
  ImGui::TextDisabled("Each series divided by its largest |value|: sinusoidal PE(0).PE(|r|) and RoPE 2 sum cos(r theta) "
                      "are 1 at r = 0; ALiBi runs to -1; T5 bucket ids and Shaw's clipped r run to 1.");
  const int L = o.params.seq_len;
  const int n = int(o.series.distance.size());
  if (plot::begin_plot("##distance_chart", ImVec2(-1, -1))) {
    plot::setup_axes("relative distance r = j - i", "normalised value", {-double(L - 1), double(L - 1)}, {-1.1, 1.1},
                     plot::axis_integer);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (o.shown[i])
        plot::plot_line(labels[i], o.normalised.row(i), n, -double(L - 1), 1.0, 1, plot::series_color(int(i)),
                        names[i] == "rope" || names[i] == "sinusoidal" ? 2.0f : 1.5f);
    plot::plot_vline(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.3f), 1.0f);
    plot::end_plot();
  }
  record_page_region(s);
}

}  // namespace peviz::app
