// Attention sharpness against length (core/models/attention_scale): each method's logit scale against its closed
// form from 0 to past a million, the needle's weight and its limits, and the scale of shipped models' layer groups.
#include <cmath>

#include <catch2/catch.hpp>

#include "core/models/attention_scale.hpp"
#include "tests/core/models/model_config_fixtures.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

namespace {

const double kPositions[] = {0, 1, 2, 100, 4095, 4096, 8190, 8191, 65535, 999999, 1048576, 16777215};

double scale(ScaleMethod m, double position) { return logit_scale_at(m, ScaleMethodParams{}, position); }

}  // namespace

TEST_CASE("attention scale: none is 1 and SSMax is s ln n at every position") {
  for (double p : kPositions) {
    CHECK(scale(ScaleMethod::none, p) == 1);
    CHECK(scale(ScaleMethod::ssmax, p) == Approx(0.43 * std::log(p + 1)).epsilon(1e-14));
  }
  CHECK(scale(ScaleMethod::ssmax, 0) == 0);  // one key: nothing to weigh
  ScaleMethodParams p;
  p.ssmax_s = 1;
  CHECK(logit_scale_at(ScaleMethod::ssmax, p, 1048575) == Approx(20 * std::log(2.0)).epsilon(1e-14));
}

TEST_CASE("attention scale: log-n is 1 up to the training length, then log_L(n)") {
  ScaleMethodParams p;
  p.train_length = 4096;
  CHECK(logit_scale_at(ScaleMethod::logn, p, 0) == 1);
  CHECK(logit_scale_at(ScaleMethod::logn, p, 4095) == 1);  // n = L
  CHECK(logit_scale_at(ScaleMethod::logn, p, 4096) == Approx(std::log(4097.0) / std::log(4096.0)).epsilon(1e-15));
  CHECK(logit_scale_at(ScaleMethod::logn, p, 16777215) == Approx(2).epsilon(1e-15));  // n = L^2
  CHECK(logit_scale_at(ScaleMethod::logn, p, 63) == 1);
  double last = 0;
  for (double pos : kPositions) {  // never below 1, never falling
    const double c = logit_scale_at(ScaleMethod::logn, p, pos);
    CHECK(c >= 1);
    CHECK(c >= last);
    last = c;
  }
}

TEST_CASE("attention scale: YaRN squares 0.1 ln s + 1, whatever the position") {
  ScaleMethodParams p;
  p.factor = 4;
  const double m = 0.1 * std::log(4.0) + 1;
  for (double pos : kPositions) CHECK(logit_scale_at(ScaleMethod::yarn, p, pos) == Approx(m * m).epsilon(1e-15));
  p.factor = 1;
  CHECK(logit_scale_at(ScaleMethod::yarn, p, 5) == 1);
}

TEST_CASE("attention scale: Llama 4's temperature steps at multiples of floor_scale") {
  ScaleMethodParams p;  // attn_scale 0.1, floor_scale 8192: the config class's defaults
  CHECK(logit_scale_at(ScaleMethod::llama4, p, 0) == 1);
  CHECK(logit_scale_at(ScaleMethod::llama4, p, 8190) == 1);  // n = 8191
  CHECK(logit_scale_at(ScaleMethod::llama4, p, 8191) == Approx(1 + 0.1 * std::log(2.0)).epsilon(1e-15));
  CHECK(logit_scale_at(ScaleMethod::llama4, p, 999999) == Approx(1 + 0.1 * std::log(123.0)).epsilon(1e-15));
  p.attn_scale = 0.5;
  p.floor_scale = 16;
  CHECK(logit_scale_at(ScaleMethod::llama4, p, 47) == Approx(1 + 0.5 * std::log(4.0)).epsilon(1e-15));
}

TEST_CASE("needle weight: the closed form, its limits, no overflow") {
  CHECK(needle_weight(1, 0, 0, 1) == 1);                        // alone
  CHECK(needle_weight(1, 0, 0, 10) == Approx(0.1).epsilon(1e-15));  // no margin: one in n
  CHECK(needle_weight(1, std::log(9.0), 0, 10) == Approx(0.5).epsilon(1e-14));
  CHECK(needle_weight(2, 3, 0, 1e6) == Approx(1 / (1 + (1e6 - 1) * std::exp(-6.0))).epsilon(1e-14));
  // A Gaussian spread adds c^2 sigma^2 / 2 to the others' log-sum.
  CHECK(needle_weight(2, 3, 0.5, 1000) == Approx(1 / (1 + 999 * std::exp(2.0 * 2 * 0.25 / 2 - 6))).epsilon(1e-14));
  CHECK(needle_weight(100, 100, 0, 1e9) == Approx(1));
  CHECK(needle_weight(100, 0, 10, 1e9) == 0);
  CHECK_FALSE(std::isnan(needle_weight(1e3, 0, 10, 2)));
}

TEST_CASE("needle weight: SSMax with s D = 1 holds the needle near one half at any length") {
  ScaleMethodParams p;
  p.ssmax_s = 0.2;
  const double margin = 5;  // s D = 1: weight = 1 / (1 + (n - 1) / n)
  for (double pos : {1.0, 100.0, 65535.0, 1048575.0}) {
    const double n = pos + 1;
    CHECK(needle_weight(logit_scale_at(ScaleMethod::ssmax, p, pos), margin, 0, n) ==
          Approx(1 / (2 - 1 / n)).epsilon(1e-12));
  }
  // The plain softmax's needle fades: 1 / (1 + (n - 1) e^-5) at a million keys is below 2e-4.
  CHECK(needle_weight(1, margin, 0, 1048576) < 2e-4);
}

