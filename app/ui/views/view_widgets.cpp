// Widgets the views share: hover hints, the colormap combo, view titles, sliders, heatmaps with their colour bar,
// the toggling legend.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/plot/colormap.hpp"
#include "app/plot/draw/canvas.hpp"
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

bool names_combo(const char* label, int& choice, std::span<const std::string_view> names) {
  bool changed = false;
  const std::string shown = choice >= 0 && std::size_t(choice) < names.size() ? std::string(names[std::size_t(choice)]) : "";
  if (!ImGui::BeginCombo(label, shown.c_str())) return false;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string name(names[k]);
    if (ImGui::Selectable(name.c_str(), int(k) == choice) && int(k) != choice) {
      choice = int(k);
      changed = true;
    }
  }
  ImGui::EndCombo();
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

bool light_background() {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return bg.x + bg.y + bg.z > 1.5f;
}

// Apart from every series colour of the plotting layer (CIE76 distance 20 or more: the light theme's former
// orange was the "linear (PI)" orange, the dark theme's yellow the 12th series') and from the background.
unsigned highlight_color() {
  return light_background() ? IM_COL32(120, 0, 160, 255) : IM_COL32(255, 255, 0, 230);
}

ImVec4 warning_color() { return light_background() ? ImVec4(0.7f, 0.33f, 0.0f, 1.0f) : ImVec4(1.0f, 0.6f, 0.2f, 1.0f); }

void heatmap_with_colorbar(AppState& s, plot::HeatmapImage& img, const HeatmapPanel& panel, float height,
                           ScreenRect& image_region, ScreenRect& bar_region) {
  const int L = s.pages.basics.computed.seq_len;
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
  if (const plot::HeatmapPlacement* placed = plot::placement_of(img))
    image_region = {placed->screen_min[0], placed->screen_min[1], placed->screen_max[0], placed->screen_max[1]};
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

bool series_toggles(const char* id, const std::vector<const char*>& names, bool* shown, int first_color,
                    const std::vector<const char*>& hints, const std::vector<int>& colors) {
  bool changed = false;
  ImGui::PushID(id);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    const float w = radio_width(names[i]);
    if (i > 0 && ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();  // wrap instead of running off the pane
    const ImU32 c = plot::series_color(i < colors.size() ? colors[i] : first_color + int(i));
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
  s.pages.plot_region[0] = a.x, s.pages.plot_region[1] = a.y;
  s.pages.plot_region[2] = b.x, s.pages.plot_region[3] = b.y;
}

namespace {

// The name of each tile of a tiled heatmap in its top-left corner, where that corner is on screen (the grid
// zooms and pans like any heatmap): "h0", "h1", ... for heads (0-based, as ALiBi's head slider), "L1 h1",
// "L1 h2", ... for layer x head maps (1-based, as the Lab's layer and head counts). The hover says the same.
void label_tiles(const plot::HeatmapImage& img) {
  const plot::HeatmapPlacement* placed = plot::placement_of(img);
  if (img.tile_side <= 0 || !placed) return;
  const plot::HeatmapWindow& w = placed->window;
  if (w.x_right == w.x_left || w.y_bottom == w.y_top) return;
  const ImVec2 lo(placed->screen_min[0], placed->screen_min[1]), hi(placed->screen_max[0], placed->screen_max[1]);
  const float tile_px = float(img.tile_side / std::abs(w.x_right - w.x_left)) * (hi.x - lo.x);
  // The labels would hide small tiles (the hover names them then): a tile keeps three labels' width.
  if (tile_px < 3.0f * ImGui::CalcTextSize(img.tiles_are_layers ? "L8 h8" : "h88").x) return;
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
                   const char* value_label, ImVec2 size, const char* title) {
  if (!plot::has_values(img.values)) return;
  const float bar_width = ImGui::GetFontSize() * kColorbarWidthEm, height = readable_height(size.y);
  const float total = size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x;
  const float width = std::max(total - bar_width - ImGui::GetStyle().ItemSpacing.x, 10.0f);
  ImGui::BeginGroup();
  if (plot::begin_plot(id, ImVec2(width, height))) {
    plot::setup_axes(x_label, y_label, {0.0, double(plot::value_cols(img.values))}, {0.0, double(plot::value_rows(img.values))},
                     plot::axis_cells, plot::axis_cells | plot::axis_inverted);
    plot::plot_title(title);
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
  if (changed) s.pages.mark(page);
  return changed;
}

bool page_slider(AppState& s, Page page, const char* label, double& v, double lo, double hi, bool log) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kPageSliderEm);
  const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, "%.6g",
                                           ImGuiSliderFlags_AlwaysClamp | (log ? ImGuiSliderFlags_Logarithmic : 0));
  if (changed) s.pages.mark(page);
  return changed;
}

bool page_slider(AppState& s, Page page, const char* label, int& v, const Limit& l) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kPageSliderEm);
  const bool changed = limit_slider(label, v, l);
  if (changed) s.pages.mark(page);
  return changed;
}

