// Tests for app/model/pages/basics_page: its data export is the sidebar's encoding table, refused before one exists.
#include <catch2/catch.hpp>

#include "core/errors.hpp"
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
  CHECK(a.f32 == s.encoding.data);
  CHECK(std::string(page_model(Page::basics).name) == "basics");
  CHECK_FALSE(page_model(Page::basics).write_json);  // its options live in AppState's own keys
}

TEST_CASE("Basics refuses an export before anything is computed") {
  const AppState fresh;
  CHECK_THROWS_AS(page_model(Page::basics).export_data(fresh), ParamError);
}
