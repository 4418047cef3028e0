// The window's keyboard shortcuts (see shortcuts.hpp).
#include "app/ui/shortcuts.hpp"

#include <algorithm>

#include <imgui.h>

#include "app/gfx/window.hpp"
#include "app/model/presentation.hpp"
#include "core/base/limits.hpp"

namespace peviz::app {

namespace {
bool pressed(gfx::Key k, bool repeat = false) { return ImGui::IsKeyPressed(gfx::key_code(k), repeat); }

void handle_zoom_keys(AppState& s) {
  using gfx::Key;
  float zoom = s.ui_zoom;
  if (pressed(Key::equal, true) || pressed(Key::keypad_add, true)) zoom *= 1.1f;
  else if (pressed(Key::minus, true) || pressed(Key::keypad_subtract, true)) zoom /= 1.1f;
  else if (pressed(Key::zero) || pressed(Key::keypad_0)) zoom = 1.0f;
  else return;
  s.ui_zoom = std::clamp(zoom, float(limits::ui_zoom.min), float(limits::ui_zoom.max));
  s.fonts_dirty = true;
}
}  // namespace

void handle_shortcuts(AppState& s) {
  if (pressed(gfx::Key::f12)) s.figure.save_requested = true;
  if (pressed(gfx::Key::f11)) set_presenting(s, !s.teach.presenting);
  if (!ImGui::GetIO().KeyCtrl) return;
  if (pressed(gfx::Key::o)) s.figure.open_dialog_requested = true;
  if (pressed(gfx::Key::q)) s.quit_requested = true;
  handle_zoom_keys(s);
}

void park_pointer_on_new_slide(const AppState& s, ParkedPointer& p) {
  const long long slide = (s.teach.lesson_active ? s.teach.step + 1 : 0) * 1024 + int(s.pages.page);
  ImGuiIO& io = ImGui::GetIO();
  if (p.slide >= 0 && slide != p.slide) p = {slide, io.MousePos, true};
  p.slide = slide;
  if (p.parked && io.MousePos.x == p.at.x && io.MousePos.y == p.at.y) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  else p.parked = false;
}

}  // namespace peviz::app
