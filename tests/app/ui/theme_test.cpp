// Tests for app/ui/theme: the DejaVu Sans atlas at 16 px times the scale (and the heading font at 1.6 times that),
// the built-in fallback with a message naming the search when the file is missing, and the two themes' style.
#include "app/ui/theme.hpp"

#include <cstdlib>

#include <catch2/catch.hpp>
#include <imgui.h>

using namespace peviz::app;

namespace {

// An ImGui context for one test.
struct Context {
  Context() { ImGui::CreateContext(); }
  ~Context() { ImGui::DestroyContext(); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
};

}  // namespace

TEST_CASE("load_fonts: the window's font and the heading font at the scale asked for") {
  Context c;
  REQUIRE(load_fonts(1.0f).empty());
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  REQUIRE(atlas.ConfigData.Size == 2);
  CHECK(atlas.ConfigData[0].SizePixels == kBaseFontPixels);
  CHECK(atlas.ConfigData[1].SizePixels == Approx(kBaseFontPixels * kHeadingScale));
  REQUIRE(load_fonts(2.0f).empty());  // rebuilt, not added to
  REQUIRE(atlas.ConfigData.Size == 2);
  CHECK(atlas.ConfigData[0].SizePixels == 2 * kBaseFontPixels);
}

TEST_CASE("load_fonts without the font file: ImGui's built-in font and a message naming where it looked") {
  Context c;
  ::setenv("PEVIZ_DATA_DIR", "/nonexistent-peviz-data", 1);
  const std::string problem = load_fonts(1.5f);
  ::unsetenv("PEVIZ_DATA_DIR");
  CHECK(problem == "font missing: assets/fonts/DejaVuSans.ttf (searched: /nonexistent-peviz-data)");
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  REQUIRE(atlas.ConfigData.Size == 1);
  CHECK(atlas.ConfigData[0].SizePixels == 13.0f * 1.5f);
}

TEST_CASE("apply_theme: light is white with dark text, dark is ImGui's dark; sizes scale") {
  Context c;
  apply_theme(Theme::light, 1.0f);
  const ImGuiStyle& style = ImGui::GetStyle();
  CHECK(style.Colors[ImGuiCol_WindowBg].x == 1.0f);
  CHECK(style.Colors[ImGuiCol_WindowBg].z == 1.0f);
  CHECK(style.Colors[ImGuiCol_Text].x == 0.05f);
  CHECK(style.WindowPadding.x == 6.0f);
  CHECK(style.FrameRounding == 3.0f);
  apply_theme(Theme::dark, 2.0f);
  ImGuiStyle dark;
  ImGui::StyleColorsDark(&dark);
  CHECK(style.Colors[ImGuiCol_WindowBg].x == dark.Colors[ImGuiCol_WindowBg].x);
  CHECK(style.Colors[ImGuiCol_Text].x == dark.Colors[ImGuiCol_Text].x);
  CHECK(style.WindowPadding.x == 12.0f);
  CHECK(style.FrameRounding == 6.0f);
  CHECK(style.WindowRounding == 0.0f);
}
