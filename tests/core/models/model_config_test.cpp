// The model config reader (core/models/model_config) on published config.json files: the non-RoPE schemes (learned
// absolute, T5 buckets, ALiBi), refusals naming the field and its value, and loading from a folder.
#include "core/models/model_config.hpp"

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "tests/core/param_error.hpp"
#include "tests/temp_path.hpp"
#include "tests/core/models/model_config_fixtures.hpp"

using namespace peviz;

namespace {

namespace fs = std::filesystem;


std::string config_error(std::string_view json) {
  return param_error_of([&] { read_model_config(json, "inline"); });
}

}  // namespace

TEST_CASE("GPT-2, T5 and MPT: learned absolute, T5 buckets, ALiBi with the model's settings", "[model_config]") {
  const ModelConfig gpt2 = load_fixture_config("gpt2.json");
  CHECK(gpt2.scheme == PositionScheme::learned_absolute);
  CHECK(gpt2.max_position_embeddings == 1024);
  CHECK(gpt2.width == 768);
  CHECK(gpt2.heads == 12);
  CHECK(param_error_of([&] { layer_type_rope(gpt2, ""); }) == "layer-type: the model uses learned_absolute, not RoPE");

  const ModelConfig t5 = load_fixture_config("t5-small.json");
  CHECK(t5.scheme == PositionScheme::t5_relative);
  CHECK(t5.heads == 8);
  CHECK(t5.num_buckets == 32);
  CHECK(t5.max_distance == 128);  // T5Config's default: t5-small's file leaves it out
  CHECK(t5.bidirectional);

  const ModelConfig mpt = load_fixture_config("mpt-7b-instruct.json");
  CHECK(mpt.scheme == PositionScheme::alibi);
  CHECK(mpt.heads == 32);
  CHECK(mpt.max_position_embeddings == 2048);

  const ModelConfig bloom = read_model_config(R"({"model_type": "bloom", "n_head": 16, "n_embed": 1024})", "bloom");
  CHECK(bloom.scheme == PositionScheme::alibi);
  CHECK(bloom.heads == 16);
  const ModelConfig bert = read_model_config(R"({"model_type": "bert", "hidden_size": 768})", "bert");
  CHECK(bert.scheme == PositionScheme::learned_absolute);
  CHECK(bert.max_position_embeddings == 512);
}

TEST_CASE("Refusals name the field and its value in one line", "[model_config]") {
  const std::string head = R"("model_type": "llama", "hidden_size": 512, "num_attention_heads": 4)";
  CHECK(config_error("nope").rfind("config: not a JSON file (parse error at byte ", 0) == 0);
  CHECK(config_error("[1, 2]") == "config: not a model config: the file holds [1,2], not a JSON object");
  CHECK(config_error("{}") == "config: not a model config: no model_type and no position fields");
  CHECK(config_error(R"({"model_type": "foo"})") ==
        "config: model_type 'foo' is not supported (no RoPE, learned, T5 or ALiBi fields)");
  CHECK(config_error("{" + head + R"(, "rope_scaling": {"rope_type": "foo", "factor": 2}})") ==
        "config: rope_scaling.rope_type 'foo' is not supported");
  CHECK(config_error("{" + head + R"(, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 16]}})") ==
        "config: rope_scaling.mrope_section sums to 56, not to the 64 rotary pairs (head_dim / 2)");
  CHECK(config_error("{" + head + R"(, "rope_scaling": {"rope_type": "linear"}})") ==
        "config: rope_scaling.factor is missing (rope_type linear needs it)");
  CHECK(config_error("{" + head + R"(, "rope_theta": "big"})") == "config: rope_theta 'big' must be a number");
  CHECK(config_error("{" + head + R"(, "rope_theta": 1})") == "config: rope_theta: must be a finite number > 1, got 1");
  CHECK(config_error("{" + head + R"(, "partial_rotary_factor": 1.5})") ==
        "config: partial_rotary_factor 1.5 must be in (0, 1]");
  CHECK(config_error(R"({"model_type": "llama", "head_dim": 7})") == "config: head_dim: must be even, got 7");
  CHECK(config_error("{" + head + R"(, "rope_scaling": {"rope_type": "longrope", "short_factor": [1], "long_factor": [1]}, "max_position_embeddings": 8192})") ==
        "config: rope_scaling.short_factor: must list rotary-dim/2 = 64 numbers, got 1");
  CHECK(config_error(R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "rope_theta": [1]}})") ==
        "config: text_config.rope_theta [1] must be a number");
  CHECK(config_error(R"({"model_type": "bert", "position_embedding_type": "relative_key"})") ==
        "config: position_embedding_type 'relative_key' is not supported (only 'absolute')");
  CHECK(config_error(R"({"model_type": "llama", "num_attention_heads": 4})") ==
        "config: head_dim is missing, and so is hidden_size or num_attention_heads");
  CHECK(config_error(R"({"model_type": "t5", "num_heads": 1e300})").rfind("config: num_heads 1e+300 must be a whole number", 0) == 0);
  // A scaling factor out of range is named itself, before the fields read after it (here none is there).
  for (const char* type : {"yarn", "llama3", "longrope"})
    CHECK(config_error("{" + head + R"(, "rope_scaling": {"rope_type": ")" + type +
                       R"(", "factor": -2, "low_freq_factor": 1, "high_freq_factor": 4, "short_factor": [1], "long_factor": [1]}})") ==
          "config: rope_scaling.factor: must be a finite number in [1, 1000000], got -2");
}

TEST_CASE("load_model_config: the folder names a config.json; unreadable files are refused", "[model_config]") {
  const fs::path dir = fs::path(unique_temp_path("model-config")) / "Tiny-Llama-7B";
  fs::create_directories(dir);
  std::ofstream(dir / "config.json") << R"({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4})";
  CHECK(load_model_config((dir / "config.json").string()).name == "Tiny-Llama-7B");
  fs::remove_all(dir.parent_path());
  CHECK(param_error_of([] { load_model_config("/nonexistent/config.json"); }).rfind("config: cannot open ", 0) == 0);
}
