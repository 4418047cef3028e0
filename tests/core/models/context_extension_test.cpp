// Tests for core/models/context_extension: the five scalings side by side, pair counts of real models, presets.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <numbers>

#include "core/models/context_extension.hpp"
#include "core/base/errors.hpp"
#include "core/models/model_config.hpp"
#include "tests/core/param_error.hpp"
#include "tests/core/models/model_config_fixtures.hpp"

using namespace peviz;

namespace {
// The shipped model whose name contains `part`.
const RopeModelPreset& preset(std::string_view part) {
  for (const auto& m : rope_model_presets())
    if (m.name.find(part) != std::string::npos) return m;
  FAIL("no preset " << part);
  throw;
}
}  // namespace

TEST_CASE("five scalings in order, linear stretches every wavelength by the factor") {
  ContextExtensionParams p;  // head_dim 128, base 10000
  p.factor = 4;
  p.original_len = 4096;
  const ContextExtension c = compare_context_extensions(p);
  CHECK(c.target_len == 16384.0);
  REQUIRE(c.rows.size() == 5);
  CHECK(c.rows[0].kind == RopeScaling::none);
  CHECK(c.rows[4].kind == RopeScaling::llama3);
  const auto& none = c.rows[0].wavelength;
  const auto& linear = c.rows[1].wavelength;
  REQUIRE(none.size() == 64);
  CHECK(none[0] == Approx(2 * std::numbers::pi));
  for (std::size_t j = 0; j < 64; ++j) CHECK(linear[j] == Approx(4.0 * none[j]).epsilon(1e-12));
  // Stretching by the factor moves no pair across the context stretched by the same factor.
  CHECK(c.rows[1].pairs_beyond_target == c.rows[0].pairs_beyond_original);

  // Dynamic NTK at seq = 4 x 4096: base' = base (f^2 - f + 1)^(R/(R-2)) (HF _compute_dynamic_ntk_parameters).
  const double base2 = 10000.0 * std::pow(4.0 * 4.0 - 3.0, 128.0 / 126.0);
  CHECK(c.rows[2].scaled.inv_freq[1] == Approx(std::pow(base2, -2.0 / 128.0)).epsilon(1e-12));
  CHECK(c.rows[2].wavelength[0] == Approx(2 * std::numbers::pi));  // pair 0 never changes

  // YaRN: attention factor 0.1 ln f + 1; fast pairs keep their wavelength, slow ones are stretched by f.
  CHECK(c.rows[3].scaled.attention_factor == Approx(0.1 * std::log(4.0) + 1.0));
  CHECK(c.rows[3].wavelength[0] == Approx(none[0]));
  CHECK(c.rows[3].wavelength[63] == Approx(4.0 * none[63]));
  REQUIRE(c.rows[3].scaled.yarn_ramp.size() == 64);
  CHECK(c.rows[3].scaled.yarn_ramp[0] == 0.0);
  CHECK(c.rows[3].scaled.yarn_ramp[63] == 1.0);
}

TEST_CASE("real models: the pair counts quoted in the README") {
  // Llama-2: from pair 46 on (wavelength 4712) no pair completes a turn in 4096 tokens.
  const ContextExtension l2 = compare_context_extensions(preset("Llama-2").params);
  REQUIRE(l2.rows.size() > 0);
  CHECK(l2.rows[0].pairs_beyond_original == 64 - 46);
  CHECK(l2.rows[0].wavelength[46] == Approx(4712).margin(1));
  // Llama 3.1: 35 pairs turn inside 8192; after llama3 x8, 39 turn inside 131072.
  const RopeModelPreset& l3 = preset("llama-3.1");
  CHECK(l3.model_scaling == RopeScaling::llama3);
  const ContextExtension c3 = compare_context_extensions(l3.params);
  CHECK(c3.target_len == 131072.0);
  REQUIRE(c3.rows.size() > 4);
  CHECK(c3.rows[0].pairs_beyond_original == 64 - 35);
  CHECK(c3.rows[4].pairs_beyond_target == 64 - 39);
  const ContextExtension qw = compare_context_extensions(preset("qwen2.5-7b-instruct-yarn").params);
  CHECK(qw.target_len == 131072.0);
  REQUIRE(qw.rows.size() > 3);
  CHECK(qw.rows[3].scaled.factor == 4.0);
}

