// Tests for core/models/model_comparison: each model's pair counts, scaled wavelengths and bounds, from closed forms.
#include "core/models/model_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <optional>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"
#include "core/rope/rope_bounds.hpp"
#include "tests/core/models/model_config_fixtures.hpp"

using namespace peviz;

namespace {
// Pairs j < R/2 with 2 pi base^(2j/R) <= L, counted from the closed form.
int pairs_turning(int R, double base, double L) {
  int n = 0;
  for (int j = 0; j < R / 2; ++j) n += 2 * std::numbers::pi * std::pow(base, 2.0 * j / R) <= L;
  return n;
}
}  // namespace

TEST_CASE("summary of Llama 3.1: pairs turning, Liu's critical dimension, Men's base") {
  const RopeModelSummary s = summarize_rope_model(load_fixture_config("llama-3.1-8b-instruct.json"));
  CHECK(s.rotary_dim == 128);
  CHECK(s.base == 500000.0);
  CHECK(s.scaling == RopeScaling::llama3);
  CHECK(s.factor == 8.0);
  CHECK(s.original_len == 8192);
  CHECK(s.extended_len == 131072);
  CHECK(s.pairs_turning_original == pairs_turning(128, 500000.0, 8192));
  CHECK(s.pairs_turning_original == 35);
  // Liu et al. Eq. 13: d_extra = 2 ceil(64 ln(8192 / 2 pi) / ln 500000) = 2 ceil(34.98) = 70 = 2 x the pairs.
  CHECK(s.critical_dim == 70);
  // llama3 divides the long wavelengths by nothing and multiplies them by 8: the scaled ones are never shorter.
  REQUIRE(s.scaled_wavelength.size() == 64);
  for (std::size_t j = 0; j < 64; ++j) CHECK(s.scaled_wavelength[j] >= s.wavelength[j] * (1 - 1e-12));
  CHECK(s.scaled_wavelength[63] == Approx(8 * s.wavelength[63]).epsilon(1e-12));
  CHECK(s.scaled_wavelength[0] == Approx(s.wavelength[0]).epsilon(1e-12));
  REQUIRE(s.min_base);
  // 500000 is below the smallest base, so some distance below the span has B(m) < 0.
  CHECK(s.base < *s.min_base);
  CHECK(s.fails_at);
}

TEST_CASE("summary of Llama 2: Men et al.'s base for 4k is about 2.7e4, so base 10000 is below it") {
  const RopeModelSummary s = summarize_rope_model(load_fixture_config("llama-2-7b-hf.json"));
  CHECK(s.base == 10000.0);
  CHECK(s.scaling == RopeScaling::none);
  CHECK(s.extended_len == 4096);
  REQUIRE(s.min_base);
  CHECK(*s.min_base == Approx(26952.4).epsilon(1e-5));  // tests/core/rope/rope_bounds_test.cpp: the paper's 2.7e4
  CHECK(s.fails_at);
  CHECK(s.scaled_wavelength == s.wavelength);
  CHECK(s.pairs_turning_extended == pairs_turning(128, 10000.0, 4096));
}

TEST_CASE("summary of Qwen2.5 with its YaRN opt-in: extended to original x factor") {
  // The model card adds rope_scaling but keeps max_position_embeddings 32768: the extended context is 4 x 32768.
  const RopeModelSummary s = summarize_rope_model(load_fixture_config("qwen2.5-7b-instruct-yarn.json"));
  CHECK(s.original_len == 32768);
  CHECK(s.extended_len == 131072);
  CHECK(s.scaling == RopeScaling::yarn);
  CHECK(s.attention_factor == Approx(0.1 * std::log(4.0) + 1.0).epsilon(1e-12));
  CHECK(s.pairs_turning_extended == int(std::count_if(s.scaled_wavelength.begin(), s.scaled_wavelength.end(),
                                                      [](double w) { return w <= 131072; })));
}

TEST_CASE("summary of a linear-scaled layer type and of LongRoPE's long factors") {
  const RopeModelSummary full = summarize_rope_model(load_fixture_config("gemma-3-12b-it.json"), "full_attention");
  CHECK(full.name == "gemma-3-12b-it (full_attention)");
  CHECK(full.scaling == RopeScaling::linear);
  for (std::size_t j = 0; j < full.wavelength.size(); ++j)
    CHECK(full.scaled_wavelength[j] == Approx(8 * full.wavelength[j]).epsilon(1e-12));
  CHECK(full.pairs_turning_extended == full.pairs_turning_original);  // both stretched by 8
  const RopeModelSummary sliding = summarize_rope_model(load_fixture_config("gemma-3-12b-it.json"), "sliding_attention");
  CHECK(sliding.base == 10000.0);
  CHECK(sliding.scaling == RopeScaling::none);

  // Phi-3.5: R 96, base 10000, original 4096, max 131072: every pair divided by its long factor,
  // attention factor sqrt(1 + ln(32) / ln(4096)) (transformers' _compute_longrope_parameters).
  std::ifstream in(model_config_fixture("phi-3.5-mini-instruct.json"));
  const nlohmann::json j = nlohmann::json::parse(in);
  const std::vector<double> long_factor = j["rope_scaling"]["long_factor"];
  const RopeModelSummary phi = summarize_rope_model(load_fixture_config("phi-3.5-mini-instruct.json"));
  CHECK(phi.scaling == RopeScaling::longrope);
  REQUIRE(phi.scaled_wavelength.size() == long_factor.size());
  for (std::size_t p = 0; p < long_factor.size(); ++p)
    CHECK(phi.scaled_wavelength[p] == Approx(phi.wavelength[p] * long_factor[p]).epsilon(1e-12));
  CHECK(phi.attention_factor == Approx(std::sqrt(1 + std::log(32.0) / std::log(4096.0))).epsilon(1e-12));
  CHECK_THROWS_AS(summarize_rope_model(load_fixture_config("gpt2.json")), ParamError);
}

