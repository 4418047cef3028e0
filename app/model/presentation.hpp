// Presentation mode for the lecture hall: light theme, zoom >= 1.5, a thin strip instead of the sidebar
// and the parameters in big type. The window goes full screen in gui_main.cpp when teach.presenting is set.
#pragma once
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "app/model/app_state.hpp"

namespace peviz::app {

inline constexpr float kPresentationMinZoom = 1.5f;

// Whether a view draws `part` of its page (one of its PageModel::parts, or kStripPart): always, except on a
// presented lesson step whose "show" list leaves it out; the parts shown then take the room of the others.
inline bool shows_part(const AppState& s, std::string_view part) {
  const std::vector<std::string>& shown = s.teach.present_parts;
  if (!s.teach.presenting || !s.teach.lesson_active || shown.empty()) return true;
  return std::find(shown.begin(), shown.end(), part) != shown.end();
}

// Enters (remembering the user's theme and zoom, then light theme and zoom >= 1.5) or leaves
// (restoring them). Does nothing when already in that mode.
void set_presenting(AppState& s, bool on);

// The header shown while presenting: the current page's figure caption, e.g.
// "sinusoidal · d_model 128 · base 10000 · L 256 · interleaved" or "ALiBi · 8 heads · L 64 · causal".
std::string parameter_header(const AppState& s);

}  // namespace peviz::app
