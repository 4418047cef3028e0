// `peviz export attention-scale` through the real binary: methods and their flags, a config's groups, the file
// written, and the refusals (a parameter for a method not chosen, --config with --method, bad positions).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "config_json.hpp"
#include "tests/temp_path.hpp"

TEST_CASE("attention-scale: every method by default, at 0 and powers of two to 2^20") {
  const nlohmann::json j = run_json("export attention-scale");
  REQUIRE(j["positions"].size() == 22);
  CHECK(j["positions"].back() == 1048576);
  REQUIRE(j["methods"].size() == 5);
  CHECK(j["methods"][0]["method"] == "none");
  CHECK(j["margin"] == 5.0);
  for (const nlohmann::json& m : j["methods"]) CHECK(m["logit_scale"].size() == 22);
}

TEST_CASE("attention-scale: the method flags reach the formulas") {
  const nlohmann::json j = run_json(
      "export attention-scale --positions 0,99,1000000 --method logn yarn --train-length 100 --factor 16 --margin 2");
  REQUIRE(j["methods"].size() == 2);
  const nlohmann::json& logn = j["methods"][0];
  CHECK(logn["params"]["train_length"] == 100.0);
  CHECK(logn["logit_scale"][1] == 1.0);  // n = 100 = L
  CHECK(logn["logit_scale"][2].get<double>() == Approx(std::log(1000001.0) / std::log(100.0)).epsilon(1e-14));
  const double m = 0.1 * std::log(16.0) + 1;
  CHECK(j["methods"][1]["logit_scale"][0].get<double>() == Approx(m * m).epsilon(1e-14));
  const double c = m * m, n = 1000001;
  CHECK(j["methods"][1]["needle_weight"][2].get<double>() == Approx(1 / (1 + (n - 1) * std::exp(-2 * c))).epsilon(1e-12));
}

TEST_CASE("attention-scale --config: the model's groups, written to a file") {
  const std::string out = unique_temp_path("scale.json");
  REQUIRE(run_peviz("export attention-scale " + config("llama-4-scout-17b-16e.json") +
                    " --positions 0,8191 --out '" + out + "'").code == 0);
  std::ifstream in(out);
  const nlohmann::json j = nlohmann::json::parse(in);
  REQUIRE(j["groups"].size() == 2);
  for (const nlohmann::json& g : j["groups"])
    CHECK(g["logit_scale"][1].get<double>() == Approx(g["rope"] == true ? 1 : 1 + 0.1 * std::log(2.0)).epsilon(1e-14));
  std::remove(out.c_str());
}

TEST_CASE("attention-scale: refusals in one line naming the flag") {
  check_refused("export attention-scale --method ssmax --factor 4",
                "peviz: --factor: is a parameter of --method yarn, which is not chosen");
  check_refused("export attention-scale " + config("qwen2.5-7b-instruct-yarn.json") + " --method yarn",
                "peviz: --method: draws a method's curve; --config draws the model's own: give one of them");
  check_refused("export attention-scale " + config("qwen2.5-7b-instruct-yarn.json") + " --ssmax-s 1",
                "peviz: --ssmax-s: sets a method's parameter; with --config the model's own values are used");
  check_refused("export attention-scale --method softmax",
                "peviz: --method: must be one of none, ssmax, logn, yarn, llama4, got 'softmax'");
  check_refused("export attention-scale --positions ''",
                "peviz: --positions: must be a comma-separated list of numbers, got '' in it");
  check_refused("export attention-scale --margin -1",
                "peviz: --margin: must be a finite number in [0, 100], got -1");
  check_refused("export attention-scale --format csv", "peviz: --format: must be json, got 'csv'");
  check_refused("export attention-scale --method ssmax --method ssmax",
                "peviz: --method: names ssmax twice: name each method once");
  check_refused("export attention-scale --out /tmp/scale.csv",
                "peviz: --out: /tmp/scale.csv names a .csv file, but --format is json: name it .json or pass --format csv");
  check_refused("export attention-scale " + config("t5-small.json"),
                "peviz: --config: the model uses t5_relative, not RoPE: no length scale to read from it (its logits are "
                "unscaled: --method none)");
}
