// Tests for core/models/model_config_rope, the RoPE rules of the config reader, on published config.json files: every RoPE's
// inv_freq and attention factor against transformers' formulas written out here in double (independently of core),
// and transformers' precedence rules between rope_type and type, rope_scaling and rope_parameters, the thetas.
#include "core/models/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <catch2/catch.hpp>

#include "tests/core/models/model_config_fixtures.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

namespace {


// --- transformers' formulas (modeling_rope_utils.py), written out in double --------------------------------

// _compute_default_rope_parameters: 1 / base ** (arange(0, R, 2) / R).
std::vector<double> default_inv_freq(double base, int rotary) {
  std::vector<double> f;
  for (int j = 0; j < rotary / 2; ++j) f.push_back(1.0 / std::pow(base, 2.0 * j / rotary));
  return f;
}

// _compute_llama3_parameters.
std::vector<double> llama3_inv_freq(double base, int rotary, double factor, double low, double high, double old_len) {
  std::vector<double> f = default_inv_freq(base, rotary);
  for (double& x : f) {
    const double wavelen = 2 * std::numbers::pi / x;
    if (wavelen < old_len / high) continue;
    if (wavelen > old_len / low) {
      x /= factor;
      continue;
    }
    const double smooth = (old_len / wavelen - low) / (high - low);
    x = (1 - smooth) * x / factor + smooth * x;
  }
  return f;
}

// _compute_yarn_parameters (truncate = True): find_correction_range, linear_ramp_factor, the blend.
std::vector<double> yarn_inv_freq(double base, int rotary, double factor, double original, double beta_fast = 32,
                                  double beta_slow = 1) {
  const auto correction_dim = [&](double rotations) {
    return rotary * std::log(original / (rotations * 2 * std::numbers::pi)) / (2 * std::log(base));
  };
  const double low = std::max(std::floor(correction_dim(beta_fast)), 0.0);
  double high = std::min(std::ceil(correction_dim(beta_slow)), double(rotary - 1));
  if (low == high) high += 0.001;
  std::vector<double> f = default_inv_freq(base, rotary);
  for (int j = 0; j < rotary / 2; ++j) {
    const double ramp = std::clamp((j - low) / (high - low), 0.0, 1.0);  // 1 = interpolate
    f[std::size_t(j)] = f[std::size_t(j)] / factor * ramp + f[std::size_t(j)] * (1 - ramp);
  }
  return f;
}

double yarn_mscale(double scale, double mscale = 1) { return scale <= 1 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0; }

void check_relative(const std::vector<double>& got, const std::vector<double>& want, double tolerance = 1e-12) {
  REQUIRE(got.size() == want.size());
  for (std::size_t j = 0; j < got.size(); ++j) {
    CAPTURE(j, got[j], want[j]);
    CHECK(std::abs(got[j] - want[j]) <= tolerance * std::abs(want[j]));
  }
}

ScaledRope scaled(const LayerTypeRope& l, std::optional<int> seq_len = std::nullopt) {
  RopeScalingParams s = l.scaling;
  s.seq_len = seq_len;
  return rope_scaled_inv_freq(l.rope, s);
}

ScaledRope scaled(const ModelConfig& c, std::optional<int> seq_len = std::nullopt) {
  return scaled(layer_type_rope(c, ""), seq_len);
}

}  // namespace

TEST_CASE("Llama 3.1 8B: llama3 scaling, factor 8 from 8192, base 500000", "[model_config]") {
  const ModelConfig c = load_fixture_config("llama-3.1-8b-instruct.json");
  CHECK(c.name == "llama-3.1-8b-instruct");
  CHECK(c.model_type == "llama");
  CHECK(c.scheme == PositionScheme::rope);
  CHECK(c.max_position_embeddings == 131072);
  CHECK(c.rope.head_dim == 128);
  CHECK(rotary_dim(c.rope) == 128);
  CHECK(c.rope.base == 500000.0);
  CHECK(c.rope.pairing == RopePairing::halves);
  CHECK(c.scaling.kind == RopeScaling::llama3);
  REQUIRE(c.layer_types.size() == 1);
  CHECK(c.layer_types[0].layer_type == "full_attention");
  CHECK(c.layer_types[0].layers == 32);
  const ScaledRope s = scaled(c);
  check_relative(s.inv_freq, llama3_inv_freq(500000, 128, 8, 1, 4, 8192));
  CHECK(s.attention_factor == 1.0);
}

