// The one update step: every page recomputes what is dirty through its registry entry, before the views draw.
#include "app/model/app_update.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "app/model/page_model.hpp"
#include "core/base/errors.hpp"

namespace peviz::app {

namespace {

// Runs page `p`'s update when it is dirty (its PageStates::dirty entry, or its own finer flags). Returns
// (recomputed, error text).
std::pair<bool, std::string> update_page(AppState& s, Page p) {
  const PageModel& page = page_model(p);
  const bool marked = std::exchange(s.pages.dirty[std::size_t(p)], false);
  const bool recompute = marked || (page.pending && page.pending(s));
  if (!recompute || !page.update) return {recompute, ""};
  try {
    page.update(s);
  } catch (const ParamError& e) {
    return {true, e.what()};
  }
  return {true, ""};
}

// The status line: a page error replaces it; the next good recompute of a page restores the summary.
void report_status(AppState& s, bool recomputed, const std::string& error) {
  PageStates& a = s.pages;
  if (!error.empty()) {
    s.status = "Not applied: " + error;
    s.status_is_error = true;
    a.status_from_page = true;
  } else if (recomputed && a.status_from_page) {
    s.status = std::string(page_title(a.page)) + ": up to date";
    s.status_is_error = false;
    a.status_from_page = false;
  }
}
}  // namespace

bool update_pages(AppState& s, double dt, const std::string& load_error) {
  bool current = false;
  for (int i = 0; i < kPageCount; ++i)
    if (page_models()[std::size_t(i)]->always_current) current |= update_page(s, Page(i)).first;
  const PageModel& shown = page_model(s.pages.page);
  if (shown.advance) shown.advance(s, dt);
  auto [recomputed, error] = shown.always_current ? std::pair<bool, std::string>{} : update_page(s, s.pages.page);
  if (error.empty()) error = load_error;
  report_status(s, recomputed, error);
  return current || recomputed || !error.empty();
}

std::vector<plot::HeatmapImage*> page_images(PageStates& a) {
  std::vector<plot::HeatmapImage*> images;
  for (const PageModel* page : page_models())
    if (page->heatmaps) page->heatmaps(a, images);
  return images;
}

bool shown_page_busy(const AppState& s) {
  const PageModel& shown = page_model(s.pages.page);
  return shown.busy && shown.busy(s);
}

bool update_app_state(AppState& s) {
  const auto start = std::chrono::steady_clock::now();
  s.last_recompute_ms = 0.0;
  const std::string load_error = apply_learned_requests(s);  // may change s.params
  const double dt = std::min(s.last_frame_ms, 100.0) / 1000.0;
  const bool recomputed = update_pages(s, dt, load_error);
  if (recomputed) s.last_recompute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return recomputed;
}

}  // namespace peviz::app
