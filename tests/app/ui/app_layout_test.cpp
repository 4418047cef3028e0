// The window's layout (draw_app) at projector sizes: on every page and at every lesson step, no plot or colour bar
// is under the readable minimum and no item runs past its pane's right edge, in the window and in presentation mode,
// at 1280 x 720 and 1920 x 1080. And the Basics page's views and the sidebar's controls drawn headless for several
// parameter sets, with hover, wheel, drag, double-click and clicks over each view: no ImGui assertion may fire (the
// library's asserts abort the test) and errors must land in the status line.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/model/figure_io.hpp"
#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presentation.hpp"
#include "app/plot/draw/drawn_plots.hpp"
#include "app/ui/views/views.hpp"
#include "core/encodings/params.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/build_paths.hpp"

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

// How a presented lesson step's plots sit on the slide: whether its first plot lies wholly inside the body (above
// the status line, inside the window), and the share of all its plots' area that does.
struct SlideFit {
  bool first_whole = false;
  double visible_share = 0.0;
};

SlideFit slide_fit(const AppState& s, ImVec2 display) {
  const float bottom = s.regions.controls.y1, right = display.x;
  SlideFit fit;
  double all = 0.0, seen = 0.0;
  for (const plot::DrawnPlot& p : plot::drawn_plots()) {
    const ImVec2 a = p.frame.min, b = p.frame.max;
    if (&p == &plot::drawn_plots().front()) fit.first_whole = a.x >= 0 && a.y >= 0 && b.x <= right + 1 && b.y <= bottom + 1;
    all += double(b.x - a.x) * double(b.y - a.y);
    seen += double(std::max(0.0f, std::min(b.x, right) - std::max(a.x, 0.0f))) *
            double(std::max(0.0f, std::min(b.y, bottom) - std::max(a.y, 0.0f)));
  }
  fit.visible_share = all > 0.0 ? seen / all : 0.0;
  return fit;
}

// Whether the window whose name ends in `id` (with ImGui's "_<hash>" suffix) scrolls vertically; false when absent.
bool window_scrolls(const std::string& id) {
  for (const ImGuiWindow* w : GImGui->Windows) {
    const std::string name = w->Name;
    const std::size_t at = name.rfind(id + "_");
    if (w->Active && at != std::string::npos && name.find('/', at) == std::string::npos) return w->ScrollMax.y > 0.0f;
  }
  return false;
}

// Steps every lesson step through: each keeps its plots readable and inside their panes, and while presenting its
// text unscrolled. Returns the steps whose first plot is cut or under 80% of whose plots show (counted while
// presenting; the window may scroll). A presented demo step is the demo beside the text, no page: the demo unscrolled.
std::vector<int> lesson_short_steps(HeadlessImGui& ui, AppState& s, const std::string& lesson, const std::string& size,
                                    ImVec2 display) {
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/" + lesson + ".json"));
  std::vector<int> short_steps;
  for (int step = 0; step < int(s.teach.lesson.steps.size()); ++step) {
    go_to_step(s, step);
    for (int i = 0; i < 3; ++i) ui.frame(s);
    const std::string where = size + ", " + lesson + " step " + std::to_string(step + 1);
    check_inside_panes(where);
    INFO(where);
    if (s.teach.presenting) CHECK_FALSE(window_scrolls("##lesson"));  // a lecturer cannot scroll the slide's text
    if (s.teach.presenting && !s.teach.lesson.steps[std::size_t(step)].demo.empty()) {
      CHECK(plot::drawn_plots().empty());
      CHECK_FALSE(window_scrolls("##lesson_demo"));
      continue;
    }
    if (s.pages.page == Page::lab && s.pages.lab.show == LabShow::reproductions) {  // a table, scrolled within
      CHECK(plot::drawn_plots().empty());
      CHECK_FALSE(window_scrolls("##page"));
      continue;
    }
    check_readable(where);
    const SlideFit fit = slide_fit(s, display);
    const bool scrolls = s.teach.presenting && (window_scrolls("##page") || window_scrolls("##basics_panel"));
    if (!fit.first_whole || fit.visible_share < 0.8 || scrolls) short_steps.push_back(step + 1);
  }
  return short_steps;
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
    s.pages.page = Page(page);
    for (int i = 0; i < 3; ++i) ui.frame(s);
    check_readable(size + ", page " + std::string(page_name(Page(page))));
    check_inside_panes(size + ", page " + std::string(page_name(Page(page))));
  }
  s.pages.page = Page::basics;
  // Every step of both lessons fits the slide: the steps of stacked plots name the parts they talk about ("show"),
  // the lesson panel is as narrow as its text allows, and the word-order demo takes the body.
  const std::vector<int> first = lesson_short_steps(ui, s, "positional-encodings", size, display);
  if (presenting) CHECK(first == std::vector<int>{});
  stop_lesson(s);
  const std::vector<int> second = lesson_short_steps(ui, s, "longer-than-training", size, display);
  if (presenting) CHECK(second == std::vector<int>{});
}

}  // namespace

