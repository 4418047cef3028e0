// The layer map of the model config reader (core/models/model_config_layers): NoPE layers, spans and windows, Llama 4's
// query scale, M-RoPE's pair axes and the fields reported as unmodelled, each against transformers' rules
// written out here.
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "core/models/model_config.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

namespace {

ModelConfig read(const std::string& fields) { return read_model_config("{" + fields + "}", "inline"); }

std::string layers_config_error(const std::string& fields) {
  return param_error_of([&] { read("" + fields); });
}

const std::string kLlama4 = R"("model_type": "llama4_text", "hidden_size": 512, "num_attention_heads": 4,
  "head_dim": 128, "num_hidden_layers": 8, "rope_theta": 500000)";

std::string positions(const ModelConfig& c) {
  std::string s;
  for (const ModelLayer& l : c.layers) s += to_string(l.positions).substr(0, 1);  // r, n, n(one)
  return s;
}

std::string spans(const ModelConfig& c) {
  std::string s;
  for (const ModelLayer& l : c.layers) s += to_string(l.attention).substr(0, 1);  // f, s, c, l
  return s;
}

bool reported(const ModelConfig& c, std::string_view field) {
  return std::any_of(c.unmodelled.begin(), c.unmodelled.end(),
                     [&](const std::string& u) { return u.rfind(field, 0) == 0; });
}

}  // namespace

TEST_CASE("Llama 4: every fourth layer without RoPE, chunked RoPE layers, tuned queries, complex pairs", "[model_config]") {
  // Llama4TextConfig: no_rope_layers[i] = int((i + 1) % 4 != 0); layer_types "chunked_attention" where it rotates.
  const ModelConfig c = read(kLlama4);
  REQUIRE(c.layers.size() == 8);
  CHECK(positions(c) == "rrrnrrrn");
  CHECK(spans(c) == "cccfcccf");
  CHECK(c.layers[0].window == 8192);
  CHECK(c.layers[3].window == 0);
  CHECK(c.layers[3].layer_type == "full_attention");
  CHECK(c.layers[3].query_scaled);
  CHECK_FALSE(c.layers[0].query_scaled);
  CHECK(query_scale_formula(c, c.layers[3]) == "log(floor((pos + 1) / 8192) + 1) * 0.1 + 1");
  CHECK(query_scale_formula(c, c.layers[0]).empty());
  CHECK(query_scale_at(c.query_scale, 0) == 1.0);       // log(floor(1 / 8192) + 1) = log 1
  CHECK(query_scale_at(c.query_scale, 8190) == 1.0);
  CHECK(query_scale_at(c.query_scale, 8191) == Approx(1 + 0.1 * std::log(2.0)));  // floor(8192 / 8192) = 1
  CHECK(query_scale_at(c.query_scale, 10e6 - 1) == Approx(1 + 0.1 * std::log(1220.0 + 1)));  // floor(1e7 / 8192)
  CHECK(c.rope.pairing == RopePairing::interleaved);
  CHECK(c.unmodelled.empty());
  // The groups, counted once at read: RoPE chunked first (layer 0), then NoPE with tuned queries.
  REQUIRE(c.layer_groups.size() == 2);
  CHECK(c.layer_groups[0].layers == 6);
  CHECK(c.layer_groups[1].layers == 2);
  CHECK(c.layers[7].group == 1);
  CHECK(c.layers[4].group == 0);
  CHECK(describe_layers(c) == "6 RoPE, chunked 8192 \u00b7 2 NoPE, full, queries scaled");

  const ModelConfig tuned = read(kLlama4 + R"(, "attention_chunk_size": 1024, "floor_scale": 4096, "attn_scale": 0.25,
    "no_rope_layers": [0, 1, 1, 1, 1, 1, 1, 0])");
  CHECK(positions(tuned) == "nrrrrrrn");
  CHECK(tuned.layers[1].window == 1024);
  CHECK(query_scale_formula(tuned, tuned.layers[0]) == "log(floor((pos + 1) / 4096) + 1) * 0.25 + 1");
  const ModelConfig untuned = read(kLlama4 + R"(, "attn_temperature_tuning": false)");
  CHECK_FALSE(untuned.layers[3].query_scaled);

  CHECK(layers_config_error(kLlama4 + R"(, "no_rope_layers": [1, 1, 0])") ==
        "config: no_rope_layers has 3 entries for 8 layers (num_hidden_layers)");
  CHECK(layers_config_error(kLlama4 + R"(, "no_rope_layers": [1, 1, 1, 2, 1, 1, 1, 1])") ==
        "config: no_rope_layers[3] 2 must be 0 or 1");
}

