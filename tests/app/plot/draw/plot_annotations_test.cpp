// Tests for app/plot/draw/plot_annotations (where legends and notes go), on every real figure: each single-view
// figure and the window at every lesson step, recorded as a display list, with no legend box and no text note inside
// a plot's area over the lines and markers drawn there, none of them cut off (a legend inside its plot's frame, a
// note inside its area); and no input widget in a single-view figure.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "app/model/figure.hpp"
#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/model/presets.hpp"
#include "app/plot/draw/canvas.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  bool contains(plot::Point p) const { return p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1; }
  bool overlaps(const Rect& r) const { return x0 < r.x1 && r.x0 < x1 && y0 < r.y1 && r.y0 < y1; }
  Rect inset(float d) const { return {x0 + d, y0 + d, x1 - d, y1 - d}; }
};
Rect rect(plot::ScreenBox b) { return {b.min.x, b.min.y, b.max.x, b.max.y}; }

// What one plot's area holds in the display list: samples of the lines, markers and shapes drawn inside it
// (every 2 pixels, where its clip shows them), and the boxes of its text notes with their text.
struct AreaContent {
  std::vector<plot::Point> points;
  std::vector<Rect> notes;
  std::vector<std::string> note_texts;
};

void sample_segment(plot::Point a, plot::Point b, const Rect& clip, std::vector<plot::Point>& out) {
  const int steps = std::max(1, int(std::hypot(b.x - a.x, b.y - a.y) / 2.0f));
  for (int k = 0; k <= steps; ++k) {
    const float t = float(k) / float(steps);
    const plot::Point p{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
    if (clip.inset(-0.5f).contains(p)) out.push_back(p);
  }
}

void sample_outline(const std::vector<plot::Point>& pts, bool closed, const Rect& clip, std::vector<plot::Point>& out) {
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) sample_segment(pts[i], pts[i + 1], clip, out);
  if (closed && pts.size() > 2) sample_segment(pts.back(), pts.front(), clip, out);
}

// The line box of a text item in the current font (the anchor as the display list names it).
Rect text_box(const plot::Text& t) {
  const float w = ImGui::GetFont()->CalcTextSizeA(t.size, FLT_MAX, 0.0f, t.text.c_str()).x;
  float x = t.position.x, y = t.position.y;
  if (t.h == plot::HAlign::center) x -= 0.5f * w;
  if (t.h == plot::HAlign::right) x -= w;
  if (t.v == plot::VAlign::middle) y -= 0.5f * t.size;
  if (t.v == plot::VAlign::bottom) y -= t.size;
  return {x, y, x + w, y + t.size};
}

// Everything recorded under a clip rectangle inside `area` (the plot's own clip, or a narrower one).
AreaContent area_content(const plot::DisplayList& list, const Rect& area) {
  AreaContent out;
  Rect clip;
  bool inside = false;
  for (const plot::DrawItem& item : list.items) {
    if (const auto* c = std::get_if<plot::PushClip>(&item)) {
      clip = {c->min.x, c->min.y, c->max.x, c->max.y};
      inside = !clip.empty() && clip.x0 >= area.x0 - 0.5f && clip.y0 >= area.y0 - 0.5f && clip.x1 <= area.x1 + 0.5f &&
               clip.y1 <= area.y1 + 0.5f;
      continue;
    }
    if (std::holds_alternative<plot::PopClip>(item)) inside = false;
    if (!inside) continue;
    if (const auto* l = std::get_if<plot::Polyline>(&item)) sample_outline(l->points, l->closed, clip, out.points);
    if (const auto* p = std::get_if<plot::FilledPolygon>(&item)) sample_outline(p->points, true, clip, out.points);
    if (const auto* r = std::get_if<plot::FilledRect>(&item))
      sample_outline({r->min, {r->max.x, r->min.y}, r->max, {r->min.x, r->max.y}}, true, clip, out.points);
    if (const auto* m = std::get_if<plot::Circle>(&item))
      if (clip.contains(m->center)) out.points.push_back(m->center);
    if (const auto* t = std::get_if<plot::Text>(&item)) {
      out.notes.push_back(text_box(*t));
      out.note_texts.push_back(t->text);
    }
  }
  return out;
}

