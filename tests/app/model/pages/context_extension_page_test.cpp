// Tests for app/model/pages/context_extension_page: the Llama 3.1 preset's pairs and wavelengths; opening a model's
// config.json: the page of its positions, its knobs, layer types and name in state JSON; the model's own scaling drawn.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>

#include <nlohmann/json.hpp>

#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"
#include "app/model/page_model.hpp"
#include "app/model/pages/context_extension_page.hpp"
#include "app/model/presets.hpp"
#include "app/model/state_check.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"
#include "core/models/model_comparison.hpp"
#include "core/models/shipped_models.hpp"
#include "tests/app/model/pages/page_test_helpers.hpp"
#include "tests/core/models/model_config_fixtures.hpp"

using namespace peviz;
using namespace peviz::app;

namespace {
// The reader's fixtures: published config.json files (assets/models/README.md).
std::string config(const std::string& name) { return model_config_fixture(name).string(); }
}  // namespace

TEST_CASE("a RoPE model opens on Context extension with its knobs, name and layer types") {
  AppState s;
  CHECK(open_model_config(s, config("gemma-3-12b-it.json")) == "gemma-3-12b-it");
  update_app_state(s);
  const ContextExtensionOptions& o = s.pages.context_extension;
  const LoadedRopeModel& m = s.pages.rope_model;
  CHECK(s.pages.page == Page::context_extension);
  CHECK(o.from_model);
  CHECK(m.model->name == "gemma-3-12b-it");
  CHECK(m.path == std::filesystem::absolute(config("gemma-3-12b-it.json")).string());
  CHECK(o.params.rope.base == 1e6);
  CHECK(o.params.factor == 8.0);
  REQUIRE(m.model->layer_types.size() == 2);
  CHECK(shown_layer_type(m) == "full_attention");

  choose_rope_layer(s.pages, 1 - m.layer);  // as the layer combo does
  update_app_state(s);
  CHECK(o.from_model);
  CHECK(o.params.rope.base == 10000.0);  // sliding layers: rope_local_base_freq
  CHECK(o.params.factor == 1.0);
  CHECK(m.note.find("sliding_attention") == 0);
  CHECK(s.pages.page == Page::context_extension);

  const nlohmann::json j = state_to_json(s);  // the name travels with the knobs (figures, session)
  AppState reopened;
  apply_state_json(j, reopened);
  CHECK(reopened.pages.context_extension.from_model);
  CHECK(reopened.pages.rope_model.model->name == "gemma-3-12b-it");
  CHECK(shown_layer_type(reopened.pages.rope_model) == "sliding_attention");
  CHECK(reopened.pages.context_extension.params.rope.base == 10000.0);
  CHECK(page_model(Page::context_extension).caption(s).find("gemma-3-12b-it (sliding_attention)") != std::string::npos);
}

TEST_CASE("T5 and ALiBi models open on their pages; a learned table and a foreign file are refused unchanged") {
  AppState s;
  open_model_config(s, config("t5-small.json"));
  CHECK(s.pages.page == Page::t5_shaw);
  CHECK(s.pages.t5_shaw.num_buckets == 32);
  CHECK(s.pages.t5_shaw.max_distance == 128);
  open_model_config(s, config("mpt-7b-instruct.json"));
  CHECK(s.pages.page == Page::alibi);
  CHECK(s.pages.alibi.heads == 32);
  CHECK_THROWS_WITH(open_model_config(s, config("gpt2.json")), Catch::Contains("1024 positions x 768 channels"));
  CHECK_THROWS_AS(open_model_config(s, config("README.md")), ParamError);
  CHECK(s.pages.page == Page::alibi);
  CHECK(is_model_config_file_name("Llama-3.1-8B/config.json"));
  CHECK_FALSE(is_model_config_file_name("weights.safetensors"));
}

TEST_CASE("a shipped model named in a state takes its knobs from its config.json") {
  AppState s;
  apply_state_json(nlohmann::json::parse(R"({"context_extension": {"model_name": "qwen2.5-7b-instruct-yarn"}})"), s);
  const ContextExtensionOptions& o = s.pages.context_extension;
  CHECK(o.params.rope.base == 1e6);
  CHECK(o.params.factor == 4.0);
  CHECK(o.params.original_len == 32768);
  CHECK(s.pages.rope_model.note == "rope_theta 1e+06, yarn x4 from 32768; max_position_embeddings 32768");
  CHECK(o.from_model);
  // Moving a knob in a state makes the knobs custom: no model name stays on them.
  apply_state_json(nlohmann::json::parse(R"({"context_extension": {"factor": 2}})"), s);
  CHECK_FALSE(o.from_model);
  CHECK(o.params.factor == 2.0);
}

