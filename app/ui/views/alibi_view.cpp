// ALiBi: slope per head and the bias heatmap per head (selector and a small-multiples grid),
// causal or bidirectional (Press et al. 2022; get_slopes of ofirpress/attention_with_linear_biases).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// The slope of every head, the shown head marked; a click picks the head.
void draw_slopes(AppState& s, ImVec2 size) {
  AlibiOptions& o = s.pages.alibi;
  if (!plot::begin_plot("##alibi_slopes", size)) return;
  // The steepest slope is head 0's only for a power-of-two H: the others interleave the next power's, steeper ones.
  const double steepest = *std::max_element(o.slopes.begin(), o.slopes.end());
  plot::setup_axes("head h", "slope m_h", {-0.5, o.heads - 0.5}, {0.0, steepest * 1.1}, plot::axis_integer);
  plot::plot_line("slope", o.slopes_f.data(), int(o.slopes_f.size()), 0.0, 1.0, 1, plot::series_color(0), 2.0f);
  plot::plot_vline(o.head, highlight_color(), 1.0f);
  if (plot::plot_clicked()) {
    o.head = std::clamp(int(std::lround(plot::mouse_data_position().x)), 0, o.heads - 1);
    s.pages.mark(Page::alibi);
  }
  plot::end_plot();
}

// The grid's column count whose tiles come out largest in `room` (each tile as large as the room's width over the
// columns and its height over the rows allow): asked of the update when it differs from the one drawn.
void ask_grid_columns(AppState& s, ImVec2 room) {
  AlibiOptions& o = s.pages.alibi;
  int best = 1;
  float best_side = 0.0f;
  for (int cols = 1; cols <= o.heads; ++cols) {
    const int rows = (o.heads + cols - 1) / cols;
    const float side = std::min(room.x / float(cols), room.y / float(rows));
    if (side > best_side + 0.5f) best = cols, best_side = side;
  }
  if (best == o.grid_cols_wanted) return;
  o.grid_cols_wanted = best;
  s.pages.mark(Page::alibi);
}

}  // namespace

void draw_alibi_view(AppState& s) {
  AlibiOptions& o = s.pages.alibi;
  constexpr Page page = Page::alibi;
  view_title("ALiBi: a linear bias per head, -m_h * distance");
  if (shows_controls(s)) {  // the settings; figures and presented slides leave them out
    page_slider(s, page, "heads", o.heads, limits::alibi_heads);
    next_slider_on_line("length##alibi");
    page_slider(s, page, "length##alibi", o.seq_len, limits::alibi_seq_len);
    next_on_line(radio_width("bidirectional"));
    if (ImGui::Checkbox("bidirectional", &o.bidirectional)) s.pages.mark(page);
    hint("Causal: bias -m_h (i - j) for keys j <= i, future keys masked (drawn grey). Bidirectional: -m_h |i - j|.");
    next_slider_on_line("head shown");
    page_slider(s, page, "head shown", o.head, 0, std::max(o.heads - 1, 0));
    next_on_line(radio_width("per-head scale"));
    if (ImGui::Checkbox("per-head scale", &o.per_head_scale)) s.pages.mark(page);
    hint("The tiles of all heads: each divided by its own largest |bias| (every head runs 0 to -1, so the gentle "
         "heads' gradients show), instead of one scale set by the steepest head.");
  }
  if (o.slopes.empty() || o.head_bias.empty()) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  if (shows_part(s, kAlibiNotes)) {
    ImGui::PushTextWrapPos(0.0f);  // wraps at the pane's right edge
    ImGui::TextDisabled("slopes 2^(-8(h+1)/H) for heads h = 0 .. H-1, H a power of two (head 0: %.4g, head %d: %.4g); "
                        "other H interleave the next power of two's slopes.",
                        o.slopes.front(), int(o.slopes.size()) - 1, o.slopes.back());
    ImGui::PopTextWrapPos();
  }
  // The slopes and one head on the left, all heads on the right; one under the other when the width is short. A
  // presented step that names only some of the three gives them the room of the others.
  const bool slopes = shows_part(s, kAlibiSlopes), head = shows_part(s, kAlibiHead), heads = shows_part(s, kAlibiHeads);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float heatmap_w = readable_heatmap_panel_width();
  const bool left_column = slopes || head;
  const bool beside = left_column && heads && fits_side_by_side(2, 2 * colorbar_extra_width());
  const float left = beside ? std::clamp(avail.x * 0.42f, heatmap_w, avail.x - heatmap_w - spacing) : avail.x;
  if (left_column) {
    ImGui::BeginGroup();
    const float slopes_h = head ? avail.y * 0.35f : (beside || !heads ? avail.y : avail.y * 0.45f);
    if (slopes) draw_slopes(s, ImVec2(left, readable_height(slopes_h)));
    if (head) {
      char title[64];
      std::snprintf(title, sizeof title, "head %d, m = %.4g", o.head, o.slopes[std::size_t(o.head)]);
      ImGui::TextUnformatted(title);
      heatmap_panel(o.head_image, "##alibi_head", "key j", "query i", "bias",
                    ImVec2(left, ImGui::GetContentRegionAvail().y));
    }
    ImGui::EndGroup();
  }
  if (!heads) return record_page_region(s);
  if (beside) ImGui::SameLine();
  ImGui::BeginGroup();
  const float grid_h = beside || !head ? ImGui::GetContentRegionAvail().y : 0.75f * avail.y;
  ask_grid_columns(s, ImVec2(ImGui::GetContentRegionAvail().x - colorbar_extra_width(), grid_h));
  char title[96];  // in the plot's top row: no line of its own
  std::snprintf(title, sizeof title, "all %d heads (row-major, %d per row; %s)", o.heads, o.grid_cols,
                o.per_head_scale ? "each head on its own scale" : "one colour scale");
  heatmap_panel(o.grid_image, "##alibi_grid", "key j", "query i",
                o.per_head_scale ? "bias / head's largest |bias|" : "bias", ImVec2(0, grid_h), title);
  record_page_region(s);
  ImGui::EndGroup();
}

}  // namespace peviz::app
