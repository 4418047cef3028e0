// The linear-shift demo: PE(p+k) = R(k) PE(p) with R(k) block-diagonal 2x2 rotations that do not
// depend on p (Vaswani et al. 2017 §3.5: "PE(pos+k) can be represented as a linear function of PE(pos)").
#include <algorithm>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// PE(p + k) over R(k) PE(p), channel by channel.
void vectors_plot(const LinearShiftOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##shift_vectors", size)) return;
  const int d = int(o.shifted.size());
  // Default view: the first 32 channels (the fast pairs, where the rotation is visible); zoom out for all.
  plot::setup_axes("channel", "value", {-0.5, std::min(d, 32) - 0.5}, {-1.1, 1.1}, plot::axis_integer);
  plot::plot_line("PE(p + k)", o.shifted.data(), d, 0.0, 1.0, 1, plot::series_color(0), 3.5f);
  plot::plot_line("R(k) PE(p)", o.rotated.data(), d, 0.0, 1.0, 1, plot::series_color(1), 1.5f);
  plot::end_plot();
}

// Their difference, float32 rounding only.
void difference_plot(const LinearShiftOptions& o, ImVec2 size) {
  if (!plot::begin_plot("##shift_difference", size)) return;
  const int d = int(o.difference.size());
  const double m = std::max(o.max_error_here * 1.2, 1e-7);
  plot::setup_axes("channel", "PE(p+k) - R(k) PE(p)", {-0.5, d - 0.5}, {-m, m}, plot::axis_integer);
  plot::plot_line("difference", o.difference.data(), d, 0.0, 1.0, 1, plot::series_color(3), 1.5f);
  plot::end_plot();
}

}  // namespace

void draw_linear_shift_view(AppState& s) {
  const BasicsOptions& basics = s.pages.basics;
  LinearShiftOptions& o = s.pages.linear_shift;
  constexpr Page page = Page::linear_shift;
  view_title("Linear shift: PE(p + k) = R(k) PE(p)");
  if (!basics.has_results) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  if (!o.sinusoidal) {
    ImGui::TextWrapped("The shift identity is a property of sinusoids: choose encoding = sinusoidal in the sidebar "
                       "(d_model, base and layout are taken from there).");
    return;
  }
  const int L = basics.computed.seq_len;
  if (shows_controls(s)) {  // the settings; figures and presented slides leave them out
    page_slider(s, page, "p", o.p, 0, std::max(L - 1 - o.k, 0));
    ImGui::SameLine();
    page_slider(s, page, "k", o.k, 0, std::max(L - 1, 0));
  }
  ImGui::TextWrapped("R(k) is built from k alone: each 2x2 block is [[cos kw, sin kw], [-sin kw, cos kw]] acting on "
                     "(sin pw, cos pw). It does not depend on p. Measured max |PE(p+k) - R(k) PE(p)|: %.3g at this p, "
                     "%.3g over every p in 0..%d (float32 table).",
                     o.max_error_here, o.max_error_all_p, L - 1 - o.k);
  // The vectors and their difference on the left, R(k) on the right; one under the other when the width is short. A
  // presented step that names only some of the three gives them the room of the others.
  const bool vectors = shows_part(s, kLinearShiftVectors), difference = shows_part(s, kLinearShiftDifference),
             rotation = shows_part(s, kLinearShiftRotation);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float heatmap_w = readable_heatmap_panel_width();
  const bool left_column = vectors || difference;
  const bool beside = left_column && rotation && fits_side_by_side(2, colorbar_extra_width());
  const float left = beside ? std::clamp(avail.x * 0.58f, kMinPlotWidthEm * ImGui::GetFontSize(), avail.x - heatmap_w - spacing)
                            : avail.x;
  const float vectors_share = difference ? 0.62f : (beside || !rotation ? 1.0f : 0.5f);
  const float vectors_h = readable_height(avail.y * vectors_share, plot::legend_room_above("##shift_vectors"));
  if (left_column) {
    ImGui::BeginGroup();
    if (vectors) vectors_plot(o, ImVec2(left, vectors_h));
    if (vectors) record_page_region(s);
    const float difference_h = vectors ? avail.y - vectors_h - ImGui::GetStyle().ItemSpacing.y
                                       : avail.y * (beside || !rotation ? 1.0f : 0.5f);
    const float difference_legend = plot::legend_room_above("##shift_difference");
    if (difference) difference_plot(o, ImVec2(left, readable_height(difference_h, difference_legend)));
    ImGui::EndGroup();
  }
  if (!rotation) return;
  if (beside) ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("R(k): block-diagonal 2x2 rotations");
  const float rotation_h = beside || !difference ? ImGui::GetContentRegionAvail().y : avail.y;
  heatmap_panel(o.rk_image, "##rk", "input channel", "output channel", "R(k)", ImVec2(0, rotation_h));
  ImGui::EndGroup();
  if (!vectors) record_page_region(s);
}

}  // namespace peviz::app
