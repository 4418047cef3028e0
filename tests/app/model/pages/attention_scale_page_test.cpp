// Tests for app/model/pages/attention_scale_page: the curves against core's formulas along log10 n, the loaded
// model's groups and its context marks, the exported columns, and the state JSON with the model named.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/model/loaded_rope_model.hpp"
#include "core/models/shipped_models.hpp"
#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("Attention against length: each method's curve is core's formula at n = 10^x") {
  AppState s;
  show(s, Page::attention_scale);
  const AttentionScaleOptions& o = s.pages.attention_scale;
  REQUIRE(o.log10_keys.size() == std::size_t(kScaleSamples));
  CHECK(o.log10_keys.front() == 0.0f);
  CHECK(o.log10_keys.back() == 6.0f);  // to a million keys by default
  for (std::size_t i : {std::size_t(0), std::size_t(240), std::size_t(kScaleSamples - 1)}) {
    const double n = std::pow(10.0, double(o.log10_keys[i]));
    for (std::size_t k = 0; k < 5; ++k) {
      const double c = logit_scale_at(kAllScaleMethods[k], o.params, n - 1);
      CHECK(o.scale[k][i] == Approx(c).epsilon(1e-6));
      CHECK(o.weight[k][i] == Approx(needle_weight(c, o.margin, o.spread, n)).epsilon(1e-6).margin(1e-30));
    }
  }
  CHECK(o.weight[0].front() == 1.0f);  // one key: all the weight
  CHECK(o.weight[0].back() < 2e-4f);   // the plain softmax's needle at a million keys, D = 5
  CHECK(o.weight[1].back() > o.weight[0].back() * 100);  // SSMax holds it
}

TEST_CASE("Attention against length: the loaded model's groups, labelled, with its trained context") {
  AppState s;
  load_rope_model(s.pages, find_shipped_model("llama-4-scout-17b-16e"), "");
  show(s, Page::attention_scale);
  const AttentionScaleOptions& o = s.pages.attention_scale;
  REQUIRE(o.model_scale.size() == 2);
  REQUIRE(o.model_labels.size() == 2);
  const std::size_t nope = o.model_labels[0].find("NoPE") != std::string::npos ? 0 : 1;
  CHECK(o.model_labels[nope].find("queries scaled (12 layers)") != std::string::npos);
  CHECK(o.model_scale[1 - nope].back() == 1.0f);  // llama3 scaling: no attention factor
  CHECK(o.model_scale[nope].back() == Approx(1 + 0.1 * std::log(std::floor(1e6 / 8192) + 1)).epsilon(1e-6));
  CHECK(o.model_trained == 8192);
  CHECK(o.model_extended > o.model_trained);
  s.pages.attention_scale.show_model = false;
  s.pages.mark(Page::attention_scale);
  show(s, Page::attention_scale);
  CHECK(o.model_scale.empty());
}

TEST_CASE("Attention against length: the export's columns are log10 n, then scale and weight per curve") {
  AppState s;
  load_rope_model(s.pages, find_shipped_model("qwen2.5-7b-instruct-yarn"), "");
  show(s, Page::attention_scale);
  const NdArray data = page_model(Page::attention_scale).export_data(s);
  REQUIRE(data.shape.size() == 2);
  CHECK(data.shape[0] == std::size_t(kScaleSamples));
  CHECK(data.shape[1] == 1 + 2 * 5 + 2 * 1);  // one YaRN group
  const double m = 0.1 * std::log(4.0) + 1;
  CHECK(s.pages.attention_scale.model_scale[0][100] == Approx(m * m).epsilon(1e-6));
}

TEST_CASE("Attention against length: the options and the model round-trip through the state JSON") {
  PageStates a;
  load_rope_model(a, find_shipped_model("deepseek-v3"), "");
  a.attention_scale.margin = 3;
  a.attention_scale.params.ssmax_s = 0.7;
  a.attention_scale.params.floor_scale = 4096;
  a.attention_scale.show_yarn = false;
  const nlohmann::json j = write_page_json(page_model(Page::attention_scale), a);
  CHECK(j["model_name"] == a.rope_model.model->name);
  const PageStates back = json_round_trip(Page::attention_scale, a);
  CHECK(back.attention_scale.margin == 3);
  CHECK(back.attention_scale.params.ssmax_s == 0.7);
  CHECK(back.attention_scale.params.floor_scale == 4096);
  CHECK_FALSE(back.attention_scale.show_yarn);
  CHECK(back.rope_model.model->name == a.rope_model.model->name);
}

TEST_CASE("Attention against length: a parameter outside its limit is refused in the state JSON") {
  PageStates a;
  nlohmann::json j = write_page_json(page_model(Page::attention_scale), a);
  j["train_length"] = 1;
  CHECK_THROWS_AS(read_page_json(page_model(Page::attention_scale), j, a), ParamError);
}
