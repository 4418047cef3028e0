// Small widgets the views share: hover hints, the colormap combo, view titles.
#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/plot/colormap.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

float readable_height(float share, float legend_above) {
  return std::max(share, kMinPlotHeightEm * ImGui::GetFontSize() + legend_above);
}

bool fits_side_by_side(int count, float extra) {
  const float need = float(count) * kMinPlotWidthEm * ImGui::GetFontSize() + float(count) * ImGui::GetStyle().ItemSpacing.x + extra;
  return ImGui::GetContentRegionAvail().x >= need;
}

float colorbar_extra_width() { return kColorbarWidthEm * ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.x; }
float readable_heatmap_panel_width() { return kMinPlotWidthEm * ImGui::GetFontSize() + colorbar_extra_width(); }

void hint(const char* sentence) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(sentence);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

bool colormap_combo(const char* label, int& choice) {
  static const char* const names[] = {"auto", "viridis", "diverging", "magma", "grey", "categorical"};
  static_assert(sizeof(names) / sizeof(names[0]) == plot::kColormapCount + 1);
  next_on_line(ImGui::GetFontSize() * 7.0f, label);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  const bool changed = ImGui::Combo(label, &choice, names, plot::kColormapCount + 1);
  hint("Colours of the heatmap: auto picks a blue-white-red map centred on 0 for signed values "
       "and viridis for non-negative ones.");
  return changed;
}

void view_title(const char* title) {
  ImGui::AlignTextToFramePadding();
  ImGui::PushTextWrapPos(0.0f);  // wraps at the pane's right edge
  ImGui::TextUnformatted(title);
  ImGui::PopTextWrapPos();
}

void next_on_line(float item_width, const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float width = item_width;
  if (label) {
    const float text = ImGui::CalcTextSize(label, nullptr, true).x;
    if (text > 0.0f) width += style.ItemInnerSpacing.x + text;
  }
  const float end_of_last = ImGui::GetItemRectMax().x;
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (end_of_last + style.ItemSpacing.x + width <= right_edge) ImGui::SameLine();
}

float radio_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

float small_button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

unsigned highlight_color() {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  const bool light = bg.x + bg.y + bg.z > 1.5f;
  return light ? IM_COL32(230, 110, 0, 255) : IM_COL32(255, 200, 0, 230);  // orange reads on white
}

void heatmap_with_colorbar(AppState& s, plot::HeatmapImage& img, const HeatmapPanel& panel, float height,
                           ScreenRect& image_region, ScreenRect& bar_region) {
  const int L = s.computed.seq_len;
  const float bar_width = ImGui::GetFontSize() * kColorbarWidthEm;
  const float width = ImGui::GetContentRegionAvail().x - bar_width - ImGui::GetStyle().ItemSpacing.x;
  if (plot::begin_plot(panel.id, ImVec2(width, height), plot::plot_no_background)) {
    plot::setup_axes(panel.x_label, "position", {0.0, panel.x_extent}, {0.0, double(L)}, plot::axis_cells,
                     plot::axis_cells | plot::axis_inverted);
    plot::plot_heatmap(img, panel.value_label);
    if (show_highlight(s)) {
      plot::plot_hline(s.highlight_position + 0.5, highlight_color(), 1.0f);
      if (panel.mark_column) plot::plot_vline(s.highlight_position + 0.5, highlight_color(), 1.0f);
    }
    if (plot::plot_clicked())
      s.highlight_position = std::clamp(int(std::floor(plot::mouse_data_position().y)), 0, L - 1);
    plot::end_plot();
  }
  image_region = {img.screen_min[0], img.screen_min[1], img.screen_max[0], img.screen_max[1]};
  ImGui::SameLine();
  const std::string bar_id = std::string(panel.id) + "_bar";
  const plot::ScreenBox bar = plot::colorbar(bar_id.c_str(), img.colormap, img.vmin, img.vmax, ImVec2(bar_width, height),
                                              {panel.value_label, plot::heatmap_has_missing(img), img.nan_meaning});
  bar_region = {bar.min.x, bar.min.y, bar.max.x, bar.max.y};
}

namespace {
ImGuiSliderFlags limit_flags(const Limit& l) {
  return ImGuiSliderFlags_AlwaysClamp | (l.logarithmic() ? ImGuiSliderFlags_Logarithmic : 0);
}
}  // namespace

bool limit_slider(const char* label, int& v, const Limit& l, const char* format) {
  return ImGui::SliderInt(label, &v, int(l.window_lo()), int(l.window_hi()), format, limit_flags(l));
}

bool limit_slider(const char* label, double& v, const Limit& l, const char* format) {
  const double lo = l.window_lo(), hi = l.window_hi();
  return ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format, limit_flags(l));
}

}  // namespace peviz::app