TEST_CASE("Qwen2.5 7B: plain, and with the model card's YaRN opt-in (legacy `type` key)", "[model_config]") {
  const ModelConfig plain = load_fixture_config("qwen2.5-7b-instruct.json");
  CHECK(plain.rope.head_dim == 3584 / 28);
  CHECK(plain.scaling.kind == RopeScaling::none);
  CHECK(plain.max_position_embeddings == 32768);
  const ScaledRope p = scaled(plain);
  check_relative(p.inv_freq, default_inv_freq(1e6, 128));
  CHECK(p.attention_factor == 1.0);

  const ModelConfig yarn = load_fixture_config("qwen2.5-7b-instruct-yarn.json");
  CHECK(yarn.scaling.kind == RopeScaling::yarn);
  const ScaledRope y = scaled(yarn);
  check_relative(y.inv_freq, yarn_inv_freq(1e6, 128, 4.0, 32768));
  CHECK(std::abs(y.attention_factor - (0.1 * std::log(4.0) + 1.0)) <= 1e-12 * y.attention_factor);
}

TEST_CASE("DeepSeek-V3: head_dim = qk_rope_head_dim, interleaved, YaRN x40 with mscale / mscale_all_dim", "[model_config]") {
  const ModelConfig c = load_fixture_config("deepseek-v3.json");
  CHECK(c.rope.head_dim == 64);
  CHECK(c.rope.pairing == RopePairing::interleaved);
  CHECK(c.rope.base == 10000.0);
  CHECK(c.max_position_embeddings == 163840);
  CHECK(c.scaling.kind == RopeScaling::yarn);
  CHECK(c.scaling.original_max_len == 4096);
  const ScaledRope s = scaled(c);
  check_relative(s.inv_freq, yarn_inv_freq(10000, 64, 40, 4096, 32, 1));
  // get_mscale(40, 1.0) / get_mscale(40, 1.0)
  CHECK(s.attention_factor == Approx(yarn_mscale(40, 1.0) / yarn_mscale(40, 1.0)).epsilon(1e-12));
}

TEST_CASE("Phi-3.5 mini: LongRoPE, original 4096 at the top level, short and long factors by seq_len", "[model_config]") {
  const ModelConfig c = load_fixture_config("phi-3.5-mini-instruct.json");
  CHECK(c.name == "microsoft/Phi-3.5-mini-instruct");
  CHECK(c.rope.head_dim == 96);
  CHECK(c.scaling.kind == RopeScaling::longrope);
  CHECK(c.scaling.original_max_len == 4096);
  CHECK_FALSE(c.scaling.factor.has_value());  // factor = max_position_embeddings / original = 32
  const std::vector<double> base = default_inv_freq(10000, 96);
  const double attention = std::sqrt(1 + std::log(131072.0 / 4096) / std::log(4096.0));
  for (std::optional<int> seq : {std::optional<int>(), std::optional<int>(4096), std::optional<int>(4097)}) {
    const bool long_ctx = seq && *seq > 4096;
    CAPTURE(seq.value_or(0));
    const ScaledRope s = scaled(c, seq);
    const std::vector<double>& ext = long_ctx ? c.scaling.long_factor : c.scaling.short_factor;
    std::vector<double> want = base;
    for (std::size_t j = 0; j < want.size(); ++j) want[j] = 1.0 / (ext[j] * std::pow(10000.0, 2.0 * double(j) / 96));
    check_relative(s.inv_freq, want);
    CHECK(std::abs(s.attention_factor - attention) <= 1e-12 * attention);
  }
  CHECK(c.scaling.long_factor.front() == 1.0800000429153442);
  CHECK(c.scaling.short_factor.back() == 2.8399994373321533);
}

