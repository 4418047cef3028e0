// View 4, the binary-bit analogy: positions in binary beside the sign of sinusoids of period
// 2^(k+1), the smooth sinusoids under them, and a morph to the chosen base's frequencies.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

constexpr ImU32 kOne = IM_COL32(66, 133, 244, 255);     // bit 1 / sin < 0
constexpr ImU32 kMismatch = IM_COL32(230, 40, 40, 255);  // sign disagrees with the bit

double period_of(double frequency) { return 2.0 * std::numbers::pi / frequency; }

// A table that scrolls keeps the highlighted row and the one after it in view when the highlight moves (a lesson's
// "7 -> 8 flips four" shows both rows); the user's own scrolling stands until it moves again.
void follow_highlight(int row, int rows, float header, float cell, float height) {
  ImGuiStorage* st = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID("##followed_row");
  if (st->GetInt(key, -1) == row || row < 0 || row >= rows) return;
  st->SetInt(key, row);
  const float top = header + float(row) * cell, bottom = header + float(std::min(row + 2, rows)) * cell;
  const float scroll = ImGui::GetScrollY();
  if (bottom > scroll + height) ImGui::SetScrollY(std::ceil(bottom - height));  // ImGui keeps whole pixels
  else if (top - header < scroll) ImGui::SetScrollY(std::max(0.0f, top - header));
}

// The table's two header lines ("bits of t", "sin < 0", each column's bit k), above its rows: they stay when the
// rows scroll.
void table_header(int K, float cell, float label_w, float gap) {
  const float fs = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float bits_x = origin.x + label_w, signs_x = bits_x + K * cell + gap;
  plot::canvas_text(ImVec2(bits_x, origin.y), text, "bits of t");
  plot::canvas_text(ImVec2(signs_x, origin.y), text, "sin < 0");
  char buf[32];
  for (int j = 0; j < K; ++j) {  // column j shows bit k = K-1-j: LSB on the right
    std::snprintf(buf, sizeof buf, "%d", K - 1 - j);
    plot::canvas_text(ImVec2(bits_x + j * cell + 0.3f * cell, origin.y + fs), text, buf);
    plot::canvas_text(ImVec2(signs_x + j * cell + 0.3f * cell, origin.y + fs), text, buf);
  }
  ImGui::Dummy(ImVec2(signs_x + K * cell - origin.x, 2.0f * fs));
}

// The table's height for N rows at the smallest cell (0.9 em): what it needs not to scroll.
float table_height_needed(int N) { return (2.0f + 0.9f * float(N)) * ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.y + 4.0f; }

