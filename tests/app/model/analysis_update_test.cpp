// Tests for app/model/analysis_update: the shown page recomputes only when dirty, a sidebar change marks the pages
// that follow it, errors reach the status line with the last results kept, every page's heatmaps, busy pages.
#include "app/model/analysis_update.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "app/model/page_model.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("the shown page recomputes when dirty, once") {
  AppState s;
  s.analysis.page = Page::alibi;
  s.analysis.mark(Page::alibi);
  CHECK(update_analysis(s, false, 0.0));
  CHECK(s.analysis.alibi.slopes.size() == 8);
  s.analysis.alibi.slopes.clear();
  CHECK_FALSE(update_analysis(s, false, 0.0));  // nothing dirty: nothing recomputed
  CHECK(s.analysis.alibi.slopes.empty());
}

TEST_CASE("a sidebar change marks exactly the pages that follow the sidebar's parameters") {
  AppState s;
  s.analysis.page = Page::alibi;
  s.analysis.dirty.fill(false);
  update_analysis(s, true, 0.0);
  for (int i = 0; i < kPageCount; ++i) {
    if (Page(i) == s.analysis.page) continue;  // shown: recomputed if marked, so no longer dirty
    CAPTURE(page_name(Page(i)));
    CHECK(s.analysis.dirty[std::size_t(i)] == page_models()[std::size_t(i)]->follows_params);
  }
  CHECK(s.analysis.dirty[std::size_t(Page::linear_shift)]);
}

TEST_CASE("a page error goes to the status line, the last results stay; the next good update clears it") {
  AppState s;
  s.analysis.page = Page::alibi;
  s.analysis.mark(Page::alibi);
  update_analysis(s, false, 0.0);
  s.analysis.alibi.heads = 0;  // below the window's range
  s.analysis.mark(Page::alibi);
  CHECK(update_analysis(s, false, 0.0));
  CHECK(s.status_is_error);
  CHECK(s.status.rfind("Not applied: ", 0) == 0);
  CHECK(s.status.find("heads") != std::string::npos);
  CHECK(s.analysis.alibi.slopes.size() == 8);  // the previous results are still drawn
  s.analysis.alibi.heads = 4;
  s.analysis.mark(Page::alibi);
  update_analysis(s, false, 0.0);
  CHECK_FALSE(s.status_is_error);
  CHECK(s.status == "ALiBi: up to date");
  CHECK(s.analysis.alibi.slopes.size() == 4);
}

TEST_CASE("a load error reaches the status line even when nothing recomputes") {
  AppState s;
  s.analysis.dirty.fill(false);
  CHECK(update_analysis(s, false, 0.0, "from-npy: cannot open x.npy"));
  CHECK(s.status == "Not applied: from-npy: cannot open x.npy");
  CHECK(s.status_is_error);
}

TEST_CASE("analysis_images lists every page's heatmaps once; analysis_busy asks the shown page") {
  AppState s;
  const std::vector<plot::HeatmapImage*> images = analysis_images(s.analysis);
  std::size_t expected = 0;
  for (const PageModel* p : page_models()) {
    std::vector<plot::HeatmapImage*> own;
    if (p->heatmaps) p->heatmaps(s.analysis, own);
    expected += own.size();
  }
  CHECK(images.size() == expected);
  CHECK(std::count(images.begin(), images.end(), &s.analysis.alibi.grid_image) == 1);
  CHECK(std::count(images.begin(), images.end(), &s.analysis.alibi.head_image) == 1);

  s.analysis.page = Page::rope_clocks;
  CHECK_FALSE(analysis_busy(s));
  s.analysis.rope_clocks.animate = true;
  CHECK(analysis_busy(s));
  s.analysis.page = Page::alibi;  // no busy hook
  CHECK_FALSE(analysis_busy(s));
}
