// Tests for app/model/json_fields: typed reads of the state JSON (absent keys leave the value, wrong types and
// out-of-range numbers are refused naming the key), range checks, sections, and RoPE parameters both ways.
#include "app/model/json_fields.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "tests/core/param_error.hpp"

using namespace peviz;
using namespace peviz::app;
using nlohmann::json;

TEST_CASE("read: present keys are converted, absent ones leave the value as it was") {
  const json o = {{"n", 42}, {"x", 2.5}, {"on", true}, {"name", "sinusoidal"}, {"whole", 8.0}};
  int n = 0, whole = 0, untouched = 7;
  double x = 0;
  float xf = 0;
  bool on = false;
  std::string name;
  read(o, "n", n);
  read(o, "x", x);
  read(o, "x", xf);
  read(o, "on", on);
  read(o, "name", name);
  read(o, "whole", whole);  // an integral float is a whole number
  read(o, "missing", untouched);
  read(json::array(), "n", untouched);  // not an object: nothing to read
  CHECK(n == 42);
  CHECK(x == 2.5);
  CHECK(xf == 2.5f);
  CHECK(on);
  CHECK(name == "sinusoidal");
  CHECK(whole == 8);
  CHECK(untouched == 7);
}

TEST_CASE("read refuses wrong types, fractions, out-of-range and non-finite numbers, naming the key") {
  int i = 0;
  float f = 0;
  bool b = false;
  std::string s;
  CHECK(param_error_of([&] { read(json{{"n", "ten"}}, "n", i); }) == "n: has the wrong type: \"ten\"");
  CHECK(param_error_of([&] { read(json{{"n", 1.5}}, "n", i); }) == "n: must be an integer in the parameter's range, got 1.5");
  CHECK(param_error_of([&] { read(json{{"n", 1e300}}, "n", i); }).rfind("n: must be an integer", 0) == 0);
  CHECK(param_error_of([&] { read(json{{"f", 1e300}}, "f", f); }) == "f: must be a finite number, got 1e+300");
  CHECK(param_error_of([&] { read(json{{"b", 1}}, "b", b); }) == "b: has the wrong type: 1");
  CHECK(param_error_of([&] { read(json{{"s", 3}}, "s", s); }) == "s: has the wrong type: 3");
}

TEST_CASE("read_limited checks the value against the limits table") {
  int d = 0;
  read_limited(json{{"d_model", 64}}, "d_model", limits::d_model, d);
  CHECK(d == 64);
  CHECK(param_error_of([&] { read_limited(json{{"d_model", 0}}, "d_model", limits::d_model, d); })
            .rfind("d-model: must be an integer in [", 0) == 0);
}

TEST_CASE("check_range: the closed range, NaN refused, the bounds shown") {
  CHECK_NOTHROW(check_range("zoom", 1.0, 1.0, 2.0));
  CHECK_NOTHROW(check_range("zoom", 2.0, 1.0, 2.0));
  CHECK(param_error_of([] { check_range("zoom", 2.5, 1.0, 2.0); }) == "zoom: must be in [1, 2], got 2.5");
  CHECK(param_error_of([] { check_range("zoom", std::nan(""), 0.5, 3.0); }) == "zoom: must be in [0.5, 3], got nan");
}

TEST_CASE("section: the named object, an empty one when absent, refused when not an object") {
  const json j = {{"alibi", {{"heads", 4}}}, {"bad", 3}};
  CHECK(section(j, "alibi") == json{{"heads", 4}});
  CHECK(section(j, "missing") == json::object());
  CHECK(param_error_of([&] { section(j, "bad"); }) == "bad: must be a JSON object");
}

TEST_CASE("RoPE parameters round-trip through the state JSON and are validated") {
  const RopeParams r{32, 16, 500000.0, RopePairing::interleaved};
  const json j = rope_json(r);
  CHECK(j == json{{"head_dim", 32}, {"rotary_dim", 16}, {"base", 500000.0}, {"pairing", "interleaved"}});
  RopeParams back;
  read_rope_json(j, back);
  CHECK(back.head_dim == 32);
  CHECK(back.rotary_dim == 16);
  CHECK(back.base == 500000.0);
  CHECK(back.pairing == RopePairing::interleaved);
  CHECK(param_error_of([&] { read_rope_json(json{{"pairing", "diagonal"}}, back); }) ==
        "pairing: must be halves or interleaved, got diagonal");
  CHECK(param_error_of([&] { read_rope_json(json{{"head_dim", 7}}, back); }) == "head-dim: must be even, got 7");
}
