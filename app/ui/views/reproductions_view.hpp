// The Lab page's Reproductions table (reproductions_view.cpp).
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// Per method: its paper and claim, the lab's seeds of it and of its baseline at 2x and 3x the training length
// (seeds at 0.9 exact match or more, mean and range), seconds per run, and what we think limits the result.
void draw_reproductions(const AppState& s);

}  // namespace peviz::app
