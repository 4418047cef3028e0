// View 3, similarity: dot or cosine between every pair of positions, and one row of it against
// offset (for sinusoids the rows of different positions coincide: it depends only on the offset).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// Row `row` of the similarity: a pointer into the matrix, or read from the Toeplitz description
// into slot 0 or 1 of the scratch rows (sized for both before the first call).
const float* similarity_row(AppState& s, int row, int slot) {
  BasicsOptions& basics = s.pages.basics;
  const std::size_t n = basics.similarity_toeplitz.size();
  if (n == 0) return basics.similarity.row(std::size_t(row));
  float* out = basics.similarity_rows.data() + std::size_t(slot) * n;
  basics.similarity_toeplitz.fill_row(std::size_t(row), out);
  return out;
}

void row_plot(AppState& s, float height) {
  BasicsOptions& basics = s.pages.basics;
  const int n = int(plot::value_rows(basics.similarity_image.values)), stride = basics.similarity_stride, L = basics.computed.seq_len;
  if (n == 0) return;
  basics.similarity_rows.resize(2 * basics.similarity_toeplitz.size());
  if (!plot::begin_plot("##similarity_row", ImVec2(-1, height))) return;
  const double lo = basics.similarity_view.metric == Metric::cosine ? -1.05 : -1.05 * basics.similarity_image.vmax;
  const double hi = basics.similarity_view.metric == Metric::cosine ? 1.05 : 1.05 * basics.similarity_image.vmax;
  plot::setup_axes("offset q - p", basics.similarity_view.metric == Metric::dot ? "dot" : "cosine",
                   {-double(L - 1), double(L - 1)}, {std::min(lo, 0.0), hi}, plot::axis_integer);
  const int row_a = std::clamp(s.highlight_position / stride, 0, n - 1);
  const int pos_b = std::clamp(s.highlight_position + basics.similarity_view.compare_offset, 0, L - 1);
  const int row_b = std::clamp(pos_b / stride, 0, n - 1);
  char label_a[48], label_b[48];
  std::snprintf(label_a, sizeof label_a, "p = %d", row_a * stride);
  std::snprintf(label_b, sizeof label_b, "p = %d", row_b * stride);
  plot::plot_line(label_a, similarity_row(s, row_a, 0), n, -double(row_a) * stride, stride, 1, highlight_color(), 3.0f);
  if (row_b != row_a)
    plot::plot_line(label_b, similarity_row(s, row_b, 1), n, -double(row_b) * stride, stride, 1, plot::series_color(0), 2.0f);
  plot::plot_vline(0.0, ImGui::GetColorU32(ImGuiCol_Text, 0.3f), 1.0f);
  plot::end_plot();
}


// Metric, colours and the compared row (the figure leaves them out).
void similarity_controls(AppState& s) {
  BasicsOptions& basics = s.pages.basics;
  next_on_line(radio_width("dot"));
  int metric = int(basics.similarity_view.metric);
  if (ImGui::RadioButton("dot", &metric, 0)) basics.dirty.similarity = true;
  hint("Dot product of the two position vectors: grows with d_model.");
  next_on_line(radio_width("cosine"));
  if (ImGui::RadioButton("cosine", &metric, 1)) basics.dirty.similarity = true;
  hint("Cosine of the angle between the two position vectors, in [-1, 1].");
  basics.similarity_view.metric = Metric(metric);
  if (colormap_combo("colours##similarity", basics.similarity_view.colormap_choice)) basics.dirty.colors = true;
  next_on_line(ImGui::GetFontSize() * 6.0f, "compare");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  limit_slider("compare", basics.similarity_view.compare_offset, limits::compare_offset, "%+d");
  hint("Second row drawn in the line plot: the highlighted position plus this many; for sinusoids the two "
       "curves lie on top of each other because the similarity depends only on the offset.");
}
}  // namespace

void draw_similarity_view(AppState& s) {
  BasicsOptions& basics = s.pages.basics;
  view_title("Similarity");
  if (shows_controls(s)) similarity_controls(s);
  if (!basics.has_results || !plot::has_values(basics.similarity_image.values)) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const float avail = ImGui::GetContentRegionAvail().y;
  const float row_height = std::max(avail * 0.4f, kMinPlotHeightEm * ImGui::GetFontSize());
  const HeatmapPanel panel{"##similarity", "position q", basics.similarity_view.metric == Metric::dot ? "dot" : "cosine",
                           double(basics.computed.seq_len), true};
  heatmap_with_colorbar(s, basics.similarity_image, panel, avail - row_height - ImGui::GetStyle().ItemSpacing.y,
                        s.regions.similarity_heatmap, s.regions.similarity_colorbar);
  row_plot(s, row_height);
}

}  // namespace peviz::app
