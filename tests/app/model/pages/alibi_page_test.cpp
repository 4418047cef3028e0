// Tests for app/model/pages/alibi_page: the slopes, one head's bias and every head tiled (shared and per-head scale),
// the tiling itself, the caption, and the page's state JSON.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "app/model/app_update.hpp"
#include "app/model/figure.hpp"

#include "tests/app/model/pages/page_test_helpers.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("ALiBi: slopes, the causal mask and the heads grid at both scales") {
  AppState s;
  show(s, Page::alibi);
  const AlibiOptions& a = s.pages.alibi;
  REQUIRE(a.slopes.size() > 0);
  CHECK(a.slopes[0] == 0.5);
  CHECK(a.grid_cols == 3);
  REQUIRE(a.grid.rows == 3 * 64 + 2);
  CHECK(a.grid.at(10, 2) == Approx(-0.5 * 8));          // head 0, query 10, key 2
  CHECK(std::isnan(a.grid.at(64, 0)));                   // the gutter
  CHECK(a.grid.at(65 + 10, 65 + 2) == Approx(-std::exp2(-8.0 * 5 / 8) * 8));  // head 4 (m = 2^-5): row 1, column 1
  CHECK(std::isnan(a.head_bias.at(0, 1)));               // causal: the future is masked
  CHECK(a.head_image.nan_meaning == plot::NanMeaning::masked);  // ... and drawn and named so, not as missing data
  CHECK(a.grid_image.nan_meaning == plot::NanMeaning::masked);
  CHECK(a.grid_image.tile_side == 64);  // the hover names head, query and key within each tile
  CHECK(a.grid_image.tiles_across == 3);
  CHECK(a.grid_image.tile_count == 8);
  s.pages.alibi.per_head_scale = true;  // each head divided by its own largest |bias|, m_h (L - 1)
  s.pages.mark(Page::alibi);
  show(s, Page::alibi);
  CHECK(a.grid.at(10, 2) == Approx(-8.0 / 63));                // head 0: distance 8 of 63
  CHECK(a.grid.at(65 + 63, 65 + 0) == Approx(-1.0));           // head 4, its farthest key: -1 whatever its slope
  CHECK(a.grid_image.vmin == Approx(-1.0));
  s.pages.alibi.per_head_scale = false;
}

TEST_CASE("ALiBi with H not a power of two: the shared scale reaches the steepest head, not head 0") {
  AppState s;
  s.pages.alibi.heads = 12;  // 8 slopes from 2^(-8/8) and 4 interleaved from 16 heads': head 8 is 2^(-0.5)
  show(s, Page::alibi);
  const AlibiOptions& a = s.pages.alibi;
  REQUIRE(a.slopes.size() == 12);
  CHECK(a.slopes[8] == Approx(std::exp2(-0.5)));
  CHECK(a.slopes[8] > a.slopes[0]);
  CHECK(a.grid_image.vmin == Approx(-std::exp2(-0.5) * 63));  // every tile within the colour bar
}

TEST_CASE("tile_heads lays heads out row-major with NaN gutters") {
  Matrix stacked(3 * 2, 2);
  for (std::size_t i = 0; i < stacked.data.size(); ++i) stacked.data[i] = float(i);
  const Matrix g = tile_heads(stacked, 3, 2, 2);
  REQUIRE(g.rows == 5);
  REQUIRE(g.cols == 5);
  CHECK(g.at(0, 0) == 0.0f);
  CHECK(g.at(0, 3) == 4.0f);   // head 1 starts at column 3
  CHECK(g.at(3, 0) == 8.0f);   // head 2 on the second row
  CHECK(std::isnan(g.at(2, 2)));
  CHECK(std::isnan(g.at(4, 4)));  // the empty fourth tile
}

TEST_CASE("ALiBi: the caption names heads, length and direction; the options round-trip") {
  AppState s;
  s.pages.alibi.heads = 4;
  s.pages.alibi.seq_len = 32;
  s.pages.alibi.bidirectional = true;
  s.pages.alibi.head = 2;
  const std::string dot = kCaptionDot;
  CHECK(page_model(Page::alibi).caption(s) == "ALiBi" + dot + "4 heads" + dot + "L 32" + dot + "bidirectional");
  const PageStates back = json_round_trip(Page::alibi, s.pages);
  CHECK(back.alibi.heads == 4);
  CHECK(back.alibi.seq_len == 32);
  CHECK(back.alibi.bidirectional);
  CHECK(back.alibi.head == 2);
  AppState clamped;  // a head past the count is clamped to the last one by the update
  read_page_json(page_model(Page::alibi), {{"heads", 4}, {"head", 9}}, clamped.pages);
  show(clamped, Page::alibi);
  CHECK(clamped.pages.alibi.head == 3);
}
