// RoPE clocks: every rotary pair at position t as a 2-D vector on its own dial (fast pairs spin,
// slow pairs barely move), with pairing, base and an "animate position" sweep.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include <imgui.h>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"
#include "app/ui/views/rope_model_line.hpp"

namespace peviz::app {

namespace {

// The settings: pairs, base, pairing.
void settings_controls(AppState& s) {
  RopeClocksOptions& o = s.pages.rope_clocks;
  constexpr Page page = Page::rope_clocks;
  pairs_slider(s, page, "pairs", o.rope.head_dim, limits::clock_head_dim);
  hint("Rotary pairs = head_dim / 2. Pair j turns by t * base^(-2j/head_dim) radians.");
  next_slider_on_line("base##clocks");
  page_slider(s, page, "base##clocks", o.rope.base, limits::rope_base);
  page_slider(s, page, "turning (p-RoPE)", o.rope.rotated_fraction, limits::rope_proportion);
  hint("p-RoPE (Barbero et al. 2024; Gemma's rope_proportion): only the fastest p of the pairs turn; the slower "
       "ones stand still (grey hands) and carry no position.");
  int pairing = int(o.rope.pairing);
  next_on_line(radio_width("halves"));
  bool pairing_changed = ImGui::RadioButton("halves", &pairing, 0);
  next_on_line(radio_width("interleaved"));
  pairing_changed |= ImGui::RadioButton("interleaved", &pairing, 1);
  if (pairing_changed) {
    o.rope.pairing = RopePairing(pairing);
    s.pages.mark(page);
  }
  hint("halves (GPT-NeoX, HF LLaMA rotate_half): channel j turns with j + d/2. interleaved (RoFormer, "
       "GPT-J): channel 2j turns with 2j+1. The angles are the same; only the channels differ.");
}

// The position: its slider, the animation and its speed, back to 0.
void position_controls(AppState& s) {
  RopeClocksOptions& o = s.pages.rope_clocks;
  constexpr Page page = Page::rope_clocks;
  page_slider(s, page, "position t", o.position, limits::rope_position);
  const char* animate = o.animate ? "stop" : "animate position";
  next_on_line(small_button_width(animate));
  if (ImGui::Button(animate)) o.animate = !o.animate;
  hint("Sweeps t forward so the dials turn: pair 0 turns once every 2*pi positions, the last pair "
       "needs about 2*pi*base positions for one turn.");
  next_on_line(ImGui::GetFontSize() * 7.0f, "positions/s");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  ImGui::SliderFloat("positions/s", &o.speed, float(limits::clock_speed.min), float(limits::clock_speed.max), "%.3g",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);  // Ctrl+click typing too
  next_on_line(small_button_width("t = 0"));
  if (ImGui::SmallButton("t = 0")) {
    o.position = 0.0;
    s.pages.mark(page);
  }
}

// One dial per pair: a circle, the unit vector (cos, sin) of the pair's angle, the pair index.
void dials(const RopeClocksOptions& o, ImVec2 size) {
  const int n = int(o.angles.size());
  if (n == 0) return;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float fs = ImGui::GetFontSize();
  int cols = std::max(1, int(std::ceil(std::sqrt(double(n) * size.x / std::max(size.y, 1.0f)))));
  int rows = (n + cols - 1) / cols;
  const float cell = std::min(size.x / float(cols), size.y / float(rows));
  ImGui::InvisibleButton("##dials", ImVec2(std::max(size.x, 1.0f), std::max(cell * float(rows), 1.0f)));
  // The dials are the page's figure: the layout tests and --regions measure them as a plot.
  const plot::ScreenBox box{ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  plot::note_drawn_plot(
      {.id = "##dials", .frame = box, .area = box, .legend = {}, .series_colors = 0, .unnamed_series = {}});
  const ImU32 rim = ImGui::GetColorU32(ImGuiCol_Text, 0.35f), text = ImGui::GetColorU32(ImGuiCol_Text, 0.8f);
  // The slowest turning pair sets the colour scale; p-RoPE's still pairs (frequency 0) are drawn grey.
  const auto slowest_turning = std::find_if(o.inv_freq.rbegin(), o.inv_freq.rend(), [](double f) { return f > 0.0; });
  const double log_fast = 0.0,
               log_slow = slowest_turning == o.inv_freq.rend() ? 1.0 : std::log(std::max(1.0 / *slowest_turning, 1.0 + 1e-9));
  const bool light = light_background();
  for (int j = 0; j < n; ++j) {
    const ImVec2 c(origin.x + (float(j % cols) + 0.5f) * cell, origin.y + (float(j / cols) + 0.5f) * cell);
    const float r = 0.5f * cell - std::max(2.0f, 0.12f * cell);
    if (r < 2.0f) continue;
    plot::canvas_circle(c, r, rim, 32, 1.0f);
    plot::canvas_line(ImVec2(c.x - r, c.y), ImVec2(c.x + r, c.y), ImGui::GetColorU32(ImGuiCol_Text, 0.12f));
    // Speed as colour: fast pairs warm, slow pairs cool (position on a log scale of wavelength). Magma's pale
    // yellow end vanishes on white, so the light theme stops at its orange.
    const double speed = 1.0 - (std::log(1.0 / o.inv_freq[std::size_t(j)]) - log_fast) / std::max(log_slow, 1e-9);
    const double slowest = light ? 0.0 : 0.25, fastest = light ? 0.75 : 1.0;
    const ImU32 hand = o.inv_freq[std::size_t(j)] == 0.0
                           ? rim
                           : plot::colormap_color(plot::Colormap::magma, slowest + (fastest - slowest) * std::clamp(speed, 0.0, 1.0));
    const double a = o.angles[std::size_t(j)];
    const ImVec2 tip(c.x + r * float(std::cos(a)), c.y - r * float(std::sin(a)));  // y up on screen
    plot::canvas_line(c, tip, hand, std::max(1.5f, 0.06f * r));
    plot::canvas_circle_filled(tip, std::max(2.0f, 0.09f * r), hand);
    if (cell > 2.2f * fs) {
      char label[32];
      std::snprintf(label, sizeof label, "%d", j);
      plot::canvas_text(ImVec2(c.x - r, c.y - r), text, label);
    }
  }
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int col = int((m.x - origin.x) / cell), row = int((m.y - origin.y) / cell), j = row * cols + col;
    if (col >= 0 && col < cols && j >= 0 && j < n) {
      ImGui::BeginTooltip();
      if (o.inv_freq[std::size_t(j)] == 0.0)
        ImGui::Text("pair %d: channels %d and %d\nstill: p-RoPE leaves this pair unrotated (theta = 0)", j,
                    o.channel_a[std::size_t(j)], o.channel_b[std::size_t(j)]);
      else
        ImGui::Text("pair %d: channels %d and %d\ntheta = %.6g rad/position, wavelength %.6g positions\n"
                  "angle at t = %.6g: %.4f rad (%.1f deg), %.4g full turns so far",
                  j, o.channel_a[std::size_t(j)], o.channel_b[std::size_t(j)], o.inv_freq[std::size_t(j)],
                  2 * std::numbers::pi / o.inv_freq[std::size_t(j)], o.position, o.angles[std::size_t(j)],
                  o.angles[std::size_t(j)] * 180.0 / std::numbers::pi,
                  o.position * o.inv_freq[std::size_t(j)] / (2 * std::numbers::pi));
      ImGui::EndTooltip();
    }
  }
}

}  // namespace

void draw_rope_clocks_view(AppState& s) {
  view_title("RoPE clocks: every rotary pair at position t");
  if (shows_controls(s) && shows_part(s, kRopeClocksSettings)) {  // figures and presented slides leave them out
    draw_rope_model_line(s, Page::rope_clocks);
    settings_controls(s);
  }
  if (shows_controls(s) && shows_part(s, kRopeClocksPosition)) position_controls(s);
  const RopeClocksOptions& o = s.pages.rope_clocks;
  if (o.angles.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  ImGui::PushTextWrapPos(0.0f);  // wraps at the pane's right edge
  // Each number kept on the line of its name (no-break spaces, U+00A0), the wavelength in whole positions: a narrow
  // figure wrapped "(wavelength" away from "4.712e+04)". The hover hint only where there is a pointer.
  // p-RoPE's still pairs (frequency 0) follow the turning ones: the slowest turning pair is the last nonzero.
  const int n = int(o.inv_freq.size()),
            turning = int(std::count_if(o.inv_freq.begin(), o.inv_freq.end(), [](double f) { return f > 0.0; }));
  const char* hover = s.figure_drawing.offscreen ? "" : " Hover a dial for its numbers.";
  if (turning == 0)
    ImGui::TextDisabled("t\u00a0=\u00a0%.2f. No pair turns (p-RoPE with p\u00a0=\u00a00): the position reaches no score.%s",
                        o.position, hover);
  else
    ImGui::TextDisabled("t\u00a0=\u00a0%.2f. Pair 0 turns 1 rad per position (wavelength\u00a02\u00a0pi); pair %d turns "
                        "%.3g\u00a0rad per position (wavelength\u00a0%.0f).%s%s",
                        o.position, turning - 1, o.inv_freq[std::size_t(turning - 1)],
                        2 * std::numbers::pi / o.inv_freq[std::size_t(turning - 1)],
                        turning < n ? (" Pairs " + std::to_string(turning) + " to " + std::to_string(n - 1) +
                                       " stand still (p-RoPE).").c_str()
                                    : "",
                        hover);
  ImGui::PopTextWrapPos();
  // The dials over the angle plot; a presented step that names one of them gives it the whole height.
  const bool dial_grid = shows_part(s, kRopeClocksDials), angles = shows_part(s, kRopeClocksAngles);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float plot_h = readable_height(dial_grid ? avail.y * 0.28f : avail.y);
  if (dial_grid) {
    dials(o, ImVec2(avail.x, readable_height(angles ? avail.y - plot_h - ImGui::GetStyle().ItemSpacing.y : avail.y)));
    record_page_region(s);
  }
  const std::vector<float>& angle = o.angles_f;
  if (angles && plot::begin_plot("##clock_angles", ImVec2(-1, plot_h))) {
    plot::setup_axes("pair j", "angle at t (rad)", {-0.5, double(angle.size()) - 0.5}, {0.0, 2 * std::numbers::pi},
                     plot::axis_integer);
    plot::plot_line("angle mod 2 pi", angle.data(), int(angle.size()), 0.0, 1.0, 1, plot::series_color(1), 2.0f);
    plot::end_plot();
  }
  if (!dial_grid) record_page_region(s);
}

}  // namespace peviz::app
