// Tests for app/model/pages/rope_clocks_page: each dial's angle t * theta_i mod 2 pi, the pairs, the animation of t,
// and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "app/model/state_check.hpp"

#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("RoPE clocks: angles are t * theta mod 2 pi, pairs follow the pairing, animation advances t") {
  AppState s;
  s.pages.rope_clocks.position = 10.0;
  show(s, Page::rope_clocks);
  const RopeClocksOptions& o = s.pages.rope_clocks;
  REQUIRE(o.angles.size() == 32);
  CHECK(o.angles[0] == Approx(10.0 - 2 * std::numbers::pi));
  CHECK(o.angles[1] == Approx(10.0 * std::pow(10000.0, -2.0 / 64.0) - 2 * std::numbers::pi));
  REQUIRE(o.channel_b.size() > 3);
  CHECK(o.channel_b[3] == 3 + 32);  // halves
  s.pages.rope_clocks.rope.pairing = RopePairing::interleaved;
  s.pages.rope_clocks.animate = true;
  s.pages.rope_clocks.speed = 4.0f;
  s.last_frame_ms = 500.0;  // animation step capped at 0.1 s
  update_app_state(s);
  CHECK(o.channel_b[3] == 7);
  CHECK(o.position == Approx(10.4));
  CHECK(o.angles[0] == Approx(10.4 - 2 * std::numbers::pi));
}

// The speed slider took any typed value (Ctrl+click, no clamp): a negative speed ran t below 0, a state the
// session refuses. The slider clamps now, and the animation never goes below t = 0.

// The speed slider took any typed value (Ctrl+click, no clamp): a negative speed ran t below 0, a state the
// session refuses. The slider clamps now, and the animation never goes below t = 0.
TEST_CASE("RoPE clocks: the animation keeps t >= 0 whatever the speed") {
  AppState s;
  s.pages.rope_clocks.position = 0.05;
  s.pages.rope_clocks.animate = true;
  s.pages.rope_clocks.speed = -5.0f;
  s.last_frame_ms = 100.0;
  show(s, Page::rope_clocks);
  update_app_state(s);
  CHECK(s.pages.rope_clocks.position == 0.0);
  CHECK(check_state(s) == "");
}

TEST_CASE("RoPE clocks: the options round-trip through the state JSON") {
  PageStates a;
  a.rope_clocks.rope = RopeParams{32, 0, 500.0, RopePairing::interleaved};
  a.rope_clocks.position = 37.5;
  const PageStates back = json_round_trip(Page::rope_clocks, a);
  CHECK(back.rope_clocks.rope.head_dim == 32);
  CHECK(back.rope_clocks.rope.base == 500.0);
  CHECK(back.rope_clocks.rope.pairing == RopePairing::interleaved);
  CHECK(back.rope_clocks.position == 37.5);
}
