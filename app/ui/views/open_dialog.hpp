// File > Open on the desktop: a file browser over s.figure.open_browser (the browser build opens its own picker).
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// The "Open" modal (ImGui::OpenPopup("Open") opens it, after start_browsing lists its folder): the folder's entries
// under a filter, the recent files and an editable path. Up / Down select, Enter or a double click opens a file or
// enters a folder, Backspace goes up, Escape cancels. A file chosen goes to s.open_request; nothing is read here
// but through the model's listing functions.
void draw_open_dialog(AppState& s);

}  // namespace peviz::app
