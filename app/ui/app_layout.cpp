// Menu bar, sidebar (or presentation strip), splitters, the grid of views or a page, the lesson panel and
// the status line, in one full-window ImGui window.
#include "app/model/page_model.hpp"
#include "app/ui/app_layout.hpp"

#include <algorithm>
#include <string>

#include <imgui.h>
#include <imgui_internal.h>  // RenderTextEllipsis

#include "app/model/lessons.hpp"
#include "app/model/presentation.hpp"
#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/ui/theme.hpp"
#include "app/ui/views/views.hpp"
#include "app/ui/views/figure_menu.hpp"
#include "app/ui/views/record_dialog.hpp"
#include "app/ui/views/teach_views.hpp"
#include "core/base/limits.hpp"

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

// A pane whose view keeps at least `min_height`: when the pane is shorter, its content scrolls.
void scrolling_pane(const char* id, ImVec2 pos, ImVec2 size, float min_height, void (*draw)(AppState&), AppState& s) {
  ImGui::SetCursorScreenPos(pos);
  ImGui::BeginChild(id, size, true, 0);
  const float inner = ImGui::GetContentRegionAvail().y;
  ImGui::BeginChild("##content", ImVec2(0, std::max(inner, min_height)), false, kViewFlags);
  draw(s);
  ImGui::EndChild();
  ImGui::EndChild();
}

// A row of tab buttons at the cursor, wrapping onto more rows when the width runs out; the chosen one is
// highlighted. Returns the index clicked, or -1.
int tab_buttons(const char* const* titles, int count, int chosen, float width) {
  const float left = ImGui::GetCursorScreenPos().x, right = left + width;
  int clicked = -1;
  for (int i = 0; i < count; ++i) {
    const float w = ImGui::CalcTextSize(titles[i]).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (i > 0) {
      const float next_row = ImGui::GetCursorScreenPos().y;  // below the last button
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::SetCursorScreenPos(ImVec2(left, next_row));
    }
    if (i == chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetColorU32(ImGuiCol_ButtonActive));
    if (ImGui::Button(titles[i])) clicked = i;
    if (i == chosen) ImGui::PopStyleColor();
  }
  return clicked;
}

// One button per page above the views (wrapping into rows); returns the height they took.
float page_tabs(AppState& s, ImVec2 origin, float width) {
  if (presenting_lesson(s)) return 0.0f;  // the lesson's steps pick the page
  ImGui::SetCursorScreenPos(origin);
  const char* titles[kPageCount];
  for (int i = 0; i < kPageCount; ++i) titles[i] = page_title(Page(i));
  if (const int i = tab_buttons(titles, kPageCount, int(s.pages.page), width); i >= 0) s.pages.page = Page(i);
  return ImGui::GetCursorScreenPos().y - origin.y;
}

// The Basics views one at a time: tabs, then the chosen view filling the rest (scrolling if too short). A
// presented lesson step picks the view: no tabs, and the view fits the slide (its plots keep their minimum).
void draw_basics_tabs(AppState& s, ImVec2 origin, ImVec2 size) {
  static void (*const kDraw[])(AppState&) = {draw_waves_view, draw_encoding_view, draw_similarity_view, draw_binary_view};
  const bool slide = presenting_lesson(s);
  const char* titles[std::size(kBasicsPanels)];
  for (std::size_t i = 0; i < std::size(kBasicsPanels); ++i) titles[i] = kBasicsPanels[i].title;
  ImGui::SetCursorScreenPos(origin);
  const int shown = int(s.layout.panel);
  if (!slide)
    if (const int i = tab_buttons(titles, int(std::size(titles)), shown, size.x); i >= 0) s.layout.panel = BasicsPanel(i);
  const float tabs_h = ImGui::GetCursorScreenPos().y - origin.y;
  scrolling_pane("##basics_panel", ImVec2(origin.x, origin.y + tabs_h), ImVec2(size.x, std::max(size.y - tabs_h, 50.0f)),
                 slide ? 0.0f : kBasicsCellHeightEm * ImGui::GetFontSize(), kDraw[shown], s);
}

