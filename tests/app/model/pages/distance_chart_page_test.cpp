// Tests for app/model/pages/distance_chart_page: every method's score by distance, normalised to 1 at r = 0, the
// series shown by default, and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>

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
