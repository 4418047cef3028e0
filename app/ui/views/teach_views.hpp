// The teaching panels, one free function per file in app/views/: the Presets / Lesson / View menus,
// the lesson panel, the word-order demo and the presentation strip. They edit AppState (through
// presets.hpp, lessons.hpp, presentation.hpp) and draw; none calls GL.
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

void draw_teach_menus(AppState& s);          // teach_menus.cpp: inside the window's menu bar
void draw_lesson_panel(AppState& s);         // lesson_panel.cpp: step title, text, Prev / Next, arrow keys
void draw_word_order_view(AppState& s);      // word_order_view.cpp: token + position vectors, two orders
void draw_presentation_header(AppState& s);  // presentation_strip.cpp: the parameters, Controls and Leave
// The presenting header as drawn in `room` pixels of the current window: one line scaled down to 60% of the font at
// most, else two lines at 60% broken at a " \u00b7 ", else ellipsized; sets the window's font scale it is drawn at.
std::string fitted_header(const std::string& header, float room);
void draw_presentation_strip(AppState& s);   // presentation_strip.cpp: d_model / L / base

}  // namespace peviz::app