// `text` on one line at most `width` wide: cut with "..." when longer, the whole text in its hover then.
void fitted_text(const char* text, float width) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  if (size.x <= width) return ImGui::TextUnformatted(text);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const ImVec2 end(pos.x + width, pos.y + size.y);
  ImGui::RenderTextEllipsis(ImGui::GetWindowDrawList(), pos, end, end.x, end.x, text, nullptr, &size);
  ImGui::Dummy(ImVec2(width, size.y));
  hint(text);
}

// The notice goes at the right of the status line when it leaves the status 12 em; a longer one (a refused link's
// reasons) takes lines of its own above it, wrapped, so none of it is cut.
bool notice_beside_status(const TeachState& t, float width) {
  return t.notice.empty() || ImGui::CalcTextSize(t.notice.c_str()).x + 12.0f * ImGui::GetFontSize() <= width;
}

bool toast_shown(const AppState& s) { return !s.toast.text.empty() && ImGui::GetTime() <= s.toast.until; }

// Presenting keeps the slide clear: no status line unless a figure's caption, an error or a toast needs it (the
// toast then takes the line instead of covering the slide).
bool status_line_hidden(const AppState& s, const std::string& caption) {
  const TeachState& t = s.teach;
  return t.presenting && caption.empty() && !s.status_is_error && !t.notice_is_error && !toast_shown(s);
}

// The height of the status line and a notice above it, in a window `width` wide.
float status_height(const AppState& s, float width) {
  const float line = ImGui::GetFrameHeightWithSpacing();
  if (s.figure_drawing.offscreen || notice_beside_status(s.teach, width)) return line;
  return line + ImGui::CalcTextSize(s.teach.notice.c_str(), nullptr, false, width).y;
}

// The status line's text in its error red while alive, when `error` (else as it is).
struct ErrorColour {
  explicit ErrorColour(bool error) : on(error) {
    if (on) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(235, 80, 70, 255));
  }
  ~ErrorColour() {
    if (on) ImGui::PopStyleColor();
  }
  ErrorColour(const ErrorColour&) = delete;
  ErrorColour& operator=(const ErrorColour&) = delete;
  bool on;
};

void notice_text(const TeachState& t) {
  const ErrorColour colour(t.notice_is_error);
  ImGui::TextUnformatted(t.notice.c_str());
}

// The status line, or the figure's caption in its place (a figure without a caption leaves the line blank).
void status_line(const AppState& s, const std::string& caption) {
  if (!caption.empty()) {  // through the canvas: part of vector figures too
    plot::canvas_text(ImGui::GetCursorScreenPos(), ImGui::GetColorU32(ImGuiCol_Text), caption.c_str());
    ImGui::Dummy(ImGui::CalcTextSize(caption.c_str()));
    return;
  }
  if (s.figure_drawing.offscreen) return;  // a figure of the window without a caption: no status line either
  const TeachState& t = s.teach;
  if (t.presenting && toast_shown(s)) {  // the toast, on the line
    const ErrorColour colour(s.toast.is_error);
    fitted_text(s.toast.text.c_str(), ImGui::GetContentRegionAvail().x);
    return;
  }
  float room = ImGui::GetContentRegionAvail().x;
  const bool beside = notice_beside_status(t, room);
  if (!beside) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + room);
    notice_text(t);
    ImGui::PopTextWrapPos();
  }
  // A notice beside keeps its room at the right; the status gives way (cut with "...", whole in its hover).
  const ImGuiStyle& style = ImGui::GetStyle();
  if (beside && !t.notice.empty())
    room -= ImGui::CalcTextSize(t.notice.c_str()).x + ImGui::CalcTextSize("|").x + 2.0f * style.ItemSpacing.x;
  room = std::max(room, 4.0f * ImGui::GetFontSize());
  {
    const ErrorColour colour(s.status_is_error);
    // The summary describes the sidebar's encoding; a page that does not use it shows the page's name instead.
    const bool summary = s.status_is_error || uses_sidebar_encoding(s.pages.page);
    fitted_text(summary ? s.status.c_str() : page_title(s.pages.page), room);
  }
  if (!beside || t.notice.empty()) return;
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  notice_text(t);
}

