// A plot's legend and text notes: where they go (legend_placement.hpp) and how they are drawn (plot.cpp calls these
// at end_plot).
#pragma once
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "app/plot/draw/drawn_plots.hpp"
#include "app/plot/legend_placement.hpp"

namespace peviz::plot {

struct LegendEntry {
  const char* label;  // as given to plot_line; text after "##" is not shown
  ImU32 color;
};

struct PendingNote {  // a plot_text note, placed once everything it must avoid is drawn
  ImVec2 anchor;
  std::string text;
  ImU32 color;
};

// Room a plot keeps for its legend outside the area (pixels): right of it and above it.
struct LegendRoom {
  float right = 0, top = 0;
};

// Draws each note at the nearest spot inside `area` where it covers none of `drawn` and no earlier note
// (place_note); appends the boxes it took to `notes`.
void draw_plot_notes(const ImRect& area, const std::vector<PendingNote>& pending, const std::vector<Point>& drawn,
                     std::vector<Box>& notes);

// Draws the legend of `entries` for the plot with `frame` and `area` (which already leaves out `room`) where it covers
// none of `drawn` and no note (place_legend; `drawn` and `notes` are rescaled in place to the area without the room,
// so the choice does not flip between frames); beside the area only while the frame keeps the readable minimum width
// (kMinPlotWidthEm) for the data. Returns the room the next frame should keep and the legend's box
// (empty: no legend).
struct LegendDrawn {
  LegendRoom next_room;
  ScreenBox box;
};
LegendDrawn draw_plot_legend(const std::vector<LegendEntry>& entries, const ImRect& frame, const ImRect& area,
                             LegendRoom room, std::vector<Point>& drawn, std::vector<Box>& notes);

}  // namespace peviz::plot
