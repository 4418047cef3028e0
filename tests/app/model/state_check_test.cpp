// The monkey's per-frame invariant: a valid state passes; each kind of broken state is named with where.
#include <catch2/catch.hpp>

#include "app/model/state_check.hpp"
#include "app/model/state_json.hpp"

using namespace peviz;
using namespace peviz::app;
using nlohmann::json;

TEST_CASE("state check: the default state and an edited valid one pass") {
  AppState s;
  CHECK(check_state(s) == "");
  s.params.encoding = Encoding::binary;
  s.params.d_model = 33;
  s.params.seq_len = 700;
  s.highlight_position = 699;
  s.pages.page = Page::precision;
  s.pages.alibi.heads = 12;
  s.pages.alibi.head = 11;
  s.pages.rope_clocks.rope.pairing = RopePairing::interleaved;
  s.pages.context_extension.params.factor = 8.0;
  CHECK(check_state(s) == "");
}

TEST_CASE("state check: a parameter set core refuses is named with its place") {
  AppState s;
  SECTION("sidebar") {
    s.params.d_model = 0;
    CHECK(check_state(s).starts_with("params: d-model: "));
  }
  SECTION("RoPE clocks: odd head_dim") {
    s.pages.rope_clocks.rope.head_dim = 63;
    CHECK(check_state(s).starts_with("rope_clocks: "));
  }
  SECTION("ALiBi: no heads") {
    s.pages.alibi.heads = 0;
    CHECK(check_state(s).starts_with("alibi: heads: "));
  }
  SECTION("context extension: factor below 1") {
    s.pages.context_extension.params.factor = 0.5;
    CHECK(check_state(s).starts_with("context_extension: factor: "));
  }
  SECTION("T5: no buckets") {
    s.pages.t5_shaw.num_buckets = 0;
    CHECK(check_state(s).starts_with("t5_shaw: "));
  }
  SECTION("distance chart: Shaw k negative") {
    s.pages.distance_chart.params.max_relative = -1;
    CHECK(check_state(s).starts_with("distance: "));
  }
}

TEST_CASE("state check: a state that does not survive state JSON is refused with the key") {
  AppState s;
  SECTION("a value state JSON refuses (outside the window's range)") {
    s.pages.alibi.seq_len = 5000;
    CHECK(check_state(s) == "round trip: refused: seq_len: must be an integer in [2, 1024], got 5000");
  }
  SECTION("a highlight past a length shortened this frame is saved clamped, as reading would clamp it") {
    s.params.seq_len = 100;
    s.highlight_position = 100;
    CHECK(check_state(s) == "");
    CHECK(state_to_json(s)["view"]["highlight"] == 99);
  }
  SECTION("a RoPE head_dim the state JSON keeps but core refuses (odd), named by core") {
    s.pages.rope_decay.head_dim = 63;
    CHECK(check_state(s).starts_with("rope_decay: head-dim: "));
  }
}

TEST_CASE("state check: first_json_difference names the first differing path") {
  const json a = {{"x", 1}, {"o", {{"k", {1, 2, 3}}}}};
  CHECK(first_json_difference(a, a) == "");
  json b = a;
  b["o"]["k"][2] = 4;
  CHECK(first_json_difference(a, b) == "o.k.2: 3 -> 4");
  b = a;
  b.erase("x");
  CHECK(first_json_difference(a, b) == "x: 1 -> (missing)");
  b = a;
  b["y"] = true;
  CHECK(first_json_difference(a, b) == "y: (missing) -> true");
  CHECK(first_json_difference(json(2), json(2.0)) == "");  // one number, two JSON spellings
  CHECK(first_json_difference(json("a"), json(1)) == "(top): \"a\" -> 1");
}