TEST_CASE("models compared: the usual three first, at most four, opened configs join, the state keeps them") {
  AppState s;
  ContextExtensionOptions& o = s.pages.context_extension;
  o.compare = true;
  s.pages.page = Page::context_extension;
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  REQUIRE(o.summaries.size() == 3);  // Llama 2, Llama 3.1 (the page's model), Qwen2.5 YaRN
  CHECK(o.summaries[0].name == "meta-llama/Llama-2-7b-hf");
  CHECK(o.summaries[1].name == "llama-3.1-8b-instruct");
  CHECK(o.compared_log10[1].size() == 64);
  CHECK(o.compared_log10[1][0] == Approx(std::log10(2 * 3.14159265358979)).epsilon(1e-6));
  CHECK(o.compared_labels[1] == "llama-3.1-8b-instruct");  // no other curve like it

  open_model_config(s, config("phi-3.5-mini-instruct.json"));  // joins the comparison
  update_app_state(s);
  REQUIRE(o.summaries.size() == 4);
  CHECK(o.summaries[3].name == "microsoft/Phi-3.5-mini-instruct");
  CHECK(o.summaries[3].scaling == RopeScaling::longrope);
  const auto deepseek = find_shipped_model("deepseek-v3");
  CHECK_FALSE(toggle_compared(o, {deepseek, "", ""}));  // full
  CHECK(toggle_compared(o, o.compared[0]));              // ticking a compared one removes it
  CHECK(o.compared.size() == 3);
  CHECK(toggle_compared(o, {deepseek, "", ""}));
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  CHECK(page_model(Page::context_extension).caption(s) ==
        "RoPE models compared" + std::string(kCaptionDot) + "llama-3.1-8b-instruct" + kCaptionDot +
            "qwen2.5-7b-instruct-yarn" + kCaptionDot + "microsoft/Phi-3.5-mini-instruct" + kCaptionDot + "deepseek-v3");
  const NdArray data = page_model(Page::context_extension).export_data(s);
  CHECK(data.shape == std::vector<std::size_t>{64, 5});  // pair j, then one column per model

  AppState reopened;
  apply_state_json(state_to_json(s), reopened);
  update_app_state(reopened);
  const ContextExtensionOptions& r = reopened.pages.context_extension;
  CHECK(r.compare);
  REQUIRE(r.summaries.size() == 4);
  CHECK(r.summaries[2].name == "microsoft/Phi-3.5-mini-instruct");  // read again from its file
  CHECK(r.summaries[3].pairs_turning_extended == o.summaries[3].pairs_turning_extended);
  CHECK_THROWS_AS(apply_state_json(nlohmann::json::parse(
                      R"({"context_extension": {"compared": [{"model": "gemma-3-12b-it", "layer_type": "global"}]}})"),
                      reopened), ParamError);
}

