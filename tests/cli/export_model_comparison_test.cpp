// `peviz export models-compared` through the real binary: the Context extension page's table of real models as CSV
// (a header row, the legend after it) and JSON, one row per model and layer type, values as core summarises them,
// and the refusals (a model without RoPE, a bad format).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config_json.hpp"
#include "core/models/model_comparison.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("models-compared: a CSV with its column names first, a row per model and layer type, its legend last") {
  const RunResult r = run_peviz("export models-compared " + config("llama-3.1-8b-instruct.json") + " " +
                                config("gemma-3-12b-it.json"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> lines = lines_of(r.out);
  REQUIRE(lines.size() >= 4);
  CHECK(lines[0] == "model,layers,nope_layers,linear_layers,rotary_dim,base,scaling,factor,original_len,extended_len,"
                    "span,pairs_turning_original,pairs_turning_extended,pairs,critical_dim,men_min_base,ok,"
                    "first_failing_m");
  // Llama 3.1 8B: 32 layers, R 128, base 500000, llama3 x8 from 8192 to 131072.
  CHECK(lines[1].rfind("llama-3.1-8b-instruct,32,0,0,128,500000.0,llama3,8.0,8192,131072,131072,", 0) == 0);
  CHECK(lines[2].rfind("gemma-3-12b-it (", 0) == 0);  // Gemma 3: two layer types, two rows
  CHECK(lines[3].rfind("gemma-3-12b-it (", 0) == 0);
  CHECK(lines[4].rfind("# ", 0) == 0);
  CHECK(r.out.find("\n# ok: ok: whether the model's own base keeps B(m) >= 0 for every m below the span") != std::string::npos);
  CHECK(r.out.find("\n# first_failing_m: where ok is no, the first distance m with B(m) < 0") != std::string::npos);
  CHECK(r.out.find("\n# original_len: orig.: the context it was trained on.\n") != std::string::npos);
}

TEST_CASE("models-compared: JSON holds core's summary of each model and the meaning of every column") {
  const nlohmann::json j = run_json("export models-compared " + config("qwen2.5-7b-instruct-yarn.json"));
  const peviz::RopeModelSummary m = peviz::summarize_rope_model(load_fixture_config("qwen2.5-7b-instruct-yarn.json"));
  REQUIRE(j["models"].size() == 1);
  const nlohmann::json& row = j["models"][0];
  CHECK(row["model"] == m.name);
  CHECK(row["scaling"] == "yarn");
  CHECK(row["factor"] == m.factor);
  CHECK(row["extended_len"] == m.extended_len);
  CHECK(row["critical_dim"] == m.critical_dim);
  CHECK(row["pairs_turning_extended"] == m.pairs_turning_extended);
  CHECK(row["ok"] == (m.fails_at ? "no" : "yes"));
  CHECK(j["columns"].size() == std::size(peviz::kComparisonColumns) + 5);
  for (const nlohmann::json& c : j["columns"]) CHECK_FALSE(c["meaning"].get<std::string>().empty());
}

TEST_CASE("models-compared refuses a model without RoPE and a format it does not write, in one line") {
  RunResult r = run_peviz("export models-compared " + config("t5-small.json"));
  CHECK(r.code == 2);
  CHECK(r.err.find("uses t5_relative positions; the table compares RoPE models") != std::string::npos);
  CHECK(count_lines(r.err) == 1);
  r = run_peviz("export models-compared " + config("llama-2-7b-hf.json") + " --format npy");
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --format: must be json or csv, got 'npy'\n");
}
