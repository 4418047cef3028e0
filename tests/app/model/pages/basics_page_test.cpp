// Tests for app/model/pages/basics_page: what is recomputed when, the similarity sampling, colour ranges, channel
// wavelengths, the update whichever page is shown; its data export is the sidebar's encoding table, refused before
// one exists; its keys of the state JSON's "view" object.
#include <catch2/catch.hpp>

#include <cmath>
#include <variant>

#include "core/base/errors.hpp"
#include "core/encodings/similarity.hpp"
#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("Basics exports the encoding table the views show") {
  AppState s;
  s.params.d_model = 16;
  s.params.seq_len = 10;
  show(s, Page::basics);
  const NdArray a = page_model(Page::basics).export_data(s);
  CHECK(a.shape == std::vector<std::size_t>{10, 16});
  CHECK(a.f32 == s.pages.basics.encoding.data);
  CHECK(std::string(page_model(Page::basics).name) == "basics");
  CHECK(std::string(page_model(Page::basics).json_key) == "view");  // its options are keys of the window's "view"
}

TEST_CASE("Basics refuses an export before anything is computed") {
  const AppState fresh;
  CHECK_THROWS_AS(page_model(Page::basics).export_data(fresh), ParamError);
}

TEST_CASE("Basics' keys of the state JSON's view object round-trip") {
  PageStates a;
  a.basics.waves.channels_text = "0, 3";
  a.basics.similarity_view.metric = Metric::dot;
  a.basics.binary_view.positions = 32;
  const PageStates back = json_round_trip(Page::basics, a);
  CHECK(back.basics.waves.channels_text == "0, 3");
  CHECK(back.basics.similarity_view.metric == Metric::dot);
  CHECK(back.basics.binary_view.positions == 32);
}

TEST_CASE("nothing dirty: nothing recomputed") {
  AppState s;
  CHECK(update_app_state(s));
  const auto version = s.pages.basics.encoding_image.version;
  CHECK_FALSE(update_app_state(s));
  CHECK(s.pages.basics.encoding_image.version == version);
  CHECK(s.last_recompute_ms == 0.0);
}

TEST_CASE("a parameter change recomputes the encoding, the similarity and bumps the versions") {
  AppState s;
  update_app_state(s);
  const auto ev = s.pages.basics.encoding_image.version, sv = s.pages.basics.similarity_image.version;
  s.params.d_model = 64;
  mark_params_changed(s);
  CHECK(update_app_state(s));
  CHECK(s.pages.basics.encoding.cols == 64);
  CHECK(s.pages.basics.encoding_image.version == ev + 1);
  CHECK(s.pages.basics.similarity_image.version == sv + 1);
  CHECK(s.pages.basics.computed.d_model == 64);
  CHECK(s.pages.basics.frequencies.size() == 32);
}

TEST_CASE("the sinusoidal similarity is core's closed form at full size, read through its Toeplitz form") {
  AppState s;
  s.params.seq_len = 300;
  s.params.d_model = 129;  // odd: the unpaired channel's rank-one term too
  s.pages.basics.similarity_view.metric = Metric::dot;
  update_app_state(s);
  CHECK(s.pages.basics.similarity_stride == 1);
  CHECK(s.pages.basics.similarity.empty());  // no L x L matrix
  REQUIRE(std::get_if<const ToeplitzSimilarity*>(&s.pages.basics.similarity_image.values));
  Matrix expected;
  sinusoidal_similarity(s.pages.basics.computed, Metric::dot, expected);
  REQUIRE(plot::value_rows(s.pages.basics.similarity_image.values) == 300);
  REQUIRE(plot::value_cols(s.pages.basics.similarity_image.values) == 300);
  for (std::size_t p = 0; p < 300; ++p)
    for (std::size_t q = 0; q < 300; ++q) REQUIRE(plot::value_at(s.pages.basics.similarity_image.values, p, q) == expected.at(p, q));
  // The diagonal's largest value: 64 pairs plus sin^2(299 w_64) of the unpaired channel (slow: w ~ 1e-4).
  const double w = std::pow(10000.0, -128.0 / 129.0);
  CHECK(s.pages.basics.similarity_image.vmax == Approx(64.0 + std::pow(std::sin(299 * w), 2)).epsilon(1e-6));
  CHECK(s.pages.basics.similarity_image.vmax > 64.001);
  // Back to a general-path encoding: the matrix again, the Toeplitz form dropped.
  s.params.encoding = Encoding::learned;
  s.params.max_len = 300;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.pages.basics.similarity_toeplitz.size() == 0);
  CHECK(std::get<const Matrix*>(s.pages.basics.similarity_image.values) == &s.pages.basics.similarity);
  CHECK(s.pages.basics.similarity.rows == 300);
}

