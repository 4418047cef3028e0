// The views of the window, one free function per file in app/ui/views/: the sidebar, the four Basics views and
// every page's. Each edits AppState and draws its cached results through ImGui and the plotting layer; none
// computes or calls GL.
#pragma once
#include <span>
#include <string_view>
#include <vector>

#include <imgui.h>

#include "app/model/app_state.hpp"
#include "app/model/presentation.hpp"  // shows_part
#include "app/plot/draw/plot.hpp"
#include "app/plot/heatmap_image.hpp"
#include "core/base/limits.hpp"

namespace peviz::app {

// The smallest readable plot or heatmap (declared with the plotting layer). Views split their height so that each of
// their plots keeps it when the pane can.
using plot::kMinPlotHeightEm;
using plot::kMinPlotWidthEm;
// While a single-view figure is drawn: no input widgets, and the highlight only when the figure asks for it.
inline bool drawing_figure(const AppState& s) { return s.figure_drawing.active; }
// A page's own controls (sliders, pickers, buttons): left out of figures, and while presenting unless the
// strip's Controls toggle shows them, so that the plots a lesson step talks about fill the projected screen.
inline bool shows_controls(const AppState& s) {
  return !drawing_figure(s) && (!s.teach.presenting || s.teach.present_controls);
}
// A lesson presented as slides: its steps pick the page and the Basics view (no tabs), the view fits the slide.
inline bool presenting_lesson(const AppState& s) { return s.teach.presenting && s.teach.lesson_active; }

// The window's own buttons (presenting's Controls and Leave, the lesson's Prev, Next and End): not in figures.
inline bool window_buttons_shown(const AppState& s) { return !s.figure_drawing.offscreen; }
inline bool show_highlight(const AppState& s) { return !s.figure_drawing.active || s.figure_drawing.highlight; }

// A colour bar beside a heatmap, in font heights.
inline constexpr float kColorbarWidthEm = 5.0f;
// A plot's height from the share of the pane it would take: never under the readable minimum plus `legend_above`,
// the rows the plot keeps above its data for its legend (plot::legend_room_above), so that the data keeps the
// minimum (a page's pane scrolls when its plots need more than it has; widths stack instead, see fits_side_by_side).
float readable_height(float share, float legend_above = 0.0f);
// True when `count` plots of readable width, `extra` pixels beside them, fit side by side in the width left
// on the line; else the view stacks them.
bool fits_side_by_side(int count, float extra = 0.0f);
// What a heatmap panel adds beside its plot: the colour bar and the gap before it (pixels).
float colorbar_extra_width();
// The narrowest readable heatmap panel: the plot at kMinPlotWidthEm and its colour bar (pixels).
float readable_heatmap_panel_width();

void draw_controls_panel(AppState& s);   // controls_panel.cpp: the sidebar
void draw_waves_view(AppState& s);       // waves_view.cpp
void draw_encoding_view(AppState& s);    // encoding_view.cpp
void draw_similarity_view(AppState& s);  // similarity_view.cpp
void draw_binary_view(AppState& s);      // binary_view.cpp
// Every page's draw_<id>_view(AppState&) (app/ui/views/<id>_view.cpp), declared from the page list.
#define PEVIZ_DECLARE_VIEW(id, Options) void draw_##id##_view(AppState& s);
PEVIZ_PAGES(PEVIZ_DECLARE_VIEW)
#undef PEVIZ_DECLARE_VIEW
// The Lab's settings and Train / Stop, drawn in the sidebar while the Lab page is shown (lab_view.cpp).
void draw_lab_controls(AppState& s);
// Draws the page s.pages.page through the views' table (page_views.cpp).
void draw_shown_page(AppState& s);

// Shared by the views (view_widgets.cpp).
// One-sentence explanation of the last item, shown when it is hovered.
void hint(const char* sentence);
// `text` laid out in lines at most `width` wide (each an exact substring), broken only at spaces outside a
// formula's parentheses and not beside an "=": a number stays whole ("0.000133", "n = 25"), so does
// "cos(r theta_i)"; a line break in the text ends a line. ImGui's own wrap also breaks after '.' and ','.
std::vector<std::string_view> wrap_lines(std::string_view text, float width);
// The lines of wrap_lines at the cursor as one text, and its height.
void wrapped_text(std::string_view text, float width);
float wrapped_height(std::string_view text, float width);
// Colormap choice: 0 = automatic, else Colormap + 1. True when changed.
bool colormap_combo(const char* label, int& choice);
// A combo over a table's names (core's name arrays: train::kTaskNames, ...): choice indexes them. True when changed.
bool names_combo(const char* label, int& choice, std::span<const std::string_view> names);
// Title line of a view.
void view_title(const char* title);
// Puts the next header widget on the same line when it fits (`item_width` wide plus its label),
// else on a new line: headers wrap instead of being clipped at large zoom.
void next_on_line(float item_width, const char* label = nullptr);
// Width of a radio button or small button with this label.
float radio_width(const char* label);
float small_button_width(const char* label);
// A slider over a limit's window range (core/base/limits.hpp), logarithmic where the limit says so,
// clamped. True when changed.
bool limit_slider(const char* label, int& v, const Limit& l, const char* format = "%d");
bool limit_slider(const char* label, double& v, const Limit& l, const char* format = "%.6g");
// ImU32 colour used to mark the highlighted position in every view.
unsigned highlight_color();
// A line that says the view does not show what the user may expect (a model it does not apply to): orange, darker
// on the light theme.
ImVec4 warning_color();
// True when the window's background is light (the light theme): colours near white do not read there.
bool light_background();

// A heatmap whose rows are positions (row 0 at the top) with its colourbar on the right, `height`
// high and the remaining width wide. Marks the highlighted row (and column when `mark_column`);
// a click picks the highlighted position. Records where the image and the bar landed.
struct HeatmapPanel {
  const char* id;
  const char* x_label;
  const char* value_label;
  double x_extent;  // data width (columns x cell width)
  bool mark_column;
};
void heatmap_with_colorbar(AppState& s, plot::HeatmapImage& img, const HeatmapPanel& panel, float height,
                           ScreenRect& image_region, ScreenRect& bar_region);
// A legend that toggles series: one checkbox per name, coloured like its line, wrapping onto more lines; hovering
// a name shows its entry of `hints` (what the name means) when given; `colors`, when given, is each name's palette
// index (else first_color, first_color + 1, ...). True when changed.
bool series_toggles(const char* id, const std::vector<const char*>& names, bool* shown, int first_color = 0,
                    const std::vector<const char*>& hints = {}, const std::vector<int>& colors = {});
// Records the screen rectangle of the last item (a plot) as the page's key region.
void record_page_region(AppState& s);
// A heatmap with its colourbar at the right filling `size` (size.x <= 0: the remaining width), `title` in its top
// row (plot_title; "": none); a tiled one names each tile in its corner, and its axes count cells inside each tile.
void heatmap_panel(plot::HeatmapImage& img, const char* id, const char* x_label, const char* y_label,
                   const char* value_label, ImVec2 size, const char* title = "");
// Slider over an int option; marks `page` dirty when it moves.
bool page_slider(AppState& s, Page page, const char* label, int& v, int lo, int hi, bool log = false);
bool page_slider(AppState& s, Page page, const char* label, double& v, double lo, double hi, bool log = false);
// The same over a limit's window range and scale (core/base/limits.hpp).
bool page_slider(AppState& s, Page page, const char* label, int& v, const Limit& l);
bool page_slider(AppState& s, Page page, const char* label, double& v, const Limit& l);
// Puts the next page slider (labelled `label`) on the current line when it fits there, else on a new line.
void next_slider_on_line(const char* label);
// Slider over head_dim / 2 (the rotary pairs) in the window range of `l` (head_dim at least `min_head_dim`),
// keeping head_dim even; marks `page` dirty.
bool pairs_slider(AppState& s, Page page, const char* label, int& head_dim, const Limit& l, int min_head_dim = 0);

}  // namespace peviz::app
