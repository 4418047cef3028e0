// The plots and colour bars laid out this frame, by id: what --regions writes and the layout tests measure.
#pragma once
#include <string>
#include <vector>

#include <imgui.h>

#include "app/plot/heatmap_image.hpp"

namespace peviz::plot {

struct ScreenBox {
  ImVec2 min, max;
};

// A plot's or colour bar's frame (axes, labels and ticks included), as laid out, also when scrolled out of view;
// for a plot, its data area and its legend's box (empty: no legend) once end_plot has placed it.
struct DrawnPlot {
  std::string id;
  ScreenBox frame;
  bool colorbar = false;
  ScreenBox area, legend;
  // Its line series by colour (RGB; a seed's thin line shares its mean's colour): how many colours, and the names
  // (the text after "##" for a legend-less one) of the series whose colour no legend entry names.
  int series_colors = 0;
  std::vector<std::string> unnamed_series;
};

// The window clears the list before drawing each frame; begin_plot and colorbar append to it.
void clear_drawn_plots();
void note_drawn_plot(DrawnPlot plot);
// The area, legend and series colours of the plot noted last (end_plot calls it).
void note_plot_area_and_legend(ScreenBox area, ScreenBox legend, int series_colors = 0,
                               std::vector<std::string> unnamed_series = {});
const std::vector<DrawnPlot>& drawn_plots();

// The heatmaps placed this frame (plot_heatmap appends, clear_drawn_plots clears), for the GL layer to render.
void note_heatmap_placement(HeatmapPlacement placement);
const std::vector<HeatmapPlacement>& heatmap_placements();
// Where `image` went this frame (its last placement), or nullptr when no plot drew it.
const HeatmapPlacement* placement_of(const HeatmapImage& image);

}  // namespace peviz::plot
