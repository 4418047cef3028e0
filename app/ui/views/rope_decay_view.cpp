// RoPE long-term decay: score against relative distance for q = k = all ones, and below it RoFormer's
// relative upper bound on its own axis, for several bases (RoFormer §3.4.3, Figure 2).
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "app/ui/views/rope_model_line.hpp"

namespace peviz::app {

namespace {

// One line per compared model in its colour on the comparison; the names live in the state (they outlive
// end_plot).
void model_lines(const std::vector<std::string>& names, const std::vector<std::vector<float>>& series) {
  for (std::size_t k = 0; k < series.size(); ++k)
    plot::plot_line(names[k].c_str(), series[k].data(), int(series[k].size()), 0.0, 1.0, 1, plot::series_color(int(k)),
                    2.0f);
}

}  // namespace

void draw_rope_decay_view(AppState& s) {
  RopeDecayOptions& o = s.pages.rope_decay;
  constexpr Page page = Page::rope_decay;
  view_title("RoPE long-term decay (RoFormer §3.4.3)");
  if (shows_controls(s)) {  // the settings and the bases shown; figures and presented slides leave them out
    if (!o.models) {  // the models bring their own heads
      draw_rope_model_line(s, page);
      pairs_slider(s, page, "head_dim / 2", o.head_dim, limits::head_dim);
      next_slider_on_line("max distance");
    }
    page_slider(s, page, "max distance", o.max_distance, limits::decay_max_distance);
    next_on_line(radio_width("bound panel"));
    ImGui::Checkbox("bound panel", &o.show_bound);
    hint("RoFormer's relative upper bound (2/d) sum_i |S_i|, S_i = sum_{k<i} exp(i r theta_k), in its own units (its "
         "Figure 2): times max_i |h_{i+1} - h_i| it bounds the score of any query and key.");
    if (ImGui::Checkbox("real models", &o.models)) s.pages.mark(page);
    hint("The models compared on the Context extension page (tick them there), each with its own head_dim, base and "
         "scaling at its extended context, instead of three bases.");
    const char* names[3] = {"base 10000", "base 500000", "base 1e6"};
    bool shown[3] = {o.base_on[0], o.base_on[1], o.base_on[2]};
    if (!o.models && series_toggles("##decay_bases", {names[0], names[1], names[2]}, shown))
      for (int i = 0; i < 3; ++i) o.base_on[std::size_t(i)] = shown[i];
  }
  if (shows_part(s, kRopeDecayNotes)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Top: score(r) = <RoPE(1, 0), RoPE(1, r)> = 2 sum_j cos(r theta_j) for a query and key of all "
                        "ones, divided by its value at r = 0. Bottom: RoFormer's relative upper bound, which decays for "
                        "every content. A larger base decays more slowly.");
    ImGui::PopTextWrapPos();
  }
  if (o.models ? o.model_score.empty() : o.score[0].empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  // Labels must outlive end_plot (the read-out reads them): string literals. Both plots' legends name each base (in
  // the window, presenting and every figure): a slide or figure may show either.
  static const char* const score_labels[3] = {"base 10000", "base 500000", "base 1e6"};
  const bool score = shows_part(s, kRopeDecayScore), bound = o.show_bound && shows_part(s, kRopeDecayBound);
  const float avail = ImGui::GetContentRegionAvail().y;
  const float bound_h = bound ? readable_height(score ? 0.4f * avail : avail) : 0.0f;
  const float score_h = readable_height(bound ? avail - bound_h - ImGui::GetStyle().ItemSpacing.y : avail);
  if (score && plot::begin_plot("##decay", ImVec2(-1, score_h))) {
    plot::setup_axes("relative distance r", "score / score(0)", {0.0, double(o.max_distance)}, {-0.3, 1.05});
    if (o.models) model_lines(o.model_names, o.model_score);
    for (int b = 0; b < 3 && !o.models; ++b)
      if (o.base_on[std::size_t(b)])
        plot::plot_line(score_labels[b], o.score[std::size_t(b)].data(), int(o.score[std::size_t(b)].size()), 0.0, 1.0, 1,
                        plot::series_color(b), 2.0f);
    if (!o.models && !o.model_base_score.empty())  // the loaded model's own base, named in the legend
      plot::plot_line(o.model_label.c_str(), o.model_base_score.data(), int(o.model_base_score.size()), 0.0, 1.0, 1,
                      plot::series_color(3), 2.5f);
    plot::plot_hline(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.3f), 1.0f);
    plot::end_plot();
  }
  if (score) record_page_region(s);
  if (bound && plot::begin_plot("##decay_bound", ImVec2(-1, bound_h))) {
    double top = double(o.bound[0].empty() ? 1.0f : o.bound[0][0]) * 1.05;
    if (o.models)
      for (const auto& b : o.model_bound) top = b.empty() ? top : std::max(top, double(b[0]) * 1.05);
    plot::setup_axes("relative distance r", "relative upper bound", {0.0, double(o.max_distance)}, {0.0, top});
    if (o.models) model_lines(o.model_names, o.model_bound);
    for (int b = 0; b < 3 && !o.models; ++b)
      if (o.base_on[std::size_t(b)])
        plot::plot_line(score_labels[b], o.bound[std::size_t(b)].data(), int(o.bound[std::size_t(b)].size()), 0.0, 1.0, 1,
                        plot::series_color(b), 2.0f);
    if (!o.models && !o.model_base_bound.empty())
      plot::plot_line(o.model_label.c_str(), o.model_base_bound.data(), int(o.model_base_bound.size()), 0.0, 1.0, 1,
                      plot::series_color(3), 2.5f);
    plot::end_plot();
    if (!score) record_page_region(s);
  }
}

}  // namespace peviz::app
