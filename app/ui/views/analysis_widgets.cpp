// Widgets the analysis pages share: toggling legend, page sliders, heatmap with colourbar, dispatch.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/analysis_views.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

bool series_toggles(const char* id, const std::vector<const char*>& names, bool* shown, int first_color,
                    const std::vector<const char*>& hints) {
  bool changed = false;
  ImGui::PushID(id);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    const float w = radio_width(names[i]);
    if (i > 0 && ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();  // wrap instead of running off the pane
    const ImU32 c = plot::series_color(first_color + int(i));
    ImGui::PushStyleColor(ImGuiCol_CheckMark, c);
    ImGui::PushStyleColor(ImGuiCol_Text, c);
    changed |= ImGui::Checkbox(names[i], &shown[i]);
    ImGui::PopStyleColor(2);
    hint(i < hints.size() && hints[i] ? hints[i] : "Legend: click a name to show or hide that series.");
  }
  ImGui::PopID();
  return changed;
}

void record_page_region(AppState& s) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  s.analysis.plot_region[0] = a.x, s.analysis.plot_region[1] = a.y;
  s.analysis.plot_region[2] = b.x, s.analysis.plot_region[3] = b.y;
}

namespace {

// The name of each tile of a tiled heatmap in its top-left corner, where that corner is on screen (the grid
// zooms and pans like any heatmap): "h0", "h1", ... for heads (0-based, as ALiBi's head slider), "L1 h1",
// "L1 h2", ... for layer x head maps (1-based, as the Lab's layer and head counts). The hover says the same.
void label_tiles(const plot::HeatmapImage& img) {
  const plot::HeatmapWindow& w = img.window;
  if (img.tile_side <= 0 || !img.drawn || w.x_right == w.x_left || w.y_bottom == w.y_top) return;
  const ImVec2 lo(img.screen_min[0], img.screen_min[1]), hi(img.screen_max[0], img.screen_max[1]);
  const float tile_px = float(img.tile_side / std::abs(w.x_right - w.x_left)) * (hi.x - lo.x);
  if (tile_px < 3.0f * ImGui::CalcTextSize("L8 h8").x) return;  // the labels would hide small tiles: the hover names them
  plot::canvas_push_clip(lo, hi);
  const double step = double(img.tile_side + 1);  // a tile and its one-cell gutter
  const float pad = ImGui::GetStyle().FramePadding.x;
  for (int t = 0; t < img.tile_count; ++t) {
    const int tile_row = t / std::max(img.tiles_across, 1), tile_col = t % std::max(img.tiles_across, 1);
    const double col = tile_col * step, row = tile_row * step;
    const float x = lo.x + float((col - w.x_left) / (w.x_right - w.x_left)) * (hi.x - lo.x) + pad;
    const float y = lo.y + float((row - w.y_top) / (w.y_bottom - w.y_top)) * (hi.y - lo.y) + pad;
    char label[32];
    if (img.tiles_are_layers)
      std::snprintf(label, sizeof label, "L%d h%d", tile_row + 1, tile_col + 1);
    else
      std::snprintf(label, sizeof label, "h%d", t);
    const ImVec2 size = ImGui::CalcTextSize(label);
    plot::canvas_rect_filled(ImVec2(x - 2, y), ImVec2(x + size.x + 2, y + size.y), IM_COL32(0, 0, 0, 150), 2.0f);
    plot::canvas_text(ImVec2(x, y), IM_COL32(255, 255, 255, 255), label);
  }
  plot::canvas_pop_clip();
}

}  // namespace

void heatmap_panel(plot::HeatmapImage& img, const char* id, const char* x_label, const char* y_label,
                   const char* value_label, ImVec2 size) {
  if (!plot::has_values(img.values)) return;
  const float bar_width = ImGui::GetFontSize() * kColorbarWidthEm, height = readable_height(size.y);
  const float total = size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x;
  const float width = std::max(total - bar_width - ImGui::GetStyle().ItemSpacing.x, 10.0f);
  ImGui::BeginGroup();
  if (plot::begin_plot(id, ImVec2(width, height))) {
    plot::setup_axes(x_label, y_label, {0.0, double(plot::value_cols(img.values))}, {0.0, double(plot::value_rows(img.values))},
                     plot::axis_cells, plot::axis_cells | plot::axis_inverted);
    plot::plot_heatmap(img, value_label);
    plot::end_plot();
    label_tiles(img);
  }
  ImGui::SameLine();
  plot::colorbar((std::string(id) + "_bar").c_str(), img.colormap, img.vmin, img.vmax, ImVec2(bar_width, height),
                 {value_label, plot::heatmap_has_missing(img), img.nan_meaning});
  ImGui::EndGroup();
}

namespace {
constexpr float kPageSliderEm = 9.0f;  // a page slider's width, in font sizes
}  // namespace

void next_slider_on_line(const char* label) { next_on_line(ImGui::GetFontSize() * kPageSliderEm, label); }

bool page_slider(AppState& s, Page page, const char* label, int& v, int lo, int hi, bool log) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kPageSliderEm);
  const bool changed = ImGui::SliderInt(label, &v, lo, hi, "%d",
                                        ImGuiSliderFlags_AlwaysClamp | (log ? ImGuiSliderFlags_Logarithmic : 0));
  if (changed) s.analysis.mark(page);
  return changed;
}

bool page_slider(AppState& s, Page page, const char* label, double& v, double lo, double hi, bool log) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kPageSliderEm);
  const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, "%.6g",
                                           ImGuiSliderFlags_AlwaysClamp | (log ? ImGuiSliderFlags_Logarithmic : 0));
  if (changed) s.analysis.mark(page);
  return changed;
}

bool page_slider(AppState& s, Page page, const char* label, int& v, const Limit& l) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kPageSliderEm);
  const bool changed = limit_slider(label, v, l);
  if (changed) s.analysis.mark(page);
  return changed;
}

bool page_slider(AppState& s, Page page, const char* label, double& v, const Limit& l) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kPageSliderEm);
  const bool changed = limit_slider(label, v, l);
  if (changed) s.analysis.mark(page);
  return changed;
}

bool pairs_slider(AppState& s, Page page, const char* label, int& head_dim, int min_pairs, int max_pairs) {
  int pairs = head_dim / 2;
  if (!page_slider(s, page, label, pairs, min_pairs, max_pairs)) return false;
  head_dim = 2 * pairs;
  return true;
}

}  // namespace peviz::app
