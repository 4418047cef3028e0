// Presentation mode for the lecture hall: light theme, zoom >= 1.5, a thin strip instead of the sidebar
// and the parameters in big type. The window goes full screen in gui_main.cpp when teach.presenting is set.
#pragma once
#include <string>

#include "app/model/app_state.hpp"

namespace peviz::app {

inline constexpr float kPresentationMinZoom = 1.5f;

// Enters (remembering the user's theme and zoom, then light theme and zoom >= 1.5) or leaves
// (restoring them). Does nothing when already in that mode.
void set_presenting(AppState& s, bool on);

// The header shown while presenting: the current page's figure caption, e.g.
// "sinusoidal · d_model 128 · base 10000 · L 256 · interleaved" or "ALiBi · 8 heads · L 64 · causal".
std::string parameter_header(const AppState& s);

}  // namespace peviz::app