void binary_table(AppState& s, float width, float height) {
  const BasicsOptions& basics = s.pages.basics;
  const BinaryAnalogy& b = basics.binary;
  const int K = b.bits, N = b.positions;
  const float fs = ImGui::GetFontSize();
  const float header = 0.0f;  // the header lines are drawn above the rows' child (table_header)
  // Cells shrink (down to 0.9 em) so that up to ~24 rows fit without scrolling.
  const float header_h = 2.0f * fs + ImGui::GetStyle().ItemSpacing.y;
  const float rows_h = std::max(height - header_h, fs);
  const float gap = fs, label_w = ImGui::CalcTextSize("0000").x + 0.5f * fs;
  const float cell_w = (width - label_w - gap - ImGui::GetStyle().ScrollbarSize) / float(2 * std::max(K, 1));
  const float cell = std::round(std::clamp(std::min((rows_h - 4.0f) / std::max(N, 1), cell_w), 0.9f * fs, 1.35f * fs));
  ImGui::BeginGroup();
  table_header(K, cell, label_w, gap);
  const bool fits = N * 0.9f * fs + 4.0f <= rows_h;
  ImGui::BeginChild("##binary_table", ImVec2(width, rows_h), false, fits ? ImGuiWindowFlags_NoScrollbar : 0);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), zero = ImGui::GetColorU32(ImGuiCol_Text, 0.1f);  // a faint cell, not a widget's colour
  const float bits_x = origin.x + label_w, signs_x = bits_x + K * cell + gap;
  char buf[32];
  for (int t = 0; t < N; ++t) {
    const float y = origin.y + header + t * cell;
    std::snprintf(buf, sizeof buf, "%d", t);
    plot::canvas_text(ImVec2(bits_x - 0.4f * fs - ImGui::CalcTextSize(buf).x, y + 0.5f * (cell - fs)), text, buf);
    for (int j = 0; j < K; ++j) {
      const int k = K - 1 - j;
      const std::size_t i = std::size_t(t) * K + k;
      const ImVec2 a(bits_x + j * cell, y), c(signs_x + j * cell, y);
      plot::canvas_rect_filled(a + ImVec2(1, 1), a + ImVec2(cell - 1, cell - 1), b.bit[i] ? kOne : zero);
      const float tx = 0.5f * (cell - ImGui::CalcTextSize("0").x);
      plot::canvas_text(a + ImVec2(tx, 0.5f * (cell - fs)), text, b.bit[i] ? "1" : "0");
      plot::canvas_rect_filled(c + ImVec2(1, 1), c + ImVec2(cell - 1, cell - 1), b.negative[i] ? kOne : zero);
      plot::canvas_text(c + ImVec2(0.5f * (cell - ImGui::CalcTextSize(b.negative[i] ? "-" : "+").x), 0.5f * (cell - fs)), text,
                  b.negative[i] ? "-" : "+");
      if (b.negative[i] != b.bit[i]) plot::canvas_rect(c + ImVec2(1, 1), c + ImVec2(cell - 1, cell - 1), kMismatch, 0, 2.0f);
    }
    if (t == s.highlight_position && show_highlight(s))
      plot::canvas_rect(ImVec2(origin.x, y), ImVec2(signs_x + K * cell, y + cell), highlight_color(), 0, 2.0f);
  }
  const ImVec2 size(signs_x + K * cell - origin.x, header + N * cell);
  ImGui::InvisibleButton("##rows", size);
  bool read_out = false;
  if (ImGui::IsItemHovered()) {  // read-out of the cell under the cursor
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int t = int(std::floor((m.y - origin.y - header) / cell));
    int j = -1;
    if (m.x >= bits_x && m.x < bits_x + K * cell) j = int((m.x - bits_x) / cell);
    else if (m.x >= signs_x && m.x < signs_x + K * cell) j = int((m.x - signs_x) / cell);
    if (t >= 0 && t < N && j >= 0 && j < K) {
      const int k = K - 1 - j;
      const std::size_t i = std::size_t(t) * K + k;
      const float v = b.curves[std::size_t(k) * b.curve_samples() + std::size_t(t) * b.samples_per_position];
      ImGui::BeginTooltip();
      ImGui::Text("t = %d, bit %d = %d\nsin(w_%d (t + 1/2)) = %.4f  (period %.4g)\n%s", t, k, int(b.bit[i]), k, v,
                  period_of(b.frequency[k]), b.bit[i] == b.negative[i] ? "agrees with the bit" : "disagrees with the bit");
      ImGui::EndTooltip();
      read_out = true;
    }
  }
  if (ImGui::IsItemClicked()) {
    const int t = int((ImGui::GetIO().MousePos.y - origin.y - header) / cell);
    if (t >= 0 && t < N) s.highlight_position = std::min(t, basics.computed.seq_len - 1);
  }
  if (!read_out)
    hint("Each row is the position t in binary (bit k flips every 2^k steps) beside the sign of "
       "sin(w_k (t + 1/2)), a sinusoid of period 2^(k+1) at morph 0, sampled half a step late so no sample "
       "sits on a zero; red outlines mark where they disagree. Click a row to highlight it.");
  s.regions.binary_table = {origin.x, origin.y, origin.x + size.x, origin.y + size.y};
  if (!fits && show_highlight(s)) follow_highlight(s.highlight_position, N, header, cell, rows_h);
  ImGui::EndChild();
  ImGui::EndGroup();
}

