// Where a plot's legend goes so that it covers no data: pure screen geometry (after matplotlib's loc="best").
#pragma once
#include <vector>

#include "app/plot/display_list.hpp"

namespace peviz::plot {

struct Box {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // screen pixels, y down
  bool contains(Point p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
  bool overlaps(const Box& b) const { return x0 < b.x1 && b.x0 < x1 && y0 < b.y1 && b.y0 < y1; }
};

enum class LegendSpot { top_right, top_left, bottom_right, bottom_left, outside_right, outside_top };

struct LegendPlacement {
  LegendSpot spot = LegendSpot::top_right;
  Box box;          // where the legend is drawn
  int covered = 0;  // obstacle points inside it (0 outside the area)
};

// The legend's box at an inner corner of `area`, `pad` in from its edges; outside_right: `pad` right of the area, at
// its top; outside_top: above the area, as wide as it, ending `pad` above it (its entries flow in rows there).
Box legend_box(const Box& area, float width, float height, float pad, LegendSpot spot);

// The legend (`width` x `height` as one column; `row_height` tall as rows across the area's width) for a plot area
// `area` holding the drawn samples `points` and the boxes of text notes `notes`. In order:
//   1. the first inner corner (top-right, top-left, bottom-right, bottom-left) that covers no point and no note,
//      with pad / 2 to spare;
//   2. outside_right, when the frame can give the area's right `room_right` >= width + 2 pad;
//   3. outside_top, when it can give `room_top` >= row_height + pad above the area;
//   4. the corner covering the fewest points.
struct LegendSize {
  float width = 0, height = 0, row_height = 0;
};
LegendPlacement place_legend(const Box& area, const LegendSize& size, float pad, const std::vector<Point>& points,
                             const std::vector<Box>& notes, float room_right, float room_top);

// Where a note of `width` x `height` anchored at its top-left `at` goes: there, or the nearest of the positions
// `step`, 2 step, ... (up to `tries` each way) above and below it, inside `area`, that covers no point and no
// other note (points on its edge, such as a marker line at the anchor, do not count); when none is, the same search
// with the note ending at the anchor's x (left of it); the anchor itself when none is free. Across, the note is kept
// inside the area: moved left until its right end is in (never left of the area's left edge). A note that starts
// above or below the area stays at its anchor.
Point place_note(const Box& area, Point at, float width, float height, float step, int tries,
                 const std::vector<Point>& points, const std::vector<Box>& notes);

}  // namespace peviz::plot
