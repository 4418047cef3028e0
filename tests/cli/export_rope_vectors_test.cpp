// `peviz export rope-test-vectors` through the real binary: the JSON keys as documented, the groups of shipped
// models, the safetensors file, and the refusals (bad positions, a model without RoPE, a bad config, a bad format).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "config_json.hpp"
#include "core/io/safetensors.hpp"
#include "tests/temp_path.hpp"

TEST_CASE("rope-test-vectors: the documented keys, per group of layers") {
  const nlohmann::json j = run_json("export rope-test-vectors " + config("smollm3-3b.json") + " --positions 0,5,70000");
  CHECK(j["positions"] == nlohmann::json{0, 5, 70000});
  CHECK(j["seq_len"] == 70001);
  REQUIRE(j["groups"].size() == 2);
  const nlohmann::json& rope = j["groups"][0];
  for (const char* key : {"layers", "layer_type", "rope", "head_dim", "rotary_dim", "layout", "rope_type", "inv_freq",
                          "attention_factor", "cos", "sin", "q", "k", "scores", "origins"})
    CHECK(rope.contains(key));
  CHECK(rope["layers"].size() == 27);
  CHECK(rope["cos"].size() == 3);
  CHECK(rope["cos"][0].size() == rope["inv_freq"].size());
  CHECK(rope["cos"][0][0] == 1.0);  // position 0, no attention factor
  const nlohmann::json& nope = j["groups"][1];
  CHECK(nope["rope"] == false);
  CHECK(nope["layers"][0] == 3);
  CHECK_FALSE(nope.contains("cos"));
  CHECK(nope["scores"][0] == nope["scores"][2]);  // no position reaches a NoPE layer
}

TEST_CASE("rope-test-vectors --format safetensors: the same numbers, metadata as JSON text") {
  const std::string out = unique_temp_path("vectors.safetensors");
  const std::string args = "export rope-test-vectors " + config("deepseek-v3.json") + " --positions 0,3";
  REQUIRE(run_peviz(args + " --format safetensors --out '" + out + "'").code == 0);
  const nlohmann::json j = run_json(args);
  const peviz::SafetensorsIndex index = peviz::read_safetensors_index(out);
  CHECK(nlohmann::json::parse(index.metadata.at("groups"))[0]["rope_type"] == "yarn");
  const peviz::Matrix sin = peviz::read_safetensors_matrix(out, "group0.sin");
  REQUIRE(sin.rows == 2);
  for (std::size_t p = 0; p < 2; ++p)
    for (std::size_t i = 0; i < sin.cols; ++i) CHECK(sin.at(p, i) == j["groups"][0]["sin"][p][i].get<float>());
  std::remove(out.c_str());
}

TEST_CASE("rope-test-vectors: refusals in one line naming the flag or the config's key") {
  const std::string llama = config("llama-3.1-8b-instruct.json");
  check_refused("export rope-test-vectors " + llama + " --positions 1,x",
                "peviz: --positions: must be a comma-separated list of numbers, got 'x' in it");
  check_refused("export rope-test-vectors " + llama + " --positions ''",
                "peviz: --positions: must be a comma-separated list of numbers, got '' in it");
  check_refused("export rope-test-vectors " + llama + " --positions 0,1.5",
                "peviz: --positions: must be whole numbers, got 0,1.5");
  check_refused("export rope-test-vectors " + llama + " --positions -4",
                "peviz: --positions: must be an integer in [0, 16777216], got -4");
  check_refused("export rope-test-vectors " + llama + " --format safetensors",
                "peviz: --out: --format safetensors needs --out FILE");
  check_refused("export rope-test-vectors " + llama + " --format csv",
                "peviz: --format: must be json or safetensors, got 'csv'");
  check_refused("export rope-test-vectors " + config("gpt2.json"),
                "peviz: --config: the model uses learned_absolute, not RoPE: it has no rotary vectors");
  const std::string bad = unique_temp_path("config.json");
  std::ofstream(bad) << R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 2,
                            "rope_scaling": {"rope_type": "linear", "factor": -2}})";
  check_refused("export rope-test-vectors --config '" + bad + "'",
                "peviz: --config: rope_scaling.factor: must be a finite number in [1, 1000000], got -2");
  std::remove(bad.c_str());
}