TEST_CASE("Men et al.'s base over the span the RoPE layers see: Llama 4's chunks, Gemma 3's sliding window") {
  // Llama 4 Scout has Llama 3.1's RoPE, but its rotating layers attend in chunks of 8192 (attention_chunk_size):
  // no RoPE layer sees a distance past 8191, so the bound is the one for 8192 tokens, not for 262144.
  const RopeModelSummary scout = summarize_rope_model(load_fixture_config("llama-4-scout-17b-16e.json"));
  CHECK(scout.extended_len == 262144);
  CHECK(scout.span == 8192);
  CHECK(scout.layers == 48);
  CHECK(scout.nope_layers == 12);
  REQUIRE(scout.min_base);
  CHECK(*scout.min_base == Approx(rope_min_base(128, 8192).value()).epsilon(1e-12));
  CHECK_FALSE(scout.fails_at);
  const RopeModelSummary llama31 = summarize_rope_model(load_fixture_config("llama-3.1-8b-instruct.json"));
  CHECK(scout.scaled_wavelength == llama31.scaled_wavelength);  // the same RoPE, scaling included
  CHECK(llama31.span == llama31.extended_len);
  // Gemma 3: the sliding layers' own base, over their window of 1024; the full layers see the whole context.
  const RopeModelSummary sliding = summarize_rope_model(load_fixture_config("gemma-3-12b-it.json"), "sliding_attention");
  CHECK(sliding.span == 1024);
  CHECK_FALSE(sliding.fails_at);
  CHECK(summarize_rope_model(load_fixture_config("gemma-3-12b-it.json"), "full_attention").span == 131072);
  // gpt-oss: one RoPE for sliding and full layers; the full ones see everything.
  const RopeModelSummary oss = summarize_rope_model(load_fixture_config("gpt-oss-20b.json"));
  CHECK(oss.span == oss.extended_len);
  // Qwen3-Next: three of four layers are linear attention, without positions.
  const RopeModelSummary next = summarize_rope_model(load_fixture_config("qwen3-next-80b-a3b-instruct.json"));
  CHECK(next.positionless_layers == 36);
  CHECK(next.layers == 48);
}

TEST_CASE("Qwen2.5-7B's base is above the smallest base for its 32768 tokens, and still fails there") {
  const RopeModelSummary s = summarize_rope_model(load_fixture_config("qwen2.5-7b-instruct.json"));
  REQUIRE(s.min_base);
  CHECK(s.span == 32768);
  CHECK(s.base > *s.min_base);
  CHECK(s.fails_at == 27115);  // docs/views.md: B(m) turns negative at m = 27,115
  CHECK(rope_similarity_bound(128, s.base, 27115) < 0);
  CHECK(rope_similarity_bound(128, s.base, 27114) >= 0);
}

TEST_CASE("The holding-base scan of a summary: over its span, from its smallest base up to the listed factor") {
  const RopeModelSummary s = summarize_rope_model(load_fixture_config("llama-2-7b-hf.json"));
  HoldingBaseScan scan = holding_base_scan(s);
  CHECK(scan.up_to() == Approx(limits::bounds_islands_listed * *s.min_base).epsilon(1e-12));
  while (!scan.done()) scan.step();
  const std::vector<BaseRange> whole = rope_holding_bases(128, 4096, *s.min_base, scan.up_to());
  REQUIRE(scan.ranges().size() == whole.size());
  CHECK(scan.ranges().front().lo == *s.min_base);
  CHECK(scan.ranges().front().hi == whole.front().hi);  // the island 26,952..26,973 (tests/core/rope/rope_bounds_test.cpp)
  RopeModelSummary none = s;
  none.min_base.reset();
  CHECK(holding_base_scan(none).done());
  CHECK(holding_base_scan(none).ranges().empty());
}

TEST_CASE("ok is the model's own base checked, not a comparison with the smallest base: 40000 fails at 4096") {
  // Between the islands of tests/core/rope/rope_bounds_test.cpp: 40000 is above Men's smallest base 26952 yet B(m) < 0
  // below 4096; 60000 is above the last failing base (about 58,766).
  for (const auto& [base, holds] : {std::pair{40000.0, false}, std::pair{60000.0, true}, std::pair{10000.0, false}}) {
    CAPTURE(base);
    const std::string json = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "num_hidden_layers": 2, "max_position_embeddings": 4096, "rope_theta": )" + std::to_string(base) + "}";
    const RopeModelSummary s = summarize_rope_model(read_model_config(json, "synthetic"));
    REQUIRE(s.min_base);
    CHECK(!s.fails_at == holds);
    std::optional<long long> first_negative;
    for (long long m = 0; m < 4096 && !first_negative; ++m)
      if (rope_similarity_bound(128, base, m) < 0) first_negative = m;
    CHECK(s.fails_at == first_negative);
  }
}
