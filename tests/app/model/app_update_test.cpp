// Tests for app/model/app_update: the shown page recomputes only when dirty, a sidebar change marks the pages that
// follow it, errors reach the status line with the last results kept, every page's heatmaps, busy pages.
#include "app/model/app_update.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "app/model/page_model.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("the shown page recomputes when dirty, once") {
  AppState s;
  s.pages.page = Page::alibi;
  s.pages.mark(Page::alibi);
  CHECK(update_pages(s, 0.0));
  CHECK(s.pages.alibi.slopes.size() == 8);
  s.pages.alibi.slopes.clear();
  CHECK_FALSE(update_pages(s, 0.0));  // nothing dirty: nothing recomputed
  CHECK(s.pages.alibi.slopes.empty());
}

TEST_CASE("a sidebar change marks exactly the pages that follow the sidebar's parameters") {
  AppState s;
  s.pages.page = Page::alibi;
  s.pages.dirty.fill(false);
  mark_params_changed(s);
  update_pages(s, 0.0);
  for (int i = 0; i < kPageCount; ++i) {
    if (Page(i) == s.pages.page) continue;  // shown: recomputed if marked, so no longer dirty
    CAPTURE(page_name(Page(i)));
    CHECK(s.pages.dirty[std::size_t(i)] == page_models()[std::size_t(i)]->follows_params);
  }
  CHECK(s.pages.dirty[std::size_t(Page::linear_shift)]);
}

TEST_CASE("a page error goes to the status line, the last results stay; the next good update clears it") {
  AppState s;
  s.pages.page = Page::alibi;
  s.pages.mark(Page::alibi);
  update_pages(s, 0.0);
  s.pages.alibi.heads = 0;  // below the window's range
  s.pages.mark(Page::alibi);
  CHECK(update_pages(s, 0.0));
  CHECK(s.status_is_error);
  CHECK(s.status.rfind("Not applied: ", 0) == 0);
  CHECK(s.status.find("heads") != std::string::npos);
  CHECK(s.pages.alibi.slopes.size() == 8);  // the previous results are still drawn
  s.pages.alibi.heads = 4;
  s.pages.mark(Page::alibi);
  update_pages(s, 0.0);
  CHECK_FALSE(s.status_is_error);
  CHECK(s.status == "ALiBi: up to date");
  CHECK(s.pages.alibi.slopes.size() == 4);
}

TEST_CASE("a load error reaches the status line even when nothing recomputes") {
  AppState s;
  s.pages.dirty.fill(false);
  CHECK(update_pages(s, 0.0, "from-npy: cannot open x.npy"));
  CHECK(s.status == "Not applied: from-npy: cannot open x.npy");
  CHECK(s.status_is_error);
}

TEST_CASE("page_images lists every page's heatmaps once; shown_page_busy asks the shown page") {
  AppState s;
  const std::vector<plot::HeatmapImage*> images = page_images(s.pages);
  std::size_t expected = 0;
  for (const PageModel* p : page_models()) {
    std::vector<plot::HeatmapImage*> own;
    if (p->heatmaps) p->heatmaps(s.pages, own);
    expected += own.size();
  }
  CHECK(images.size() == expected);
  CHECK(std::count(images.begin(), images.end(), &s.pages.alibi.grid_image) == 1);
  CHECK(std::count(images.begin(), images.end(), &s.pages.alibi.head_image) == 1);

  s.pages.page = Page::rope_clocks;
  CHECK_FALSE(shown_page_busy(s));
  s.pages.rope_clocks.animate = true;
  CHECK(shown_page_busy(s));
  s.pages.page = Page::alibi;  // no busy hook
  CHECK_FALSE(shown_page_busy(s));
}
