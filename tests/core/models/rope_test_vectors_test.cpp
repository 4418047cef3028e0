// The reference RoPE test vectors (core/models/rope_test_vectors): groups, float32 cos and sin, scores against the
// closed forms written out here, LongRoPE's switch, the origins of each value, the safetensors copy, refusals.
#include <cmath>

#include <catch2/catch.hpp>

#include "core/io/safetensors.hpp"
#include "core/models/rope_test_vectors.hpp"
#include "tests/core/models/model_config_fixtures.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

namespace {

ModelConfig read(const std::string& fields) { return read_model_config("{" + fields + "}", "inline"); }

const ValueOrigin* origin_of(const std::vector<ValueOrigin>& origins, std::string_view value) {
  for (const ValueOrigin& o : origins)
    if (o.value == value) return &o;
  return nullptr;
}

// The score of the documented q and k with q at position p and k at 0, in double from the formula (no float32).
double closed_form_score(int head_dim, int rotary, bool halves, const std::vector<float>& inv_freq, double af, double p) {
  const auto q = [&](int i) { return double(i + 1) / head_dim; };
  const auto k = [&](int i) { return double(head_dim - i) / head_dim; };
  double s = 0;
  for (int j = 0; j < rotary / 2; ++j) {
    const int a = halves ? j : 2 * j, b = halves ? j + rotary / 2 : 2 * j + 1;
    const double angle = p * inv_freq[std::size_t(j)];
    s += af * af * (std::cos(angle) * (q(a) * k(a) + q(b) * k(b)) + std::sin(angle) * (q(a) * k(b) - q(b) * k(a)));
  }
  for (int i = rotary; i < head_dim; ++i) s += q(i) * k(i);
  return s;
}

}  // namespace

TEST_CASE("rope test vectors: float32 cos and sin as transformers rounds them, scores by the closed form") {
  const ModelConfig c = load_fixture_config("qwen2.5-7b-instruct-yarn.json");
  const std::vector<long long> positions = {0, 1, 7, 4096, 131071};
  const RopeTestVectors v = rope_test_vectors(c, positions);
  REQUIRE(v.seq_len == 131072);
  REQUIRE(v.groups.size() == 1);
  const RopeVectorGroup& g = v.groups[0];
  CHECK(g.layers.size() == 28);
  CHECK(g.rope_type == "yarn");
  CHECK(g.attention_factor == Approx(0.1 * std::log(4.0) + 1).epsilon(1e-7));  // get_mscale(factor 4)
  REQUIRE(g.inv_freq.size() == 64);
  for (std::size_t p = 0; p < positions.size(); ++p)
    for (std::size_t j = 0; j < g.inv_freq.size(); ++j) {
      const float angle = float(positions[p]) * g.inv_freq[j];
      CHECK(g.cos[p][j] == float(std::cos(double(angle))) * g.attention_factor);
      CHECK(g.sin[p][j] == float(std::sin(double(angle))) * g.attention_factor);
    }
  // At small positions the float32 angle is within 1e-6 of the exact one: the score matches the double closed form.
  for (std::size_t p = 0; p < 3; ++p)
    CHECK(g.scores[p] == Approx(closed_form_score(128, 128, true, g.inv_freq, g.attention_factor, double(positions[p])))
                             .epsilon(1e-5));
}

TEST_CASE("rope test vectors: the pairing and the sign of sin change the scores") {
  const std::string fields = R"("model_type": "llama", "head_dim": 8, "num_attention_heads": 2, "num_hidden_layers": 1)";
  const std::vector<long long> positions = {3};
  const RopeVectorGroup halves = rope_test_vectors(read(fields), positions).groups[0];
  const RopeVectorGroup interleaved = rope_test_vectors(read(fields + R"(, "rope_interleave": true)"), positions).groups[0];
  CHECK(halves.scores[0] == Approx(closed_form_score(8, 8, true, halves.inv_freq, 1, 3)).epsilon(1e-6));
  CHECK(interleaved.scores[0] == Approx(closed_form_score(8, 8, false, interleaved.inv_freq, 1, 3)).epsilon(1e-6));
  CHECK(std::abs(halves.scores[0] - interleaved.scores[0]) > 0.1);
}

TEST_CASE("rope test vectors: partial rotary channels pass through, NoPE groups are plain q.k") {
  const RopeTestVectors phi = rope_test_vectors(load_fixture_config("phi-2.json"), std::vector<long long>{0, 9});
  const RopeVectorGroup& g = phi.groups[0];
  CHECK(g.head_dim == 80);
  CHECK(g.rotary_dim == 32);  // int(80 * 0.4)
  CHECK(g.scores[1] == Approx(closed_form_score(80, 32, true, g.inv_freq, 1, 9)).epsilon(1e-6));
  const RopeTestVectors scout = rope_test_vectors(load_fixture_config("llama-4-scout-17b-16e.json"),
                                                  std::vector<long long>{0, 8191, 8192 * 3 - 1});
  REQUIRE(scout.groups.size() == 2);
  const RopeVectorGroup& nope = scout.groups[1];
  CHECK_FALSE(nope.rope);
  CHECK(nope.layers == std::vector<int>{3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47});
  CHECK(nope.scores[0] == Approx(closed_form_score(128, 0, true, {}, 1, 0)));
  CHECK(nope.scores[2] == nope.scores[0]);
  // Llama 4: log(floor((p + 1) / 8192) + 1) * 0.1 + 1.
  CHECK(nope.query_scale == std::vector<double>{1.0, 0.1 * std::log(2.0) + 1, 0.1 * std::log(4.0) + 1});
  CHECK(scout.groups[0].pairing == RopePairing::interleaved);
  CHECK(scout.groups[0].query_scale.empty());
}