TEST_CASE("Gemma 3: full layers scaled linearly from rope_theta, sliding layers on rope_local_base_freq", "[model_config]") {
  const ModelConfig big = load_fixture_config("gemma-3-12b-it.json");  // text_config nested in a Gemma3Config
  CHECK(big.model_type == "gemma3_text");
  CHECK(big.name == "gemma-3-12b-it");
  REQUIRE(big.layer_types.size() == 2);
  const LayerTypeRope& full = layer_type_rope(big, "full_attention");
  const LayerTypeRope& sliding = layer_type_rope(big, "sliding_attention");
  CHECK(&layer_type_rope(big, "") == &full);
  CHECK(full.layers == 8);
  CHECK(sliding.layers == 40);
  CHECK(full.rope.head_dim == 256);
  CHECK(full.scaling.kind == RopeScaling::linear);
  CHECK(sliding.scaling.kind == RopeScaling::none);
  std::vector<double> linear = default_inv_freq(1e6, 256);
  for (double& f : linear) f /= 8.0;
  check_relative(scaled(full).inv_freq, linear);
  check_relative(scaled(sliding).inv_freq, default_inv_freq(10000, 256));

  const ModelConfig small = load_fixture_config("gemma-3-1b-it.json");  // flat gemma3_text, rope_scaling null
  CHECK(layer_type_rope(small, "full_attention").layers == 4);
  CHECK(layer_type_rope(small, "sliding_attention").layers == 22);
  check_relative(scaled(small).inv_freq, default_inv_freq(1e6, 256));
  check_relative(scaled(layer_type_rope(small, "sliding_attention")).inv_freq, default_inv_freq(10000, 256));
  // A text_config that lists only what differs from Gemma3TextConfig's defaults (the shape of gemma-3-4b-it's):
  // head_dim 256, rope_theta 1e6, rope_local_base_freq 1e4 and the pattern 6 come from the class.
  const ModelConfig sparse = read_model_config(R"({"model_type": "gemma3", "text_config": {"hidden_size": 2560,
      "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024}})", "4b");
  CHECK(sparse.model_type == "gemma3_text");
  CHECK(sparse.rope.head_dim == 256);
  CHECK(sparse.rope.base == 1e6);
  CHECK(*sparse.scaling.factor == 8.0);
  CHECK(layer_type_rope(sparse, "sliding_attention").rope.base == 10000.0);
  CHECK(layer_type_rope(sparse, "full_attention").layers == 5);
  CHECK(layer_type_rope(sparse, "sliding_attention").layers == 29);
  CHECK(param_error_of([&] { layer_type_rope(small, "chunked"); }) ==
        "layer-type: must be one of the config's layer types (full_attention, sliding_attention), got 'chunked'");
}

TEST_CASE("GPT-NeoX 20B and Phi-2: partial rotary (rotary_pct, partial_rotary_factor) and rotary_emb_base", "[model_config]") {
  const ModelConfig neox = load_fixture_config("gpt-neox-20b.json");
  CHECK(neox.rope.head_dim == 96);
  CHECK(rotary_dim(neox.rope) == 24);  // int(96 * 0.25)
  CHECK(neox.rope.base == 10000.0);
  check_relative(scaled(neox).inv_freq, default_inv_freq(10000, 24));

  const ModelConfig phi = load_fixture_config("phi-2.json");
  CHECK(phi.rope.head_dim == 80);
  CHECK(rotary_dim(phi.rope) == 32);  // int(80 * 0.4)
  check_relative(scaled(phi).inv_freq, default_inv_freq(10000, 32));
}

