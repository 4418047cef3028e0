// The window's keyboard shortcuts, read from ImGui's input (so scripted and random input reach them too).
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// F12: save a figure. F11: presentation mode on/off (Esc leaves it too, in draw_app). Ctrl + / Ctrl - /
// Ctrl 0: user zoom; Ctrl O: open; Ctrl Q: quit (saving the session). Call between NewFrame and Render.
void handle_shortcuts(AppState& s);

}  // namespace peviz::app