// Where the lesson panel goes: below the views, as tall as its text (and demo) need up to `max_share` of the
// height; or, when that would leave the views less than a Basics cell on a wide window (a 16:9 projector), a
// column on the right, full height.
struct LessonBox {
  float width = 0, height = 0;  // 0 x 0: no lesson
  bool beside = false;
};
// The height the lesson panel's step line, buttons, heading and text take in a panel `width` wide.
float lesson_panel_height(const AppState& s, const LessonStep& step, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = width - 2 * style.WindowPadding.x - style.ScrollbarSize;  // the wrap width loses a scrollbar's width
  const std::string step_line = lesson_step_line(s.teach.lesson, s.teach.step);
  push_heading_font();
  const float heading = ImGui::CalcTextSize(step.title.c_str(), nullptr, false, wrap).y;
  pop_heading_font();
  return ImGui::CalcTextSize(step_line.c_str(), nullptr, false, wrap).y + ImGui::GetFrameHeightWithSpacing() + heading +
         wrapped_height(step.text, wrap) + 3 * style.ItemSpacing.y +
         2 * style.WindowPadding.y + ImGui::GetTextLineHeightWithSpacing();
}

LessonBox lesson_box(const AppState& s, ImVec2 avail, float full_h) {
  const TeachState& t = s.teach;
  if (!t.lesson_active || t.lesson.steps.empty()) return {};
  const LessonStep& step = t.lesson.steps[std::size_t(t.step)];
  const bool demo = step.demo == "word-order";
  const ImGuiStyle& style = ImGui::GetStyle();
  const float fs = ImGui::GetFontSize();
  const float text_w = (demo ? 0.42f : 1.0f) * avail.x - 2 * style.WindowPadding.x;
  const float text_h = ImGui::CalcTextSize(step.text.c_str(), nullptr, false, text_w).y;
  // The nav row, the heading, spacing, padding, and a line of slack (the wrap width loses a scrollbar's width).
  const float fixed = ImGui::GetFrameHeightWithSpacing() + kHeadingScale * fs + style.ItemSpacing.y + 2 * style.WindowPadding.y +
                      ImGui::GetTextLineHeightWithSpacing();
  const float needed = std::max(fixed + text_h, demo ? 17.0f * ImGui::GetTextLineHeightWithSpacing() : 0.0f);
  const float below = std::min(needed, full_h * 0.55f);
  if (full_h - below >= kBasicsCellHeightEm * fs || avail.x < 48.0f * fs) return {avail.x, below, false};
  // A presented demo is the slide's figure: the panel takes the body, the demo beside the text.
  if (demo) return {presenting_lesson(s) ? avail.x : std::max(kLessonDemoPanelShare * avail.x, kLessonDemoPanelMinEm * fs),
                    full_h, true};
  // Beside: the narrowest width from the panel's share up to its widest in which the whole step shows unscrolled.
  float width = std::max(kLessonPanelShare * avail.x, kLessonPanelMinEm * fs);
  const float widest = std::max(kLessonPanelMaxShare * avail.x, width);
  while (width < widest && lesson_panel_height(s, step, width) > full_h) width = std::min(width + fs, widest);
  return {width, full_h, true};
}

