// Tests for app/model/pages/criteria_page: each encoding's report on the four criteria (unique, bounded, consistent,
// growth), the normalised positions, and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("criteria cover every encoding: sinusoids pass, t/(L-1) and integer t fail where they should") {
  AppState s;
  show(s, Page::criteria);
  const CriteriaOptions& c = s.pages.criteria;
  REQUIRE(c.reports.size() > 4);
  CHECK(c.reports[0].unique);
  CHECK(c.reports[0].bounded);
  CHECK_FALSE(c.reports[3].consistent);  // t/(L-1): the offset's meaning changes with L
  CHECK_FALSE(c.reports[4].bounded);     // integer t grows without bound
  CHECK(c.reports[4].growth == Approx(4.0).margin(0.05));
  REQUIRE(c.normalized_a.size() > 63);
  CHECK(c.normalized_a[63] == 1.0f);
}

TEST_CASE("criteria: the two lengths round-trip through the state JSON") {
  PageStates a;
  a.criteria.length_a = 32;
  a.criteria.length_b = 128;
  const PageStates back = json_round_trip(Page::criteria, a);
  CHECK(back.criteria.length_a == 32);
  CHECK(back.criteria.length_b == 128);
}
