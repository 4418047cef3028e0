// Tests for app/model/pages/precision_page: the phase error of fp32, bf16 and fp16 positions, fp16's overflow past
// 65504, the marks at 2^p, and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("precision: fp16 has no phase past 65504, the marks sit at 2^p") {
  AppState s;
  show(s, Page::precision);
  const PrecisionOptions& o = s.pages.precision;
  REQUIRE(o.error[2].size() == 161);
  CHECK(std::isnan(o.error[2][8 * 17]));       // t = 2^17 overflows fp16
  CHECK(o.error[0][8 * 16] < 0.002);           // fp32 at 65536
  REQUIRE(o.indistinguishable.size() > 1);
  CHECK(o.indistinguishable[1] == 256.0);
}

TEST_CASE("precision: the options round-trip through the state JSON") {
  PageStates a;
  a.precision.head_dim = 64;
  a.precision.base = 500000.0;
  const PageStates back = json_round_trip(Page::precision, a);
  CHECK(back.precision.head_dim == 64);
  CHECK(back.precision.base == 500000.0);
  CHECK(back.precision.use_rope);
}
