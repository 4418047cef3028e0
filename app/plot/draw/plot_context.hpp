// The plotting layer's own state, one per ImGui context as ImPlot keeps its own (plot::create_context): the plot
// being built, the display-list recorder, the frame's drawn plots and heatmap placements, the GL layer's texture
// source. Only app/plot/draw reads or writes it.
#pragma once
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "app/plot/display_list.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/plot/draw/plot_annotations.hpp"
#include "app/plot/legend_placement.hpp"
#include "app/plot/plot_transform.hpp"

namespace peviz::plot {

struct Series {
  const char* label;
  const float* values;
  int count;
  double x0, dx;
  int stride;
  ImU32 color;
  double y_offset;
  const float* xs = nullptr;  // x of each sample (increasing); nullptr: x0 + i * dx
  double x_at(int i) const { return xs ? double(xs[i]) : x0 + i * dx; }
};

enum class Region { none, area, x_axis, y_axis };

// The plot being built between begin_plot and end_plot (plots do not nest).
struct CurrentPlot {
  bool active = false;
  bool ready = false;  // setup_axes ran
  ImGuiID id = 0;
  ImRect frame, area;
  const char* x_label = "";
  const char* y_label = "";
  const char* title = "";  // plot_title's: centred over the area in the y label's row
  AxisRange x_default, y_default;
  unsigned x_flags = 0, y_flags = 0;
  unsigned flags = 0;
  AxisMap xmap, ymap;
  bool held = false;
  Region hover = Region::none;
  bool clicked = false;
  ImVec2 mouse_data;
  std::vector<Series> series;
  int palette_next = 0;
  HeatmapImage* heatmap = nullptr;
  const char* heatmap_label = "";
  ImVector<ImVec2> points;  // polyline scratch, reused
  std::vector<Point> drawn;  // every sample drawn this plot (screen), which the legend must not cover
  std::vector<Box> notes;    // the boxes of text notes (plot_text), which the legend must not cover
  std::vector<PendingNote> pending_notes;  // plot_text calls of this plot, drawn at end_plot
  float legend_right = 0, legend_top = 0;  // room kept right of / above the area for the legend (from storage)
  int tile_period = 0;  // a tiled heatmap's tile side + gutter: both axes count cells inside each tile
};

// Where canvas calls are copied while a vector figure is captured (record_into).
struct Recorder {
  DisplayList* list = nullptr;
  bool clip_open = false;
  ImVec4 clip{0, 0, 0, 0};
};

struct PlotContext {
  CurrentPlot plot;
  Recorder recorder;
  std::vector<DrawnPlot> drawn;  // this frame's plots and colour bars (clear_drawn_plots empties both lists)
  std::vector<HeatmapPlacement> placements;
  HeatmapTextureSource texture_source;  // the GL layer's pictures (none: headless)
};

// The current ImGui context's plotting state (create_context must have run).
PlotContext& context();

}  // namespace peviz::plot
