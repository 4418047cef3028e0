// Tests for app/model/pages/distance_chart_page: every method's score by distance, normalised to 1 at r = 0, the
// series shown by default, and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/models/shipped_models.hpp"
#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("the distance chart: one series per method and ALiBi head, sinusoids at 1 for r = 0") {
  AppState s;
  show(s, Page::distance_chart);
  const DistanceChartOptions& d = s.pages.distance_chart;
  REQUIRE(d.series.names.size() == 2 + 8 + 2);
  CHECK(d.normalised.at(0, 127) == Approx(1.0f));  // sinusoidal at r = 0
  REQUIRE(d.shown.size() > 3);
  CHECK(d.shown[0]);
  CHECK_FALSE(d.shown[3]);  // alibi_h1 off by default
}

TEST_CASE("the distance chart: its options round-trip through the state JSON") {
  PageStates a;
  a.distance_chart.params.seq_len = 256;
  a.distance_chart.params.heads = 4;
  a.distance_chart.params.causal = true;
  a.distance_chart.params.max_relative = 8;
  const PageStates back = json_round_trip(Page::distance_chart, a);
  CHECK(back.distance_chart.params.seq_len == 256);
  CHECK(back.distance_chart.params.heads == 4);
  CHECK(back.distance_chart.params.causal);
  CHECK(back.distance_chart.params.max_relative == 8);
}

TEST_CASE("the distance chart marks the window or chunk of the loaded model's RoPE layers of the type shown") {
  AppState s;
  load_rope_model(s.pages, find_shipped_model("gemma-3-1b-it"), "", "sliding_attention");
  s.pages.distance_chart.params.seq_len = 1024;
  show(s, Page::distance_chart);
  const DistanceChartOptions& d = s.pages.distance_chart;
  CHECK(d.span_window == 512);
  CHECK(d.span_note == "gemma-3-1b-it: its 22 RoPE layers see a sliding window of 512 tokens (lines at r = +-512).");
  choose_rope_layer(s.pages, 0);  // full_attention: no window
  show(s, Page::distance_chart);
  CHECK(d.span_window == 0);
  CHECK(d.span_note.empty());
  load_rope_model(s.pages, find_shipped_model("llama-4-scout-17b-16e"), "");
  show(s, Page::distance_chart);
  CHECK(d.span_window == 8192);
  CHECK(d.span_note.find("chunks of 8192 tokens, so no key is 8192 or more away, beyond this chart's length") !=
        std::string::npos);
}
