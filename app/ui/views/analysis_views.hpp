// The analysis pages, one free function per file in app/ui/views/: each edits AppState::analysis and
// draws its cached results through ImGui and the plotting layer; none computes or calls GL.
#pragma once
#include <vector>

#include <imgui.h>

#include "app/model/app_state.hpp"
#include "core/limits.hpp"

namespace peviz::app {

// Every page's draw_<id>_view(AppState&) (app/ui/views/<id>_view.cpp), declared from the page list.
#define PEVIZ_DECLARE_VIEW(id, Options) void draw_##id##_view(AppState& s);
PEVIZ_PAGES(PEVIZ_DECLARE_VIEW)
#undef PEVIZ_DECLARE_VIEW
// The Lab's settings and Train / Stop, drawn in the sidebar while the Lab page is shown (lab_view.cpp).
void draw_lab_controls(AppState& s);
// Draws the page s.analysis.page (not basics).
void draw_analysis_page(AppState& s);

// Shared by the pages (analysis_widgets.cpp).
// A legend that toggles series: one checkbox per name, coloured like its line, wrapping onto more lines; hovering
// a name shows its entry of `hints` (what the name means) when given. True when changed.
bool series_toggles(const char* id, const std::vector<const char*>& names, bool* shown, int first_color = 0,
                    const std::vector<const char*>& hints = {});
// Records the screen rectangle of the last item (a plot) as the page's key region.
void record_page_region(AppState& s);
// A heatmap with its colourbar at the right filling `size` (size.x <= 0: the remaining width); a tiled one
// names each tile in its corner, and its axes count cells inside each tile.
void heatmap_panel(plot::HeatmapImage& img, const char* id, const char* x_label, const char* y_label,
                   const char* value_label, ImVec2 size);
// Slider over an int option; marks `page` dirty when it moves.
bool page_slider(AppState& s, Page page, const char* label, int& v, int lo, int hi, bool log = false);
bool page_slider(AppState& s, Page page, const char* label, double& v, double lo, double hi, bool log = false);
// The same over a limit's window range and scale (core/limits.hpp).
bool page_slider(AppState& s, Page page, const char* label, int& v, const Limit& l);
bool page_slider(AppState& s, Page page, const char* label, double& v, const Limit& l);
// Puts the next page slider (labelled `label`) on the current line when it fits there, else on a new line.
void next_slider_on_line(const char* label);
// Slider over head_dim / 2 (the rotary pairs), keeping head_dim even; marks `page` dirty.
bool pairs_slider(AppState& s, Page page, const char* label, int& head_dim, int min_pairs, int max_pairs);

}  // namespace peviz::app
