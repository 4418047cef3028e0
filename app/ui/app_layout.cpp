// Menu bar, sidebar (or presentation strip), splitters, the grid of views or a page, the lesson panel and
// the status line, in one full-window ImGui window.
#include "app/model/page_model.hpp"
#include "app/ui/app_layout.hpp"

#include <algorithm>

#include <imgui.h>

#include "app/model/presentation.hpp"
#include "app/ui/theme.hpp"
#include "app/ui/views/analysis_views.hpp"
#include "app/ui/views/figure_menu.hpp"
#include "app/ui/views/teach_views.hpp"
#include "app/ui/views/views.hpp"

namespace peviz::app {

namespace {

// No background: the frame is cleared to WindowBg, so the software rasteriser skips a full-screen pass.
constexpr ImGuiWindowFlags kRootFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                        ImGuiWindowFlags_NoBackground;
constexpr ImGuiWindowFlags kViewFlags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;

// A draggable bar at `pos`; returns the mouse movement across it while dragged.
float splitter(const char* id, ImVec2 pos, ImVec2 size, bool vertical) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton(id, size);
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered() || active) {
    ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    ImGui::GetWindowDrawList()->AddRectFilled(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                              ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive : ImGuiCol_SeparatorHovered));
  }
  if (!active) return 0.0f;
  return vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
}

void pane(const char* id, ImVec2 pos, ImVec2 size, void (*draw)(AppState&), AppState& s, ImGuiWindowFlags flags) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::BeginChild(id, size, true, flags);
  draw(s);
  ImGui::EndChild();
}

// One button per page in a row above the views; the chosen one is highlighted.
void page_tabs(AppState& s, ImVec2 origin) {
  ImGui::SetCursorScreenPos(origin);
  for (int i = 0; i < kPageCount; ++i) {
    const Page p = Page(i);
    if (i > 0) ImGui::SameLine();
    const bool active = s.analysis.page == p;
    if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetColorU32(ImGuiCol_ButtonActive));
    if (ImGui::Button(page_title(p))) s.analysis.page = p;
    if (active) ImGui::PopStyleColor();
  }
}

// The status line, or the figure's caption in its place.
void status_line(const AppState& s, const std::string& caption) {
  if (!caption.empty()) {
    ImGui::TextUnformatted(caption.c_str());
    return;
  }
  if (s.status_is_error) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(235, 80, 70, 255));
  ImGui::TextUnformatted(s.status.c_str());
  if (s.status_is_error) ImGui::PopStyleColor();
  const TeachState& t = s.teach;
  if (t.notice.empty()) return;
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  if (t.notice_is_error) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(235, 80, 70, 255));
  ImGui::TextUnformatted(t.notice.c_str());
  if (t.notice_is_error) ImGui::PopStyleColor();
}

// Height of the lesson panel: room for the text, more when the step has a demo beside it.
float lesson_height(const AppState& s, float body_h) {
  const TeachState& t = s.teach;
  if (!t.lesson_active || t.lesson.steps.empty()) return 0.0f;
  const bool demo = t.lesson.steps[std::size_t(t.step)].demo == "word-order";
  const float lines = ImGui::GetTextLineHeightWithSpacing();
  return std::min(body_h * (demo ? 0.5f : 0.3f), lines * (demo ? 17.0f : 7.0f));
}

// The toast: a small framed message in the bottom-right corner until it expires.
void toast(const AppState& s) {
  if (s.toast.text.empty() || ImGui::GetTime() > s.toast.until) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float pad = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - pad, vp->WorkPos.y + vp->WorkSize.y - 2.5f * pad),
                          ImGuiCond_Always, ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  ImGui::Begin("##toast", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                       ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  if (s.toast.is_error) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(235, 80, 70, 255));
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
  ImGui::TextUnformatted(s.toast.text.c_str());
  ImGui::PopTextWrapPos();
  if (s.toast.is_error) ImGui::PopStyleColor();
  ImGui::End();
}

void begin_root(bool menu_bar) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::Begin("peviz", nullptr, kRootFlags | (menu_bar ? ImGuiWindowFlags_MenuBar : 0));
  ImGui::PopStyleVar();
}

