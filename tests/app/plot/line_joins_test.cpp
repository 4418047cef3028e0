// Tests for app/plot/line_joins: which turns of a polyline count as sharp.
#include <catch2/catch.hpp>

#include "app/plot/line_joins.hpp"

using namespace peviz::plot;

TEST_CASE("straight and gently bent paths are not sharp") {
  CHECK_FALSE(is_sharp_turn(0, 0, 10, 0, 20, 0));    // straight on
  CHECK_FALSE(is_sharp_turn(0, 0, 10, 0, 10, 10));   // a right angle: miter sqrt(2)
  CHECK_FALSE(is_sharp_turn(0, 0, 10, 0, 5, 8.7f));  // 119.9 degrees
}

TEST_CASE("spikes and turns past 120 degrees are sharp") {
  CHECK(is_sharp_turn(0, 0, 10, 0, 5, 8.6f));            // 120.2 degrees
  CHECK(is_sharp_turn(0, 0, 10, 0, 0, 0));               // straight back
  // A jagged line in screen pixels: 14 px right, 200 px up, 14 px right, 180 px down.
  CHECK(is_sharp_turn(0, 300, 14, 100, 28, 280));
  CHECK(is_sharp_turn(14, 100, 28, 280, 42, 90));
}

TEST_CASE("zero-length segments are never sharp") {
  CHECK_FALSE(is_sharp_turn(5, 5, 5, 5, 0, 0));
  CHECK_FALSE(is_sharp_turn(0, 0, 5, 5, 5, 5));
}
