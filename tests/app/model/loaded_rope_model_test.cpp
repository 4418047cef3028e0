// Tests for the loaded RoPE model: every RoPE page takes its knobs and name, captions and state JSON keep it,
// layer types switch together, and moving a page's knob makes that page custom.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"
#include "app/model/figure.hpp"
#include "app/model/state_json.hpp"
#include "core/rope/rope.hpp"
#include "core/base/errors.hpp"
#include "tests/core/models/model_config_fixtures.hpp"
#include "../../temp_path.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {

constexpr Page kRopePages[] = {Page::rope_clocks, Page::rope_decay, Page::context_extension, Page::distance_chart,
                               Page::precision, Page::attention_scale};

std::string config(const std::string& name) { return model_config_fixture(name).string(); }
std::string caption(const AppState& s, Page p) { return page_model(p).caption(s); }
bool follows(const AppState& s, Page p) { return page_model(p).follows_rope_model(s.pages); }
bool names(const std::string& text, const std::string& name) { return text.find(name) != std::string::npos; }
// Shows each RoPE page in turn and runs the update step, as the window does when its tab is picked.
void update_rope_pages(AppState& s) {
  const Page shown = s.pages.page;
  for (Page p : kRopePages) {
    s.pages.page = p;
    update_app_state(s);
  }
  s.pages.page = shown;
}

}  // namespace

TEST_CASE("the RoPE pages are the ones that take a model, and only the context-extension page follows one at first") {
  for (const PageModel* p : page_models()) {
    // Multimodal RoPE takes only a model with M-RoPE (mrope_page_test.cpp).
    const Page page = parse_page(p->name).value();
    const bool rope = page == Page::mrope || std::find(std::begin(kRopePages), std::end(kRopePages), page) !=
                                                 std::end(kRopePages);
    CHECK((p->take_rope_model != nullptr) == rope);
    CHECK((p->follows_rope_model != nullptr) == rope);
  }
  AppState s;
  update_rope_pages(s);
  CHECK(follows(s, Page::context_extension));
  CHECK(names(caption(s, Page::context_extension), "llama-3.1-8b-instruct"));
  for (Page p : {Page::rope_clocks, Page::rope_decay, Page::distance_chart, Page::precision, Page::attention_scale}) {
    CHECK_FALSE(follows(s, p));
    CHECK_FALSE(names(caption(s, p), "llama"));
  }
}

TEST_CASE("opening Llama 3.1 puts its rotary dim, base and name on every RoPE page, captions and state JSON") {
  AppState s;
  s.pages.page = Page::rope_clocks;
  CHECK(open_model_config(s, config("llama-3.1-8b-instruct.json")) == "llama-3.1-8b-instruct");
  update_rope_pages(s);
  const PageStates& a = s.pages;
  CHECK(a.page == Page::rope_clocks);  // a RoPE page shown stays shown
  CHECK(a.rope_clocks.rope == RopeParams{128, 0, 500000.0, RopePairing::halves});
  CHECK(a.rope_decay.head_dim == 128);
  CHECK(a.precision.head_dim == 128);
  CHECK(a.precision.base == 500000.0);
  CHECK(a.distance_chart.params.rope.base == 500000.0);
  CHECK(a.context_extension.params.factor == 8.0);
  CHECK(a.rope_clocks.inv_freq.back() == Approx(std::pow(500000.0, -126.0 / 128.0)).epsilon(1e-12));
  for (Page p : kRopePages) {
    INFO(page_name(p));
    CHECK(follows(s, p));
    CHECK(names(caption(s, p), "llama-3.1-8b-instruct"));
  }
  CHECK(names(caption(s, Page::rope_clocks), "base 500000"));
  CHECK(names(caption(s, Page::rope_decay), "bases 1e4, 5e5, 1e6 and 500000"));
  CHECK(names(caption(s, Page::distance_chart), "RoPE llama-3.1-8b-instruct (head_dim 128, base 500000)"));
  // The decay page draws the model's own base beside the three, and exports it.
  REQUIRE(a.rope_decay.model_base_score.size() == a.rope_decay.score[0].size());
  CHECK(a.rope_decay.model_label == "llama-3.1-8b-instruct, base 500000");
  CHECK(page_model(Page::rope_decay).export_data(s).shape[1] == 9);

  const nlohmann::json j = state_to_json(s);
  CHECK(j["rope_clocks"]["model_name"] == "llama-3.1-8b-instruct");
  CHECK(j["precision"]["model_path"] == std::filesystem::absolute(config("llama-3.1-8b-instruct.json")).string());
  AppState reopened;  // a figure's state reopens to the same model on every page
  apply_state_json(j, reopened);
  update_rope_pages(reopened);
  for (Page p : kRopePages) {
    INFO(page_name(p));
    CHECK(follows(reopened, p));
    CHECK(caption(reopened, p) == caption(s, p));
  }
  CHECK(reopened.pages.rope_model.path == s.pages.rope_model.path);
}

