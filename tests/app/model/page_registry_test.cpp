// Tests for app/model/page_registry: one entry per page in the list's order, names that parse both ways, every
// page's state JSON object round-tripping at its defaults, and the helpers the page files share.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>

#include "app/model/page_model.hpp"
#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("page names parse both ways") {
  for (int i = 0; i < kPageCount; ++i) CHECK(parse_page(page_name(Page(i))) == Page(i));
  CHECK_FALSE(parse_page("nope"));
  CHECK(page_names().find("context-extension") != std::string::npos);
}

TEST_CASE("one registry entry per page, in tab order, with distinct names, titles and JSON keys") {
  REQUIRE(page_models().size() == std::size_t(kPageCount));
  std::set<std::string> names, titles, keys;
  std::string joined;
  for (int i = 0; i < kPageCount; ++i) {
    const PageModel& m = page_model(Page(i));
    CHECK(&m == page_models()[std::size_t(i)]);
    CHECK(names.insert(m.name).second);
    CHECK(titles.insert(m.title).second);
    if (*m.json_key) CHECK(keys.insert(m.json_key).second);
    if (!m.settings.empty() || m.read_extra) CHECK(*m.json_key);  // settings live in the page's JSON object
    CHECK(m.export_data);                             // File > Export data on every page
    joined += (joined.empty() ? "" : ", ") + std::string(m.name);
  }
  CHECK(page_names() == joined);
  CHECK(std::string(page_name(Page::basics)) == "basics");
  CHECK(std::string(page_title(Page::alibi)) == "ALiBi");
  CHECK(uses_sidebar_encoding(Page::basics));
}

TEST_CASE("every page's options object round-trips through the state JSON at its defaults") {
  for (int i = 0; i < kPageCount; ++i) {
    CAPTURE(page_name(Page(i)));
    if (*page_model(Page(i)).json_key) json_round_trip(Page(i), PageStates{});
  }
}

TEST_CASE("set_heatmap: the matrix, a new version, the colour range (an empty range widened to 1)") {
  plot::HeatmapImage img;
  const Matrix m(2, 3, 0.5f);
  set_heatmap(img, m, plot::Colormap::magma, -2.0, 4.0);
  CHECK(std::get<const Matrix*>(img.values) == &m);
  CHECK(img.version == 1);
  CHECK(img.colormap == plot::Colormap::magma);
  CHECK(img.vmin == -2.0);
  CHECK(img.vmax == 4.0);
  set_heatmap(img, m, plot::Colormap::viridis, 3.0, 3.0);
  CHECK(img.version == 2);
  CHECK(img.vmin == 3.0);
  CHECK(img.vmax == 4.0);
}

TEST_CASE("data_columns: rows x columns, short columns padded with NaN") {
  const NdArray a = data_columns({{1, 2, 3}, {4, 5}});
  CHECK(a.shape == std::vector<std::size_t>{3, 2});
  CHECK(a.f32[0] == 1.0f);
  CHECK(a.f32[1] == 4.0f);
  CHECK(a.f32[4] == 3.0f);
  CHECK(std::isnan(a.f32[5]));
  CHECK(data_columns({}).shape == std::vector<std::size_t>{0, 0});
}
