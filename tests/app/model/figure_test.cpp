// Figure names, captions, options and PNG metadata (pure functions; no window).
#include <algorithm>

#include <catch2/catch.hpp>

#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"
#include "app/model/lessons.hpp"
#include "app/model/page_model.hpp"
#include "app/model/state_json.hpp"
#include "core/base/errors.hpp"
#include "tests/build_paths.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("every view name parses back to its view") {
  const auto views = single_figure_views();
  CHECK(views.size() == 4 + kPageCount - 1);
  for (const FigureView& v : views) CHECK(parse_figure_view(figure_view_name(v)) == v);
  CHECK(parse_figure_view("window") == FigureView{});
  CHECK_FALSE(parse_figure_view("basics"));
  CHECK_FALSE(parse_figure_view("Waves"));
}

TEST_CASE("figure options: scale 1, 2, 4 up to 7680 x 4320 pixels") {
  FigureOptions o;
  o.width = 1920, o.height = 1080, o.scale = 4;
  CHECK_NOTHROW(validate(o));  // 7680 x 4320 exactly
  o.width = 1921;
  CHECK_THROWS_WITH(validate(o), Catch::Contains("7680 x 4320"));
  o.width = 1600, o.scale = 3;
  CHECK_THROWS_WITH(validate(o), Catch::Contains("1, 2 or 4"));
  o.scale = 1, o.width = 10;
  CHECK_THROWS_AS(validate(o), ParamError);
}

TEST_CASE("file names and captions carry the parameters") {
  AppState s;
  s.params.d_model = 64;
  s.params.base = 500000;
  s.params.seq_len = 300;
  const std::string name = figure_file_name(s, {FigureView::encoding}, 0);
  CHECK(name.rfind("peviz-encoding-d64-b500000-L300-", 0) == 0);
  CHECK(name.size() == std::string("peviz-encoding-d64-b500000-L300-19700101-000000.png").size());
  // A page following the sidebar adds its own settings to the sidebar's short form.
  CHECK(figure_file_name(s, {FigureView::one_page, Page::criteria}, -1) == "peviz-criteria-d64-b500000-L300-lengths-64-256.png");
  CHECK(figure_file_name(s, {FigureView::one_page, Page::linear_shift}, -1) == "peviz-linear-shift-d64-b500000-L300-p-10-k-5.png");
  // Pages with their own controls are named after them (the caption), not after the sidebar's encoding.
  CHECK(figure_file_name(s, {FigureView::one_page, Page::alibi}, -1) == "peviz-alibi-8-heads-l-64-causal.png");
  s.pages.rope_clocks.position = 12;
  CHECK(figure_file_name(s, {FigureView::one_page, Page::rope_clocks}, -1) ==
        "peviz-rope-clocks-head-dim-64-base-10000-halves-t-12.png");
  CHECK(figure_file_name(s, {FigureView::binary}, -1).rfind("peviz-binary-analogy-16-positions-", 0) == 0);
  CHECK(figure_caption(s, {FigureView::waves}) == "sinusoidal \u00b7 d_model 64 \u00b7 base 500000 \u00b7 L 300 \u00b7 interleaved");
  s.pages.alibi.heads = 12;
  CHECK(figure_caption(s, {FigureView::one_page, Page::alibi}) == "ALiBi \u00b7 12 heads \u00b7 L 64 \u00b7 causal");
  CHECK(figure_caption(s, {FigureView::one_page, Page::rope_clocks}).find("head_dim 64") != std::string::npos);
  // The binary table depends on its rows only, until it is morphed toward the encoding's frequencies.
  update_app_state(s);
  CHECK(figure_caption(s, {FigureView::binary}) == "binary analogy \u00b7 16 positions, 4 bits");
  s.pages.basics.binary_view.morph = 0.5f;
  CHECK(figure_caption(s, {FigureView::binary}) ==
        "binary analogy \u00b7 16 positions, 4 bits \u00b7 morphed 50% toward d_model 64, base 500000");
}

