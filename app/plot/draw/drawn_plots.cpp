// The frame's list of laid-out plots and colour bars.
#include "app/plot/draw/drawn_plots.hpp"

namespace peviz::plot {

namespace {
std::vector<DrawnPlot> g_drawn;  // ImGui is single-threaded: so is its frame's list
std::vector<HeatmapPlacement> g_placements;
}  // namespace

void clear_drawn_plots() {
  g_drawn.clear();
  g_placements.clear();
}
void note_drawn_plot(DrawnPlot plot) { g_drawn.push_back(std::move(plot)); }
void note_plot_area_and_legend(ScreenBox area, ScreenBox legend) {
  for (auto it = g_drawn.rbegin(); it != g_drawn.rend(); ++it)
    if (!it->colorbar) {
      it->area = area;
      it->legend = legend;
      return;
    }
}
const std::vector<DrawnPlot>& drawn_plots() { return g_drawn; }


void note_heatmap_placement(HeatmapPlacement placement) { g_placements.push_back(placement); }
const std::vector<HeatmapPlacement>& heatmap_placements() { return g_placements; }

const HeatmapPlacement* placement_of(const HeatmapImage& image) {
  for (auto it = g_placements.rbegin(); it != g_placements.rend(); ++it)
    if (it->image == &image) return &*it;
  return nullptr;
}

}  // namespace peviz::plot