// The toast: a small framed message in the bottom-right corner until it expires.
void toast(const AppState& s) {
  if (!toast_shown(s) || s.teach.presenting) return;  // presenting: on the status line (status_line)
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

// The sidebar (or presenting's strip) and the shown page, filling `size` at `origin` in a body `body_w` wide; `bar`
// is the splitters' width.
void draw_sidebar_and_page(AppState& s, ImVec2 origin, ImVec2 size, float body_w, float bar) {
  const float scale = ImGui::GetFontSize() / 16.0f;
  float sidebar = 0.0f;
  if (s.teach.presenting) {  // a thin strip for the encoding sliders on the pages they change; none on the others
    // (nor in a figure or animation of the slide: sliders do not move in a picture; the header names their values)
    if (uses_sidebar_encoding(s.pages.page) && shows_part(s, kStripPart) && !s.figure_drawing.offscreen) {
      sidebar = std::min(ImGui::GetFontSize() * 9.0f, body_w * 0.3f);
      pane("##present_strip", origin, ImVec2(sidebar, size.y), draw_presentation_strip, s, 0);
    }
  } else {
    const float lo = float(limits::sidebar_width.min), hi = float(limits::sidebar_width.max);
    sidebar = std::min(std::clamp(s.layout.sidebar_width, lo, hi) * scale, std::max(lo * scale, body_w * 0.6f));
    pane("##controls", origin, ImVec2(sidebar, size.y), draw_controls_panel, s, 0);
    if (const float dx = splitter("##split_sidebar", ImVec2(origin.x + sidebar, origin.y), ImVec2(bar, size.y), true))
      s.layout.sidebar_width = std::clamp((sidebar + dx) / scale, lo, hi);
  }
  s.regions.controls = {origin.x, origin.y, origin.x + sidebar, origin.y + size.y};
  const ImVec2 body(origin.x + sidebar + bar, origin.y), body_size(std::max(size.x - sidebar - bar, 100.0f), size.y);
  if (s.pages.page == Page::basics) draw_basics_grid(s, body, body_size);
  else pane("##page", body, body_size, draw_shown_page, s, 0);  // scrolls when its plots need more height
}

// The window's body: presentation header, page tabs, sidebar (or strip), views, lesson panel, status
// line (or caption). Inside the root window.
void draw_body(AppState& s, const std::string& caption) {
  const bool presenting = s.teach.presenting;
  if (presenting && !ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))
    set_presenting(s, false);
  if (presenting && !ImGui::GetIO().WantTextInput && !ImGui::GetIO().KeyCtrl &&
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_C), false))
    s.teach.present_controls = !s.teach.present_controls;
  if (presenting) draw_presentation_header(s);
  const float scale = ImGui::GetFontSize() / 16.0f;
  const float bar = std::max(4.0f, 5.0f * scale);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool status_hidden = status_line_hidden(s, caption);
  const float status_h = status_hidden ? 0.0f : status_height(s, avail.x);
  const float tabs_h = page_tabs(s, origin, avail.x);
  origin.y += tabs_h;
  const float full_h = std::max(avail.y - status_h - tabs_h, 100.0f);
  const LessonBox lesson = lesson_box(s, avail, full_h);
  const float body_h = lesson.beside ? full_h : std::max(full_h - lesson.height, 100.0f);
  const float body_w_total = lesson.beside ? avail.x - lesson.width : avail.x;
  const bool page_shown = body_w_total > 0.0f;  // a presented demo step's panel takes the whole body
  const ImVec2 status_pos(origin.x, origin.y + full_h + ImGui::GetStyle().ItemSpacing.y);
  if (lesson.beside)
    pane("##lesson", ImVec2(origin.x + body_w_total + (page_shown ? bar : 0.0f), origin.y),
         ImVec2(lesson.width - (page_shown ? bar : 0.0f), full_h), draw_lesson_panel, s, 0);
  else if (lesson.height > 0.0f)
    pane("##lesson", ImVec2(origin.x, origin.y + body_h + bar), ImVec2(avail.x, lesson.height - bar), draw_lesson_panel, s,
         0);

  if (page_shown) draw_sidebar_and_page(s, origin, ImVec2(body_w_total, body_h), avail.x, bar);
  else s.regions.controls = {origin.x, origin.y, origin.x, origin.y + body_h};  // no sidebar
  if (status_hidden) return;
  ImGui::SetCursorScreenPos(status_pos);
  status_line(s, caption);
}

void (*single_view_drawer(FigureView v))(AppState&) {
  switch (v.kind) {
    case FigureView::waves: return draw_waves_view;
    case FigureView::encoding: return draw_encoding_view;
    case FigureView::similarity: return draw_similarity_view;
    case FigureView::binary: return draw_binary_view;
    default: return draw_shown_page;  // the page was set by the caller
  }
}

}  // namespace

