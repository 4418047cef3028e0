// Tests for opening a model's config.json: the page of its positions, its knobs, layer types and name in state JSON.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"
#include "app/model/pages/context_extension_page.hpp"
#include "app/model/state_json.hpp"
#include "core/errors.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {
// The reader's fixtures: published config.json files (tests/core/model_configs/README.md).
std::string config(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "core" / "model_configs" / name)
      .string();
}
}  // namespace

TEST_CASE("a RoPE model opens on Context extension with its knobs, name and layer types") {
  AppState s;
  CHECK(open_model_config(s, config("gemma-3-12b-it.json")) == "gemma-3-12b-it");
  update_app_state(s);
  const ContextExtensionOptions& o = s.analysis.context_extension;
  CHECK(s.analysis.page == Page::context_extension);
  CHECK(o.model_name == "gemma-3-12b-it");
  CHECK(o.preset == -1);
  CHECK(o.params.rope.base == 1e6);
  CHECK(o.params.factor == 8.0);
  REQUIRE(o.model != nullptr);
  REQUIRE(o.model->layer_types.size() == 2);
  CHECK(o.model->layer_types[std::size_t(o.model_layer)].layer_type == "full_attention");

  s.analysis.context_extension.model_layer = 1 - o.model_layer;  // as the view's layer combo does
  s.analysis.context_extension.model_layer_changed = true;
  s.analysis.mark(Page::context_extension);
  update_app_state(s);
  CHECK(o.params.rope.base == 10000.0);  // sliding layers: rope_local_base_freq
  CHECK(o.params.factor == 1.0);
  CHECK(o.model_note.find("sliding_attention") == 0);
  CHECK(s.analysis.page == Page::context_extension);

  const nlohmann::json j = state_to_json(s);  // the name travels with the knobs (figures, session)
  AppState reopened;
  apply_state_json(j, reopened);
  CHECK(reopened.analysis.context_extension.model_name == "gemma-3-12b-it");
  CHECK(reopened.analysis.context_extension.params.rope.base == 10000.0);
  CHECK(page_model(Page::context_extension).caption(s).find("gemma-3-12b-it") != std::string::npos);
}

TEST_CASE("T5 and ALiBi models open on their pages; a learned table and a foreign file are refused unchanged") {
  AppState s;
  open_model_config(s, config("t5-small.json"));
  CHECK(s.analysis.page == Page::t5_shaw);
  CHECK(s.analysis.t5_shaw.num_buckets == 32);
  CHECK(s.analysis.t5_shaw.max_distance == 128);
  open_model_config(s, config("mpt-7b-instruct.json"));
  CHECK(s.analysis.page == Page::alibi);
  CHECK(s.analysis.alibi.heads == 32);
  CHECK_THROWS_WITH(open_model_config(s, config("gpt2.json")), Catch::Contains("1024 positions x 768 channels"));
  CHECK_THROWS_AS(open_model_config(s, config("README.md")), ParamError);
  CHECK(s.analysis.page == Page::alibi);
  CHECK(is_model_config_file_name("Llama-3.1-8B/config.json"));
  CHECK_FALSE(is_model_config_file_name("weights.safetensors"));
}