TEST_CASE("SmolLM3: NoPE layers from the interval, interval 1 leaves no layer rotating", "[model_config]") {
  const std::string smol = R"("model_type": "smollm3", "hidden_size": 256, "num_attention_heads": 2,
    "num_hidden_layers": 6, "rope_theta": 5000000)";
  CHECK(positions(read(smol)) == "rrrnrr");
  CHECK(positions(read(smol + R"(, "no_rope_layer_interval": 1)")) == "nnnnnn");
  CHECK(positions(read(smol + R"(, "no_rope_layer_interval": 2)")) == "rnrnrn");
  CHECK(spans(read(smol)) == "ffffff");
  CHECK_FALSE(read(smol).layers[3].query_scaled);  // only Llama 4 tunes its NoPE queries
}

TEST_CASE("Sliding, linear and listed layer types, with their windows", "[model_config]") {
  // GptOssConfig: sliding on layers 0, 2, ...; the window is sliding_window.
  const ModelConfig oss = read(R"("model_type": "gpt_oss", "hidden_size": 256, "num_attention_heads": 4,
    "head_dim": 64, "num_hidden_layers": 4, "sliding_window": 128)");
  CHECK(spans(oss) == "sfsf");
  CHECK(oss.layers[0].window == 128);
  CHECK(oss.layers[1].window == 0);
  // Qwen3NextConfig: linear attention (no positions) but every full_attention_interval-th layer.
  const ModelConfig next = read(R"("model_type": "qwen3_next", "hidden_size": 256, "num_attention_heads": 4,
    "head_dim": 64, "num_hidden_layers": 8, "partial_rotary_factor": 0.25)");
  CHECK(spans(next) == "lllflllf");
  CHECK(positions(next) == "nnnrnnnr");
  CHECK(next.layers[0].positions == LayerPositions::none);
  // Qwen2Config: sliding from max_window_layers on, only with use_sliding_window.
  const std::string qwen = R"("model_type": "qwen2", "hidden_size": 256, "num_attention_heads": 4,
    "num_hidden_layers": 4, "sliding_window": 32, "max_window_layers": 2)";
  CHECK(spans(read(qwen)) == "ffff");
  CHECK(spans(read(qwen + R"(, "use_sliding_window": true)")) == "ffss");
  // A listed layer_types wins; its length and names are checked.
  const std::string listed = R"("model_type": "llama", "hidden_size": 256, "num_attention_heads": 4,
    "num_hidden_layers": 3, "sliding_window": 64, "layer_types": )";
  CHECK(spans(read(listed + R"(["sliding_attention", "full_attention", "sliding_attention"])")) == "sfs");
  CHECK(layers_config_error(listed + R"(["full_attention"])") ==
        "config: layer_types must list one type per layer (3, num_hidden_layers), got [\"full_attention\"]");
  CHECK(layers_config_error(listed + R"(["full_attention", "mamba", "full_attention"])") ==
        "config: layer_types[1] 'mamba' is not a layer type peviz models (full_attention, sliding_attention, "
        "chunked_attention, linear_attention)");
  CHECK(read(R"("model_type": "gpt_oss", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2)")
            .layers[0].window == 128);  // GptOssConfig's default
  CHECK(layers_config_error(R"("model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 1,
    "layer_types": ["sliding_attention"])") == "config: sliding_window is missing (the config has sliding layers)");
  // No num_hidden_layers: no map, nothing guessed.
  CHECK(read(R"("model_type": "llama", "hidden_size": 256, "num_attention_heads": 4)").layers.empty());
}

