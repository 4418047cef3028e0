// The pages' update step: the shown page recomputes its cache through its registry entry when dirty.
#include "app/model/analysis_update.hpp"

#include "app/model/page_model.hpp"
#include "core/errors.hpp"

namespace peviz::app {

namespace {

// Runs the shown page's update when it is dirty. Returns (recomputed, error text).
std::pair<bool, std::string> update_shown_page(AppState& s) {
  AnalysisState& a = s.analysis;
  const PageModel& page = page_model(a.page);
  const bool recompute = std::exchange(a.dirty[std::size_t(a.page)], false);
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
  AnalysisState& a = s.analysis;
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

bool update_analysis(AppState& s, bool params_changed, double dt, const std::string& load_error) {
  AnalysisState& a = s.analysis;
  for (int i = 0; i < kPageCount; ++i)
    if (params_changed && page_models()[std::size_t(i)]->follows_params) a.mark(Page(i));
  if (const PageModel& shown = page_model(a.page); shown.advance) shown.advance(s, dt);
  auto [recomputed, error] = update_shown_page(s);
  if (error.empty()) error = load_error;
  report_status(s, recomputed, error);
  return recomputed || !error.empty();
}

std::vector<plot::HeatmapImage*> analysis_images(AnalysisState& a) {
  std::vector<plot::HeatmapImage*> images;
  for (const PageModel* page : page_models())
    if (page->heatmaps) page->heatmaps(a, images);
  return images;
}

bool analysis_busy(const AppState& s) {
  const PageModel& shown = page_model(s.analysis.page);
  return shown.busy && shown.busy(s);
}

}  // namespace peviz::app
