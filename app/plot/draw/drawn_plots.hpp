// The plots and colour bars laid out this frame, by id: what --regions writes and the layout tests measure.
#pragma once
#include <string>
#include <vector>

#include <imgui.h>

namespace peviz::plot {

struct ScreenBox {
  ImVec2 min, max;
};

// A plot's or colour bar's frame (axes, labels and ticks included), as laid out, also when scrolled out of view.
struct DrawnPlot {
  std::string id;
  ScreenBox frame;
  bool colorbar = false;
};

// The window clears the list before drawing each frame; begin_plot and colorbar append to it.
void clear_drawn_plots();
void note_drawn_plot(DrawnPlot plot);
const std::vector<DrawnPlot>& drawn_plots();

}  // namespace peviz::plot
