// Tests for app/plot/plot_transform: data <-> pixel mapping, zoom about a point, pan.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/plot/plot_transform.hpp"

using namespace peviz::plot;

TEST_CASE("data and pixels map linearly and back") {
  AxisMap x{{0.0, 100.0}, 50.0f, 250.0f};
  CHECK(data_to_pixel(x, 0.0) == Approx(50.0f));
  CHECK(data_to_pixel(x, 50.0) == Approx(150.0f));
  CHECK(pixel_to_data(x, 250.0f) == Approx(100.0));
  for (double v : {-7.0, 3.25, 99.0}) CHECK(pixel_to_data(x, data_to_pixel(x, v)) == Approx(v).margin(1e-4));
  AxisMap y{{-1.0, 1.0}, 400.0f, 100.0f};  // y: bottom pixel first, larger values go up
  CHECK(data_to_pixel(y, 1.0) == Approx(100.0f));
  CHECK(data_to_pixel(y, -1.0) == Approx(400.0f));
}

TEST_CASE("a degenerate axis maps to its middle instead of dividing by zero") {
  AxisMap x{{5.0, 5.0}, 0.0f, 100.0f};
  CHECK(data_to_pixel(x, 5.0) == Approx(50.0f));
  AxisMap flat{{0.0, 1.0}, 10.0f, 10.0f};
  CHECK(pixel_to_data(flat, 10.0f) == 0.0);
}

TEST_CASE("zooming keeps the anchor under the cursor") {
  AxisMap x{{0.0, 100.0}, 0.0f, 1000.0f};
  const double anchor = pixel_to_data(x, 300.0f);
  AxisMap zoomed = x;
  zoomed.range = zoom_range(x.range, anchor, 0.5);
  CHECK(zoomed.range.span() == Approx(50.0));
  CHECK(data_to_pixel(zoomed, anchor) == Approx(300.0f));
  const AxisRange back = zoom_range(zoomed.range, anchor, 2.0);
  CHECK(back.min == Approx(0.0).margin(1e-9));
  CHECK(back.max == Approx(100.0));
}

TEST_CASE("panning moves the data with the mouse") {
  AxisMap x{{0.0, 100.0}, 0.0f, 1000.0f};
  const AxisRange r = pan_range(x, 100.0f);  // drag right by 10% of the width
  CHECK(r.min == Approx(-10.0));
  CHECK(r.max == Approx(90.0));
  AxisMap y{{0.0, 10.0}, 500.0f, 0.0f};  // y axis: dragging down (positive pixels) shows larger values
  const AxisRange ry = pan_range(y, 50.0f);
  CHECK(ry.min == Approx(1.0));
}

TEST_CASE("sanitize_range keeps a minimum span and rejects non-finite ranges") {
  const AxisRange fallback{0.0, 1.0};
  const AxisRange tiny = sanitize_range({2.0, 2.0 + 1e-9}, fallback, 0.5);
  CHECK(tiny.span() == Approx(0.5));
  CHECK(0.5 * (tiny.min + tiny.max) == Approx(2.0));
  const AxisRange bad = sanitize_range({NAN, 1.0}, fallback, 0.5);
  CHECK(bad.min == 0.0);
  CHECK(bad.max == 1.0);
}
