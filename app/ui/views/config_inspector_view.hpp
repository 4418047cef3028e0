// The context-extension page's config inspector (config_inspector_view.cpp).
#pragma once
#include "app/model/app_state.hpp"

namespace peviz::app {

// The loaded model's layers grouped by their rotary settings, each value with where it came from (hover), the
// model-wide values, the fields peviz does not model, the known differences between frameworks, and the command
// that exports the test vectors.
void draw_config_inspector(AppState& s);

}  // namespace peviz::app