TEST_CASE("models compared: the bases that hold, scanned frame by frame while the page is shown, in the hover") {
  AppState s;
  ContextExtensionOptions& o = s.pages.context_extension;
  o.compare = true;
  o.compared = {{find_shipped_model("meta-llama/Llama-2-7b-hf"), "", ""}};
  s.pages.page = Page::context_extension;
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  REQUIRE(o.holding_scans.size() == 1);
  CHECK(shown_page_busy(s));  // frames come without input until the scan is done
  CHECK(holding_bases_text(o.summaries[0], o.holding_scans[0]).find("(scanned 0% so far)") != std::string::npos);
  int frames = 0;
  for (; shown_page_busy(s) && frames < 100000; ++frames) update_app_state(s);
  CHECK(frames > 0);
  REQUIRE(o.holding_scans[0].done());
  const std::string text = holding_bases_text(o.summaries[0], o.holding_scans[0]);
  CAPTURE(text);
  // The island 26,952..26,973 first (tests/core/rope/rope_bounds_test.cpp), eight ranges listed, the rest counted.
  CHECK(text.find("below the span 4096, from Men base up to 2x it: ") != std::string::npos);
  CHECK(text.find("\n  26952.4 .. 26973.1\n") != std::string::npos);
  const std::vector<BaseRange>& ranges = o.holding_scans[0].ranges();
  REQUIRE(ranges.size() > 8);
  const std::string more = "\n  ... and " + std::to_string(ranges.size() - 8) + " more (peviz export rope-bounds";
  CHECK(text.find(more + " --config FILE --islands 2 --format json lists them all)") != std::string::npos);
  CHECK(text.find("The model's base 10000 is below them: it fails.") != std::string::npos);
  RopeModelSummary between = o.summaries[0];
  between.base = 0.5 * (ranges[0].hi + ranges[1].lo);
  CHECK(holding_bases_text(between, o.holding_scans[0]).find("lies between two ranges: it fails.") != std::string::npos);

  // A model joining keeps the finished scan; the new one starts from nothing.
  CHECK(toggle_compared(o, {find_shipped_model("gemma-3-12b-it"), "sliding_attention", ""}));
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  REQUIRE(o.holding_scans.size() == 2);
  CHECK(o.holding_scans[0].done());
  for (frames = 0; shown_page_busy(s) && frames < 100000; ++frames) update_app_state(s);
  REQUIRE(o.holding_scans[1].done());
  RopeModelSummary gemma = o.summaries[1];  // base 10000 over its window of 1024: above 2x the smallest (4.3e3)
  CHECK(gemma.base > o.holding_scans[1].up_to());
  CHECK(holding_bases_text(gemma, o.holding_scans[1]).find("is above the bases scanned.") != std::string::npos);
  gemma.base = o.holding_scans[1].ranges().front().lo;
  CHECK(holding_bases_text(gemma, o.holding_scans[1]).find("lies in range 1: it holds.") != std::string::npos);
  gemma.base = 10 * o.holding_scans[1].up_to();
  CHECK(holding_bases_text(gemma, o.holding_scans[1]).find("is above the bases scanned.") != std::string::npos);
  o.compare = false;
  CHECK_FALSE(shown_page_busy(s));
}

TEST_CASE("the decay page draws the compared models: each one's own head and scaled frequencies") {
  AppState s;
  s.pages.rope_decay.models = true;
  s.pages.rope_decay.max_distance = 500;
  s.pages.page = Page::rope_decay;
  s.pages.mark(Page::rope_decay);
  update_app_state(s);
  const RopeDecayOptions& o = s.pages.rope_decay;
  REQUIRE(o.model_names.size() == 3);  // nothing ticked yet: the usual three
  CHECK(o.model_names[0] == "meta-llama/Llama-2-7b-hf");
  REQUIRE(o.model_score[0].size() == 501);
  CHECK(o.model_score[0][0] == 1.0f);
  // Llama 2 has no scaling: its score is 2 sum_j cos(r theta_j) over base 10000, here at r = 100, normalised.
  double at_100 = 0.0;
  for (int j = 0; j < 64; ++j) at_100 += std::cos(100.0 * std::pow(10000.0, -2.0 * j / 128)) / 64.0;
  CHECK(o.model_score[0][100] == Approx(at_100).epsilon(1e-5));
  // Llama 3.1's base 500000 decays more slowly than Llama 2's 10000 over the first hundred positions.
  CHECK(o.model_score[1][50] > o.model_score[0][50]);
  CHECK(page_model(Page::rope_decay).caption(s).find("llama-3.1-8b-instruct") != std::string::npos);
  CHECK(page_model(Page::rope_decay).export_data(s).shape == std::vector<std::size_t>{501, 7});
  AppState reopened;
  apply_state_json(state_to_json(s), reopened);
  CHECK(reopened.pages.rope_decay.models);
}

TEST_CASE("the default (Llama 3.1) settings: pairs beyond the target length, the shortest wavelength 2 pi") {
  AppState s;
  s.pages.page = Page::context_extension;
  update_app_state(s);
  REQUIRE(s.pages.context_extension.result.rows.size() > 4);
  CHECK(s.pages.context_extension.result.rows[4].pairs_beyond_target == 25);  // Llama-3.1 preset
  REQUIRE(s.pages.context_extension.log10_wavelength.size() > 0);
  CHECK(s.pages.context_extension.log10_wavelength[0][0] == Approx(std::log10(2 * std::numbers::pi)));
}

