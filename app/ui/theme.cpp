// Dark and light themes and the scaled DejaVu Sans font.
#include "app/ui/theme.hpp"

#include <algorithm>
#include <imgui.h>

#include "app/model/data_files.hpp"

namespace peviz::app {

std::string load_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const auto path = find_data_file("assets/fonts/DejaVuSans.ttf");
  if (path.empty()) {
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    io.Fonts->AddFontDefault(&cfg);
    return "font missing: " + describe_search("assets/fonts/DejaVuSans.ttf");
  }
  static ImVector<ImWchar> ranges;  // must outlive the atlas build
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
    builder.AddText(kFontExtraGlyphs);
    builder.BuildRanges(&ranges);
  }
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  if (!io.Fonts->AddFontFromFileTTF(path.string().c_str(), kBaseFontPixels * scale, &cfg, ranges.Data)) {
    io.Fonts->AddFontDefault();
    return "font " + path.string() + " could not be loaded (not a TrueType font?)";
  }
  io.Fonts->AddFontFromFileTTF(path.string().c_str(), kBaseFontPixels * kHeadingScale * scale, &cfg, ranges.Data);
  return {};
}

void push_heading_font() {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  ImGui::PushFont(atlas->Fonts.Size > 1 ? atlas->Fonts[1] : atlas->Fonts[0]);
}

void pop_heading_font() { ImGui::PopFont(); }

void apply_theme(Theme theme, float scale) {
  ImGuiStyle style;
  // Grey help text (TextDisabled) at WCAG AA, 4.5:1 or more, on the window, panes, popups, menus and frames
  // (ImGui's own greys give 2.85:1 on white and 3.9:1 on the dark menu bar); tests/app/ui/theme_test.cpp.
  if (theme == Theme::dark) {
    ImGui::StyleColorsDark(&style);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.62f, 0.62f, 0.62f, 1.0f);
  } else {
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.93f, 0.93f, 0.95f, 1.0f);
    style.Colors[ImGuiCol_Text] = ImVec4(0.05f, 0.05f, 0.08f, 1.0f);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.36f, 0.38f, 1.0f);
  }
  style.WindowRounding = 0.0f;
  style.ChildRounding = 3.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowPadding = ImVec2(6, 6);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

}  // namespace peviz::app
