// The colour bar beside a heatmap: gradient, ticks clear of their labels, title, the missing-value swatch.
#include "app/plot/draw/plot.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <imgui_internal.h>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/plot_ticks.hpp"

namespace peviz::plot {

ScreenBox colorbar(const char* id, Colormap map, double vmin, double vmax, ImVec2 size, const ColorbarText& labels) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return {};
  if (size.y <= 0.0f) size.y = std::max(ImGui::GetContentRegionAvail().y, 60.0f);
  const ImRect frame(window->DC.CursorPos, window->DC.CursorPos + size);
  ImGui::ItemSize(frame);
  note_drawn_plot({id, {frame.Min, frame.Max}, true, {}, {}, 0, {}});
  if (!ImGui::ItemAdd(frame, window->GetID(id))) return {};
  const float fs = ImGui::GetFontSize();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const std::vector<std::string> title = wrap_text(labels.title, size.x - 4);
  for (std::size_t k = 0; k < title.size(); ++k)
    canvas_text(ImVec2(frame.Min.x + 2, frame.Min.y + float(k) * fs), text, title[k].c_str());
  const float bar_w = std::min(1.2f * fs, 0.4f * size.x);
  const float top = frame.Min.y + float(title.size()) * fs + 0.6f * fs;  // room for the top tick's half label
  const float bottom = frame.Max.y - (labels.missing ? 2.0f : 0.6f) * fs;
  const ImRect bar(ImVec2(frame.Min.x + 2, top), ImVec2(frame.Min.x + 2 + bar_w, std::max(bottom, top + 1.0f)));
  constexpr int kStrips = 64;
  for (int k = 0; k < kStrips; ++k) {  // top = vmax
    const float y0 = bar.Min.y + bar.GetHeight() * k / kStrips, y1 = bar.Min.y + bar.GetHeight() * (k + 1) / kStrips;
    const ImU32 hi = colormap_color(map, 1.0 - double(k) / kStrips), lo = colormap_color(map, 1.0 - double(k + 1) / kStrips);
    canvas_rect_gradient(ImVec2(bar.Min.x, y0), ImVec2(bar.Max.x, y1), hi, hi, lo, lo);
  }
  canvas_rect(bar.Min, bar.Max, ImGui::GetColorU32(ImGuiCol_Border));
  // Tick, then a clear gap, then the label: a tick that touched "1.0" read as "-1.0".
  const float tick = 0.3f * fs, gap = 0.35f * fs;
  const int target = std::max(2, int(bar.GetHeight() / (2.5f * fs)));
  const double step = nice_step(vmax - vmin, target);
  for (double v : nice_ticks(vmin, vmax, target)) {
    const float t = float(colormap_position(v, vmin, vmax));
    const float y = bar.Max.y - t * bar.GetHeight();
    canvas_line(ImVec2(bar.Max.x, y), ImVec2(bar.Max.x + tick, y), text);
    const std::string label = format_tick(v, step);
    canvas_text_at(ImVec2(bar.Max.x + tick + gap, y), HAlign::left, VAlign::middle, text, label.c_str());
  }
  if (labels.missing) {  // the missing-value swatch under the bar
    const ImVec2 sw(bar.Min.x, frame.Max.y - 1.2f * fs);
    canvas_rect_filled(sw, sw + ImVec2(bar_w, fs), nan_color(labels.nan_meaning));
    // Beside the swatch at the tick labels' x, moved left as far as it must to end inside the frame ("masked" is
    // wider than a tick label; the swatch has no tick, so a gap is left after it either way).
    const char* name = nan_swatch(labels.nan_meaning);
    const float x = std::min(bar.Max.x + tick + gap, frame.Max.x - ImGui::CalcTextSize(name).x);
    canvas_text(ImVec2(std::max(x, bar.Max.x + gap), sw.y), text, name);
  }
  return {bar.Min, bar.Max};
}

bool heatmap_has_missing(HeatmapImage& img) {
  if (img.missing_checked_version == img.version) return img.missing;
  img.missing_checked_version = img.version;
  img.missing = false;
  const Matrix* const* m = std::get_if<const Matrix*>(&img.values);
  if (!m || !*m) return false;  // a similarity read from its Toeplitz description has every cell
  const std::size_t period = std::size_t(img.tile_side) + 1;
  for (std::size_t r = 0; r < (*m)->rows && !img.missing; ++r)
    for (std::size_t c = 0; c < (*m)->cols && !img.missing; ++c)
      img.missing = std::isnan((*m)->at(r, c)) && !(img.tile_side > 0 && (r % period == period - 1 || c % period == period - 1));
  return img.missing;  // gutters between tiles are not cells
}

}  // namespace peviz::plot
