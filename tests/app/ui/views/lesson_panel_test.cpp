// The lesson panel headless: the arrow keys step the shipped lesson, each step sets its page, the demo draws.
#include <string>

#include "app/model/lessons.hpp"
#include "tests/app/ui/imgui_headless.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("the lesson panel steps with the arrow keys and draws the word-order demo") {
  HeadlessImGui ui;
  map_arrow_keys();
  AppState s;
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
  for (int i = 0; i < 3; ++i) ui.frame(s);
  CHECK(s.teach.step == 0);
  const float full_body = s.regions.controls.y1 - s.regions.controls.y0;
  CHECK(full_body < 900.0f * 0.6f);  // the lesson panel (with the demo) takes the lower part
  press_key(ui, s, kRightKey);
  CHECK(s.teach.step == 1);
  CHECK(s.pages.page == Page::criteria);
  CHECK(s.params.encoding == Encoding::normalized);
  press_key(ui, s, kRightKey);
  CHECK(s.teach.step == 2);
  CHECK(s.params.encoding == Encoding::binary);
  press_key(ui, s, kLeftKey);
  CHECK(s.teach.step == 1);
  press_key(ui, s, kLeftKey);
  press_key(ui, s, kLeftKey);  // already at the first step: stays
  CHECK(s.teach.step == 0);
  CHECK(s.pages.page == Page::basics);
  for (int k = 0; k < 13; ++k) press_key(ui, s, kRightKey);  // every page of the tour draws
  CHECK(s.teach.step == 12);
  CHECK(s.pages.page == Page::context_extension);

  s.teach.save_name = "typing";  // a text field with the keyboard: arrows are for the text
  ImGui::GetIO().WantTextInput = true;
  stop_lesson(s);
  ui.frame(s);
  CHECK_FALSE(s.teach.lesson_active);
  CHECK(s.regions.controls.y1 - s.regions.controls.y0 > full_body);  // the panel is gone
}
