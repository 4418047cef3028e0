// The teaching views headless (presentation strip and header, lesson panel with its demo, the menus'
// bar) and the teaching flags of the real window under Xvfb (--preset, --lesson, --lesson-step, --present).
#include <cstdio>
#include <fstream>
#include <string>

#include "app/model/lessons.hpp"
#include "app/model/presentation.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/app/ui/run_gui.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

constexpr int kLeft = 263, kRight = 262, kEscape = 256;  // GLFW's key codes, as the GLFW backend maps them

// Presses `key` for one frame, then releases it for one.
void press(HeadlessImGui& ui, AppState& s, int key) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[key] = true;
  ui.frame(s);
  io.KeysDown[key] = false;
  ui.frame(s);
}

// A click at `where`: pressed for one frame, released for one.
void click(HeadlessImGui& ui, AppState& s, ImVec2 where) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = where;
  io.MouseDown[0] = true;
  ui.frame(s);
  io.MouseDown[0] = false;
  ui.frame(s);
}

void map_keys() {
  ImGuiIO& io = ImGui::GetIO();
  io.KeyMap[ImGuiKey_LeftArrow] = kLeft;
  io.KeyMap[ImGuiKey_RightArrow] = kRight;
  io.KeyMap[ImGuiKey_Escape] = kEscape;
}

int png_width(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[24] = {};
  in.read(reinterpret_cast<char*>(h), sizeof h);
  return (h[16] << 24) | (h[17] << 16) | (h[18] << 8) | h[19];
}

}  // namespace

TEST_CASE("the lesson panel steps with the arrow keys and draws the word-order demo") {
  HeadlessImGui ui;
  map_keys();
  AppState s;
  start_lesson(s, load_lesson_file(std::string(PEVIZ_SOURCE_DIR) + "/assets/lessons/positional-encodings.json"));
  for (int i = 0; i < 3; ++i) ui.frame(s);
  CHECK(s.teach.step == 0);
  const float full_body = s.regions.controls.y1 - s.regions.controls.y0;
  CHECK(full_body < 900.0f * 0.6f);  // the lesson panel (with the demo) takes the lower part
  press(ui, s, kRight);
  CHECK(s.teach.step == 1);
  CHECK(s.analysis.page == Page::criteria);
  CHECK(s.params.encoding == Encoding::normalized);
  press(ui, s, kRight);
  CHECK(s.teach.step == 2);
  CHECK(s.params.encoding == Encoding::binary);
  press(ui, s, kLeft);
  CHECK(s.teach.step == 1);
  press(ui, s, kLeft);
  press(ui, s, kLeft);  // already at the first step: stays
  CHECK(s.teach.step == 0);
  CHECK(s.analysis.page == Page::basics);
  for (int k = 0; k < 13; ++k) press(ui, s, kRight);  // every page of the tour draws
  CHECK(s.teach.step == 12);
  CHECK(s.analysis.page == Page::context_extension);

  s.teach.save_name = "typing";  // a text field with the keyboard: arrows are for the text
  ImGui::GetIO().WantTextInput = true;
  stop_lesson(s);
  ui.frame(s);
  CHECK_FALSE(s.teach.lesson_active);
  CHECK(s.regions.controls.y1 - s.regions.controls.y0 > full_body);  // the panel is gone
}

TEST_CASE("presentation mode draws the strip and the header; Esc leaves it") {
  HeadlessImGui ui;
  map_keys();
  AppState s;
  ui.frame(s);
  const float sidebar = s.regions.controls.x1 - s.regions.controls.x0;
  set_presenting(s, true);
  load_fonts(s.ui_zoom);  // what the window does when fonts_dirty is set
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  for (int i = 0; i < 3; ++i) ui.frame(s);
  const float strip = s.regions.controls.x1 - s.regions.controls.x0;
  CHECK(strip < sidebar);
  CHECK(strip == Approx(9.0f * 16.0f * kPresentationMinZoom));  // 9 em at zoom 1.5
  s.params.d_model = 64;
  ui.frame(s);
  CHECK(s.teach.presenting);
  press(ui, s, kEscape);
  CHECK_FALSE(s.teach.presenting);
  CHECK(s.theme == Theme::dark);
  CHECK(s.ui_zoom == 1.0f);
}

TEST_CASE("--preset, --lesson and --present in the real window") {
  SECTION("present: full screen on the primary monitor, with a preset and a lesson step") {
    const std::string png = temp_path("present.png");
    const RunResult r = run_gui("--reset --frames 4 --size 1200x800 --present --preset mpt-7b "
                                "--lesson positional-encodings --lesson-step 12 --screenshot " + png);
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(png_width(png) == 1920);  // the Xvfb screen, not --size
    std::remove(png.c_str());
  }
  SECTION("an unknown preset is refused with the names there are") {
    const RunResult r = run_gui("--reset --frames 2 --preset no-such-model");
    CHECK(r.code == 2);
    CHECK(r.err.find("--preset: no usable preset named no-such-model") != std::string::npos);
    CHECK(r.err.find("mpt-7b") != std::string::npos);
  }
  SECTION("a broken lesson is refused with the step and key named") {
    const std::string path = temp_path("bad-lesson.json");
    std::ofstream(path) << R"({"title": "Bad", "steps": [{"title": "a", "text": "b", "state": {"page": "nowhere"}}]})";
    const RunResult r = run_gui("--reset --frames 2 --lesson " + path);
    CHECK(r.code == 2);
    CHECK(r.err.find("bad-lesson.json: step 1: state: page") != std::string::npos);
    std::remove(path.c_str());
  }
}

TEST_CASE("the Presets and Lesson menus list the shipped files and apply them") {
  HeadlessImGui ui;
  AppState s;
  ui.frame(s);
  // The File menu comes first in the menu bar: its label and the spacing around it.
  const float file_w = ImGui::CalcTextSize("File").x + ImGui::GetStyle().ItemSpacing.x * 2.0f;
  click(ui, s, ImVec2(30 + file_w, 9));  // "Presets" in the menu bar
  REQUIRE(s.teach.presets_listed);
  CHECK(s.teach.presets.size() >= 9);
  ui.frame(s);
  CHECK(s.teach.presets.size() >= 9);  // listed once, not every frame
  click(ui, s, ImVec2(-100, -100));    // outside: the menu closes
  click(ui, s, ImVec2(100 + file_w, 9));  // "Lesson"
  REQUIRE(s.teach.lessons_listed);
  CHECK(s.teach.lesson_files.size() >= 1);
}
