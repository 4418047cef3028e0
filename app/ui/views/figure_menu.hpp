// The File menu: open a figure or table, save a figure (F12), figure settings, export a view's data.
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// Menu items of "File", drawn inside the menu bar. Edits requests in s.figure; never does I/O.
void draw_file_menu(AppState& s);
// The Open and Figure settings dialogs (popups), drawn after the menu bar.
void draw_file_dialogs(AppState& s);

}  // namespace peviz::app