TEST_CASE("moving a page's knob makes that page custom; the others keep the model") {
  AppState s;
  open_model_config(s, config("llama-3.1-8b-instruct.json"));
  update_rope_pages(s);
  PageStates& a = s.pages;
  a.rope_clocks.rope.base = 20000.0;  // as the base slider leaves it
  a.mark(Page::rope_clocks);
  a.precision.head_dim = 64;
  a.mark(Page::precision);
  a.rope_decay.head_dim = 96;
  a.mark(Page::rope_decay);
  for (Page p : {Page::rope_clocks, Page::precision, Page::rope_decay})  // the captions see the moved knobs at once
    CHECK_FALSE(names(caption(s, p), "llama"));
  update_rope_pages(s);
  for (Page p : {Page::rope_clocks, Page::precision, Page::rope_decay}) {
    INFO(page_name(p));
    CHECK_FALSE(follows(s, p));
    CHECK_FALSE(names(caption(s, p), "llama"));
  }
  CHECK(a.rope_decay.model_base_score.empty());
  CHECK(follows(s, Page::distance_chart));
  CHECK(follows(s, Page::context_extension));
  const nlohmann::json j = state_to_json(s);
  CHECK_FALSE(j["rope_clocks"].contains("model_name"));
  CHECK(j["distance"]["model_name"] == "llama-3.1-8b-instruct");
  AppState reopened;
  apply_state_json(j, reopened);
  update_rope_pages(reopened);
  CHECK_FALSE(follows(reopened, Page::rope_clocks));
  CHECK(reopened.pages.rope_clocks.rope.base == 20000.0);
  CHECK(follows(reopened, Page::distance_chart));

  take_rope_model(a, int(Page::rope_clocks));  // the page's "use" button
  update_rope_pages(s);
  CHECK(follows(s, Page::rope_clocks));
  CHECK(a.rope_clocks.rope.base == 500000.0);
  CHECK_FALSE(follows(s, Page::precision));  // only that page
}

TEST_CASE("Gemma 3: the pages show the selected layer type's base, and switch together") {
  AppState s;
  open_model_config(s, config("gemma-3-12b-it.json"));
  update_rope_pages(s);
  PageStates& a = s.pages;
  CHECK(a.page == Page::context_extension);
  CHECK(a.rope_clocks.rope.head_dim == 256);
  CHECK(a.rope_clocks.rope.base == 1e6);  // full_attention: rope_theta
  CHECK(names(caption(s, Page::precision), "gemma-3-12b-it (full_attention)"));
  a.precision.base = 2e6;  // precision goes custom before the switch
  a.mark(Page::precision);
  update_rope_pages(s);
  REQUIRE_FALSE(follows(s, Page::precision));

  choose_rope_layer(a, 1);  // sliding_attention: rope_local_base_freq
  update_rope_pages(s);
  CHECK(a.rope_clocks.rope.base == 10000.0);
  CHECK(a.distance_chart.params.rope.base == 10000.0);
  CHECK(a.rope_decay.model_label == "gemma-3-12b-it (sliding_attention), base 10000");
  CHECK(a.context_extension.params.rope.base == 10000.0);
  CHECK(a.precision.base == 2e6);  // custom: left alone
  for (Page p : {Page::rope_clocks, Page::rope_decay, Page::context_extension, Page::distance_chart}) {
    INFO(page_name(p));
    CHECK(follows(s, p));
    CHECK(names(caption(s, p), "gemma-3-12b-it (sliding_attention)"));
  }
  AppState reopened;
  apply_state_json(state_to_json(s), reopened);
  CHECK(shown_layer_type(reopened.pages.rope_model) == "sliding_attention");
  CHECK(reopened.pages.rope_clocks.rope.base == 10000.0);
  CHECK_THROWS_AS(apply_state_json(nlohmann::json::parse(
                      R"({"rope_clocks": {"model_name": "gemma-3-12b-it", "layer_type": "global"}})"), reopened),
                  ParamError);
}

