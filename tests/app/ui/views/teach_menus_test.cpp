// The Presets and Lesson menus headless: clicked open, they list the shipped files once.
#include <string>

#include "app/model/app_state.hpp"
#include "tests/app/ui/imgui_headless.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("the Presets and Lesson menus list the shipped files and apply them") {
  HeadlessImGui ui;
  AppState s;
  ui.frame(s);
  // The File menu comes first in the menu bar: its label and the spacing around it.
  const float file_w = ImGui::CalcTextSize("File").x + ImGui::GetStyle().ItemSpacing.x * 2.0f;
  click_at(ui, s, ImVec2(30 + file_w, 9));  // "Presets" in the menu bar
  REQUIRE(s.teach.presets_listed);
  CHECK(s.teach.presets.size() >= 9);
  ui.frame(s);
  CHECK(s.teach.presets.size() >= 9);  // listed once, not every frame
  click_at(ui, s, ImVec2(-100, -100));    // outside: the menu closes
  click_at(ui, s, ImVec2(100 + file_w, 9));  // "Lesson"
  REQUIRE(s.teach.lessons_listed);
  CHECK(s.teach.lesson_files.size() >= 1);
}