TEST_CASE("Every page and every lesson step keep every plot readable at 1280 x 720 and 1920 x 1080") {
  check_sizes(ImVec2(1280, 720), false);
  check_sizes(ImVec2(1280, 720), true);
  check_sizes(ImVec2(1920, 1080), false);
  check_sizes(ImVec2(1920, 1080), true);
}

// --- the Basics views and the sidebar, with interaction -----------------------------------------------------

namespace {

ImVec2 centre(const ScreenRect& r) { return ImVec2(0.5f * (r.x0 + r.x1), 0.5f * (r.y0 + r.y1)); }

// Hovers, wheels, drags, double-clicks and clicks over `where`, one frame per step.
void interact(HeadlessImGui& ui, AppState& s, ImVec2 where) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = where;
  ui.frame(s);  // hover: crosshair and read-out
  io.MouseWheel = 1.0f;
  ui.frame(s);  // zoom in
  io.MouseWheel = 0.0f;
  io.MouseDown[0] = true;
  ui.frame(s);
  io.MousePos = where + ImVec2(30, 20);
  ui.frame(s);  // drag: pan
  io.MouseDown[0] = false;
  ui.frame(s);
  io.MousePos = where;
  for (int i = 0; i < 2; ++i) {  // double-click: reset
    io.MouseDown[0] = true;
    ui.frame(s);
    io.MouseDown[0] = false;
    ui.frame(s);
  }
  io.MousePos = ImVec2(-1000, -1000);
  ui.frame(s);
}

void exercise_all_views(HeadlessImGui& ui, AppState& s) {
  ui.frame(s);
  ui.frame(s);
  for (const ScreenRect* r : {&s.regions.waves_plot, &s.regions.encoding_heatmap, &s.regions.similarity_heatmap,
                              &s.regions.binary_table, &s.regions.controls})
    if (r->x1 > r->x0) interact(ui, s, centre(*r));
}

struct Case {
  const char* name;
  void (*set)(EncodingParams&);
};

}  // namespace

TEST_CASE("every view draws for good parameter sets without errors") {
  const Case cases[] = {
      {"default", [](EncodingParams&) {}},
      {"sinusoidal d512 L2048", [](EncodingParams& p) { p.d_model = 512; p.seq_len = 2048; }},
      {"halves odd d", [](EncodingParams& p) { p.layout = Layout::halves; p.d_model = 33; p.seq_len = 300; }},
      {"L = 1", [](EncodingParams& p) { p.seq_len = 1; }},
      {"d = 1", [](EncodingParams& p) { p.d_model = 1; }},
      {"d = 1 halves", [](EncodingParams& p) { p.d_model = 1; p.layout = Layout::halves; }},
      {"learned, L > max_len", [](EncodingParams& p) { p.encoding = Encoding::learned; p.seq_len = 300; p.max_len = 200; }},
      {"learned, sampled similarity", [](EncodingParams& p) { p.encoding = Encoding::learned; p.seq_len = 2048; p.d_model = 256; p.max_len = 4096; }},
      {"binary", [](EncodingParams& p) { p.encoding = Encoding::binary; p.d_model = 12; }},
      {"binary signed", [](EncodingParams& p) { p.encoding = Encoding::binary; p.signed_bits = true; }},
      {"normalized", [](EncodingParams& p) { p.encoding = Encoding::normalized; }},
      {"integer", [](EncodingParams& p) { p.encoding = Encoding::integer; p.seq_len = 50; }},
      {"base near 1", [](EncodingParams& p) { p.base = 1.0001; }},
      {"base 1e7", [](EncodingParams& p) { p.base = 1e7; }},
  };
  HeadlessImGui ui;
  for (const Case& c : cases) {
    INFO(c.name);
    AppState s;
    c.set(s.params);
    s.pages.basics.similarity_view.metric = Metric::dot;
    exercise_all_views(ui, s);
    CHECK(s.pages.basics.has_results);
    CHECK_FALSE(s.status_is_error);
    CHECK(s.pages.basics.encoding.rows == std::size_t(s.params.seq_len));
    s.pages.basics.similarity_view.metric = Metric::cosine;
    s.pages.basics.dirty.similarity = true;
    s.pages.basics.binary_view.morph = 1.0f;
    s.pages.basics.dirty.binary = true;
    s.pages.basics.encoding_view.colormap_choice = 3;  // magma
    s.pages.basics.dirty.colors = true;
    ui.frame(s);
    CHECK(s.pages.basics.encoding_image.colormap == plot::Colormap::magma);
    CHECK_FALSE(s.status_is_error);
  }
}

