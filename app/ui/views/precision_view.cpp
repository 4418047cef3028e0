// Precision: phase error of t * theta in fp32, bf16 and fp16 against position, with the position at
// which neighbouring positions round to the same number marked (core/rope/precision.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "app/ui/views/rope_model_line.hpp"

namespace peviz::app {

namespace {

// The source of the frequencies (RoPE or the sidebar's sinusoid), RoPE's head and base, the largest position.
void precision_controls(AppState& s) {
  PrecisionOptions& o = s.pages.precision;
  constexpr Page page = Page::precision;
  if (o.use_rope) draw_rope_model_line(s, page);
  int source = o.use_rope ? 0 : 1;
  bool source_changed = ImGui::RadioButton("RoPE", &source, 0);
  next_on_line(radio_width("sidebar sinusoid"));
  source_changed |= ImGui::RadioButton("sidebar sinusoid", &source, 1);
  if (source_changed) {
    o.use_rope = source == 0;
    s.pages.mark(page);
  }
  if (o.use_rope) {
    next_slider_on_line("head_dim / 2##prec");
    pairs_slider(s, page, "head_dim / 2##prec", o.head_dim, limits::head_dim);
    next_slider_on_line("base##prec");
    page_slider(s, page, "base##prec", o.base, limits::rope_base);
  }
  next_slider_on_line("log2 max position");
  page_slider(s, page, "log2 max position", o.max_position_log2, limits::precision_max_position_log2);
}

// The legend names each format and, where it falls inside the plot, the position from which t and t + 1 round
// to the same value (the thin vertical line of its colour): notes inside the plot would sit on the curves.
std::array<std::string, 3> format_labels(const PrecisionOptions& o) {
  static const char* const names[3] = {"fp32", "bf16", "fp16"};
  std::array<std::string, 3> labels;
  for (int f = 0; f < 3; ++f) {
    labels[std::size_t(f)] = names[f];
    const double from = o.indistinguishable[std::size_t(f)];
    if (std::log2(from) <= o.max_position_log2) {
      char text[64];
      std::snprintf(text, sizeof text, " (line: t and t+1 equal from %.0f)", from);
      labels[std::size_t(f)] += text;
    }
  }
  return labels;
}

}  // namespace

void draw_precision_view(AppState& s) {
  PrecisionOptions& o = s.pages.precision;
  view_title("Precision of the angle t * theta in reduced formats");
  if (shows_controls(s)) precision_controls(s);  // figures and presented slides leave them out
  ImGui::PushTextWrapPos(0.0f);  // wraps at the pane's right edge
  ImGui::TextDisabled("angle = fl(fl(t) * fl(theta)) in the format against t * theta in double; largest wrapped error "
                      "over all pairs, radians (pi = no phase left). Missing: the angle overflows fp16.");
  ImGui::PopTextWrapPos();
  if (o.log2_position.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const std::array<std::string, 3> labels = format_labels(o);
  const int n = int(o.log2_position.size());
  // The rest of the pane, but never less than a readable plot under its legend (the page scrolls then).
  const float height = std::max(ImGui::GetContentRegionAvail().y,
                                kMinPlotHeightEm * ImGui::GetFontSize() + plot::legend_room_above("##precision"));
  if (plot::begin_plot("##precision", ImVec2(-1, height))) {
    plot::setup_axes("log2 position t", "phase error (rad)", {0.0, double(o.max_position_log2)},
                     {-0.05, std::numbers::pi + 0.1});
    for (int f = 0; f < 3; ++f) {
      plot::plot_line(labels[std::size_t(f)].c_str(), o.error[std::size_t(f)].data(), n, 0.0, 0.125, 1,
                      plot::series_color(f), 2.0f);
    }
    for (int f = 0; f < 3; ++f) {
      const double x = std::log2(o.indistinguishable[std::size_t(f)]);
      if (x <= o.max_position_log2) plot::plot_vline(x, plot::series_color(f), 1.0f);
    }
    plot::end_plot();
  }
  record_page_region(s);
}

}  // namespace peviz::app
