// Tests for app/ui/shortcuts: each key of a frame's ImGui input sets its request in the state: F12 a figure, F11
// presentation, Ctrl O open, Ctrl Q quit, Ctrl + / - / 0 the zoom (clamped to its limit, fonts rebuilt).
#include "app/ui/shortcuts.hpp"

#include <algorithm>

#include "app/gfx/window.hpp"
#include "core/limits.hpp"
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
