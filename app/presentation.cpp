// Entering and leaving presentation mode (theme and zoom), and its big parameter header.
#include "app/presentation.hpp"

#include <algorithm>
#include <cstdio>

#include "app/analysis_update.hpp"

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
  const EncodingParams& p = s.params;
  std::string out(to_string(p.encoding));
  char buf[64];
  std::snprintf(buf, sizeof buf, " · d_model %d", p.d_model);
  out += buf;
  if (p.encoding == Encoding::sinusoidal) {
    std::snprintf(buf, sizeof buf, " · base %g", p.base);
    out += buf;
  }
  if (p.encoding == Encoding::learned) {
    std::snprintf(buf, sizeof buf, " · max_len %d", p.max_len);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " · L %d", p.seq_len);
  out += buf;
  if (s.analysis.page != Page::basics) {
    out += "  ·  ";
    out += page_title(s.analysis.page);
  }
  return out;
}

}  // namespace peviz::app