TEST_CASE("M-RoPE: contiguous sections (Qwen2-VL) and the interleaved assignment (Qwen3-VL)", "[model_config]") {
  const std::string head = R"("model_type": "qwen2_vl", "hidden_size": 512, "num_attention_heads": 4, )";
  const ModelConfig vl = read(head + R"("rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]})");
  REQUIRE(vl.pair_axis.size() == 64);
  CHECK(vl.scaling.kind == RopeScaling::none);
  for (int j = 0; j < 64; ++j)
    CHECK(vl.pair_axis[std::size_t(j)] == (j < 16 ? RopeAxis::t : j < 40 ? RopeAxis::h : RopeAxis::w));
  // apply_interleaved_mrope: pair j is h where j % 3 == 1 and j < 3 * 20, w where j % 3 == 2 and j < 3 * 20.
  const ModelConfig q3 = read(head + R"("rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20],
    "mrope_interleaved": true})");
  REQUIRE(q3.pair_axis.size() == 64);
  CHECK(q3.pair_axis[0] == RopeAxis::t);
  CHECK(q3.pair_axis[1] == RopeAxis::h);
  CHECK(q3.pair_axis[2] == RopeAxis::w);
  CHECK(q3.pair_axis[58] == RopeAxis::h);
  CHECK(q3.pair_axis[59] == RopeAxis::w);
  CHECK(q3.pair_axis[61] == RopeAxis::t);
  CHECK(std::count(q3.pair_axis.begin(), q3.pair_axis.end(), RopeAxis::t) == 24);
  CHECK(std::count(q3.pair_axis.begin(), q3.pair_axis.end(), RopeAxis::h) == 20);
  CHECK(read(head + R"("rope_theta": 10000)").pair_axis.empty());
  CHECK(layers_config_error(head + R"("rope_scaling": {"type": "mrope", "mrope_section": [16, 24]})") ==
        "config: rope_scaling.mrope_section must list three sections (t, h, w)");
  CHECK(layers_config_error(head + R"("rope_scaling": {"type": "mrope", "mrope_section": [1e300, 24, 24]})") ==
        "config: rope_scaling.mrope_section 1e+300 is not a count of pairs (0 to 64)");
}

TEST_CASE("Positional fields the map does not model are reported, never dropped", "[model_config]") {
  const std::string llama = R"("model_type": "llama", "hidden_size": 256, "num_attention_heads": 4,
    "num_hidden_layers": 2, "rope_theta": 10000)";
  CHECK(read(llama).unmodelled.empty());
  const ModelConfig c = read(llama + R"(, "index_topk": 2048, "rope_wobble": 3, "no_rope_layers": [1, 0],
    "chunk_size_feed_forward": 0, "use_cache": true, "rope_scaling": {"rope_type": "linear", "factor": 2, "warp": 1})");
  CHECK(reported(c, "index_topk 2048: sparse attention"));
  CHECK(reported(c, "rope_wobble 3: a positional field peviz does not model"));
  CHECK(reported(c, "no_rope_layers [1,0]: a positional field peviz does not model"));  // a Llama 4 field in llama
  CHECK(reported(c, "rope_scaling.warp 1: a RoPE parameter peviz does not read"));
  CHECK(c.unmodelled.size() == 4);
  // A wrapper's language model is read from text_config; the vision tower's positions are named, not drawn.
  const ModelConfig wrapped = read(R"("model_type": "llama4", "vision_config": {"hidden_size": 8},
    "text_config": {)" + kLlama4 + R"(, "rope_jitter": 1})");
  CHECK(wrapped.layers.size() == 8);
  CHECK(reported(wrapped, "vision_config: the vision encoder's own patch positions are not drawn"));
  CHECK(reported(wrapped, "text_config.rope_jitter 1: a positional field peviz does not model"));
}