bool page_slider(AppState& s, Page page, const char* label, double& v, const Limit& l) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kPageSliderEm);
  const bool changed = limit_slider(label, v, l);
  if (changed) s.pages.mark(page);
  return changed;
}

bool pairs_slider(AppState& s, Page page, const char* label, int& head_dim, const Limit& l, int min_head_dim) {
  int pairs = head_dim / 2;
  const int lo = std::max(int(l.window_lo()), min_head_dim) / 2, hi = int(l.window_hi()) / 2;
  if (!page_slider(s, page, label, pairs, lo, hi)) return false;
  head_dim = 2 * pairs;
  return true;
}

namespace {

// Where `text` may break: a space outside a formula's parentheses (those right after a name, "cos(r theta_i)"; an
// aside's, " (as here)", may break), not before or after an "=" (its position; the space is dropped at a break).
std::vector<std::size_t> break_points(std::string_view text) {
  std::vector<std::size_t> points;
  std::vector<bool> formula;  // the open parentheses, innermost last: whether each follows a name
  int formulas = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(') {
      formula.push_back(i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_'));
      formulas += formula.back();
    } else if (c == ')' && !formula.empty()) {
      formulas -= formula.back();
      formula.pop_back();
    }
    if (c != ' ' || formulas > 0) continue;
    const bool after_equals = i > 0 && text[i - 1] == '=', before_equals = i + 1 < text.size() && text[i + 1] == '=';
    if (!after_equals && !before_equals) points.push_back(i);
  }
  return points;
}

float text_width(std::string_view t) { return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x; }

}  // namespace

std::vector<std::string_view> wrap_lines(std::string_view text, float width) {
  std::vector<std::string_view> lines;
  while (true) {
    const std::size_t eol = text.find('\n');
    const std::string_view paragraph = text.substr(0, eol);
    std::size_t start = 0, fitted = std::string_view::npos;  // the line from `start`, as far as `fitted` fits
    for (const std::size_t p : break_points(paragraph)) {
      if (p < start) continue;
      if (text_width(paragraph.substr(start, p - start)) <= width || fitted == std::string_view::npos) {
        fitted = p;
        continue;
      }
      lines.push_back(paragraph.substr(start, fitted - start));
      start = fitted + 1;
      fitted = p;
    }
    if (fitted != std::string_view::npos && text_width(paragraph.substr(start)) > width) {
      lines.push_back(paragraph.substr(start, fitted - start));
      start = fitted + 1;
    }
    lines.push_back(paragraph.substr(start));
    if (eol == std::string_view::npos) return lines;
    text.remove_prefix(eol + 1);
  }
}

namespace {
std::string wrapped(std::string_view text, float width) {
  std::string out;
  for (const std::string_view line : wrap_lines(text, width)) out.append(out.empty() ? "" : "\n").append(line);
  return out;
}
}  // namespace

void wrapped_text(std::string_view text, float width) { ImGui::TextUnformatted(wrapped(text, width).c_str()); }

float wrapped_height(std::string_view text, float width) { return ImGui::CalcTextSize(wrapped(text, width).c_str()).y; }

}  // namespace peviz::app
