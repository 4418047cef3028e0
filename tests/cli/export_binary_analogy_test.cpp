// Tests for `peviz export binary-analogy` through the real binary: bits and signs agree on the ladder.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include <nlohmann/json.hpp>

#include "run_peviz.hpp"

TEST_CASE("binary-analogy at morph 0: row t holds the bits of t, and every sign agrees with its bit") {
  const RunResult r = run_peviz("export binary-analogy --positions 16 --format json");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["shape"] == nlohmann::json::array({16, 8}));  // 4 bits, then 4 signs
  REQUIRE(j["data"].size() == 16 * 8);
  CHECK(j["bits"] == 4);
  CHECK(j["agreeing"] == 16 * 4);
  CHECK(j["columns"][0] == "bit_0");
  CHECK(j["columns"][4] == "negative_0");
  for (int t = 0; t < 16; ++t)
    for (int k = 0; k < 4; ++k) {
      CHECK(j["data"][t * 8 + k].get<double>() == double((t >> k) & 1));
      CHECK(j["data"][t * 8 + 4 + k].get<double>() == double((t >> k) & 1));
    }
  REQUIRE(j["ladder"].size() == 4);
  CHECK(j["ladder"][2].get<double>() == Approx(std::numbers::pi / 4));
}

TEST_CASE("binary-analogy at morph 1: the model's frequencies base^(-2k/d), and the analogy breaks") {
  const RunResult r = run_peviz("export binary-analogy --positions 64 --morph 1 --d-model 8 --base 10000 --format json");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["frequency"].size() == 6);
  for (int k = 0; k < 4; ++k) CHECK(j["frequency"][k].get<double>() == Approx(std::pow(10000.0, -2.0 * k / 8)));
  CHECK(j["model"][4].is_null());  // d_model 8 has 4 pairs: bits 4 and 5 keep the ladder
  CHECK(j["frequency"][4].get<double>() == Approx(std::numbers::pi / 16));
  CHECK(j["agreeing"].get<int>() < 64 * 6);
}

TEST_CASE("binary-analogy refuses out-of-range input with one line naming the flag") {
  const RunResult few = run_peviz("export binary-analogy --positions 1");
  CHECK(few.code == 2);
  CHECK(few.err == "peviz: --positions: must be an integer in [2, 256], got 1\n");
  const RunResult morph = run_peviz("export binary-analogy --morph 2");
  CHECK(morph.code == 2);
  CHECK(morph.err.find("peviz: --morph: ") == 0);
  CHECK(run_peviz("export binary-analogy --d-model 0").code == 2);
  CHECK(run_peviz("export binary-analogy --base nan").code == 2);
}