TEST_CASE("models compared: a model whose curve is exactly another's says so in the legend") {
  AppState s;
  ContextExtensionOptions& o = s.pages.context_extension;
  o.compare = true;
  s.pages.page = Page::context_extension;
  const std::vector<PresetEntry> presets = list_presets();
  const PresetEntry* preset = find_preset(presets, "NoPE layers in real models");
  REQUIRE(preset);
  REQUIRE(apply_preset(*preset, s));
  update_app_state(s);
  REQUIRE(o.summaries.size() == 4);
  // Llama 4 Scout's RoPE is Llama 3.1's (base 500000, llama3 x8 from 8192): one curve covers the other.
  CHECK(o.compared_labels[0] == "llama-4-scout-17b-16e (same curve as llama-3.1-8b-instruct)");
  CHECK(o.compared_labels[1] == "llama-3.1-8b-instruct (same curve as llama-4-scout-17b-16e)");
  CHECK(o.compared_labels[2] == "smollm3-3b");
  CHECK(o.summaries[0].span == 8192);
}

TEST_CASE("Llama 4's query scale on its NoPE layers, up to the target context, only while the page follows it") {
  AppState s;
  load_rope_model(s.pages, find_shipped_model("llama-4-scout-17b-16e"), "");
  show(s, Page::context_extension);
  const ContextExtensionOptions& o = s.pages.context_extension;
  REQUIRE(o.query_scale.size() == std::size_t(kQueryScaleSamples));
  CHECK(o.query_scale.front() == 1.0f);
  const double target = o.result.target_len;
  CHECK(o.query_scale.back() == Approx(std::log(std::floor((target + 1) / 8192) + 1) * 0.1 + 1).epsilon(1e-6));
  CHECK(o.query_scale_label == "queries x log(floor((pos + 1) / 8192) + 1) * 0.1 + 1");
  s.pages.context_extension.params.factor = 2;  // custom knobs: not the model's any more
  s.pages.mark(Page::context_extension);
  show(s, Page::context_extension);
  CHECK(o.query_scale.empty());
  load_rope_model(s.pages, find_shipped_model("llama-3.1-8b-instruct"), "");
  show(s, Page::context_extension);
  CHECK(o.query_scale.empty());
}

// Found by peviz --monkey 11: llama3's low_freq_factor dragged to 5.4 above high_freq_factor 4, which core
// refuses; likewise YaRN's beta_slow above beta_fast. The update step keeps the upper knob above the lower one.
TEST_CASE("context extension page: the upper knob of each ordered pair stays above the lower one") {
  AppState s;
  ContextExtensionParams& p = s.pages.context_extension.params;
  show(s, Page::context_extension);
  REQUIRE(check_state(s) == "");
  p.low_freq_factor = 5.4;  // as the low_freq_factor slider leaves it, above high_freq_factor 4
  p.beta_slow = 40.0;       // above beta_fast 32
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  CHECK(p.high_freq_factor == Approx(5.4 * 1.01));
  CHECK(p.beta_fast == Approx(40.0 * 1.01));
  CHECK_FALSE(s.pages.context_extension.from_model);  // no longer the model's knobs
  CHECK_FALSE(s.status_is_error);
  CHECK(check_state(s) == "");
}

TEST_CASE("every shipped model with a scaling draws that scaling as a curve of its own, with its attention factor") {
  int with_scaling = 0;
  for (const auto& model : shipped_models()) {
    if (model->scheme != PositionScheme::rope) continue;
    INFO(model->name);
    AppState s;
    load_rope_model(s.pages, model, "");
    s.pages.page = Page::context_extension;
    s.pages.mark(Page::context_extension);
    update_app_state(s);
    const ContextExtensionOptions& o = s.pages.context_extension;
    REQUIRE(o.from_model);
    const RopeScaling kind = layer_type_rope(*model, "").scaling.kind;
    if (kind == RopeScaling::none) {
      CHECK(o.own.label.empty());  // the "none" curve is the model's
      continue;
    }
    ++with_scaling;
    CHECK(o.own.label == "the model's own (" + std::string(to_string(kind)) + " x" +
                             caption_number(model_rope(*model).scaled.factor) + ")");
    const ModelRope r = model_rope(*model);  // as the models-compared table computes it
    REQUIRE(o.own.log10_wavelength.size() == r.scaled.inv_freq.size());
    int beyond = 0;
    for (std::size_t j = 0; j < r.scaled.inv_freq.size(); ++j) {
      const double wavelength = 2.0 * std::numbers::pi / r.scaled.inv_freq[j];
      CHECK(o.own.log10_wavelength[j] == Approx(std::log10(wavelength)).epsilon(1e-6));
      beyond += wavelength > o.result.target_len;
    }
    CHECK(o.own.pairs_beyond_target == beyond);
    CHECK(o.own.attention_factor == r.scaled.attention_factor);
  }
  CHECK(with_scaling >= 5);  // llama3, yarn, longrope, ... were looked at
}