TEST_CASE("attention scale: methods named and parsed, parameters refused outside their limits") {
  for (ScaleMethod m : kAllScaleMethods) CHECK(parse_scale_method(to_string(m)) == m);
  CHECK(display_name(ScaleMethod::logn) == "log-n");
  CHECK(param_error_of([] { parse_scale_method("temperature"); }) ==
        "method: must be one of none, ssmax, logn, yarn, llama4, got 'temperature'");
  ScaleMethodParams p;
  p.train_length = 1;
  CHECK(param_error_of([&] { validate(p); }).rfind("train-length: ", 0) == 0);
  p = {};
  p.ssmax_s = std::nan("");
  CHECK(param_error_of([&] { validate(p); }).rfind("ssmax-s: ", 0) == 0);
  const long long too_far[] = {0, (1LL << 30) + 1};
  CHECK(param_error_of([&] { check_scale_positions(too_far); }).rfind("positions: ", 0) == 0);
  CHECK(param_error_of([] { check_scale_positions({}); }) == "positions: must list at least one position");
}

TEST_CASE("attention scale groups: YaRN squares its factor on every layer, DeepSeek adds mscale_all_dim") {
  const ModelConfig qwen = load_fixture_config("qwen2.5-7b-instruct-yarn.json");
  const std::vector<ScaleGroup> q = attention_scale_groups(qwen);
  REQUIRE(q.size() == 1);
  const double m4 = 0.1 * std::log(4.0) + 1;
  CHECK(q[0].rope_type == "yarn");
  for (double pos : kPositions) CHECK(group_logit_scale_at(qwen, q[0], pos) == Approx(m4 * m4).epsilon(1e-14));

  const ModelConfig deepseek = load_fixture_config("deepseek-v3.json");
  const std::vector<ScaleGroup> d = attention_scale_groups(deepseek);
  REQUIRE(d.size() == 1);
  const double m40 = 0.1 * std::log(40.0) + 1;  // mscale = mscale_all_dim = 1: cos and sin unscaled
  CHECK(d[0].cos_sin_factor == Approx(1).epsilon(1e-15));
  CHECK(d[0].softmax_factor == Approx(m40 * m40).epsilon(1e-14));
  CHECK(group_logit_scale_at(deepseek, d[0], 999999) == Approx(m40 * m40).epsilon(1e-14));
}

TEST_CASE("attention scale groups: Llama 4 Scout scales its NoPE layers' queries only") {
  const ModelConfig scout = load_fixture_config("llama-4-scout-17b-16e.json");
  const std::vector<ScaleGroup> g = attention_scale_groups(scout);
  REQUIRE(g.size() == 2);
  const ScaleGroup& rope = g[0].rope ? g[0] : g[1];
  const ScaleGroup& nope = g[0].rope ? g[1] : g[0];
  CHECK(nope.query_scaled);
  CHECK_FALSE(rope.query_scaled);
  CHECK(nope.layers.size() == 12);
  CHECK(rope.layers.size() == 36);
  for (double pos : kPositions) {
    CHECK(group_logit_scale_at(scout, rope, pos) == 1);  // llama3 scaling has no attention factor
    CHECK(group_logit_scale_at(scout, nope, pos) ==
          Approx(std::log(std::floor((pos + 1) / 8192) + 1) * 0.1 + 1).epsilon(1e-15));
  }
}

TEST_CASE("attention scale groups: refused for a model without RoPE") {
  const ModelConfig gpt2 = load_fixture_config("gpt2.json");
  CHECK(param_error_of([&] { attention_scale_groups(gpt2); }).rfind("config: ", 0) == 0);
}

TEST_CASE("attention scale json: the documented keys, one entry per method or group") {
  const ScaleMethod methods[] = {ScaleMethod::ssmax, ScaleMethod::llama4};
  const long long positions[] = {0, 8191, 1000000};
  const nlohmann::json j = attention_scale_json(methods, ScaleMethodParams{}, positions, 5, 0);
  CHECK(j["positions"] == nlohmann::json{0, 8191, 1000000});
  REQUIRE(j["methods"].size() == 2);
  CHECK(j["methods"][0]["method"] == "ssmax");
  CHECK(j["methods"][0]["params"]["s"] == 0.43);
  CHECK(j["methods"][1]["params"]["floor_scale"] == 8192.0);
  CHECK(j["methods"][1]["logit_scale"][1].get<double>() == Approx(1 + 0.1 * std::log(2.0)));
  CHECK(j["methods"][0]["needle_weight"][0] == 1.0);
  const nlohmann::json m = attention_scale_json(load_fixture_config("smollm3-3b.json"), positions, 5, 0);
  REQUIRE(m["groups"].size() == 2);
  for (const char* key : {"layers", "layer_type", "rope", "rope_type", "logit_scale", "needle_weight"})
    CHECK(m["groups"][0].contains(key));
  CHECK(param_error_of([&] { attention_scale_json(methods, ScaleMethodParams{}, positions, -1, 0); }).rfind("margin: ", 0) == 0);
}
