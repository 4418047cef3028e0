// `peviz export rope-bounds` through the real binary: Liu et al. 2023's critical dimension and extrapolation length
// against Eq. 13 written out here, Men et al. 2024's base bound, a model's rotary dimension and window from --config.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "config_json.hpp"
#include "core/models/model_comparison.hpp"
#include "core/models/model_config.hpp"
#include "core/rope/rope_bounds.hpp"

TEST_CASE("rope-bounds: d_extra and t_extra are Liu et al.'s Eq. 13 for the flags given") {
  for (const auto& [d, base, len] : {std::tuple{128, 10000.0, 4096}, std::tuple{64, 500000.0, 8192}, std::tuple{16, 100.0, 100}}) {
    CAPTURE(d, base, len);
    const nlohmann::json j = run_json("export rope-bounds --head-dim " + std::to_string(d) + " --base " +
                                      std::to_string(base) + " --context-len " + std::to_string(len));
    const double raw = 2.0 * std::ceil(d / 2.0 * std::log(len / (2 * std::numbers::pi)) / std::log(base));
    const int d_extra = int(std::min(double(d), std::max(0.0, raw)));
    CHECK(j["d_extra"] == d_extra);
    CHECK(j["t_extra"].get<double>() == Approx(2 * std::numbers::pi * std::pow(base, double(d_extra) / d)).epsilon(1e-12));
    CHECK(j["params"]["head_dim"] == d);
    CHECK(j["params"]["context_len"] == len);
  }
}

TEST_CASE("peviz export rope-bounds: Liu et al.'s worked example") {
  const RunResult r = run_peviz("export rope-bounds --head-dim 128 --base 10000 --context-len 4096 --format json");
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["d_extra"] == 92);
  CHECK(j["t_extra"].get<double>() == Approx(4711.8).margin(0.1));
  CHECK(j["first_negative_m"].get<long long>() < 4096);
  CHECK(j["min_base"].get<double>() > 10000);
  const RunResult bad = run_peviz("export rope-bounds --head-dim 128 --base 10000 --context-len 0");
  CHECK(bad.code == 2);
  CHECK(bad.err == "peviz: --context-len: must be an integer in [1, 1048576], got 0\n");
}

TEST_CASE("rope-bounds writes one row of four columns, the JSON's own values") {
  const RunResult r = run_peviz("export rope-bounds --head-dim 128 --base 10000 --context-len 4096 --format csv");
  REQUIRE(r.code == 0);
  const nlohmann::json j = run_json("export rope-bounds --head-dim 128 --base 10000 --context-len 4096");
  CHECK(j["columns"] == nlohmann::json({"d_extra", "t_extra", "first_negative_m", "min_base"}));
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 2);
  CHECK(r.out.rfind("d_extra,t_extra,first_negative_m,min_base\n92,", 0) == 0);
}

TEST_CASE("rope-bounds --config: d is the rotary dimension, context-len the model's window; 4096 tokens need 2.7e4") {
  nlohmann::json j = run_json("export rope-bounds " + config("gpt-neox-20b.json"));
  CHECK(j["params"]["head_dim"] == 24);
  CHECK(j["params"]["context_len"] == 2048);
  CHECK(j["params"]["model"] == "gpt-neox-20b");
  j = run_json("export rope-bounds " + config("qwen2.5-7b-instruct.json") + " --context-len 4096 --base 10000");
  CHECK(j["params"]["head_dim"] == 128);
  CHECK(j["min_base"].get<double>() == Approx(26952.4).epsilon(1e-5));  // Men et al. 2024: 2.7e4 for 4k
}


TEST_CASE("rope-bounds --config: d_extra at the context the model was trained on, Men's bound at the one it serves, "
          "the numbers of the window's models-compared table") {
  const std::string path = model_config_fixture("llama-3.1-8b-instruct.json").string();
  const nlohmann::json j = run_json("export rope-bounds " + config("llama-3.1-8b-instruct.json"));
  CHECK(j["params"]["train_len"] == 8192);      // rope_scaling.original_max_position_embeddings
  CHECK(j["params"]["context_len"] == 131072);  // max_position_embeddings
  const peviz::RopeModelSummary table = peviz::summarize_rope_model(peviz::load_model_config(path));
  CHECK(j["d_extra"] == table.critical_dim);
  REQUIRE(table.min_base);
  CHECK(j["min_base"].get<double>() == Approx(*table.min_base));
  // A model trained at the length it serves: both contexts are max_position_embeddings.
  const nlohmann::json neox = run_json("export rope-bounds " + config("gpt-neox-20b.json"));
  CHECK(neox["params"]["train_len"] == neox["params"]["context_len"]);
}

TEST_CASE("rope-bounds --islands: the bases that hold as ranges from min_base up to the factor, JSON only") {
  const nlohmann::json j = run_json("export rope-bounds --head-dim 128 --context-len 1024 --islands 3");
  const double smallest = j["min_base"].get<double>();
  const nlohmann::json& ranges = j["holding_bases"];
  REQUIRE(ranges.size() >= 1);
  CHECK(ranges.front()[0].get<double>() == smallest);
  CHECK(ranges.back()[1].get<double>() == Approx(3 * smallest).epsilon(1e-12));
  double previous_end = 0;
  for (const auto& r : ranges) {  // ascending, disjoint, every edge a base that holds (checked by the sum)
    CHECK(r[0].get<double>() > previous_end);
    CHECK(r[0].get<double>() < r[1].get<double>());
    for (const double base : {r[0].get<double>(), r[1].get<double>()})
      for (long long m = 0; m < 1024; ++m) REQUIRE(peviz::rope_similarity_bound(128, base, m) >= 0);
    previous_end = r[1].get<double>();
  }
  CHECK(j["params"]["islands"] == 3.0);
  for (const char* flags : {"--islands 0.5", "--islands 65", "--islands 2 --format csv"}) {
    CAPTURE(flags);
    const RunResult bad = run_peviz(std::string("export rope-bounds --context-len 1024 ") + flags);
    CHECK(bad.code == 2);
    CHECK(bad.err.find("--islands") != std::string::npos);
  }
  CHECK_FALSE(run_json("export rope-bounds --context-len 1024").contains("holding_bases"));
}