TEST_CASE("a figure of the window names the page shown, not the sidebar's encoding") {
  AppState s;
  s.params.d_model = 128;  // the sidebar's Basics values, which RoPE decay does not draw
  s.pages.page = Page::rope_decay;
  const FigureView decay{FigureView::one_page, Page::rope_decay};
  CHECK(described_view(s, FigureView{}) == decay);
  CHECK(figure_caption(s, FigureView{}) == figure_caption(s, decay));
  CHECK(figure_caption(s, FigureView{}).rfind("RoPE decay", 0) == 0);
  const std::string page_name = figure_file_name(s, decay, -1);  // "peviz-rope-decay-<its parameters>.png"
  CHECK(figure_file_name(s, FigureView{}, -1) == "peviz-window-" + page_name.substr(std::string("peviz-rope-decay-").size()));
  CHECK(figure_file_name(s, FigureView{}, -1).find("d128") == std::string::npos);
  CHECK(figure_metadata(s, FigureView{}).at("Title") == figure_caption(s, decay));
  s.pages.page = Page::basics;  // Basics: the window's own caption, the sidebar's encoding
  CHECK(described_view(s, FigureView{}) == FigureView{});
  CHECK(figure_file_name(s, FigureView{}, -1).rfind("peviz-window-d128-b10000-L", 0) == 0);
}

TEST_CASE("captions count in words: 1 layer, 4 layers, 1 head") {
  CHECK(counted(1, "layer") == "1 layer");
  CHECK(counted(4, "layer") == "4 layers");
  CHECK(counted(0, "head") == "0 heads");
  AppState s;
  s.pages.lab.settings.layers = 1;
  s.pages.alibi.heads = 1;
  CHECK(figure_caption(s, {FigureView::one_page, Page::lab}).find("1 layer x 4 heads") != std::string::npos);
  CHECK(figure_caption(s, {FigureView::one_page, Page::alibi}).rfind("ALiBi \u00b7 1 head \u00b7", 0) == 0);
}

TEST_CASE("during a lesson a figure is named after the lesson, its step and the page") {
  AppState s;
  start_lesson(s, load_lesson_file(std::string(peviz::test::source_dir) + "/assets/lessons/positional-encodings.json"));
  std::vector<std::string> names;
  for (int step = 0; step < int(s.teach.lesson.steps.size()); ++step) {
    go_to_step(s, step);
    names.push_back(figure_file_name(s, FigureView{}, -1));
    CHECK(names.back().rfind("peviz-positional-encodings-step" + std::string(step < 9 ? "0" : "") +
                                 std::to_string(step + 1) + "-window-" + std::string(page_name(s.pages.page)), 0) == 0);
  }
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());  // no two steps share a name
  go_to_step(s, 8);
  CHECK(figure_file_name(s, FigureView{}, -1) == "peviz-positional-encodings-step09-window-t5-shaw.png");
  CHECK(figure_file_name(s, {FigureView::waves}, 0).rfind("peviz-positional-encodings-step09-waves-", 0) == 0);
}

TEST_CASE("figure metadata restores the state and the view") {
  AppState a;
  a.params.encoding = Encoding::binary;
  a.params.d_model = 10;
  a.pages.t5_shaw.num_buckets = 16;
  const auto text = figure_metadata(a, {FigureView::one_page, Page::t5_shaw});
  const FigureMetadata m = parse_figure_metadata(text);
  CHECK(m.view == FigureView{FigureView::one_page, Page::t5_shaw});
  AppState b;
  apply_state_json(m.state, b);
  CHECK(b.params.encoding == Encoding::binary);
  CHECK(b.params.d_model == 10);
  CHECK(b.pages.t5_shaw.num_buckets == 16);
  CHECK_THROWS_WITH(parse_figure_metadata({{"Title", "x"}}), Catch::Contains("no peviz parameters"));
  CHECK_THROWS_WITH(parse_figure_metadata({{"peviz", "{not json"}}), Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(parse_figure_metadata({{"peviz", R"({"view": "nowhere", "state": {}})"}}), Catch::Contains("unknown view"));
}