TEST_CASE("a partial rotary model: the single-RoPE pages draw its rotating channels only") {
  AppState s;
  open_model_config(s, config("phi-2.json"));  // head_dim 80, partial_rotary_factor 0.4
  update_rope_pages(s);
  const PageStates& a = s.pages;
  CHECK(a.context_extension.params.rope.head_dim == 80);
  CHECK(a.context_extension.params.rope.rotary_dim == 32);
  CHECK(a.rope_clocks.rope.head_dim == 32);
  CHECK(a.rope_clocks.inv_freq.size() == 16);
  CHECK(a.precision.head_dim == 32);
  CHECK(follows(s, Page::context_extension));
  CHECK(follows(s, Page::rope_clocks));
}

TEST_CASE("a state naming a model that is gone opens with its knobs, custom; a state without RoPE knobs keeps the model") {
  AppState s;
  apply_state_json(nlohmann::json::parse(R"({"rope_clocks": {"model_name": "my-model", "model_path": "/nonexistent/config.json",
                                                              "head_dim": 32, "base": 1234}})"), s);
  CHECK_FALSE(s.pages.rope_clocks.from_model);
  CHECK(s.pages.rope_clocks.rope.base == 1234.0);
  apply_state_json(nlohmann::json::parse(R"({"rope_clocks": {"model_name": "qwen2.5-7b-instruct"}})"), s);
  CHECK(s.pages.rope_clocks.from_model);
  CHECK(s.pages.rope_clocks.rope.base == 1e6);
  apply_state_json(nlohmann::json::parse(R"({"page": "rope-clocks", "rope_clocks": {"position": 40}})"), s);
  CHECK(s.pages.rope_clocks.from_model);  // a lesson step that moves t only
  CHECK(s.pages.rope_clocks.position == 40.0);
}

TEST_CASE("a state's RoPE pages naming the model already loaded from the same file do not read it again") {
  const std::string copy = unique_temp_path("llama-config.json");
  std::filesystem::copy_file(config("llama-3.1-8b-instruct.json"), copy, std::filesystem::copy_options::overwrite_existing);
  AppState s;
  CHECK(open_model_config(s, copy) == "peviz-test-" + std::to_string(::getpid()) + "-llama-config");  // the file's stem
  const nlohmann::json state = state_to_json(s);
  std::filesystem::remove(copy);  // a second read would fail: the pages must keep the model loaded
  AppState reopened = s;
  apply_state_json(state, reopened);
  for (Page p : kRopePages) {
    INFO(page_name(p));
    CHECK(follows(reopened, p));
  }
  CHECK(reopened.pages.rope_model.path == copy);
  CHECK(reopened.pages.precision.base == 500000.0);
  AppState fresh;  // without the model loaded, the file that is gone leaves every page custom
  apply_state_json(state, fresh);
  CHECK_FALSE(follows(fresh, Page::rope_clocks));
}

TEST_CASE("every shipped RoPE model on every RoPE page: the page follows it and computes from its rotary dims and base") {
  int pages_checked = 0;
  for (const RopeModelPreset& preset : rope_model_presets()) {
    INFO(preset.name);
    AppState s;
    load_rope_model(s.pages, preset.model, "");
    const RopeParams single = single_rope(s.pages.rope_model);
    for (const PageModel* model : page_models()) {
      if (!model->take_rope_model) continue;
      const Page page = *parse_page(model->name);
      INFO("page " << model->name);
      s.pages.page = page;
      s.pages.mark(page);
      update_app_state(s);
      REQUIRE_FALSE(s.status_is_error);
      const bool multimodal = !preset.model->pair_axis.empty();
      // Multimodal RoPE applies only to a model with mrope_section; every other RoPE page takes every model.
      CHECK(model->follows_rope_model(s.pages) == (page != Page::mrope || multimodal));
      if (model->follows_rope_model(s.pages))
        CHECK(model->caption(s).find(rope_model_label(s.pages.rope_model)) != std::string::npos);
      ++pages_checked;
    }
    // What the clocks and decay draw is core's, at the model's rotating channels and base.
    CHECK(s.pages.rope_clocks.inv_freq == rope_inv_freq(single));
    REQUIRE_FALSE(s.pages.rope_decay.model_base_score.empty());
    CHECK(s.pages.rope_decay.model_label.find(caption_number(single.base)) != std::string::npos);
    CHECK(s.pages.rope_decay.model_base_score.size() == std::size_t(s.pages.rope_decay.max_distance) + 1);
  }
  CHECK(pages_checked >= 5 * 10);  // every shipped RoPE model (over ten) on every RoPE page (five or more)
}
