// The fixed, resizable arrangement of the window: sidebar | 2 x 2 grid of views, status line.
#pragma once
#include "app/app_state.hpp"

namespace peviz::app {

// Draws the whole window's UI for one frame (between ImGui::NewFrame and ImGui::Render).
void draw_app(AppState& s);

}  // namespace peviz::app