TEST_CASE("learned positions past max_len are NaN (drawn as missing), not an error") {
  HeadlessImGui ui;
  AppState s;
  s.params.encoding = Encoding::learned;
  s.params.max_len = 100;
  s.params.seq_len = 150;
  ui.frame(s);
  REQUIRE(s.pages.basics.has_results);
  CHECK_FALSE(std::isnan(s.pages.basics.encoding.at(99, 0)));
  CHECK(std::isnan(s.pages.basics.encoding.at(100, 0)));
  CHECK(s.status.find("missing") != std::string::npos);
}

TEST_CASE("bad parameters go to the status line and the last good results stay") {
  HeadlessImGui ui;
  AppState s;
  ui.frame(s);
  REQUIRE(s.pages.basics.has_results);
  const std::size_t rows = s.pages.basics.encoding.rows;
  const struct {
    const char* param;
    void (*set)(EncodingParams&);
  } bad[] = {
      {"d-model", [](EncodingParams& p) { p.d_model = 0; }},
      {"seq-len", [](EncodingParams& p) { p.seq_len = 0; }},
      {"base", [](EncodingParams& p) { p.base = 1.0; }},
      {"base", [](EncodingParams& p) { p.base = NAN; }},
      {"max-len", [](EncodingParams& p) { p.encoding = Encoding::learned; p.max_len = 0; }},
      {"max-memory", [](EncodingParams& p) { p.memory_budget = 1000; }},
  };
  for (const auto& b : bad) {
    INFO(b.param);
    AppState t;
    ui.frame(t);
    b.set(t.params);
    mark_params_changed(t);
    exercise_all_views(ui, t);
    CHECK(t.status_is_error);
    CHECK(t.status.find(b.param) != std::string::npos);
    CHECK(t.pages.basics.has_results);  // the previous results are still drawn
    CHECK(t.pages.basics.encoding.rows == rows);
  }
}

TEST_CASE("bad parameters from the very first frame leave the views empty but drawn") {
  HeadlessImGui ui;
  AppState s;
  s.params.d_model = -5;
  exercise_all_views(ui, s);
  CHECK_FALSE(s.pages.basics.has_results);
  CHECK(s.status_is_error);
  CHECK(s.status.find("d-model") != std::string::npos);
}

TEST_CASE("a click in the encoding heatmap highlights that position in every view") {
  HeadlessImGui ui;
  AppState s;
  ui.frame(s);
  ui.frame(s);
  const ScreenRect r = s.regions.encoding_heatmap;
  REQUIRE(r.y1 > r.y0);
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(0.5f * (r.x0 + r.x1), r.y0 + 0.75f * (r.y1 - r.y0));  // 3/4 down: position ~96 of 128
  ui.frame(s);
  io.MouseDown[0] = true;
  ui.frame(s);
  io.MouseDown[0] = false;
  ui.frame(s);
  CHECK(s.highlight_position == Approx(96).margin(2));
}