bool inside(const Rect& r, const Rect& outer) { return r.x0 >= outer.x0 && r.y0 >= outer.y0 && r.x1 <= outer.x1 && r.y1 <= outer.y1; }

int points_inside(const std::vector<plot::Point>& points, const Rect& box) {
  int n = 0;
  for (const plot::Point& p : points) n += box.contains(p) ? 1 : 0;
  return n;
}

// Every plot of the recorded frame: its legend lies inside the plot's frame and covers no data and no note; each note
// lies inside the area (whose clip would cut it) and covers no data and no other note.
void check_clearance(const plot::DisplayList& list, const std::string& where) {
  INFO(where);
  for (const plot::DrawnPlot& p : plot::drawn_plots()) {
    const Rect area = rect(p.area);
    if (p.colorbar || area.empty()) continue;
    INFO("plot " << p.id << ", area " << area.x0 << ", " << area.y0 << " .. " << area.x1 << ", " << area.y1);
    const AreaContent c = area_content(list, area);
    const Rect legend = rect(p.legend), frame = rect(p.frame).inset(-1.0f);
    if (!legend.empty()) {
      INFO("legend " << legend.x0 << ", " << legend.y0 << " .. " << legend.x1 << ", " << legend.y1);
      CHECK(inside(legend, frame));  // all of it on screen with its plot, none over a neighbour
      CHECK(points_inside(c.points, legend.inset(1.0f)) == 0);
      for (std::size_t i = 0; i < c.notes.size(); ++i) {
        INFO("note " << c.note_texts[i]);
        CHECK_FALSE(c.notes[i].inset(1.0f).overlaps(legend));
      }
    }
    for (std::size_t i = 0; i < c.notes.size(); ++i) {
      INFO("note " << c.note_texts[i]);
      CHECK(inside(c.notes[i], area.inset(-1.0f)));  // the area clips its notes: none cut off
      CHECK(points_inside(c.points, c.notes[i].inset(1.0f)) == 0);
      for (std::size_t j = i + 1; j < c.notes.size(); ++j) CHECK_FALSE(c.notes[i].inset(1.0f).overlaps(c.notes[j]));
    }
  }
}

// Three frames of a single-view figure at the display size, as render draws it (the mouse away); the last recorded.
plot::DisplayList figure_frames(AppState& s, FigureView v) {
  s.pages.page = v.kind == FigureView::one_page ? v.page : Page::basics;
  ImGuiIO& io = ImGui::GetIO();
  plot::DisplayList list{io.DisplaySize.x, io.DisplaySize.y, 0, {}};
  for (int f = 0; f < 3; ++f) {
    update_app_state(s);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    if (f == 2) plot::record_into(&list);
    draw_figure(s, v, figure_caption(s, v));
    if (f == 2) plot::record_into(nullptr);
    ImGui::Render();
  }
  return list;
}

// Three frames of the whole window, the last recorded.
plot::DisplayList window_frames(HeadlessImGui& ui, AppState& s) {
  plot::DisplayList list{ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y, 0, {}};
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ui.frame(s);
  ui.frame(s);
  plot::record_into(&list);
  ui.frame(s);
  plot::record_into(nullptr);
  return list;
}

// Every text item of the list that its clip cuts across: one whose line box reaches past a side of the clip it is drawn
// in while lying partly inside it ("masked" drawn as "maske"). A text wholly outside (scrolled away) is not cut.
std::vector<std::string> cut_texts(const plot::DisplayList& list) {
  std::vector<Rect> clips{{0, 0, list.width, list.height}};
  std::vector<std::string> cut;
  for (const plot::DrawItem& item : list.items) {
    if (const auto* c = std::get_if<plot::PushClip>(&item)) {
      const Rect& top = clips.back();
      clips.push_back({std::max(top.x0, c->min.x), std::max(top.y0, c->min.y), std::min(top.x1, c->max.x),
                       std::min(top.y1, c->max.y)});
    } else if (std::holds_alternative<plot::PopClip>(item) && clips.size() > 1) {
      clips.pop_back();
    } else if (const auto* t = std::get_if<plot::Text>(&item)) {
      const Rect box = text_box(*t), clip = clips.back().inset(-1.0f);
      if (box.overlaps(clips.back()) && (box.x0 < clip.x0 || box.x1 > clip.x1))
        cut.push_back("\"" + t->text + "\" at x " + std::to_string(int(box.x0)) + ".." + std::to_string(int(box.x1)) +
                      ", clip " + std::to_string(int(clip.x0)) + ".." + std::to_string(int(clip.x1)));
    }
  }
  return cut;
}

