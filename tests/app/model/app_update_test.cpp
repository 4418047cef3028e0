// Tests for app/model/app_update: what is recomputed when, the similarity sampling, colour ranges; the shown page
// recomputes only when dirty, a sidebar change marks the pages that follow it, errors reach the status line with the
// last results kept, every page's heatmaps, busy pages.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

#include "app/model/app_update.hpp"
#include "app/model/page_model.hpp"
#include "core/similarity.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("nothing dirty: nothing recomputed") {
  AppState s;
  CHECK(update_app_state(s));
  const auto version = s.encoding_image.version;
  CHECK_FALSE(update_app_state(s));
  CHECK(s.encoding_image.version == version);
  CHECK(s.last_recompute_ms == 0.0);
}

TEST_CASE("a parameter change recomputes the encoding, the similarity and bumps the versions") {
  AppState s;
  update_app_state(s);
  const auto ev = s.encoding_image.version, sv = s.similarity_image.version;
  s.params.d_model = 64;
  mark_params_changed(s);
  CHECK(update_app_state(s));
  CHECK(s.encoding.cols == 64);
  CHECK(s.encoding_image.version == ev + 1);
  CHECK(s.similarity_image.version == sv + 1);
  CHECK(s.computed.d_model == 64);
  CHECK(s.frequencies.size() == 32);
}

TEST_CASE("the sinusoidal similarity is core's closed form at full size, read through its Toeplitz form") {
  AppState s;
  s.params.seq_len = 300;
  s.params.d_model = 129;  // odd: the unpaired channel's rank-one term too
  s.similarity_view.metric = Metric::dot;
  update_app_state(s);
  CHECK(s.similarity_stride == 1);
  CHECK(s.similarity.empty());  // no L x L matrix
  REQUIRE(std::get_if<const ToeplitzSimilarity*>(&s.similarity_image.values));
  Matrix expected;
  sinusoidal_similarity(s.computed, Metric::dot, expected);
  REQUIRE(plot::value_rows(s.similarity_image.values) == 300);
  REQUIRE(plot::value_cols(s.similarity_image.values) == 300);
  for (std::size_t p = 0; p < 300; ++p)
    for (std::size_t q = 0; q < 300; ++q) REQUIRE(plot::value_at(s.similarity_image.values, p, q) == expected.at(p, q));
  // The diagonal's largest value: 64 pairs plus sin^2(299 w_64) of the unpaired channel (slow: w ~ 1e-4).
  const double w = std::pow(10000.0, -128.0 / 129.0);
  CHECK(s.similarity_image.vmax == Approx(64.0 + std::pow(std::sin(299 * w), 2)).epsilon(1e-6));
  CHECK(s.similarity_image.vmax > 64.001);
  // Back to a general-path encoding: the matrix again, the Toeplitz form dropped.
  s.params.encoding = Encoding::learned;
  s.params.max_len = 300;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.similarity_toeplitz.size() == 0);
  CHECK(std::get<const Matrix*>(s.similarity_image.values) == &s.similarity);
  CHECK(s.similarity.rows == 300);
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
  CHECK(s.similarity_stride == stride);
  CHECK(s.similarity.rows == std::size_t(n));
  CHECK(s.similarity_image.cell_width == stride);
  CHECK(s.status.find("sampled") != std::string::npos);
}

TEST_CASE("automatic colour ranges follow the encoding") {
  AppState s;
  update_app_state(s);
  CHECK(s.encoding_image.colormap == plot::Colormap::diverging);
  CHECK(s.encoding_image.vmin == -1.0);
  s.params.encoding = Encoding::integer;
  s.params.seq_len = 10;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.encoding_image.colormap == plot::Colormap::viridis);
  CHECK(s.encoding_image.vmax == 9.0);
  s.similarity_view.metric = Metric::dot;
  s.dirty.similarity = true;
  update_app_state(s);
  CHECK(s.similarity_image.colormap == plot::Colormap::viridis);  // dot of non-negative vectors
  CHECK(s.similarity_image.vmax == Approx(81.0));
}

TEST_CASE("channel wavelengths: 2 pi / w for sinusoids, 2^(c+1) for bits") {
  AppState s;
  s.params.d_model = 8;
  update_app_state(s);
  REQUIRE(s.channel_wavelength.size() > 3);
  CHECK(s.channel_wavelength[0] == Approx(2 * M_PI));
  CHECK(s.channel_wavelength[1] == Approx(2 * M_PI));
  CHECK(s.channel_wavelength[2] == Approx(2 * M_PI / std::pow(10000.0, -2.0 / 8)));
  s.params.encoding = Encoding::binary;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.channel_wavelength[3] == 16.0f);
  s.params.encoding = Encoding::learned;
  mark_params_changed(s);
  update_app_state(s);
  CHECK(std::isnan(s.channel_wavelength[0]));
}

