// `peviz export layer-map` through the real binary: the map of shipped models in JSON and CSV, M-RoPE's pair_axis on
// rope-inv-freq, and the refusals (a model without RoPE, no layer count, a bad format, a wrong list).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "config_json.hpp"
#include "tests/temp_path.hpp"

namespace {

int count_of(const nlohmann::json& layers, const char* key, const char* value) {
  return int(std::count_if(layers.begin(), layers.end(), [&](const nlohmann::json& l) { return l[key] == value; }));
}

}  // namespace

TEST_CASE("layer-map: SmolLM3's NoPE layers, Qwen3-Next's linear layers, gpt-oss's sliding window") {
  nlohmann::json j = run_json("export layer-map " + config("smollm3-3b.json"));
  CHECK(j["model"] == "smollm3-3b");  // the file has no _name_or_path: its name
  REQUIRE(j["layers"].size() == 36);
  CHECK(count_of(j["layers"], "positions", "nope") == 9);
  CHECK(j["layers"][3]["positions"] == "nope");  // no_rope_layers[3] == 0: every fourth layer
  CHECK(j["layers"][3]["window"].is_null());
  CHECK(j["unmodelled"].empty());

  j = run_json("export layer-map " + config("qwen3-next-80b-a3b-instruct.json"));
  CHECK(count_of(j["layers"], "attention", "linear") == 36);
  CHECK(count_of(j["layers"], "positions", "none") == 36);
  CHECK(j["layers"][3]["attention"] == "full");
  CHECK(j["layers"][3]["positions"] == "rope");

  j = run_json("export layer-map " + config("gpt-oss-20b.json"));
  CHECK(j["layers"][0]["attention"] == "sliding");
  CHECK(j["layers"][0]["window"] == 128);
  CHECK(j["layers"][1]["attention"] == "full");
}

TEST_CASE("layer-map --format csv: one row per layer and the unmodelled fields as comments") {
  const RunResult r = run_peviz("export layer-map " + config("glm-5.1.json") + " --format csv");
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind("index,positions,attention,window,query_scale,layer_type\n0,rope,full,,,full_attention\n", 0) == 0);
  CHECK(r.out.find("# unmodelled: index_topk 2048: sparse attention") != std::string::npos);
  const std::string out = unique_temp_path("layer_map.csv");
  REQUIRE(run_peviz("export layer-map " + config("glm-5.1.json") + " --format csv --out '" + out + "'").code == 0);
  std::ifstream in(out);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == r.out);
  std::remove(out.c_str());
}

TEST_CASE("rope-inv-freq --config: pair_axis for M-RoPE models, none otherwise") {
  nlohmann::json j = run_json("export rope-inv-freq " + config("qwen2.5-vl-7b-instruct.json"));
  REQUIRE(j["pair_axis"].size() == 64);
  CHECK(j["pair_axis"][15] == "t");
  CHECK(j["pair_axis"][16] == "h");
  CHECK(j["pair_axis"][40] == "w");
  j = run_json("export rope-inv-freq " + config("qwen3-vl-8b-instruct.json"));
  REQUIRE(j["pair_axis"].size() == 64);
  CHECK(j["pair_axis"][0] == "t");
  CHECK(j["pair_axis"][1] == "h");
  CHECK(j["pair_axis"][2] == "w");
  CHECK(j["pair_axis"][63] == "t");
  CHECK_FALSE(run_json("export rope-inv-freq " + config("llama-3.1-8b-instruct.json")).contains("pair_axis"));
  // A head_dim flag changes the pairs: the config's axes no longer apply.
  CHECK_FALSE(run_json("export rope-inv-freq " + config("qwen3-vl-8b-instruct.json") + " --head-dim 64").contains("pair_axis"));
}

TEST_CASE("layer-map refusals are one line each") {
  RunResult r = run_peviz("export layer-map " + config("gpt2.json"));
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --config: gpt2 (model_type 'gpt2') uses learned_absolute positions, the same in every layer\n");
  r = run_peviz("export layer-map " + config("llama-3.1-8b-instruct.json") + " --format npy");
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --format: must be json or csv, got 'npy'\n");
  const std::string bad = unique_temp_path("bad_config.json");
  std::ofstream(bad) << R"({"model_type": "llama4_text", "hidden_size": 64, "num_attention_heads": 1,
    "num_hidden_layers": 2, "no_rope_layers": [1]})";
  r = run_peviz("export layer-map --config '" + bad + "'");
  std::remove(bad.c_str());
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --config: no_rope_layers has 1 entries for 2 layers (num_hidden_layers)\n");
}