// The Basics page in the rectangle at `origin` of `size`: the 2 x 2 grid of waves, encoding, similarity and
// binary views with splitters when each cell can hold its view at a readable size (kBasicsCell*Em); else one
// view at a time under tabs (the lesson step's, or the one picked), scrolling when even that is too short.
void draw_basics_grid(AppState& s, ImVec2 origin, ImVec2 size) {
  const float fs = ImGui::GetFontSize();
  const float bar = std::max(4.0f, 5.0f * fs / 16.0f);
  const float grid_x = origin.x, grid_w = size.x, body_h = size.y;
  const float lo = float(limits::pane_split.min), hi = float(limits::pane_split.max);
  const float left_w = std::clamp(s.layout.split_x, lo, hi) * (grid_w - bar);
  const float right_w = grid_w - bar - left_w;
  const float top_h = std::clamp(s.layout.split_y, lo, hi) * (body_h - bar);
  const float bottom_h = body_h - bar - top_h;
  const float min_w = kBasicsCellWidthEm * fs, min_h = kBasicsCellHeightEm * fs;
  if (std::min(left_w, right_w) < min_w || std::min(top_h, bottom_h) < min_h) {
    draw_basics_tabs(s, origin, size);
    return;
  }
  const float right_x = grid_x + left_w + bar, bottom_y = origin.y + top_h + bar;
  pane("##waves", ImVec2(grid_x, origin.y), ImVec2(left_w, top_h), draw_waves_view, s, kViewFlags);
  pane("##encoding", ImVec2(right_x, origin.y), ImVec2(right_w, top_h), draw_encoding_view, s, kViewFlags);
  pane("##similarity", ImVec2(grid_x, bottom_y), ImVec2(left_w, bottom_h), draw_similarity_view, s, kViewFlags);
  pane("##binary", ImVec2(right_x, bottom_y), ImVec2(right_w, bottom_h), draw_binary_view, s, kViewFlags);
  if (const float dx = splitter("##split_x", ImVec2(grid_x + left_w, origin.y), ImVec2(bar, body_h), true))
    s.layout.split_x = std::clamp((left_w + dx) / (grid_w - bar), lo, hi);
  if (const float dy = splitter("##split_y", ImVec2(grid_x, origin.y + top_h), ImVec2(grid_w, bar), false))
    s.layout.split_y = std::clamp((top_h + dy) / (body_h - bar), lo, hi);
}

void draw_app(AppState& s) {
  plot::clear_drawn_plots();
  const bool menu_bar = !s.teach.presenting;  // presenting: the slide alone (its keys still work; Esc leaves)
  begin_root(menu_bar);
  if (menu_bar && ImGui::BeginMenuBar()) {
    draw_file_menu(s);
    draw_teach_menus(s);
    ImGui::EndMenuBar();
  }
  draw_body(s, {});
  ImGui::End();
  draw_file_dialogs(s);
  draw_record_dialog(s);
  toast(s);
}

void draw_figure(AppState& s, FigureView v, const std::string& caption, bool highlight) {
  plot::clear_drawn_plots();
  begin_root(false);
  if (v.kind == FigureView::window) {
    s.figure_drawing = {false, highlight, true};
    draw_body(s, caption);
    ImGui::End();
    s.figure_drawing = {};
    return;
  }
  s.figure_drawing = {true, highlight, true};
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float caption_h = caption.empty() ? 0.0f : ImGui::GetFrameHeightWithSpacing();
  pane("##figure", origin, ImVec2(avail.x, std::max(avail.y - caption_h, 100.0f)), single_view_drawer(v), s, kViewFlags);
  if (!caption.empty()) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + avail.y - caption_h + ImGui::GetStyle().ItemSpacing.y));
    status_line(s, caption);
  }
  ImGui::End();
  s.figure_drawing = {};
}

}  // namespace peviz::app
