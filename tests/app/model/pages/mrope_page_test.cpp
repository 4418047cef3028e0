// Tests for app/model/pages/mrope_page: get_rope_index's ids, the patch scores against their closed form, the
// loaded model followed only when it has M-RoPE, and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/model/presets.hpp"
#include "core/base/errors.hpp"
#include "core/rope/rope.hpp"
#include "core/models/shipped_models.hpp"
#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("Multimodal RoPE: Qwen3-VL by default, the image's ids and the patch below scored per axis") {
  AppState s;
  show(s, Page::mrope);
  const MropeOptions& o = s.pages.mrope;
  REQUIRE(o.model);
  CHECK(o.model->name == kDefaultMropeModel);
  const MropeSequence& q = o.sequence;
  REQUIRE(o.ids[0].size() == std::size_t(q.text_before + q.grid_h * q.grid_w + q.text_after));
  const std::size_t first = std::size_t(q.text_before), last = first + std::size_t(q.grid_h * q.grid_w) - 1;
  CHECK(o.ids[0][last] == float(q.text_before));                   // one frame: t stays
  CHECK(o.ids[1][last] == float(q.text_before + q.grid_h - 1));    // h counts rows
  CHECK(o.ids[2][last] == float(q.text_before + q.grid_w - 1));    // w counts columns
  CHECK(o.ids[0][last + 1] == float(q.text_before + std::max(q.grid_h, q.grid_w)));
  CHECK(o.axis_pairs == std::array<int, 3>{24, 20, 20});
  CHECK(o.pair_split.rfind("interleaved", 0) == 0);
  // The patch below: only the h pairs turn, by one step; 1D RoPE turns every pair by grid_w.
  const std::vector<double> f = rope_inv_freq(o.model->rope);
  double below = 0, flat = 0;
  for (std::size_t j = 0; j < f.size(); ++j) {
    below += o.model->pair_axis[j] == RopeAxis::h ? std::cos(f[j]) : 1.0;
    flat += std::cos(q.grid_w * f[j]);
  }
  const std::size_t r = std::size_t(o.patch_row), c = std::size_t(o.patch_col);
  CHECK(o.patch_score.at(r, c) == Approx(1.0));
  CHECK(o.patch_score.at(r + 1, c) == Approx(below / double(f.size())).epsilon(1e-6));
  CHECK(o.flat_score.at(r + 1, c) == Approx(flat / double(f.size())).epsilon(1e-6));
  CHECK(o.patch_score.at(r + 1, c) > o.flat_score.at(r + 1, c));  // the neighbour below looks closer under M-RoPE
  CHECK(o.patch_image.vmax == 1.0);
}

TEST_CASE("Multimodal RoPE: follows a loaded M-RoPE model, keeps its own for any other; the patch stays inside") {
  AppState s;
  load_rope_model(s.pages, find_shipped_model("qwen2.5-vl-7b-instruct"), "");
  show(s, Page::mrope);
  CHECK(s.pages.mrope.model->name == "qwen2.5-vl-7b-instruct");
  CHECK(s.pages.mrope.axis_pairs == std::array<int, 3>{16, 24, 24});
  CHECK(s.pages.mrope.pair_split == "contiguous: pairs 0-15 t, 16-39 h, 40-63 w");
  load_rope_model(s.pages, find_shipped_model("llama-3.1-8b-instruct"), "");
  show(s, Page::mrope);
  CHECK(s.pages.mrope.model->name == "qwen2.5-vl-7b-instruct");
  s.pages.mrope.sequence.grid_h = 2;
  s.pages.mark(Page::mrope);
  show(s, Page::mrope);
  CHECK(s.pages.mrope.patch_row == 1);
  CHECK(s.pages.mrope.patch_score.rows == 2);
}

TEST_CASE("Multimodal RoPE: the options round-trip through the state JSON; a model without M-RoPE is refused") {
  PageStates a;
  a.mrope.model = find_shipped_model("qwen2.5-vl-7b-instruct");
  a.mrope.sequence = {.text_before = 1, .grid_h = 3, .grid_w = 7, .text_after = 2};
  a.mrope.patch_col = 6;
  const PageStates back = json_round_trip(Page::mrope, a);
  CHECK(back.mrope.model->name == "qwen2.5-vl-7b-instruct");
  CHECK(back.mrope.sequence.grid_w == 7);
  CHECK(back.mrope.patch_col == 6);
  PageStates c;
  const auto refused = [&](const nlohmann::json& j) -> std::string {
    try {
      read_page_json(page_model(Page::mrope), j, c);
    } catch (const ParamError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(refused({{"mrope_model", "llama-3.1-8b-instruct"}}) ==
        "mrope_model: names no shipped M-RoPE model: llama-3.1-8b-instruct");
  CHECK(refused({{"grid_w", 0}}) == "grid_w: must be an integer in [1, 256], got 0");
}

TEST_CASE("Multimodal RoPE preset: Qwen2.5-VL's spatial axes turn only slow pairs, so neighbours score almost 1") {
  AppState s;
  const std::vector<PresetEntry> presets = list_presets();
  const PresetEntry* preset = find_preset(presets, "Multimodal RoPE: contiguous sections");
  REQUIRE(preset);
  REQUIRE(apply_preset(*preset, s));
  update_app_state(s);
  const MropeOptions& o = s.pages.mrope;
  CHECK(s.pages.page == Page::mrope);
  CHECK(o.model->name == "qwen2.5-vl-7b-instruct");
  const std::size_t r = std::size_t(o.patch_row), c = std::size_t(o.patch_col);
  CHECK(o.patch_score.at(r, c + 1) > 0.999f);  // the w pairs (40-63) barely turn in one step
  CHECK(o.patch_score.at(r + 1, c) > 0.999f);
  CHECK(o.flat_score.at(r + 1, c) < 0.9f);     // 12 tokens on, every pair turns
}
