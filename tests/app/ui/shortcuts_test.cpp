// Tests for app/ui/shortcuts: each key of a frame's ImGui input sets its request in the state: F12 a figure, F11
// presentation, Ctrl O open, Ctrl Q quit, Ctrl + / - / 0 the zoom (clamped to its limit, fonts rebuilt); a slide turned
// under a still pointer parks it.
#include "app/ui/shortcuts.hpp"

#include <algorithm>

#include "app/gfx/window.hpp"
#include "app/model/lessons.hpp"
#include "core/base/limits.hpp"
#include "tests/build_paths.hpp"
#include "tests/app/ui/imgui_headless.hpp"

using namespace peviz;
using namespace peviz::app;
using gfx::Key;

namespace {

// One frame with `key` (and Ctrl when `ctrl`) pressed, running only the shortcuts; then one with it released.
void press(AppState& s, Key key, bool ctrl) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeyCtrl = ctrl;
  io.KeysDown[gfx::key_code(key)] = true;
  ImGui::NewFrame();
  handle_shortcuts(s);
  ImGui::Render();
  io.KeysDown[gfx::key_code(key)] = false;
  io.KeyCtrl = false;
  ImGui::NewFrame();
  handle_shortcuts(s);
  ImGui::Render();
}

}  // namespace

TEST_CASE("F12 asks for a figure, F11 toggles presentation") {
  HeadlessImGui ui;
  AppState s;
  press(s, Key::f12, false);
  CHECK(s.figure.save_requested);
  press(s, Key::f11, false);
  CHECK(s.teach.presenting);
  press(s, Key::f11, false);
  CHECK_FALSE(s.teach.presenting);
}

TEST_CASE("Ctrl O and Ctrl Q; without Ctrl the letters do nothing") {
  HeadlessImGui ui;
  AppState s;
  press(s, Key::o, false);
  press(s, Key::q, false);
  CHECK_FALSE(s.figure.open_dialog_requested);
  CHECK_FALSE(s.quit_requested);
  press(s, Key::o, true);
  CHECK(s.figure.open_dialog_requested);
  press(s, Key::q, true);
  CHECK(s.quit_requested);
}

TEST_CASE("Ctrl + and Ctrl - zoom by 1.1, Ctrl 0 resets; the zoom stays within its limit") {
  HeadlessImGui ui;
  AppState s;
  s.ui_zoom = 1.0f;
  press(s, Key::equal, true);
  CHECK(s.ui_zoom == Approx(1.1f));
  CHECK(s.fonts_dirty);
  press(s, Key::keypad_subtract, true);
  CHECK(s.ui_zoom == Approx(1.0f));
  press(s, Key::minus, true);
  CHECK(s.ui_zoom == Approx(1.0f / 1.1f));
  press(s, Key::zero, true);
  CHECK(s.ui_zoom == 1.0f);
  for (int i = 0; i < 100; ++i) press(s, Key::keypad_add, true);
  CHECK(s.ui_zoom == float(limits::ui_zoom.max));
  press(s, Key::equal, false);  // no Ctrl: no zoom
  CHECK(s.ui_zoom == float(limits::ui_zoom.max));
}

TEST_CASE("a slide turned under a still pointer hides the pointer from ImGui until it moves: no stale read-out") {
  HeadlessImGui ui(ImVec2(1280, 720));
  AppState s;
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
  ParkedPointer p;
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 real(640, 300);  // over the page, where a plot's read-out would show
  const auto frame_at = [&](ImVec2 pointer) {
    io.MousePos = pointer;  // what the platform layer sets each frame
    park_pointer_on_new_slide(s, p);
    return io.MousePos;
  };
  CHECK(frame_at(real).x == real.x);  // the first slide: nothing parked
  go_to_step(s, 1);                   // the Right key or Next (a new page: Criteria)
  CHECK(frame_at(real).x == -FLT_MAX);
  CHECK(frame_at(real).x == -FLT_MAX);  // still there: still hidden
  CHECK(frame_at(ImVec2(641, 300)).x == 641.0f);  // it moved: read-outs again
  CHECK(frame_at(ImVec2(641, 300)).x == 641.0f);
  s.pages.page = Page::alibi;  // a page turned by its tab or a key
  CHECK(frame_at(ImVec2(641, 300)).x == -FLT_MAX);
}
