// The one way views and the plotting layer draw shapes and text: each call draws into the current
// ImGui window's draw list (the screen backend, exactly as ImDrawList would) and, while a display
// list is recording (a vector figure being captured), also appends the same item to it, in the
// draw list's clip rectangle. A view does not know which backend its drawing ends up in.
#pragma once
#include <string>
#include <vector>

#include <imgui.h>

#include "app/plot/display_list.hpp"

namespace peviz::plot {

// Starts appending every canvas call to `list` (its width, height and background are the caller's);
// nullptr stops (closing any open clip group). Recording spans frames until stopped.
void record_into(DisplayList* list);
bool recording();

void canvas_line(ImVec2 a, ImVec2 b, ImU32 color, float thickness = 1.0f);
void canvas_polyline(const ImVec2* points, int count, ImU32 color, float thickness, bool closed = false);
void canvas_rect_filled(ImVec2 min, ImVec2 max, ImU32 color, float rounding = 0.0f);
void canvas_rect(ImVec2 min, ImVec2 max, ImU32 color, float rounding = 0.0f, float thickness = 1.0f);
// Colours at the corners, blended across (ImDrawList::AddRectFilledMultiColor).
void canvas_rect_gradient(ImVec2 min, ImVec2 max, ImU32 top_left, ImU32 top_right, ImU32 bottom_right, ImU32 bottom_left);
void canvas_circle_filled(ImVec2 center, float radius, ImU32 color);
// A filled convex polygon, points in order (ImDrawList::AddConvexPolyFilled).
void canvas_convex_filled(const ImVec2* points, int count, ImU32 color);
void canvas_circle(ImVec2 center, float radius, ImU32 color, int segments = 0, float thickness = 1.0f);
// The current ImGui style's colour `c` at `alpha` (ImGui::GetColorU32).
inline ImU32 style_color(ImGuiCol c, float alpha = 1.0f) { return ImGui::GetColorU32(c, alpha); }
// Text with its line box's top-left corner at `top_left`, in the current font (ImDrawList::AddText);
// `end` as ImGui's (null: to the terminating zero). Lines split at '\n'.
void canvas_text(ImVec2 top_left, ImU32 color, const char* text, const char* end = nullptr);
// Text placed by an anchor point (tick labels: right-aligned, centred): the screen gets the same
// pixels as canvas_text at the computed corner; a vector figure keeps the anchor, so its labels
// stay aligned whatever the viewer's font metrics.
void canvas_text_at(ImVec2 anchor, HAlign h, VAlign v, ImU32 color, const char* text);
// A heatmap picture: the screen draws `texture` (uv 0..uv_max) over [h.min, h.max]; the display
// list gets `h` (cells, colormap and range, resolved when the figure is written).
void canvas_heatmap(const HeatmapRect& h);
// `text` broken at spaces into lines no wider than `width` in the current font (a longer word keeps a line of its own).
std::vector<std::string> wrap_text(const char* text, float width);
void canvas_push_clip(ImVec2 min, ImVec2 max);  // intersected with the current clip, as ImGui's
void canvas_pop_clip();

}  // namespace peviz::plot
