// The frame's list of laid-out plots and colour bars.
#include "app/plot/draw/drawn_plots.hpp"

#include "app/plot/draw/plot_context.hpp"

namespace peviz::plot {

namespace {
std::vector<DrawnPlot>& drawn() { return context().drawn; }
std::vector<HeatmapPlacement>& placements() { return context().placements; }
}  // namespace

void clear_drawn_plots() {
  drawn().clear();
  placements().clear();
}
void note_drawn_plot(DrawnPlot plot) { drawn().push_back(std::move(plot)); }
void note_plot_area_and_legend(ScreenBox area, ScreenBox legend, int series_colors, std::vector<std::string> unnamed_series) {
  std::vector<DrawnPlot>& plots = drawn();
  for (auto it = plots.rbegin(); it != plots.rend(); ++it)
    if (!it->colorbar) {
      it->area = area;
      it->legend = legend;
      it->series_colors = series_colors;
      it->unnamed_series = std::move(unnamed_series);
      return;
    }
}
const std::vector<DrawnPlot>& drawn_plots() { return drawn(); }

void note_heatmap_placement(HeatmapPlacement placement) { placements().push_back(placement); }
const std::vector<HeatmapPlacement>& heatmap_placements() { return placements(); }

const HeatmapPlacement* placement_of(const HeatmapImage& image) {
  const std::vector<HeatmapPlacement>& placed = placements();
  for (auto it = placed.rbegin(); it != placed.rend(); ++it)
    if (it->image == &image) return &*it;
  return nullptr;
}

}  // namespace peviz::plot
