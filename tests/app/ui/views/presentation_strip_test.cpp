// Presentation mode headless: the strip replaces the sidebar at its zoom, the header draws, C shows the page's
// controls, Esc leaves it.
#include <string>

#include "app/model/presentation.hpp"
#include "tests/app/ui/imgui_headless.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("presentation mode draws the strip and the header; C toggles the controls, Esc leaves it") {
  HeadlessImGui ui;
  map_arrow_keys();
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
  CHECK_FALSE(s.teach.present_controls);  // the plots fill the slide
  press_key(ui, s, kCKey);
  CHECK(s.teach.present_controls);
  press_key(ui, s, kCKey);
  CHECK_FALSE(s.teach.present_controls);
  press_key(ui, s, kEscapeKey);
  CHECK_FALSE(s.teach.presenting);
  CHECK(s.theme == Theme::dark);
  CHECK(s.ui_zoom == 1.0f);
}