void curves_plot(AppState& s, float height) {
  const BasicsOptions& basics = s.pages.basics;
  const BinaryAnalogy& b = basics.binary;
  const int K = b.bits, n = b.curve_samples();
  constexpr double kSpacing = 3.0;
  if (!plot::begin_plot("##binary_curves", ImVec2(-1, height))) return;
  plot::setup_axes("position t", "sin(w_k (t + 1/2)), bit k stacked", {-0.5, double(b.positions)},
                   {-kSpacing * (K - 1) - 1.3, 2.0}, plot::axis_integer, plot::axis_no_labels);
  std::vector<std::string> labels(static_cast<std::size_t>(K));  // alive until end_plot draws the legend
  char label[64];
  for (int k = 0; k < K; ++k) {
    const double offset = -kSpacing * k;
    std::snprintf(label, sizeof label, "bit %d, period %.4g", k, period_of(b.frequency[k]));
    labels[std::size_t(k)] = label;
    plot::plot_line(labels[std::size_t(k)].c_str(), b.curves.data() + std::size_t(k) * n, n, 0.0, 1.0 / b.samples_per_position, 1,
                    plot::series_color(k), 2.0f, offset);
    plot::plot_hline(offset, ImGui::GetColorU32(ImGuiCol_Text, 0.15f), 1.0f);
    for (int t = 0; t < b.positions; ++t) {
      const float v = b.curves[std::size_t(k) * n + std::size_t(t) * b.samples_per_position];
      const ImVec2 p = plot::data_to_screen(t, offset + v);
      const bool negative = b.negative[std::size_t(t) * K + k];
      if (negative) plot::canvas_circle_filled(p, 3.5f, kOne);
      else plot::canvas_circle(p, 3.5f, kOne, 0, 1.0f);
    }
  }
  if (show_highlight(s)) plot::plot_vline(s.highlight_position, highlight_color(), 1.0f);
  if (plot::plot_clicked())
    s.highlight_position = std::clamp(int(std::lround(plot::mouse_data_position().x)), 0, basics.computed.seq_len - 1);
  plot::end_plot();
}


// Positions counted and the morph to the encoding's frequencies (the figure leaves them out).
void binary_controls(AppState& s) {
  BasicsOptions& basics = s.pages.basics;
  next_on_line(ImGui::GetFontSize() * 6.0f, "positions");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (limit_slider("positions", basics.binary_view.positions, limits::binary_positions))
    basics.dirty.binary = true;
  hint("How many positions (rows) the table counts through.");
  next_on_line(ImGui::GetFontSize() * 8.0f, "morph to base");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::SliderFloat("morph to base", &basics.binary_view.morph, float(limits::binary_morph.min), float(limits::binary_morph.max), "%.2f",
                         ImGuiSliderFlags_AlwaysClamp))
    basics.dirty.binary = true;
  hint("0: frequencies pi/2^k, exactly the bits' periods 2^(k+1). 1: the chosen base and d_model's "
       "frequencies for pair k. In between, each frequency slides geometrically.");
}
}  // namespace

void draw_binary_view(AppState& s) {
  const BasicsOptions& basics = s.pages.basics;
  view_title("Binary-bit analogy");
  if (shows_controls(s)) binary_controls(s);
  if (!basics.has_results || basics.binary.bits == 0) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const BinaryAnalogy& b = basics.binary;
  ImGui::TextDisabled("%d of %d cells agree%s", b.agreeing, b.positions * b.bits,
                      basics.frequencies.size() < std::size_t(b.bits) ? " (d_model has fewer pairs than bits)" : "");
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  // Side by side when the curves keep their readable width beside the table at its narrowest cells (0.9 em).
  const float label_w = ImGui::CalcTextSize("0000").x + 0.5f * fs, scrollbar = ImGui::GetStyle().ScrollbarSize;
  const float widest = label_w + (2 * b.bits * 1.35f + 1.0f) * fs + scrollbar;
  const float narrowest = label_w + (2 * b.bits * 0.9f + 1.0f) * fs + scrollbar;
  const float room = avail.x - ImGui::GetStyle().ItemSpacing.x - kMinPlotWidthEm * fs;  // the table's, beside the curves
  const float table_w = std::max(narrowest, std::min({avail.x * 0.5f, widest, room}));
  if (table_w <= room) {  // side by side
    binary_table(s, table_w, avail.y);
    ImGui::SameLine();
    curves_plot(s, avail.y);
    return;
  }
  // A narrow pane: the curves under the table, their legend's rows above them on top of the readable minimum; the
  // table as tall as its rows need when that leaves the curves that much, else half the pane.
  const float curves_min = kMinPlotHeightEm * fs + plot::legend_room_above("##binary_curves");
  const float table_h = table_height_needed(b.positions);
  const float curves_h = avail.y - table_h - ImGui::GetStyle().ItemSpacing.y >= curves_min
                             ? avail.y - table_h - ImGui::GetStyle().ItemSpacing.y
                             : std::max(0.5f * avail.y, curves_min);
  binary_table(s, avail.x, std::max(avail.y - curves_h - ImGui::GetStyle().ItemSpacing.y, 4.0f * fs));
  curves_plot(s, curves_h);
}

}  // namespace peviz::app
