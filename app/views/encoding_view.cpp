// View 2, the encoding heatmap: position x channel, the classic figure, with a colourbar.
#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/plot/plot.hpp"
#include "app/views/views.hpp"

namespace peviz::app {

void draw_encoding_view(AppState& s) {
  view_title("Encoding heatmap: position x channel");
  ImGui::SameLine();
  if (colormap_combo("colours##encoding", s.encoding_view.colormap_choice)) s.dirty.colors = true;
  if (!s.has_results) {
    ImGui::TextDisabled("no results yet: see the status line");
    return;
  }
  const int L = int(s.encoding.rows), d = int(s.encoding.cols);
  const float bar_width = ImGui::GetFontSize() * 5.0f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (plot::begin_plot("##encoding", ImVec2(avail.x - bar_width - ImGui::GetStyle().ItemSpacing.x, avail.y))) {
    plot::setup_axes("channel", "position", {0.0, double(d)}, {0.0, double(L)}, plot::axis_cells,
                     plot::axis_cells | plot::axis_inverted);
    plot::plot_heatmap(s.encoding_image, "value");
    plot::plot_hline(s.highlight_position + 0.5, highlight_color());
    if (plot::plot_clicked())
      s.highlight_position = std::clamp(int(std::floor(plot::mouse_data_position().y)), 0, L - 1);
    plot::end_plot();
  }
  const plot::HeatmapImage& img = s.encoding_image;
  s.regions.encoding_heatmap = {img.screen_min[0], img.screen_min[1], img.screen_max[0], img.screen_max[1]};
  ImGui::SameLine();
  plot::colorbar("##encoding_bar", img.colormap, img.vmin, img.vmax, ImVec2(bar_width, avail.y));
  s.regions.encoding_colorbar = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x,
                                 ImGui::GetItemRectMax().y};
}

}  // namespace peviz::app
