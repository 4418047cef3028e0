// Legend placement: a free corner first, in order; outside (right, then above) when every corner covers data; never over a note.
#include <catch2/catch.hpp>

#include "app/plot/legend_placement.hpp"

using namespace peviz::plot;

namespace {

const Box kArea{0, 0, 400, 200};

// Samples of a line through the area from (x0, y0) to (x1, y1).
std::vector<Point> segment(float x0, float y0, float x1, float y1) {
  std::vector<Point> out;
  for (int i = 0; i <= 100; ++i) out.push_back({x0 + (x1 - x0) * i / 100.0f, y0 + (y1 - y0) * i / 100.0f});
  return out;
}

}  // namespace

TEST_CASE("the legend takes the first corner that covers no data, in matplotlib's order") {
  const LegendPlacement empty = place_legend(kArea, {100, 40, 30}, 5, {}, {}, 0, 0);
  CHECK(empty.spot == LegendSpot::top_right);
  CHECK(empty.box.x1 == 395);
  CHECK(empty.box.y0 == 5);
  // A line rising to the top-right corner (y down: from bottom-left to top-right).
  const LegendPlacement rising = place_legend(kArea, {100, 40, 30}, 5, segment(0, 200, 400, 0), {}, 0, 0);
  CHECK(rising.spot == LegendSpot::top_left);
  CHECK(rising.covered == 0);
  // A flat line along the top: a bottom corner.
  CHECK(place_legend(kArea, {100, 40, 30}, 5, segment(0, 20, 400, 20), {}, 0, 0).spot == LegendSpot::bottom_right);
  // Text notes count as data: a note in the top-left and a line through the top-right.
  const std::vector<Box> note{{10, 10, 60, 30}};
  CHECK(place_legend(kArea, {100, 40, 30}, 5, segment(0, 200, 400, 0), note, 0, 0).spot == LegendSpot::bottom_right);
}

TEST_CASE("when every corner covers data the legend goes outside, or to the least covered corner without room") {
  std::vector<Point> everywhere;
  for (float y = 0; y <= 200; y += 10)
    for (const Point& p : segment(0, y, 400, y)) everywhere.push_back(p);
  const LegendPlacement outside = place_legend(kArea, {100, 40, 30}, 5, everywhere, {}, 120, 0);
  CHECK(outside.spot == LegendSpot::outside_right);
  CHECK(outside.box.x0 > kArea.x1);
  CHECK(outside.covered == 0);
  // No room on the right: the corner with the fewest points (the top-left has a gap).
  std::vector<Point> gap;
  for (const Point& p : everywhere)
    if (!(p.x < 120 && p.y < 60)) gap.push_back(p);
  const LegendPlacement cramped = place_legend(kArea, {100, 40, 30}, 5, gap, {}, 50, 0);
  CHECK(cramped.spot == LegendSpot::top_left);
  CHECK(cramped.covered == 0);
  const LegendPlacement full = place_legend(kArea, {100, 40, 30}, 5, everywhere, {}, 50, 0);
  CHECK(full.spot != LegendSpot::outside_right);
  CHECK(full.covered > 0);
  // Room above but not on the right: rows above the area, as wide as it.
  const LegendPlacement above = place_legend(kArea, {100, 40, 30}, 5, everywhere, {}, 50, 40);
  CHECK(above.spot == LegendSpot::outside_top);
  CHECK(above.box.y1 == -5);
  CHECK(above.box.y0 == -35);
  CHECK(above.box.x1 == 400);
}

TEST_CASE("a note moves up or down to the nearest free spot, else to the left of its anchor; one outside the area stays") {
  const std::vector<Point> line = segment(0, 100, 400, 100);  // a flat line through the middle
  CHECK(place_note(kArea, {50, 50}, 80, 16, 10, 6, line, {}).y == 50);  // free where it is
  const Point moved = place_note(kArea, {50, 90}, 80, 16, 10, 6, line, {});
  CHECK(moved.y == 80);  // up one step: 80..96 clears the line at 100
  CHECK(moved.x == 50);
  const std::vector<Box> other{{40, 70, 200, 90}};
  CHECK(place_note(kArea, {50, 90}, 80, 16, 10, 6, line, other).y == 100);  // up is taken: down one step, its top edge on the line
  CHECK(place_note(kArea, {50, -20}, 80, 16, 10, 6, line, {}).y == -20);   // above the area
  std::vector<Point> everywhere;
  for (float y = 0; y <= 200; y += 5)
    for (const Point& p : segment(0, y, 400, y)) everywhere.push_back(p);
  CHECK(place_note(kArea, {50, 90}, 80, 16, 10, 6, everywhere, {}).y == 90);  // nowhere free: where asked
  // Everything right of x = 252 is taken: the note ends at its anchor instead, at the anchor's height.
  std::vector<Point> right_half;
  for (const Point& p : everywhere)
    if (p.x > 252) right_half.push_back(p);
  const Point left = place_note(kArea, {250, 90}, 80, 16, 10, 6, right_half, {});
  CHECK(left.x == 170);
  CHECK(left.y == 90);
}

TEST_CASE("a note stays inside the area across: moved left until its right end is in, never past the left edge") {
  const std::vector<Point> line = segment(0, 100, 400, 100);
  const Point near_edge = place_note(kArea, {350, 50}, 120, 16, 10, 6, line, {});
  CHECK(near_edge.x == 280);  // 280 + 120 = the area's right edge
  CHECK(near_edge.y == 50);
  CHECK(place_note(kArea, {100, 50}, 500, 16, 10, 6, line, {}).x == 0);  // wider than the area: from its left edge
  std::vector<Point> everywhere;
  for (float y = 0; y <= 200; y += 5)
    for (const Point& p : segment(0, y, 400, y)) everywhere.push_back(p);
  CHECK(place_note(kArea, {390, 90}, 80, 16, 10, 6, everywhere, {}).x == 320);  // nowhere free: inside all the same
}
