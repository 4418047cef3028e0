// The window's layout at projector sizes: on every page and at every lesson step, no plot or colour bar is under
// the readable minimum and no item runs past its pane's right edge, in the window and in presentation mode, at
// 1280 x 720 and 1920 x 1080.
#include <string>

#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/ui/views/views.hpp"
#include "tests/app/ui/imgui_headless.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

// Every plot and colour bar of the last frame at least the readable minimum (colour bars: as tall as a plot), its
// height not counting the rows a plot keeps for its legend above its data area and its width not counting the room
// a plot keeps for its legend right of its data area: a legend beside or above must not shrink the data under what
// a plot of the minimum size would show.
void check_readable(const std::string& where) {
  const float fs = ImGui::GetFontSize();
  const auto& plots = plot::drawn_plots();
  INFO(where);
  CHECK_FALSE(plots.empty());
  for (const plot::DrawnPlot& p : plots) {
    INFO(p.id);
    const bool legend = p.legend.max.x > p.legend.min.x;
    const float above = legend && p.legend.max.y <= p.area.min.y ? p.area.min.y - p.legend.min.y : 0.0f;
    INFO("legend room above " << above);
    CHECK(p.frame.max.y - p.frame.min.y - above >= kMinPlotHeightEm * fs - 1.0f);
    if (p.colorbar) continue;
    // The legend's room at the right: its box with the gap it keeps from the data area on both of its sides.
    const float gap = p.legend.min.x - p.area.max.x;
    const float right = legend && gap >= 0.0f ? p.legend.max.x - p.legend.min.x + 2 * gap : 0.0f;
    INFO("data area " << p.area.max.x - p.area.min.x << " wide, legend room right " << right);
    CHECK(p.frame.max.x - p.frame.min.x - right >= kMinPlotWidthEm * fs - 1.0f);
  }
}

// No item of the last frame reaches past the right edge of the window (or pane) it sits in: ImGui's record of how
// far the items of each window extended (its cursor's furthest x) within the window's work rectangle. Windows that
// scroll sideways are exempt; popups, menus and tooltips size themselves to their items.
void check_inside_panes(const std::string& where) {
  const ImGuiContext& g = *GImGui;
  INFO(where);
  for (const ImGuiWindow* w : g.Windows) {
    if (!w->Active || w->Hidden) continue;
    if (w->Flags & (ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip |
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_ChildMenu))
      continue;
    INFO("window " << w->Name << ": items reach x " << w->DC.CursorMaxPos.x << ", its work area ends at "
                   << w->WorkRect.Max.x);
    CHECK(w->DC.CursorMaxPos.x <= w->WorkRect.Max.x + 1.0f);
  }
}

void check_sizes(ImVec2 display, bool presenting) {
  HeadlessImGui ui(display);
  AppState s;
  if (presenting) set_presenting(s, true);
  ui.use_zoom(s.ui_zoom, presenting ? Theme::light : Theme::dark);
  const std::string size = std::to_string(int(display.x)) + "x" + std::to_string(int(display.y)) +
                           (presenting ? " presenting" : " window");
  for (BasicsPanelInfo panel : kBasicsPanels) {  // each view, whether the grid shows them all or tabs one
    s.layout.panel = panel.panel;
    for (int i = 0; i < 3; ++i) ui.frame(s);
    check_readable(size + ", Basics, " + panel.name);
    check_inside_panes(size + ", Basics, " + panel.name);
  }
  for (int page = 0; page < kPageCount; ++page) {
    if (Page(page) == Page::basics) continue;  // above, panel by panel
    s.analysis.page = Page(page);
    for (int i = 0; i < 3; ++i) ui.frame(s);
    check_readable(size + ", page " + std::string(page_name(Page(page))));
    check_inside_panes(size + ", page " + std::string(page_name(Page(page))));
  }
  s.analysis.page = Page::basics;
  start_lesson(s, load_lesson_file(std::string(PEVIZ_SOURCE_DIR) + "/assets/lessons/positional-encodings.json"));
  for (int step = 0; step < int(s.teach.lesson.steps.size()); ++step) {
    go_to_step(s, step);
    for (int i = 0; i < 3; ++i) ui.frame(s);
    check_readable(size + ", lesson step " + std::to_string(step + 1));
    check_inside_panes(size + ", lesson step " + std::to_string(step + 1));
  }
}

}  // namespace

TEST_CASE("Every page and every lesson step keep every plot readable at 1280 x 720 and 1920 x 1080") {
  check_sizes(ImVec2(1280, 720), false);
  check_sizes(ImVec2(1280, 720), true);
  check_sizes(ImVec2(1920, 1080), false);
  check_sizes(ImVec2(1920, 1080), true);
}
