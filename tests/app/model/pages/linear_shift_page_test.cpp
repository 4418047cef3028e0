// Tests for app/model/pages/linear_shift_page: PE(p + k) = R(k) PE(p) to float32 rounding, R(k) block diagonal, the
// page following the sidebar's encoding, and its state JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/base/errors.hpp"

#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("linear shift: the identity holds to float32 rounding; R(k) is block diagonal") {
  AppState s;
  show(s, Page::linear_shift);
  const LinearShiftOptions& o = s.pages.linear_shift;
  REQUIRE(o.shifted.size() == 128);
  CHECK(o.max_error_here < 1e-6);
  CHECK(o.max_error_all_p < 1e-6);
  CHECK(o.rk.at(0, 0) == Approx(std::cos(5.0)));  // k = 5, pair 0 has w = 1
  CHECK(o.rk.at(0, 2) == 0.0f);                    // block-diagonal
}

TEST_CASE("linear shift follows the sidebar: a binary encoding is not sinusoidal") {
  AppState s;
  show(s, Page::linear_shift);
  CHECK(s.pages.linear_shift.sinusoidal);
  s.params.encoding = Encoding::binary;  // a sidebar change re-marks the dependent pages
  mark_params_changed(s);
  show(s, Page::linear_shift);
  CHECK_FALSE(s.pages.linear_shift.sinusoidal);
}

TEST_CASE("linear shift: p and k round-trip through the state JSON; a p past the limit is refused") {
  PageStates a;
  a.linear_shift.p = 20;
  a.linear_shift.k = 3;
  const PageStates back = json_round_trip(Page::linear_shift, a);
  CHECK(back.linear_shift.p == 20);
  CHECK(back.linear_shift.k == 3);
  PageStates refused;
  CHECK_THROWS_AS(read_page_json(page_model(Page::linear_shift), {{"p", -1}}, refused), ParamError);
}
