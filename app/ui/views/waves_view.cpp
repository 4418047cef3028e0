// View 1, waves: chosen channels against position, each with its wavelength, and a fast -> slow
// strip of every channel's wavelength.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "core/encodings/absolute_encodings.hpp"

namespace peviz::app {

namespace {

std::string channel_label(const AppState& s, int c) {
  const BasicsOptions& basics = s.pages.basics;
  char buf[64];
  const float wl = c < int(basics.channel_wavelength.size()) ? basics.channel_wavelength[c] : NAN;
  if (std::isnan(wl)) std::snprintf(buf, sizeof buf, "ch %d", c);
  else std::snprintf(buf, sizeof buf, "ch %d  \u03bb %.3g", c, wl);  // λ: the wavelength in positions
  return buf;
}

void waves_plot(AppState& s, float height) {
  BasicsOptions& basics = s.pages.basics;
  const Matrix& m = basics.encoding;
  const int L = int(m.rows), d = int(m.cols);
  if (!plot::begin_plot("##waves", ImVec2(-1, height))) return;
  const ValueScale scale = encoding_info(basics.computed.encoding).scale(basics.computed);
  const double ymin = scale.axis_low, ymax = scale.axis_high;
  const int first = std::clamp(basics.waves.first_position, 0, L - 1);
  const int last = basics.waves.last_position < 0 ? L - 1 : std::clamp(basics.waves.last_position, first, L - 1);
  if (basics.waves.range_changed) {  // a new position range replaces any zoom
    plot::reset_zoom("##waves");
    basics.waves.range_changed = false;
  }
  plot::setup_axes("position", "value", {double(first), double(std::max(last, first + 1))}, {ymin, ymax},
                   plot::axis_integer);
  std::vector<std::string> labels;
  labels.reserve(basics.wave_channels.size());
  for (int c : basics.wave_channels) labels.push_back(channel_label(s, c));
  for (std::size_t i = 0; i < basics.wave_channels.size(); ++i) {
    const int c = basics.wave_channels[i];
    if (c < d) plot::plot_line(labels[i].c_str(), m.data.data() + c, L, 0.0, 1.0, d);
  }
  if (show_highlight(s)) plot::plot_vline(s.highlight_position, highlight_color());
  if (plot::plot_clicked())
    s.highlight_position = std::clamp(int(std::lround(plot::mouse_data_position().x)), 0, L - 1);
  plot::end_plot();
}

void frequency_strip(AppState& s, float height) {
  const BasicsOptions& basics = s.pages.basics;
  const int d = int(basics.encoding.cols);
  bool any = false;
  for (float w : basics.channel_wavelength) any = any || !std::isnan(w);
  if (!any) {
    ImGui::TextDisabled("fast → slow strip: %s channels have no wavelength.", std::string(to_string(basics.computed.encoding)).c_str());
    return;
  }
  if (!plot::begin_plot("##strip", ImVec2(-1, height))) return;
  const std::vector<float>& logs = basics.channel_log10_wavelength;
  float lo = INFINITY, hi = -INFINITY;
  for (float v : logs)
    if (!std::isnan(v)) { lo = std::min(lo, v); hi = std::max(hi, v); }
  if (hi - lo < 0.5f) { lo -= 0.5f; hi += 0.5f; }
  plot::setup_axes("channel   (fast → slow)", "log10 wavelength (positions)", {-0.5, d - 0.5},
                   {lo - 0.1 * (hi - lo), hi + 0.1 * (hi - lo)}, plot::axis_integer);
  plot::plot_line("##log10 wavelength", logs.data(), int(logs.size()), 0.0, 1.0, 1, 0, 2.0f);
  for (std::size_t i = 0; i < basics.wave_channels.size(); ++i)
    plot::plot_vline(basics.wave_channels[i], plot::series_color(int(i)) & 0x90FFFFFFu, 1.0f);
  plot::end_plot();
}

// The channels drawn and the positions shown (the figure leaves them out).
void waves_controls(AppState& s) {
  BasicsOptions& basics = s.pages.basics;
  next_on_line(ImGui::GetFontSize() * 12.0f);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  if (ImGui::InputTextWithHint("##channels", "channels, e.g. 0, 1, 8-11", &basics.waves.channels_text))
    basics.dirty.channels = true;
  hint("Channels to draw, comma-separated, ranges allowed (0, 1, 8-11); empty: 0, 1, 2, 3, d/2, d-2, d-1.");
  next_on_line(small_button_width("defaults"));
  if (ImGui::SmallButton("defaults")) {
    basics.waves.channels_text.clear();
    basics.dirty.channels = true;
  }
  hint("Back to channels 0, 1, 2, 3, d/2, d-2 and d-1.");
  next_on_line(ImGui::GetFontSize() * 9.0f, "positions");
  const int L = basics.has_results ? basics.computed.seq_len : s.params.seq_len;
  int range[2] = {basics.waves.first_position, basics.waves.last_position < 0 ? L - 1 : basics.waves.last_position};
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::DragInt2("positions", range, 1.0f, 0, std::max(L - 1, 0), "%d", ImGuiSliderFlags_AlwaysClamp)) {
    // Clamped here too: with L = 1 the bounds are equal, which ImGui takes as "no bounds" (a typed -130
    // stayed; found by peviz --monkey 1 at 1600x900).
    const int top = std::max(L - 1, 0);
    const int lo = std::clamp(std::min(range[0], range[1]), 0, top);
    const int hi = std::clamp(std::max(range[0], range[1]), lo, top);
    basics.waves.first_position = lo;
    basics.waves.last_position = hi >= L - 1 ? -1 : hi;
    basics.waves.range_changed = true;
  }
  hint("First and last position on the horizontal axis (drag or Ctrl+click to type); the wheel zooms further.");
}
}  // namespace

void draw_waves_view(AppState& s) {
  view_title("Waves");
  if (shows_controls(s)) waves_controls(s);
  if (!s.pages.basics.has_results) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const float avail = ImGui::GetContentRegionAvail().y;
  const float strip = std::max(avail * 0.35f, kMinPlotHeightEm * ImGui::GetFontSize());
  // The legend's rows above the waves come on top of the readable minimum (the pane scrolls when it must).
  const float waves = std::max(avail - strip - ImGui::GetStyle().ItemSpacing.y,
                               kMinPlotHeightEm * ImGui::GetFontSize() + plot::legend_room_above("##waves"));
  waves_plot(s, waves);
  s.regions.waves_plot = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x,
                          ImGui::GetItemRectMax().y};
  frequency_strip(s, strip);
}

}  // namespace peviz::app
