// Sharp-turn test for splitting thick polylines (see line_joins.hpp).
#include "app/plot/line_joins.hpp"

#include <cmath>

namespace peviz::plot {

bool is_sharp_turn(float ax, float ay, float bx, float by, float cx, float cy) {
  const double ux = double(bx) - ax, uy = double(by) - ay, vx = double(cx) - bx, vy = double(cy) - by;
  const double lu = std::hypot(ux, uy), lv = std::hypot(vx, vy);
  if (!(lu > 0.0) || !(lv > 0.0)) return false;
  // cos(turn) = u.v / (|u| |v|); a turn over 120 degrees has cos < -1/2.
  return (ux * vx + uy * vy) < -0.5 * lu * lv;
}

}  // namespace peviz::plot