TEST_CASE("rope test vectors: Gemma 3's sliding layers keep the local base and no scaling") {
  const RopeTestVectors v = rope_test_vectors(load_fixture_config("gemma-3-12b-it.json"), std::vector<long long>{1});
  REQUIRE(v.groups.size() == 2);
  const RopeVectorGroup& sliding = v.groups[0];
  const RopeVectorGroup& full = v.groups[1];
  CHECK(sliding.layer_type == "sliding_attention");
  CHECK(full.layers == std::vector<int>{5, 11, 17, 23, 29, 35, 41, 47});
  CHECK(sliding.rope_type == "default");
  CHECK(full.rope_type == "linear");
  CHECK(sliding.base == 10000);
  CHECK(full.base == 1e6);
  CHECK(full.factor == 8);
  CHECK(sliding.inv_freq[1] == float(std::pow(10000.0, -2.0 / 256)));
  CHECK(full.inv_freq[1] == Approx(std::pow(1e6, -2.0 / 256) / 8).epsilon(1e-7));
  CHECK(describe(*origin_of(sliding.origins, "rope_theta")) == "read from text_config.rope_local_base_freq");
}

TEST_CASE("rope test vectors: LongRoPE takes its long factors once the sequence passes the original context") {
  const ModelConfig c = load_fixture_config("phi-3.5-mini-instruct.json");
  const LayerTypeRope& l = layer_type_rope(c, "");
  const auto first = [&](long long last) { return rope_test_vectors(c, std::vector<long long>{0, last}).groups[0]; };
  const double base_1 = std::pow(10000.0, -2.0 / 96);
  CHECK(first(4095).inv_freq[1] == Approx(base_1 / l.scaling.short_factor[1]).epsilon(1e-7));  // seq_len 4096
  CHECK(first(4096).inv_freq[1] == Approx(base_1 / l.scaling.long_factor[1]).epsilon(1e-7));   // seq_len 4097
  CHECK(first(4096).attention_factor == Approx(std::sqrt(1 + std::log(32.0) / std::log(4096.0))).epsilon(1e-7));
}

TEST_CASE("config origins: read, class default or derived, naming the field or the rule") {
  const ModelConfig gemma = read(R"("model_type": "gemma3_text", "num_hidden_layers": 6, "sliding_window": 512)");
  const LayerTypeRope& full = layer_type_rope(gemma, "");
  CHECK(describe(*origin_of(full.origins, "head_dim")) == "default: head_dim 256 (the gemma3_text config class's default)");
  CHECK(origin_of(full.origins, "rope_theta")->origin == Origin::class_default);
  CHECK(origin_of(gemma.origins, "sliding_window")->origin == Origin::read);
  const ModelConfig phi2 = load_fixture_config("phi-2.json");
  CHECK(describe(*origin_of(layer_type_rope(phi2, "").origins, "rotary_dim")) ==
        "derived: int(head_dim * partial_rotary_factor)");
  CHECK(describe(*origin_of(layer_type_rope(phi2, "").origins, "head_dim")) ==
        "derived: hidden_size // num_attention_heads");
  const ModelConfig deepseek = load_fixture_config("deepseek-v3.json");
  CHECK(describe(*origin_of(layer_type_rope(deepseek, "").origins, "head_dim")) == "read from qk_rope_head_dim");
  CHECK(origin_of(layer_type_rope(deepseek, "").origins, "attention_factor")->source ==
        "get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim)");
  const ModelConfig scout = load_fixture_config("llama-4-scout-17b-16e.json");
  CHECK(describe(*origin_of(scout.origins, "no_rope_layers")) == "read from text_config.no_rope_layers");
}

TEST_CASE("rope test vectors: the safetensors copy holds the JSON's numbers") {
  const ModelConfig c = load_fixture_config("llama-4-scout-17b-16e.json");
  const RopeTestVectors v = rope_test_vectors(c, std::vector<long long>{0, 5, 70000});
  const std::string bytes = rope_test_vectors_safetensors(c, v);
  const SafetensorsIndex index = parse_safetensors_index(bytes, bytes.size());
  const Matrix cos = parse_safetensors_matrix(bytes, "group0.cos");
  REQUIRE(cos.rows == 3);
  REQUIRE(cos.cols == 64);
  for (std::size_t p = 0; p < 3; ++p)
    for (std::size_t j = 0; j < 64; ++j) CHECK(cos.at(p, j) == v.groups[0].cos[p][j]);
  const nlohmann::json groups = nlohmann::json::parse(index.metadata.at("groups"));
  CHECK(groups[1]["layers"][0] == 3);
  CHECK(groups[1]["rope"] == false);
  CHECK(nlohmann::json::parse(index.metadata.at("positions")) == nlohmann::json{0, 5, 70000});
}

TEST_CASE("rope test vectors: refusals name the parameter") {
  const ModelConfig c = load_fixture_config("llama-3.1-8b-instruct.json");
  CHECK(param_error_of([&] { rope_test_vectors(c, std::vector<long long>{}); }) ==
        "positions: must list at least one position");
  CHECK(param_error_of([&] { rope_test_vectors(c, std::vector<long long>{-1}); }) ==
        "positions: must be an integer in [0, 16777216], got -1");
  CHECK(param_error_of([&] { rope_test_vectors(c, std::vector<long long>{kMaxTestPosition + 1}); }) ==
        "positions: must be an integer in [0, 16777216], got 16777217");
  CHECK(param_error_of([&] { rope_test_vectors(load_fixture_config("gpt2.json"), std::vector<long long>{0}); }) ==
        "config: the model uses learned_absolute, not RoPE: it has no rotary vectors");
  CHECK(layer_ranges({0, 1, 2, 4, 5, 7}) == "0-2, 4, 5, 7");
  CHECK(default_test_positions(c).back() == 131071);
}