// The style colours that only input widgets draw with (FrameBg also fills each plot's area), each set to a colour
// nothing else uses, so that a vertex of that colour in ImGui's draw lists is a widget drawn.
struct WidgetColor {
  ImGuiCol id;
  const char* name;
};
constexpr WidgetColor kWidgetColors[] = {{ImGuiCol_Button, "Button"},       {ImGuiCol_SliderGrab, "SliderGrab"},
                                         {ImGuiCol_CheckMark, "CheckMark"}, {ImGuiCol_FrameBg, "FrameBg"},
                                         {ImGuiCol_Header, "Header"},       {ImGuiCol_Tab, "Tab"},
                                         {ImGuiCol_ScrollbarGrab, "ScrollbarGrab"}};

ImU32 unique_widget_color(int k) { return IM_COL32(7 + k, 201 - k, 13 + 3 * k, 255); }

void use_unique_widget_colors() {
  ImGuiStyle& style = ImGui::GetStyle();
  style.Alpha = 1.0f;
  for (int k = 0; k < int(std::size(kWidgetColors)); ++k)
    style.Colors[kWidgetColors[k].id] = ImGui::ColorConvertU32ToFloat4(unique_widget_color(k));
}

// A vertex on the outline of a plot's area: the FrameBg fill behind its data, not a widget.
bool on_plot_area(const ImVec2& p) {
  for (const plot::DrawnPlot& d : plot::drawn_plots()) {
    const Rect a = rect(d.area).inset(-0.5f);
    if (p.x >= a.x0 && p.x <= a.x1 && p.y >= a.y0 && p.y <= a.y1 &&
        (std::abs(p.x - d.area.min.x) < 0.5f || std::abs(p.x - d.area.max.x) < 0.5f) &&
        (std::abs(p.y - d.area.min.y) < 0.5f || std::abs(p.y - d.area.max.y) < 0.5f))
      return true;
  }
  return false;
}

// The widget colours found in the last frame's draw lists, by name.
std::vector<std::string> widget_colors_drawn() {
  std::vector<std::string> found;
  const ImDrawData* data = ImGui::GetDrawData();
  for (int k = 0; k < int(std::size(kWidgetColors)); ++k) {
    const ImU32 c = unique_widget_color(k);
    bool seen = false;
    for (int l = 0; l < data->CmdListsCount && !seen; ++l)
      for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer)
        if (v.col == c && !(kWidgetColors[k].id == ImGuiCol_FrameBg && on_plot_area(v.pos))) {
          seen = true;
          break;
        }
    if (seen) found.push_back(kWidgetColors[k].name);
  }
  return found;
}

}  // namespace

TEST_CASE("No single-view figure draws an input widget (no vertex in a widget-only style colour)") {
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(800, 500)}) {
    HeadlessImGui ui(size);
    use_unique_widget_colors();
    AppState s;
    for (const FigureView& v : single_figure_views()) {
      figure_frames(s, v);
      INFO(figure_view_name(v) << " at " << int(size.x) << "x" << int(size.y));
      for (const std::string& name : widget_colors_drawn()) {
        INFO("a vertex in the widget colour " << name);
        CHECK(false);
      }
    }
    ui.frame(s);  // the window, whose sliders and buttons the search must find
    CHECK(widget_colors_drawn().size() >= 4);
  }
}

TEST_CASE("No legend or note of any single-view figure lies over its drawn data (1280 x 720 and 800 x 500)") {
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(800, 500)}) {
    HeadlessImGui ui(size);
    AppState s;
    int legends = 0;
    for (const FigureView& v : single_figure_views()) {
      const plot::DisplayList list = figure_frames(s, v);
      check_clearance(list, figure_view_name(v) + " at " + std::to_string(int(size.x)) + "x" + std::to_string(int(size.y)));
      for (const plot::DrawnPlot& p : plot::drawn_plots()) legends += rect(p.legend).empty() ? 0 : 1;
    }
    CHECK(legends >= 8);  // the figures with legends were looked at (waves, similarity, context extension, ...)
  }
}

