// `peviz export mrope-positions | mrope-axis-score` through the real binary: get_rope_index's ids for a small
// sequence, each axis's score from a model's own frequencies and pair axes, and the refusals.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "config_json.hpp"

TEST_CASE("mrope-positions: text, then the image's rows and columns from one start, then text past it") {
  const RunResult r = run_peviz("export mrope-positions --text-before 2 --grid-h 2 --grid-w 3 --text-after 2");
  REQUIRE(r.code == 0);
  CHECK(r.out == "token,t,h,w,image\n0,0,0,0,0\n1,1,1,1,0\n2,2,2,2,1\n3,2,2,3,1\n4,2,2,4,1\n5,2,3,2,1\n6,2,3,3,1\n7,2,3,4,1\n"
                 "8,5,5,5,0\n9,6,6,6,0\n");
  const RunResult bad = run_peviz("export mrope-positions --grid-w 0");
  CHECK(bad.code == 2);
  CHECK(bad.err == "peviz: --grid-w: must be an integer in [1, 256], got 0\n");
}

TEST_CASE("mrope-axis-score: Qwen3-VL's interleaved axes share the frequency range, Qwen2.5-VL's do not") {
  const nlohmann::json q3 = run_json("export mrope-axis-score " + config("qwen3-vl-8b-instruct.json") + " --max-offset 8");
  CHECK(q3["columns"] == nlohmann::json({"d", "t", "h", "w"}));
  REQUIRE(q3["shape"] == nlohmann::json({9, 4}));
  const auto at = [](const nlohmann::json& j, int d, int col) { return j["data"][std::size_t(d * 4 + col)].get<double>(); };
  // The h pairs are j = 1, 4, ..., 58 (j % 3 == 1, j < 3 * 20), theta_j = 5e6^(-2j/128): their mean cosine at d = 3.
  double h3 = 0;
  for (int j = 1; j < 60; j += 3) h3 += std::cos(3 * std::pow(5000000.0, -2.0 * j / 128.0)) / 20;
  CHECK(at(q3, 3, 2) == Approx(h3).epsilon(1e-6));
  CHECK(at(q3, 0, 2) == 1.0);
  // Interleaved: every axis has fast and slow pairs, so all three fall off alike at small offsets.
  CHECK(std::abs(at(q3, 4, 1) - at(q3, 4, 2)) < 0.05);
  // Contiguous (Qwen2.5-VL [16, 24, 24]): t holds the 16 fastest pairs, w the 24 slowest: w barely moves.
  const nlohmann::json q25 = run_json("export mrope-axis-score " + config("qwen2.5-vl-7b-instruct.json") + " --max-offset 8");
  CHECK(at(q25, 8, 1) < at(q25, 8, 3));
  CHECK(at(q25, 8, 3) > 0.99);
  const RunResult plain = run_peviz("export mrope-axis-score " + config("llama-3.1-8b-instruct.json"));
  CHECK(plain.code == 2);
  CHECK(plain.err == "peviz: --config: llama-3.1-8b-instruct has no multimodal RoPE (no mrope_section)\n");
}
