// Entering and leaving presentation mode (theme and zoom), and its big parameter header.
#include "app/model/presentation.hpp"

#include <algorithm>
#include <cstdio>

#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"

namespace peviz::app {

void set_presenting(AppState& s, bool on) {
  TeachState& t = s.teach;
  if (t.presenting == on) return;
  t.presenting = on;
  if (on) {
    t.saved_theme = int(s.theme);
    t.saved_zoom = s.ui_zoom;
    s.theme = Theme::light;
    s.ui_zoom = std::max(s.ui_zoom, kPresentationMinZoom);
  } else {
    s.theme = Theme(t.saved_theme);
    s.ui_zoom = t.saved_zoom;
  }
  s.fonts_dirty = true;
}

std::string parameter_header(const AppState& s) {
  // The same words as a figure's caption: the page's own parameters (RoPE, ALiBi, ...) on its page.
  return figure_caption(s, FigureView{});  // the window's: the page shown
}

}  // namespace peviz::app
