// Tests for app/ui/theme: the DejaVu Sans atlas at 16 px times the scale (and the heading font at 1.6 times that),
// the built-in fallback with a message naming the search when the file is missing, the two themes' style, text
// contrast and colours kept apart.
#include "app/ui/theme.hpp"

#include <cstdlib>
#include <vector>

#include <catch2/catch.hpp>
#include <imgui.h>

#include "app/plot/colour_metrics.hpp"
#include "app/plot/draw/plot.hpp"
#include "app/ui/views/views.hpp"

using namespace peviz;
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

TEST_CASE("text reads at WCAG AA (4.5:1) on every background it is drawn on, in both themes") {
  Context c;
  for (const Theme theme : {Theme::light, Theme::dark}) {
    apply_theme(theme, 1.0f);
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto rgb = [](const ImVec4& v) { return plot::Srgb8{int(v.x * 255 + 0.5f), int(v.y * 255 + 0.5f), int(v.z * 255 + 0.5f)}; };
    const plot::Srgb8 window = rgb(style.Colors[ImGuiCol_WindowBg]);
    for (const ImGuiCol bg_col : {ImGuiCol_WindowBg, ImGuiCol_ChildBg, ImGuiCol_PopupBg, ImGuiCol_FrameBg,
                                  ImGuiCol_MenuBarBg, ImGuiCol_Button, ImGuiCol_Header}) {
      const ImVec4 v = style.Colors[bg_col];
      const plot::Srgb8 bg = plot::blend_over(rgb(v), v.w, window);  // a translucent background over the window
      // Grey help text sits on the window, panes, popups, menus and input hints (frames); buttons and headers
      // carry Text only.
      const bool help_background = bg_col != ImGuiCol_Button && bg_col != ImGuiCol_Header;
      for (const ImGuiCol text : {ImGuiCol_Text, ImGuiCol_TextDisabled}) {
        if (text == ImGuiCol_TextDisabled && !help_background) continue;
        INFO((theme == Theme::light ? "light: " : "dark: ") << ImGui::GetStyleColorName(text) << " on "
                                                             << ImGui::GetStyleColorName(bg_col));
        CHECK(plot::contrast_ratio(rgb(style.Colors[text]), bg) >= plot::kMinTextContrast);
      }
    }
  }
}

TEST_CASE("series colours, the highlight and the background stay apart (CIE76 distance 20 or more) in both themes") {
  Context c;
  constexpr double kMinApart = 20.0;
  for (const Theme theme : {Theme::light, Theme::dark}) {
    apply_theme(theme, 1.0f);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    const plot::Srgb8 background{int(bg.x * 255 + 0.5f), int(bg.y * 255 + 0.5f), int(bg.z * 255 + 0.5f)};
    std::vector<plot::Srgb8> colours{plot::srgb_of(highlight_color())};
    for (int i = 0; i < 16; ++i) colours.push_back(plot::srgb_of(plot::series_color(i)));  // the whole palette
    for (std::size_t i = 0; i < colours.size(); ++i) {
      INFO((theme == Theme::light ? "light: colour " : "dark: colour ") << i << " (0 = the highlight)");
      CHECK(plot::delta_e(colours[i], background) >= kMinApart);
      for (std::size_t j = i + 1; j < colours.size(); ++j) CHECK(plot::delta_e(colours[i], colours[j]) >= kMinApart);
    }
  }
}