TEST_CASE("channel lists are parsed, checked against d and fall back to the defaults") {
  CHECK(default_wave_channels(128) == std::vector<int>{0, 1, 2, 3, 64, 126, 127});
  CHECK(default_wave_channels(1) == std::vector<int>{0});
  CHECK(default_wave_channels(4) == std::vector<int>{0, 1, 2, 3});
  CHECK(parse_channel_list("0, 5, 8-10", 16) == std::vector<int>{0, 5, 8, 9, 10});
  CHECK_FALSE(parse_channel_list("0, 16", 16));
  CHECK_FALSE(parse_channel_list("x", 16));
  CHECK_FALSE(parse_channel_list("5-3", 16));
  HeadlessImGui ui;
  AppState s;
  s.pages.basics.waves.channels_text = "1, 999";
  ui.frame(s);
  CHECK(s.pages.basics.wave_channels == default_wave_channels(128));
  CHECK(s.status_is_error);
  s.pages.basics.waves.channels_text = "1, 7";
  s.pages.basics.dirty.binary = true;
  ui.frame(s);
  CHECK(s.pages.basics.wave_channels == std::vector<int>{1, 7});
  CHECK_FALSE(s.status_is_error);
}

TEST_CASE("pressing and dragging across every row of the sidebar and the view headers keeps state valid") {
  HeadlessImGui ui;
  AppState s;
  ui.frame(s);
  ui.frame(s);
  ImGuiIO& io = ImGui::GetIO();
  const float step = 0.6f * ImGui::GetFontSize();
  auto sweep_rows = [&](const ScreenRect& r, float y_end) {
    for (float y = r.y0 + 2.0f; y < y_end; y += step) {
      for (float fx : {0.15f, 0.45f, 0.8f}) {
        const ImVec2 at(r.x0 + fx * (r.x1 - r.x0), y);
        io.MousePos = at;
        ui.frame(s);
        io.MouseDown[0] = true;
        ui.frame(s);
        io.MousePos = at + ImVec2(25, 0);  // drags a slider, if that is what is there
        ui.frame(s);
        io.MouseDown[0] = false;
        ui.frame(s);
        io.MousePos = ImVec2(1, 899);  // click on empty space: closes any open combo
        io.MouseDown[0] = true;
        ui.frame(s);
        io.MouseDown[0] = false;
        ui.frame(s);
        INFO("at " << at.x << ", " << at.y << ": " << s.status);
        CHECK(s.params.d_model >= 1);
        CHECK(s.params.d_model <= int(limits::d_model.window_hi()));
        CHECK(s.params.seq_len >= 1);
        CHECK(s.params.seq_len <= int(limits::seq_len.window_hi()));
        CHECK(s.params.base >= limits::base.window_lo());
        CHECK(s.params.base <= limits::base.window_hi());
        CHECK(s.highlight_position < std::max(s.pages.basics.computed.seq_len, 1));
      }
    }
  };
  sweep_rows(s.regions.controls, s.regions.controls.y1);
  // The header rows of the four views: 2.5 lines under each pane's top.
  const float fs = ImGui::GetFontSize();
  for (const ScreenRect* r : {&s.regions.waves_plot, &s.regions.encoding_heatmap, &s.regions.similarity_heatmap,
                              &s.regions.binary_table}) {
    ScreenRect header = *r;
    header.y0 = r->y0 - 2.5f * fs;
    sweep_rows(header, r->y0 - 0.2f * fs);
  }
  CHECK(s.pages.basics.has_results);
}

TEST_CASE("presenting: no menu bar and no status line; a toast takes the status line instead of covering the slide") {
  HeadlessImGui ui(ImVec2(1280, 720));
  AppState s;
  ui.frame(s);
  const ImGuiWindow* root = ImGui::FindWindowByName("peviz");
  REQUIRE(root);
  CHECK((root->Flags & ImGuiWindowFlags_MenuBar) != 0);
  set_presenting(s, true);
  ui.use_zoom(s.ui_zoom, Theme::light);
  ui.frame(s);
  CHECK((root->Flags & ImGuiWindowFlags_MenuBar) == 0);
  const float slide_bottom = s.regions.controls.y1;
  CHECK(slide_bottom > 720.0f - 2.0f * ImGui::GetFontSize());  // the slide reaches the window's bottom
  show_toast(s, "Figure saved: /tmp/peviz-figure.png", false, ImGui::GetTime());
  ui.frame(s);
  ui.frame(s);
  const ImGuiWindow* toast = ImGui::FindWindowByName("##toast");
  CHECK((toast == nullptr || !toast->Active));
  CHECK(s.regions.controls.y1 < slide_bottom);  // the status line's room, for the toast
}
