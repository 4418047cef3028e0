// Tests for app/presentation: entering and leaving restore the user's theme and zoom; the header text.
#include <catch2/catch.hpp>

#include "app/model/presentation.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("presentation mode: light theme and zoom >= 1.5, the user's look restored on leave") {
  AppState s;
  s.theme = Theme::dark;
  s.ui_zoom = 1.2f;
  s.fonts_dirty = false;
  set_presenting(s, true);
  CHECK(s.teach.presenting);
  CHECK(s.theme == Theme::light);
  CHECK(s.ui_zoom == kPresentationMinZoom);
  CHECK(s.fonts_dirty);
  set_presenting(s, true);  // again: nothing changes, the saved look is kept
  set_presenting(s, false);
  CHECK_FALSE(s.teach.presenting);
  CHECK(s.theme == Theme::dark);
  CHECK(s.ui_zoom == 1.2f);
  s.ui_zoom = 2.5f;
  set_presenting(s, true);
  CHECK(s.ui_zoom == 2.5f);  // a larger zoom stays
}

TEST_CASE("the presentation header names the encoding and its parameters") {
  AppState s;
  s.params.d_model = 128;
  s.params.seq_len = 256;
  CHECK(parameter_header(s) == "sinusoidal · d_model 128 · base 10000 · L 256 · interleaved");
  s.params.encoding = Encoding::learned;
  s.params.max_len = 512;
  s.pages.page = Page::alibi;
  CHECK(parameter_header(s) == "ALiBi · 8 heads · L 64 · causal");  // a page shows its own parameters
  s.pages.page = Page::basics;
  CHECK(parameter_header(s) == "learned (random, seed 0) · d_model 128 · max_len 512 · L 256");
}
