// The window's keyboard shortcuts, read from ImGui's input (so scripted and random input reach them too).
#pragma once
#include <cfloat>

#include <imgui.h>

#include "app/model/app_state.hpp"

namespace peviz::app {

// F12: save a figure. F11: presentation mode on/off (Esc leaves it too, in draw_app). Ctrl + / Ctrl - /
// Ctrl 0: user zoom; Ctrl O: open; Ctrl Q: quit (saving the session). Call between NewFrame and Render.
void handle_shortcuts(AppState& s);

// The pointer over a slide that changed under it (a lesson step or a page turned by a key or a button): ImGui is
// told there is no mouse until it moves, so that no hover read-out of the old slide's spot covers the new one.
struct ParkedPointer {
  long long slide = -1;               // the lesson step and page shown last frame
  ImVec2 at{-FLT_MAX, -FLT_MAX};      // where the pointer was when the slide changed
  bool parked = false;
};
// Call before ImGui::NewFrame, once io.MousePos holds the real pointer.
void park_pointer_on_new_slide(const AppState& s, ParkedPointer& p);

}  // namespace peviz::app
