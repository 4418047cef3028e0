// Tests for core/models/shipped_models: the compiled-in config.json files read as the files on disk, and the presets.
#include "core/models/shipped_models.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "core/models/context_extension.hpp"
#include "tests/core/models/model_config_fixtures.hpp"

using namespace peviz;

TEST_CASE("shipped models: every file in assets/models is compiled in, byte for byte, and reads") {
  const auto files = shipped_model_files();
  REQUIRE(files.size() >= 14);
  std::set<std::string> names;
  for (const ShippedModelFile& f : files) {
    INFO(f.stem);
    std::ifstream in(model_config_fixture(std::string(f.stem) + ".json"), std::ios::binary);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str() == f.json);
  }
  for (const auto& m : shipped_models()) CHECK(names.insert(m->name).second);  // names are unique
  CHECK(shipped_models().size() == files.size());
  // The name is _name_or_path where the file has one, else the file's stem.
  CHECK(find_shipped_model("meta-llama/Llama-2-7b-hf"));
  CHECK(find_shipped_model("llama-3.1-8b-instruct"));
  CHECK(find_shipped_model(kDefaultRopeModel));
  CHECK_FALSE(find_shipped_model("no-such-model"));
}

TEST_CASE("rope_model_presets: one per shipped RoPE model, equal to reading its file") {
  const auto presets = rope_model_presets();
  std::size_t rope_models = 0;
  for (const auto& m : shipped_models()) rope_models += m->scheme == PositionScheme::rope;
  REQUIRE(presets.size() == rope_models);
  for (const RopeModelPreset& p : presets) {
    INFO(p.name);
    REQUIRE(p.model);
    const RopeModelPreset read = rope_model_preset(*p.model);
    CHECK(read.params.rope.base == p.params.rope.base);
    CHECK(read.params.factor == p.params.factor);
    CHECK(read.note == p.note);
    CHECK_NOTHROW(compare_context_extensions(p.params));
  }
  const auto llama = std::find_if(presets.begin(), presets.end(), [](auto& p) { return p.name == kDefaultRopeModel; });
  REQUIRE(llama != presets.end());
  CHECK(llama->params.rope.base == 500000.0);
  CHECK(llama->params.factor == 8.0);
  CHECK(llama->params.original_len == 8192);
  CHECK(llama->params.target_len == 131072);
  CHECK(llama->model_scaling == RopeScaling::llama3);
}
