// Tests for app/model/pages/t5_shaw_page: T5's buckets and Shaw's clipped distances for the default settings, their
// palettes, and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/model/state_check.hpp"
#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("T5 buckets and Shaw clipping at the defaults") {
  AppState s;
  show(s, Page::t5_shaw);
  const T5ShawOptions& t = s.pages.t5_shaw;
  CHECK(t.buckets.at(0, 8) == 16 + 8);  // bidirectional, r = 8: past the exact range of 8
  CHECK(t.shaw.at(0, 63) == 8.0f);
  REQUIRE(t.bucket_of_distance.size() > 63);
  CHECK(t.bucket_of_distance[63] == 0.0f);  // r = 0
  CHECK(t.buckets_image.colormap == plot::Colormap::viridis);  // ordered ids: a sequential palette
  CHECK(t.shaw_image.colormap == plot::Colormap::diverging);   // signed distances: diverging around 0
}

TEST_CASE("T5/Shaw: the options round-trip through the state JSON") {
  PageStates a;
  a.t5_shaw.seq_len = 48;
  a.t5_shaw.num_buckets = 16;
  a.t5_shaw.max_distance = 64;
  a.t5_shaw.causal = true;
  a.t5_shaw.max_relative = 4;
  const PageStates back = json_round_trip(Page::t5_shaw, a);
  CHECK(back.t5_shaw.seq_len == 48);
  CHECK(back.t5_shaw.num_buckets == 16);
  CHECK(back.t5_shaw.max_distance == 64);
  CHECK(back.t5_shaw.causal);
  CHECK(back.t5_shaw.max_relative == 4);
}

// Found by peviz --monkey 11: more buckets left max distance at or below the new exact range, and leaving the
// causal form with 2 or 3 buckets was refused by core. The update step lifts the dependent knob.
TEST_CASE("T5 page: buckets and max distance follow their dependent lower bounds") {
  AppState s;
  T5ShawOptions& o = s.pages.t5_shaw;
  o.num_buckets = 8;
  o.max_distance = 3;  // exact range (8 / 2) / 2 = 2
  show(s, Page::t5_shaw);
  REQUIRE(check_state(s) == "");
  o.num_buckets = 32;  // as the buckets slider leaves it: exact range 8
  s.pages.mark(Page::t5_shaw);
  update_app_state(s);
  CHECK(o.max_distance == 9);
  CHECK(check_state(s) == "");
  o.causal = true;
  o.num_buckets = 2;
  s.pages.mark(Page::t5_shaw);
  update_app_state(s);
  CHECK(check_state(s) == "");
  o.causal = false;  // as the checkbox leaves it: bidirectional needs 4 buckets
  s.pages.mark(Page::t5_shaw);
  update_app_state(s);
  CHECK(o.num_buckets == 4);
  CHECK(o.max_distance == 9);
  CHECK_FALSE(s.status_is_error);
  CHECK(check_state(s) == "");
}