TEST_CASE("context extension knobs are validated with their flag names") {
  ContextExtensionParams p;
  p.factor = 0.5;
  CHECK(param_error_of([&] { compare_context_extensions(p); }) == "factor: must be a finite number in [1, 1000000], got 0.5");
  p.factor = 2.0;
  p.beta_fast = 0.5;
  CHECK(param_error_of([&] { compare_context_extensions(p); }).rfind("beta-fast: must be greater than --beta-slow", 0) == 0);
  p.beta_fast = 32.0;
  p.high_freq_factor = 0.5;
  CHECK(param_error_of([&] { compare_context_extensions(p); }).rfind("high-freq-factor:", 0) == 0);
  p.high_freq_factor = 4.0;
  p.original_len = 1;
  CHECK(param_error_of([&] { compare_context_extensions(p); }).rfind("original-max-len: must be an integer in [2,", 0) == 0);
}

namespace {
ModelConfig model_fixture(const std::string& name) { return load_model_config(model_config_fixture(name).string()); }
}  // namespace

TEST_CASE("rope_model_preset: Llama 3.1's config.json gives its llama3 knobs") {
  const RopeModelPreset read = rope_model_preset(model_fixture("llama-3.1-8b-instruct.json"));
  CHECK(read.model_scaling == RopeScaling::llama3);
  CHECK(read.params.rope.head_dim == 128);
  CHECK(read.params.rope.base == 500000.0);
  CHECK(read.params.factor == 8.0);
  CHECK(read.params.original_len == 8192);
  CHECK(read.params.target_len == 131072);
  CHECK(read.params.low_freq_factor == 1.0);
  CHECK(read.params.high_freq_factor == 4.0);
  CHECK(read.note == "rope_theta 500000, llama3 x8 from 8192; max_position_embeddings 131072");
  CHECK_NOTHROW(compare_context_extensions(read.params));
}

TEST_CASE("rope_model_preset: a value the config does not spell out is marked in the note") {
  // Read: nothing marked (Llama 3.1 above). Derived: Gemma 3's linear names no original context (max_position /
  // factor), Phi-3.5's longrope no factor (max_position / original).
  const ModelConfig gemma = model_fixture("gemma-3-12b-it.json");
  CHECK(rope_model_preset(gemma, "full_attention").note ==
        "full_attention: rope_theta 1e+06, linear x8 from 16384 (derived); max_position_embeddings 131072");
  CHECK(rope_model_preset(model_fixture("phi-3.5-mini-instruct.json")).note ==
        "rope_theta 10000, longrope x32 (derived) from 4096; max_position_embeddings 131072");
  // Phi3Config reads rope_scaling type "yarn" as longrope; a config without rope_theta has the class's 10000.
  const ModelConfig phi = read_model_config(R"({"model_type": "phi3", "hidden_size": 64, "num_attention_heads": 4,
      "max_position_embeddings": 8192, "original_max_position_embeddings": 4096,
      "rope_scaling": {"type": "yarn", "short_factor": [1, 1, 1, 1, 1, 1, 1, 1],
                       "long_factor": [1, 1, 1, 1, 2, 2, 2, 2]}})", "phi");
  CHECK(rope_model_preset(phi).note ==
        "rope_theta 10000 (default), longrope (derived) x2 (derived) from 4096; max_position_embeddings 8192");
}

TEST_CASE("rope_model_preset: each layer type of Gemma 3, and models without RoPE refused") {
  const ModelConfig gemma = model_fixture("gemma-3-12b-it.json");
  const RopeModelPreset full = rope_model_preset(gemma, "full_attention");
  const RopeModelPreset sliding = rope_model_preset(gemma, "sliding_attention");
  CHECK(full.params.rope.base == 1e6);
  CHECK(full.model_scaling == RopeScaling::linear);
  CHECK(full.params.factor == 8.0);
  CHECK(full.params.original_len == 131072 / 8);  // linear names no original: max_position / factor
  CHECK(full.params.target_len == 131072);
  CHECK(sliding.params.rope.base == 10000.0);
  CHECK(sliding.model_scaling == RopeScaling::none);
  CHECK(sliding.params.factor == 1.0);  // nothing stretched
  CHECK(sliding.note.rfind("sliding_attention: rope_theta 10000, no scaling", 0) == 0);
  CHECK_THROWS_AS(rope_model_preset(gemma, "global"), ParamError);
  CHECK_THROWS_WITH(rope_model_preset(model_fixture("gpt2.json")), Catch::Contains("not RoPE"));
}
