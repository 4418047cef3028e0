// The fixed, resizable arrangement of the window: menu bar, page tabs, sidebar | 2 x 2 grid of
// views (or another page), status line; and the same views laid out alone for a figure.
#pragma once
#include <string>

#include <imgui.h>

#include "app/model/app_state.hpp"
#include "app/model/figure_view.hpp"

namespace peviz::app {

// Draws the whole window's UI for one frame (between ImGui::NewFrame and ImGui::Render).
void draw_app(AppState& s);

// The smallest cell of the Basics grid, in font heights: room for a view's toolbar and two plots of the
// readable minimum (views.hpp) each. Below it the page shows one view at a time.
inline constexpr float kBasicsCellWidthEm = 30.0f, kBasicsCellHeightEm = 24.0f;
// The lesson panel beside the views (a wide window, a projector): this share of the width, at least this many font
// heights wide (about 30 characters a line at the presentation text size), wider up to the largest share where the
// step's text needs it to show unscrolled; the views keep the rest. A step with a demo (the word-order sums) takes
// the demo's share in the window and the whole body while presenting, the demo beside its text.
inline constexpr float kLessonPanelShare = 0.28f, kLessonPanelMinEm = 15.0f, kLessonPanelMaxShare = 0.42f;
inline constexpr float kLessonDemoPanelShare = 0.34f, kLessonDemoPanelMinEm = 18.0f;

// The Basics page's 2 x 2 grid of views with its splitters, filling the rectangle at `origin` of `size`; one view
// at a time under tabs when a cell would be smaller than that.
void draw_basics_grid(AppState& s, ImVec2 origin, ImVec2 size);

// Draws a figure for one frame: the window without menu bar and toast (kind window), or one view
// filling the display; `caption` (when not empty) replaces the status line.
void draw_figure(AppState& s, FigureView v, const std::string& caption, bool highlight = false);

}  // namespace peviz::app
