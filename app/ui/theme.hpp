// Look of the window: dark/light theme, and the TTF font rasterised for the current scale.
#pragma once
#include <string>

#include "app/model/app_state.hpp"

namespace peviz::app {

// Font size in pixels at content scale 1 and zoom 1.
inline constexpr float kBaseFontPixels = 16.0f;

// The symbols the views write beyond ImGui's default ranges (Basic Latin and Latin-1): the atlas loads them, and the
// browser build's font keeps just these glyphs and the default ranges (tools/web/subset_font.py reads this line).
inline constexpr const char* kFontExtraGlyphs = "λωπ→←×−≥≤…½·";

// Rebuilds ImGui's font atlas with assets/fonts/DejaVuSans.ttf at kBaseFontPixels * scale (Latin,
// Greek and the few symbols the views use). Returns what went wrong when the file is missing
// or unreadable (empty when all is well); the atlas then holds ImGui's built-in font so ImGui stays
// usable, but the window and `peviz render` treat it as fatal (one line, exit code 1). The caller uploads
// the atlas (the GL backend's font texture).
std::string load_fonts(float scale);

// The same font at kHeadingScale times the size (the second font of the atlas, built by load_fonts),
// for the presentation header and the lesson's step title. Pops must match pushes.
inline constexpr float kHeadingScale = 1.6f;
void push_heading_font();
void pop_heading_font();

// Applies the dark or light colours and sizes scaled by `scale` to ImGui's style.
void apply_theme(Theme theme, float scale);

}  // namespace peviz::app