TEST_CASE("the general similarity path samples positions when n^2 d exceeds the budget") {
  CHECK(similarity_stride_for(8192, 1024, true) == 1);
  CHECK(similarity_stride_for(100, 64, false) == 1);
  const int stride = similarity_stride_for(4096, 512, false);
  CHECK(stride > 1);
  const double n = std::ceil(4096.0 / stride);
  CHECK(n * n * 512 <= kGeneralSimilarityWork * 1.01);
  AppState s;
  s.params.encoding = Encoding::learned;
  s.params.seq_len = 4096;
  s.params.max_len = 4096;
  s.params.d_model = 512;
  update_app_state(s);
  CHECK(s.pages.basics.similarity_stride == stride);
  CHECK(s.pages.basics.similarity.rows == std::size_t(n));
  CHECK(s.pages.basics.similarity_image.cell_width == stride);
  CHECK(s.status.find("sampled") != std::string::npos);
}

TEST_CASE("automatic colour ranges follow the encoding") {
  AppState s;
  update_app_state(s);
  CHECK(s.pages.basics.encoding_image.colormap == plot::Colormap::diverging);
  CHECK(s.pages.basics.encoding_image.vmin == -1.0);
  s.params.encoding = Encoding::integer;
  s.params.seq_len = 10;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.pages.basics.encoding_image.colormap == plot::Colormap::viridis);
  CHECK(s.pages.basics.encoding_image.vmax == 9.0);
  s.pages.basics.similarity_view.metric = Metric::dot;
  s.pages.basics.dirty.similarity = true;
  update_app_state(s);
  CHECK(s.pages.basics.similarity_image.colormap == plot::Colormap::viridis);  // dot of non-negative vectors
  CHECK(s.pages.basics.similarity_image.vmax == Approx(81.0));
}

TEST_CASE("channel wavelengths: 2 pi / w for sinusoids, 2^(c+1) for bits") {
  AppState s;
  s.params.d_model = 8;
  update_app_state(s);
  REQUIRE(s.pages.basics.channel_wavelength.size() > 3);
  CHECK(s.pages.basics.channel_wavelength[0] == Approx(2 * M_PI));
  CHECK(s.pages.basics.channel_wavelength[1] == Approx(2 * M_PI));
  CHECK(s.pages.basics.channel_wavelength[2] == Approx(2 * M_PI / std::pow(10000.0, -2.0 / 8)));
  s.params.encoding = Encoding::binary;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.pages.basics.channel_wavelength[3] == 16.0f);
  s.params.encoding = Encoding::learned;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(std::isnan(s.pages.basics.channel_wavelength[0]));
}

TEST_CASE("a sinusoidal similarity needs no L x L memory: a budget below the matrix still shows it") {
  AppState s;
  update_app_state(s);
  const auto version = s.pages.basics.similarity_image.version;
  s.params.seq_len = 4096;
  s.params.d_model = 8;
  s.params.memory_budget = 1u << 20;  // the 4096 x 8 encoding fits, a 4096 x 4096 matrix would not
  mark_params_changed(s);
  update_app_state(s);
  CHECK_FALSE(s.status_is_error);
  CHECK(s.pages.basics.encoding.rows == 4096);
  CHECK(s.pages.basics.similarity.empty());
  CHECK(s.pages.basics.similarity_toeplitz.size() == 4096);
  CHECK(s.pages.basics.similarity_image.version > version);
  s.params.memory_budget = 1u << 16;  // now the encoding does not fit either: reported, not applied
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.status_is_error);
  CHECK(s.status.find("max-memory") != std::string::npos);
}

TEST_CASE("Basics updates whichever page is shown; a parameter change marks the pages that follow them") {
  AppState s;
  s.pages.page = Page::alibi;
  update_app_state(s);
  REQUIRE(s.pages.basics.has_results);
  s.params.d_model = 32;
  mark_params_changed(s);
  CHECK(update_app_state(s));
  CHECK(s.pages.basics.encoding.cols == 32);
  CHECK(s.pages.dirty[std::size_t(Page::linear_shift)]);  // follows the parameters: recomputes when next shown
  CHECK_FALSE(s.pages.dirty[std::size_t(Page::alibi)]);
  // A finer flag recomputes only its part.
  const auto ev = s.pages.basics.encoding_image.version, sv = s.pages.basics.similarity_image.version;
  s.pages.basics.similarity_view.metric = Metric::dot;
  s.pages.basics.dirty.similarity = true;
  CHECK(update_app_state(s));
  CHECK(s.pages.basics.encoding_image.version == ev);
  CHECK(s.pages.basics.similarity_image.version == sv + 1);
  CHECK_FALSE(update_app_state(s));
}