TEST_CASE("a sinusoidal similarity needs no L x L memory: a budget below the matrix still shows it") {
  AppState s;
  update_app_state(s);
  const auto version = s.similarity_image.version;
  s.params.seq_len = 4096;
  s.params.d_model = 8;
  s.params.memory_budget = 1u << 20;  // the 4096 x 8 encoding fits, a 4096 x 4096 matrix would not
  mark_params_changed(s);
  update_app_state(s);
  CHECK_FALSE(s.status_is_error);
  CHECK(s.encoding.rows == 4096);
  CHECK(s.similarity.empty());
  CHECK(s.similarity_toeplitz.size() == 4096);
  CHECK(s.similarity_image.version > version);
  s.params.memory_budget = 1u << 16;  // now the encoding does not fit either: reported, not applied
  mark_params_changed(s);
  update_app_state(s);
  CHECK(s.status_is_error);
  CHECK(s.status.find("max-memory") != std::string::npos);
}

TEST_CASE("the shown page recomputes when dirty, once") {
  AppState s;
  s.pages.page = Page::alibi;
  s.pages.mark(Page::alibi);
  CHECK(update_pages(s, false, 0.0));
  CHECK(s.pages.alibi.slopes.size() == 8);
  s.pages.alibi.slopes.clear();
  CHECK_FALSE(update_pages(s, false, 0.0));  // nothing dirty: nothing recomputed
  CHECK(s.pages.alibi.slopes.empty());
}

TEST_CASE("a sidebar change marks exactly the pages that follow the sidebar's parameters") {
  AppState s;
  s.pages.page = Page::alibi;
  s.pages.dirty.fill(false);
  update_pages(s, true, 0.0);
  for (int i = 0; i < kPageCount; ++i) {
    if (Page(i) == s.pages.page) continue;  // shown: recomputed if marked, so no longer dirty
    CAPTURE(page_name(Page(i)));
    CHECK(s.pages.dirty[std::size_t(i)] == page_models()[std::size_t(i)]->follows_params);
  }
  CHECK(s.pages.dirty[std::size_t(Page::linear_shift)]);
}

TEST_CASE("a page error goes to the status line, the last results stay; the next good update clears it") {
  AppState s;
  s.pages.page = Page::alibi;
  s.pages.mark(Page::alibi);
  update_pages(s, false, 0.0);
  s.pages.alibi.heads = 0;  // below the window's range
  s.pages.mark(Page::alibi);
  CHECK(update_pages(s, false, 0.0));
  CHECK(s.status_is_error);
  CHECK(s.status.rfind("Not applied: ", 0) == 0);
  CHECK(s.status.find("heads") != std::string::npos);
  CHECK(s.pages.alibi.slopes.size() == 8);  // the previous results are still drawn
  s.pages.alibi.heads = 4;
  s.pages.mark(Page::alibi);
  update_pages(s, false, 0.0);
  CHECK_FALSE(s.status_is_error);
  CHECK(s.status == "ALiBi: up to date");
  CHECK(s.pages.alibi.slopes.size() == 4);
}

TEST_CASE("a load error reaches the status line even when nothing recomputes") {
  AppState s;
  s.pages.dirty.fill(false);
  CHECK(update_pages(s, false, 0.0, "from-npy: cannot open x.npy"));
  CHECK(s.status == "Not applied: from-npy: cannot open x.npy");
  CHECK(s.status_is_error);
}

TEST_CASE("page_images lists every page's heatmaps once; shown_page_busy asks the shown page") {
  AppState s;
  const std::vector<plot::HeatmapImage*> images = page_images(s.pages);
  std::size_t expected = 0;
  for (const PageModel* p : page_models()) {
    std::vector<plot::HeatmapImage*> own;
    if (p->heatmaps) p->heatmaps(s.pages, own);
    expected += own.size();
  }
  CHECK(images.size() == expected);
  CHECK(std::count(images.begin(), images.end(), &s.pages.alibi.grid_image) == 1);
  CHECK(std::count(images.begin(), images.end(), &s.pages.alibi.head_image) == 1);

  s.pages.page = Page::rope_clocks;
  CHECK_FALSE(shown_page_busy(s));
  s.pages.rope_clocks.animate = true;
  CHECK(shown_page_busy(s));
  s.pages.page = Page::alibi;  // no busy hook
  CHECK_FALSE(shown_page_busy(s));
}
