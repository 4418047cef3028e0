// The window layer's pure parts: the browser's wheel deltas in GLFW's notches.
#include <catch2/catch.hpp>

#include "app/gfx/window.hpp"

using peviz::gfx::dom_wheel_notches;

TEST_CASE("a DOM wheel delta becomes notches, positive upwards, whatever its unit") {
  // One notch down: 100 pixels (Chromium), 3 lines (Firefox) or 1/80 page; ImGui scrolls down on -1.
  CHECK(dom_wheel_notches(100.0, 0) == Approx(-1.0));
  CHECK(dom_wheel_notches(3.0, 1) == Approx(-1.0));
  CHECK(dom_wheel_notches(1.0 / 80.0, 2) == Approx(-1.0));
  // Up is positive, and a touchpad's small pixel delta stays small (not rounded to a whole notch).
  CHECK(dom_wheel_notches(-100.0, 0) == Approx(1.0));
  CHECK(dom_wheel_notches(-4.0, 0) == Approx(0.04));
  CHECK(dom_wheel_notches(0.0, 1) == 0.0);
}
