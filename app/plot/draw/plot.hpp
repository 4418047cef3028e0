// Our small plotting layer on ImGui: axes with nice ticks, line series, heatmaps, a colourbar.
//
// Shape (after ImPlot):
//   if (plot::begin_plot("##waves", size)) {
//     plot::setup_axes("position", "value", {0, L}, {-1.1, 1.1});
//     plot::plot_line("ch 0", column, L, /*x0=*/0, /*dx=*/1, /*stride=*/d);
//     plot::end_plot();
//   }
// Mouse: wheel zooms (over an axis: that axis only), drag pans (over an axis: that axis only),
// double-click resets to the default ranges, hovering shows a crosshair and the exact values.
// Zoom/pan state is kept per plot id in ImGui's window storage, so it lives and dies with the
// ImGui context; the rest of the layer's state (the plot being built, the frame's drawn plots) is a context of its
// own hung on ImGui's, as ImPlot keeps one (create_context). Plots do not nest. No GL here: a heatmap's picture is a texture the GL layer hands over
// (set_heatmap_texture_source).
#pragma once
#include <functional>

#include <imgui.h>

#include "app/plot/colormap.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/plot/heatmap_image.hpp"
#include "app/plot/plot_transform.hpp"

namespace peviz::plot {

// After ImGui::CreateContext: hangs a fresh plotting state on the current ImGui context (its io.UserData, which
// nothing else in peviz uses). Before ImGui::DestroyContext: frees it. Every plotting call needs one.
void create_context();
void destroy_context();

// The smallest readable plot or heatmap, in font heights (width, height): 240 x 160 pixels at zoom 100%, scaled with
// the UI zoom. A legend beside the data never takes a plot's frame under this width (it goes above or inside).
inline constexpr float kMinPlotWidthEm = 15.0f, kMinPlotHeightEm = 10.0f;

enum AxisFlags : unsigned {
  axis_default = 0,
  axis_integer = 1u << 0,   // ticks only at integers (positions, channels)
  axis_cells = 1u << 1,     // value v is drawn as the cell [v, v+1): integer ticks at cell centres
  axis_inverted = 1u << 2,  // y only: larger values further down (heatmap rows from the top)
  axis_locked = 1u << 3,    // no zoom or pan on this axis
  axis_no_labels = 1u << 4, // grid lines but no tick labels (stacked curves: offsets mean nothing)
};

enum PlotFlags : unsigned {
  plot_default = 0,
  plot_no_background = 1u << 0,  // an image covers the area: skip the fill (saves a pass on software GL)
};

// Drops the zoom and pan of plot `id` in the current window: it shows its default ranges again.
void reset_zoom(const char* id);
// The height plot `id` in the current window keeps above its area for its legend's rows (0: the legend is elsewhere),
// as its last frame placed it: a view adds it to the plot's height so that the legend does not shrink the data.
float legend_room_above(const char* id);
// Starts a plot filling `size` (negative = fill remaining width/height). False when clipped.
bool begin_plot(const char* id, ImVec2 size = ImVec2(-1, -1), unsigned flags = plot_default);
// Axis labels, default (reset) ranges and flags. Call once, right after begin_plot.
void setup_axes(const char* x_label, const char* y_label, AxisRange x_default, AxisRange y_default,
                unsigned x_flags = axis_default, unsigned y_flags = axis_default);
// What the plot shows, in its top row (the y label's), centred over the data area: a title inside the plot's own
// frame, so that it takes no line of its own (valid after setup_axes; the text must outlive end_plot).
void plot_title(const char* title);
// Ranges currently shown (valid after setup_axes).
AxisRange current_x_range();
AxisRange current_y_range();

// A line through (x0 + i*dx, y_offset + values[i*stride]) for i < count; NaN breaks the line.
// The data must stay alive until end_plot (the hover read-out reads it and shows the values
// without the offset). Colour: next in the palette unless given. A label starting with "##" is
// left out of the legend.
void plot_line(const char* label, const float* values, int count, double x0 = 0.0, double dx = 1.0,
               int stride = 1, ImU32 color = 0, float thickness = 2.0f, double y_offset = 0.0);
// The same through (x[i], y[i]) for i < count, x increasing (unevenly spaced samples: one series, one legend
// entry, joined like any line); NaN in y breaks the line.
void plot_line(const char* label, const float* x, const float* y, int count, ImU32 color = 0, float thickness = 2.0f);
// A band filled between lo[i] and hi[i] at x[i] for i < count (a NaN in either breaks it), in `color`
// (give it a low alpha: the band sits under its line). Not in the legend (which keeps off it); the hover ignores it.
void plot_band(const float* x, const float* lo, const float* hi, int count, ImU32 color);
// Where heatmap pictures come from: the GL layer's texture for an image, which shows its window in the
// top-left heatmap_texture_size(window) corner (the window registers gfx::texture_of here). Without
// a source, or for an image it does not know, a heatmap is a flat rectangle (headless tests).
using HeatmapTextureSource = std::function<ImTextureID(const HeatmapImage&)>;
void set_heatmap_texture_source(HeatmapTextureSource source);
// A heatmap of img.values over cells [0, cols) x [0, rows): x = column, y = row. Records the
// visible window in `img` for the GL layer and draws its picture. value_label names the values
// in the hover read-out.
void plot_heatmap(HeatmapImage& img, const char* value_label);
// Marker lines and a text label in data coordinates. Marker lines are data to the legend and the notes.
void plot_vline(double x, ImU32 color, float thickness = 2.0f);  // integer widths use ImGui's cheap textured lines
void plot_hline(double y, ImU32 color, float thickness = 2.0f);
// A note with its top-left corner at (x, y), or moved up or down (as far as the area allows) to the nearest spot
// where it covers none of the plot's lines and marker lines and no earlier note (the legend then avoids it too).
// Notes are drawn at end_plot, over everything else the plot draws; the text is copied.
void plot_text(double x, double y, const char* text, ImU32 color);
// Screen position of a data point (valid between setup_axes and end_plot).
ImVec2 data_to_screen(double x, double y);

// Interaction this frame (valid between setup_axes and end_plot).
bool plot_hovered();
ImVec2 mouse_data_position();  // x, y in data coordinates
bool plot_clicked();           // left button released without a drag: "pick this point"

// Draws axes, ticks, legend, crosshair and read-out; handles double-click reset.
void end_plot();

// A vertical colourbar with nice ticks, `size` including its title (what the colour means, wrapped to the
// width above the bar), its tick labels and, when `missing` (the heatmap has cells with no value), the "n/a"
// swatch under it. Returns the gradient's screen rectangle (top = vmax).
struct ColorbarText {
  const char* title = "";
  bool missing = false;                          // the heatmap has NaN cells: a swatch for them
  NanMeaning nan_meaning = NanMeaning::missing;  // its colour and name ("n/a", "masked")
};
ScreenBox colorbar(const char* id, Colormap map, double vmin, double vmax, ImVec2 size, const ColorbarText& text = {});
// True when the heatmap's values hold a NaN (a missing cell); rescanned only when its version changes.
bool heatmap_has_missing(HeatmapImage& img);

// Colour i of the line palette (Tableau 10, readable on dark and light backgrounds).
ImU32 series_color(int i);

}  // namespace peviz::plot
