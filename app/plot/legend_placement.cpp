// Legend placement: the inner corner free of data, else outside on the right, else the least-covered corner.
#include "app/plot/legend_placement.hpp"

#include <algorithm>
#include <array>

namespace peviz::plot {

Box legend_box(const Box& area, float width, float height, float pad, LegendSpot spot) {
  if (spot == LegendSpot::outside_right) return {area.x1 + pad, area.y0, area.x1 + pad + width, area.y0 + height};
  if (spot == LegendSpot::outside_top) return {area.x0, area.y0 - pad - height, area.x1, area.y0 - pad};
  const bool right = spot == LegendSpot::top_right || spot == LegendSpot::bottom_right;
  const bool top = spot == LegendSpot::top_right || spot == LegendSpot::top_left;
  const float x0 = right ? area.x1 - pad - width : area.x0 + pad;
  const float y0 = top ? area.y0 + pad : area.y1 - pad - height;
  return {x0, y0, x0 + width, y0 + height};
}

namespace {

int covered_points(Box box, const std::vector<Point>& points, const std::vector<Box>& notes, float clearance) {
  box = {box.x0 - clearance, box.y0 - clearance, box.x1 + clearance, box.y1 + clearance};
  int n = 0;
  for (const Point& p : points) n += box.contains(p);
  for (const Box& b : notes) n += box.overlaps(b) ? 1 : 0;
  return n;
}

}  // namespace

LegendPlacement place_legend(const Box& area, const LegendSize& size, float pad, const std::vector<Point>& points,
                             const std::vector<Box>& notes, float room_right, float room_top) {
  constexpr std::array<LegendSpot, 4> kCorners = {LegendSpot::top_right, LegendSpot::top_left, LegendSpot::bottom_right,
                                                  LegendSpot::bottom_left};
  LegendPlacement best;
  best.covered = -1;
  for (LegendSpot spot : kCorners) {
    const Box box = legend_box(area, size.width, size.height, pad, spot);
    const int covered = covered_points(box, points, notes, 0.5f * pad);
    if (covered == 0) return {spot, box, 0};
    if (best.covered < 0 || covered < best.covered) best = {spot, box, covered};
  }
  if (room_right >= size.width + 2 * pad)
    return {LegendSpot::outside_right, legend_box(area, size.width, size.height, pad, LegendSpot::outside_right), 0};
  if (room_top >= size.row_height + pad)
    return {LegendSpot::outside_top, legend_box(area, size.width, size.row_height, pad, LegendSpot::outside_top), 0};
  return best;
}

Point place_note(const Box& area, Point at, float width, float height, float step, int tries,
                 const std::vector<Point>& points, const std::vector<Box>& notes) {
  const bool inside = at.y >= area.y0 && at.y + height <= area.y1;
  if (!inside) return at;  // a note placed outside the area (a label above it) covers no data
  // Inside the area across: moved left from the anchor as far as its right end needs (a note wider than the area
  // starts at the area's left edge).
  const auto fit = [&](float x) { return std::max(area.x0, std::min(x, area.x1 - width)); };
  for (const float x : {fit(at.x), fit(at.x - width)})  // right of the anchor, else ending at it
    for (int k = 0; k <= 2 * tries; ++k) {
      const float dy = float((k + 1) / 2) * step * (k % 2 == 1 ? -1.0f : 1.0f);  // 0, -1, +1, -2, +2, ...
      const Box box{x, at.y + dy, x + width, at.y + dy + height};
      if (box.y0 < area.y0 || box.y1 > area.y1) continue;
      if (covered_points(box, points, notes, -1.0f) == 0) return {x, box.y0};  // its edges may touch a line
    }
  return {fit(at.x), at.y};
}

}  // namespace peviz::plot