TEST_CASE("Phi-3.5's own LongRoPE: its long factors at 131072 and attention factor sqrt(1 + ln 32 / ln 4096)") {
  AppState s;
  open_model_config(s, config("phi-3.5-mini-instruct.json"));
  update_app_state(s);
  const ContextExtensionOptions& o = s.pages.context_extension;
  const ModelConfig& m = *s.pages.rope_model.model;
  const LayerTypeRope& lt = layer_type_rope(m, "");
  REQUIRE(lt.scaling.kind == RopeScaling::longrope);
  CHECK(o.own.label == "the model's own (longrope x32)");
  CHECK(o.own.attention_factor == Approx(std::sqrt(1.0 + std::log(32.0) / std::log(4096.0))));  // 1.1902
  CHECK(o.own.attention_factor == Approx(1.1902).margin(1e-4));
  // HF _compute_longrope_parameters past the original context: inv_freq_j = 1 / (long_factor_j * base^(2j/R)).
  const int pairs = int(lt.scaling.long_factor.size());
  REQUIRE(int(o.own.log10_wavelength.size()) == pairs);
  for (int j = 0; j < pairs; ++j) {
    const double inv_freq = 1.0 / (lt.scaling.long_factor[std::size_t(j)] * std::pow(lt.rope.base, 2.0 * j / (2.0 * pairs)));
    CHECK(o.own.log10_wavelength[std::size_t(j)] == Approx(std::log10(2.0 * std::numbers::pi / inv_freq)).epsilon(1e-6));
  }
  // Knobs moved away from the model's: custom, no own curve.
  s.pages.context_extension.params.factor = 8.0;
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  CHECK(s.pages.context_extension.own.label.empty());
}

TEST_CASE("config inspected: the loaded model's groups, their inv_freq as data, the link and state keep the view") {
  AppState s;
  ContextExtensionOptions& o = s.pages.context_extension;
  const std::vector<PresetEntry> presets = list_presets();
  const PresetEntry* preset = find_preset(presets, "config-inspector");
  REQUIRE(preset);
  REQUIRE(apply_preset(*preset, s));
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  REQUIRE(o.inspect);
  CHECK_FALSE(o.compare);
  REQUIRE(o.inspected.groups.size() == 2);  // Llama 4 Scout: chunked RoPE layers, full-attention NoPE layers
  CHECK(o.inspected.groups[0].layers.size() == 36);
  CHECK_FALSE(o.inspected.groups[1].rope);
  CHECK(page_model(Page::context_extension).caption(s) ==
        "RoPE config inspected" + std::string(kCaptionDot) + "llama-4-scout-17b-16e");
  const NdArray data = page_model(Page::context_extension).export_data(s);
  REQUIRE(data.shape == std::vector<std::size_t>{64, 3});  // pair j, the RoPE group's inv_freq, the NoPE group's NaN
  CHECK(data.f32[1] == o.inspected.groups[0].inv_freq[0]);
  CHECK(std::isnan(data.f32[2]));

  open_model_config(s, config("gemma-3-1b-it.json"));  // the inspector follows the model loaded
  update_app_state(s);
  REQUIRE(o.inspected.groups.size() == 2);
  CHECK(o.inspected.groups[0].layer_type == "sliding_attention");

  AppState reopened;
  apply_state_json(state_to_json(s), reopened);
  update_app_state(reopened);
  CHECK(reopened.pages.context_extension.inspect);
  CHECK(reopened.pages.context_extension.inspected.groups.size() == 2);
  o.compare = true;  // a state naming both views compares
  s.pages.mark(Page::context_extension);
  update_app_state(s);
  CHECK_FALSE(o.inspect);
  CHECK(o.inspected.groups.empty());
}
