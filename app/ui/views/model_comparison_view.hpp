// The context-extension page's comparison of real models (model_comparison_view.cpp).
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// The models to tick, the wavelengths per pair of each (one colour per model) and the table of bounds.
void draw_model_comparison(AppState& s);

}  // namespace peviz::app