TEST_CASE("rope_parameters: GLM-5.1 (theta inside it) and one keyed by layer type", "[model_config]") {
  const ModelConfig glm = load_fixture_config("glm-5.1.json");
  CHECK(glm.rope.head_dim == 64);
  CHECK(glm.rope.base == 1e6);
  CHECK(glm.rope.pairing == RopePairing::interleaved);  // rope_interleave: true
  CHECK(glm.scaling.kind == RopeScaling::none);
  check_relative(scaled(glm).inv_freq, default_inv_freq(1e6, 64));

  const ModelConfig per_layer = load_fixture_config("rope-parameters-per-layer.json");
  REQUIRE(per_layer.layer_types.size() == 2);
  const LayerTypeRope& full = layer_type_rope(per_layer, "");
  CHECK(full.layer_type == "full_attention");
  CHECK(full.layers == 1);
  CHECK(layer_type_rope(per_layer, "sliding_attention").layers == 5);
  std::vector<double> linear = default_inv_freq(1e6, 256);
  for (double& f : linear) f /= 8.0;
  check_relative(scaled(full).inv_freq, linear);
  check_relative(scaled(layer_type_rope(per_layer, "sliding_attention")).inv_freq, default_inv_freq(10000, 256));
}

TEST_CASE("transformers' precedence rules", "[model_config]") {
  const auto read = [](std::string_view json) { return read_model_config(json, "inline"); };
  const std::string head = R"("model_type": "llama", "hidden_size": 512, "num_attention_heads": 4, )";
  // rope_type wins over the legacy type; "default" means no scaling; "su" is LongRoPE (Phi3Config).
  CHECK(read("{" + head + R"("rope_scaling": {"rope_type": "linear", "type": "yarn", "factor": 2}})").scaling.kind ==
        RopeScaling::linear);
  CHECK(read("{" + head + R"("rope_scaling": {"rope_type": "default"}})").scaling.kind == RopeScaling::none);
  const std::string ones = "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "
                           "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]";
  CHECK(read("{" + head + R"("max_position_embeddings": 8192, "rope_scaling": {"type": "su", "short_factor": )" + ones +
             R"(, "long_factor": )" + ones + "}}")
            .scaling.kind == RopeScaling::longrope);
  // rope_scaling wins over rope_parameters; the theta inside the rope dict wins over the config's.
  const ModelConfig both = read("{" + head + R"("rope_theta": 5, "rope_scaling": {"rope_type": "linear", "factor": 3},
                                "rope_parameters": {"rope_type": "linear", "factor": 7, "rope_theta": 20}})");
  CHECK(*both.scaling.factor == 3);
  CHECK(both.rope.base == 5);
  CHECK(read("{" + head + R"("rope_theta": 5, "rope_parameters": {"rope_theta": 20}})").rope.base == 20);
  // No base anywhere: default_theta 10000. Unrelated fields are ignored.
  CHECK(read("{" + head + R"("anything": [1, {"x": null}], "quantization_config": {"bits": 4}})").rope.base == 10000);
  // dynamic: the training context is max_position_embeddings.
  CHECK(read("{" + head + R"("max_position_embeddings": 2048, "rope_scaling": {"type": "dynamic", "factor": 2}})")
            .scaling.original_max_len == 2048);
  // GPT-J counts rotary_dim in channels and rotates every two.
  const ModelConfig gptj = read(R"({"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64})");
  CHECK(gptj.rope.head_dim == 256);
  CHECK(rotary_dim(gptj.rope) == 64);
  CHECK(gptj.rope.pairing == RopePairing::interleaved);
  // A YaRN factor of None is max_position_embeddings / original.
  const ModelConfig derived = read("{" + head + R"("max_position_embeddings": 16384,
                                   "rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 4096}})");
  CHECK(scaled(derived).factor == 4.0);
}