// The window's body: presentation header, page tabs, sidebar (or strip), views, lesson panel, status
// line (or caption). Inside the root window.
void draw_body(AppState& s, const std::string& caption) {
  const bool presenting = s.teach.presenting;
  if (presenting && !ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))
    set_presenting(s, false);
  if (presenting) {
    push_heading_font();
    ImGui::TextUnformatted(parameter_header(s).c_str());
    pop_heading_font();
  }
  const float scale = ImGui::GetFontSize() / 16.0f;
  const float bar = std::max(4.0f, 5.0f * scale);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float status_h = ImGui::GetFrameHeightWithSpacing();
  page_tabs(s, origin);
  const float tabs_h = ImGui::GetFrameHeightWithSpacing();
  origin.y += tabs_h;
  const float full_h = std::max(avail.y - status_h - tabs_h, 100.0f);
  const float lesson_h = lesson_height(s, full_h);
  const float body_h = std::max(full_h - lesson_h, 100.0f);
  const ImVec2 status_pos(origin.x, origin.y + full_h + ImGui::GetStyle().ItemSpacing.y);
  if (lesson_h > 0.0f)
    pane("##lesson", ImVec2(origin.x, origin.y + body_h + bar), ImVec2(avail.x, lesson_h - bar), draw_lesson_panel, s,
         kViewFlags);

  float sidebar = 0.0f;
  if (presenting) {  // a thin strip, not resizable
    sidebar = std::min(ImGui::GetFontSize() * 9.0f, avail.x * 0.3f);
    pane("##present_strip", origin, ImVec2(sidebar, body_h), draw_presentation_strip, s, 0);
  } else {
    sidebar = std::clamp(s.layout.sidebar_width * scale, 150.0f, std::max(150.0f, avail.x * 0.6f));
    pane("##controls", origin, ImVec2(sidebar, body_h), draw_controls_panel, s, 0);
    if (const float dx = splitter("##split_sidebar", ImVec2(origin.x + sidebar, origin.y), ImVec2(bar, body_h), true))
      s.layout.sidebar_width = std::max(150.0f, sidebar + dx) / scale;
  }
  s.regions.controls = {origin.x, origin.y, origin.x + sidebar, origin.y + body_h};

  const ImVec2 body(origin.x + sidebar + bar, origin.y), body_size(std::max(avail.x - sidebar - bar, 100.0f), body_h);
  if (s.analysis.page == Page::basics) draw_basics_grid(s, body, body_size);
  else pane("##page", body, body_size, draw_analysis_page, s, kViewFlags);
  ImGui::SetCursorScreenPos(status_pos);
  status_line(s, caption);
}

void (*single_view_drawer(FigureView v))(AppState&) {
  switch (v.kind) {
    case FigureView::waves: return draw_waves_view;
    case FigureView::encoding: return draw_encoding_view;
    case FigureView::similarity: return draw_similarity_view;
    case FigureView::binary: return draw_binary_view;
    default: return draw_analysis_page;  // the page was set by the caller
  }
}

}  // namespace

// The Basics page: the 2 x 2 grid of waves, encoding, similarity and binary views with splitters,
// filling the rectangle at `origin` of `size`.
void draw_basics_grid(AppState& s, ImVec2 origin, ImVec2 size) {
  const float scale = ImGui::GetFontSize() / 16.0f;
  const float bar = std::max(4.0f, 5.0f * scale);
  const float grid_x = origin.x, grid_w = size.x, body_h = size.y;
  const float left_w = std::clamp(s.layout.split_x, 0.15f, 0.85f) * (grid_w - bar);
  const float right_w = grid_w - bar - left_w;
  const float top_h = std::clamp(s.layout.split_y, 0.15f, 0.85f) * (body_h - bar);
  const float bottom_h = body_h - bar - top_h;
  const float right_x = grid_x + left_w + bar, bottom_y = origin.y + top_h + bar;
  pane("##waves", ImVec2(grid_x, origin.y), ImVec2(left_w, top_h), draw_waves_view, s, kViewFlags);
  pane("##encoding", ImVec2(right_x, origin.y), ImVec2(right_w, top_h), draw_encoding_view, s, kViewFlags);
  pane("##similarity", ImVec2(grid_x, bottom_y), ImVec2(left_w, bottom_h), draw_similarity_view, s, kViewFlags);
  pane("##binary", ImVec2(right_x, bottom_y), ImVec2(right_w, bottom_h), draw_binary_view, s, kViewFlags);
  if (const float dx = splitter("##split_x", ImVec2(grid_x + left_w, origin.y), ImVec2(bar, body_h), true))
    s.layout.split_x = std::clamp((left_w + dx) / (grid_w - bar), 0.15f, 0.85f);
  if (const float dy = splitter("##split_y", ImVec2(grid_x, origin.y + top_h), ImVec2(grid_w, bar), false))
    s.layout.split_y = std::clamp((top_h + dy) / (body_h - bar), 0.15f, 0.85f);
}

void draw_app(AppState& s) {
  begin_root(true);
  if (ImGui::BeginMenuBar()) {
    draw_file_menu(s);
    draw_teach_menus(s);
    ImGui::EndMenuBar();
  }
  draw_body(s, {});
  ImGui::End();
  draw_file_dialogs(s);
  toast(s);
}

void draw_figure(AppState& s, FigureView v, const std::string& caption) {
  begin_root(false);
  if (v.kind == FigureView::window) {
    draw_body(s, caption);
    ImGui::End();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float caption_h = caption.empty() ? 0.0f : ImGui::GetFrameHeightWithSpacing();
  pane("##figure", origin, ImVec2(avail.x, std::max(avail.y - caption_h, 100.0f)), single_view_drawer(v), s, kViewFlags);
  if (!caption.empty()) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + avail.y - caption_h + ImGui::GetStyle().ItemSpacing.y));
    status_line(s, caption);
  }
  ImGui::End();
}

}  // namespace peviz::app
