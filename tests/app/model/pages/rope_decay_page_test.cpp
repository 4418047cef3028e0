// Tests for app/model/pages/rope_decay_page: the RoFormer score and bound against the published figures, and the
// page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("RoPE decay: the score starts at 1, the bound at RoFormer's 32.5; both match the README figures") {
  AppState s;
  show(s, Page::rope_decay);
  const RopeDecayOptions& o = s.pages.rope_decay;
  REQUIRE(o.score.size() > 2);
  CHECK(o.score[0][0] == 1.0f);
  CHECK(o.score[0][10] * 128 == Approx(85.6).margin(0.05));   // RoFormer score, base 10000
  CHECK(o.score[0][1000] * 128 == Approx(20.4).margin(0.05));
  REQUIRE(o.bound.size() > 0);
  CHECK(o.bound[0][0] == Approx(32.5));  // (R/2 + 1) / 2 for R = 128: RoFormer's units
  CHECK(o.bound[0][10] == Approx(18.0).margin(0.05));
  CHECK(o.score[2][1000] > o.score[0][1000]);  // a larger base decays more slowly at r = 1000
}

TEST_CASE("RoPE decay: the options round-trip through the state JSON") {
  PageStates a;
  a.rope_decay.head_dim = 64;
  a.rope_decay.max_distance = 500;
  const PageStates back = json_round_trip(Page::rope_decay, a);
  CHECK(back.rope_decay.head_dim == 64);
  CHECK(back.rope_decay.max_distance == 500);
}