TEST_CASE("No legend or note lies over drawn data in the window on any page and at any lesson step (1280 x 720)") {
  for (const bool presenting : {false, true}) {
    HeadlessImGui ui(ImVec2(1280, 720));
    AppState s;
    if (presenting) set_presenting(s, true);
    ui.use_zoom(s.ui_zoom, presenting ? Theme::light : Theme::dark);
    const std::string mode = presenting ? " presenting" : " window";
    for (int page = 0; page < kPageCount; ++page) {
      s.pages.page = Page(page);
      check_clearance(window_frames(ui, s), std::string(page_name(Page(page))) + mode);
    }
    s.pages.page = Page::basics;
    start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
    for (int step = 0; step < int(s.teach.lesson.steps.size()); ++step) {
      go_to_step(s, step);
      check_clearance(window_frames(ui, s), "lesson step " + std::to_string(step + 1) + mode);
    }
  }
}

namespace {

// Every page, then every step of both shipped lessons, in the window and presenting at 1280 x 720: `check` gets
// where it is and the last of three frames, recorded.
template <class Check>
void for_each_page_and_step(HeadlessImGui& ui, Check check) {
  for (const bool presenting : {false, true}) {
    AppState w;
    if (presenting) set_presenting(w, true);
    ui.use_zoom(w.ui_zoom, presenting ? Theme::light : Theme::dark);
    const std::string mode = presenting ? " presenting" : " window";
    for (int page = 0; page < kPageCount; ++page) {
      w.pages.page = Page(page);
      check(std::string(page_name(Page(page))) + mode, window_frames(ui, w));
    }
    w.pages.page = Page::basics;
    for (const char* lesson : {"positional-encodings.json", "longer-than-training.json"}) {
      start_lesson(w, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/" + lesson));
      for (int step = 0; step < int(w.teach.lesson.steps.size()); ++step) {
        go_to_step(w, step);
        check(std::string(lesson) + " step " + std::to_string(step + 1) + mode, window_frames(ui, w));
      }
    }
  }
  ui.use_zoom(1.0f, Theme::dark);
}

// Every plot drawn this frame with two or more series colours names each colour in its legend.
void check_series_named(const std::string& where, int& multi) {
  for (const plot::DrawnPlot& p : plot::drawn_plots()) {
    if (p.colorbar || p.series_colors < 2) continue;
    ++multi;
    INFO(where << ", plot " << p.id << ": " << p.series_colors << " colours");
    for (const std::string& name : p.unnamed_series) FAIL_CHECK("a series no legend entry names: " << name);
  }
}

}  // namespace

TEST_CASE("No text of any single-view figure, page or lesson step is cut by its clip (1280 x 720)") {
  HeadlessImGui ui(ImVec2(1280, 720));
  AppState s;
  int texts = 0;
  for (const FigureView& v : single_figure_views()) {
    const plot::DisplayList list = figure_frames(s, v);
    INFO(figure_view_name(v));
    for (const std::string& t : cut_texts(list)) FAIL_CHECK(t);
    texts += int(std::count_if(list.items.begin(), list.items.end(), [](const plot::DrawItem& i) {
      return std::holds_alternative<plot::Text>(i);
    }));
  }
  CHECK(texts > 900);  // the figures' texts were read
  for_each_page_and_step(ui, [](const std::string& where, const plot::DisplayList& list) {
    INFO(where);
    for (const std::string& t : cut_texts(list)) FAIL_CHECK(t);
  });
}

TEST_CASE("Every plot of two or more series names each in its legend: figures, pages, lesson steps and presets") {
  HeadlessImGui ui(ImVec2(1280, 720));
  int multi = 0;
  AppState s;
  for (const FigureView& v : single_figure_views()) {
    figure_frames(s, v);
    check_series_named(figure_view_name(v), multi);
  }
  for_each_page_and_step(ui, [&](const std::string& where, const plot::DisplayList&) { check_series_named(where, multi); });
  for (const PresetEntry& p : list_presets()) {
    if (!p.error.empty()) continue;
    AppState w;
    REQUIRE(apply_preset(p, w));
    window_frames(ui, w);
    check_series_named("preset " + p.name, multi);
  }
  CHECK(multi >= 40);  // the multi-series plots were reached
}
