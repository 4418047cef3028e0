// The window's command-line flags (--frames, --d-model, --preset, ...) and how they apply to the state.
#pragma once
#include "app/model/app_state.hpp"
#include "app/model/session.hpp"
#include "app/ui/gui_main.hpp"

namespace peviz::app {

// Applies the flags over the loaded session: parameters, page, files, figure options, window size,
// then --preset, --lesson [--lesson-step], --present. Returns false (one line printed) on a bad value.
bool apply_gui_flags(const GuiOptions& o, AppState& s, WindowSize& size);

}  // namespace peviz::app
