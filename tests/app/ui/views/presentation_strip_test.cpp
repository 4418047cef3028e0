// Presentation mode headless: the strip replaces the sidebar at its zoom, the header draws, C shows the page's
// controls, Esc leaves it; the header fits its line (shrunk, in two lines, or ellipsized).
#include <string>

#include "app/model/figure.hpp"
#include "app/model/presentation.hpp"
#include "app/ui/views/teach_views.hpp"
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

TEST_CASE("the presenting header shrinks, then breaks at a dot into two lines, and only then ends in \"...\"") {
  HeadlessImGui ui(ImVec2(1280, 720));
  ui.use_zoom(kPresentationMinZoom, Theme::light);
  AppState s;
  ui.frame(s);
  ImGui::NewFrame();
  ImGui::Begin("header");
  const std::string dot = kCaptionDot;
  const std::string header = "Lab" + dot + "copy" + dot + "4 layers x 4 heads, d_model 64" + dot +
                             "batch 32, 3000 steps" + dot + "train n <= 20, test to 40" + dot + "seeds 0-2";
  const float width = ImGui::CalcTextSize(header.c_str()).x;
  CHECK(fitted_header(header, width + 1) == header);
  CHECK(ImGui::GetCurrentWindow()->FontWindowScale == 1.0f);
  CHECK(fitted_header(header, 0.8f * width) == header);  // shrunk to fit
  CHECK(ImGui::GetCurrentWindow()->FontWindowScale == Approx(0.8f));
  ImGui::SetWindowFontScale(1.0f);
  // Too long for one line at 60%: two lines, broken where they balance best, each within the room.
  const std::string two = fitted_header(header, 0.5f * width);
  REQUIRE(two.find('\n') != std::string::npos);
  CHECK(two.find("...") == std::string::npos);
  CHECK(two == "Lab" + dot + "copy" + dot + "4 layers x 4 heads, d_model 64\nbatch 32, 3000 steps" + dot +
                   "train n <= 20, test to 40" + dot + "seeds 0-2");
  CHECK(ImGui::GetCurrentWindow()->FontWindowScale == Approx(0.6f));  // as small as one line gets: little taller
  CHECK(ImGui::CalcTextSize(two.c_str()).x <= 0.5f * width + 0.5f);
  ImGui::SetWindowFontScale(1.0f);
  // Two lines at 60% cannot hold it: one line, ellipsized within the room.
  const std::string cut = fitted_header(header, 0.2f * width);
  CHECK(cut.ends_with("..."));
  CHECK(ImGui::CalcTextSize(cut.c_str()).x <= 0.2f * width);
  ImGui::SetWindowFontScale(1.0f);
  ImGui::End();
  ImGui::Render();
}
