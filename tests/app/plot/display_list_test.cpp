// Display list helpers: text baselines from DejaVu Sans's metrics, UTF-8 clean-up, heatmap pictures.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/plot/display_list.hpp"

using namespace peviz;
using namespace peviz::plot;

namespace {

Matrix counting(std::size_t rows, std::size_t cols) {
  Matrix m(rows, cols);
  for (std::size_t i = 0; i < m.data.size(); ++i) m.data[i] = float(i);
  return m;
}

// RGB of pixel (x, y).
Rgba pixel(const RgbaImage& img, int x, int y) {
  const std::uint8_t* p = &img.pixels[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
  return rgba(p[0], p[1], p[2], p[3]);
}

}  // namespace

TEST_CASE("text baselines and em sizes follow DejaVu Sans's hhea metrics as stb_truetype scales them") {
  Text t;
  t.size = 23.84f;  // ascender - descender = 2384 units, so one unit is 0.01 px
  CHECK(em_size(t.size) == Approx(20.48));
  t.v = VAlign::top;
  CHECK(baseline_offset(t) == Approx(19.01));
  t.v = VAlign::middle;
  CHECK(baseline_offset(t) == Approx(19.01 - 11.92));
  t.v = VAlign::bottom;
  CHECK(baseline_offset(t) == Approx(19.01 - 23.84));
}

TEST_CASE("sanitize_utf8 keeps valid text and replaces what is not UTF-8") {
  CHECK(sanitize_utf8("position \u03b8 \u00b7 10\u2074 \U0001F600") == "position \u03b8 \u00b7 10\u2074 \U0001F600");
  CHECK(sanitize_utf8("a\tb\nc") == "a\tb\nc");
  CHECK(sanitize_utf8(std::string("a\0b\x01\x7f", 5)) == "ab\x7f");
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(sanitize_utf8("\xff") == fffd);
  CHECK(sanitize_utf8("\xC0\xAF") == fffd + fffd);          // overlong '/'
  CHECK(sanitize_utf8("\xED\xA0\x80") == fffd + fffd + fffd);  // a surrogate
  CHECK(sanitize_utf8("x\xE2\x82") == "x" + fffd + fffd);    // truncated sequence
  CHECK(sanitize_utf8("\xF4\x90\x80\x80").find('\xF4') == std::string::npos);  // past U+10FFFF
}

TEST_CASE("a heatmap resolves to one pixel per cell in the colormap's colours") {
  const Matrix m = counting(2, 3);  // values 0..5
  HeatmapRect h;
  h.min = {10, 20};
  h.max = {70, 60};
  h.values = &m;
  h.cells = {0.0, 3.0, 0.0, 2.0, 0, 0};
  h.colormap = Colormap::magma;
  h.vmin = 0.0;
  h.vmax = 5.0;
  const HeatmapPicture pic = resolve_heatmap(h);
  REQUIRE(pic.image.width == 3);
  REQUIRE(pic.image.height == 2);
  CHECK(pic.min == h.min);
  CHECK(pic.max == h.max);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) CHECK(pixel(pic.image, c, r) == colormap_color(Colormap::magma, (r * 3 + c) / 5.0));
}

TEST_CASE("missing cells take the missing colour, an inverted window flips the rows") {
  Matrix m = counting(2, 2);
  m.data[1] = NAN;
  HeatmapRect h;
  h.min = {0, 0};
  h.max = {20, 20};
  h.values = &m;
  h.cells = {0.0, 2.0, 2.0, 0.0, 0, 0};  // row 0 at the bottom
  h.vmin = 0.0;
  h.vmax = 3.0;
  const HeatmapPicture pic = resolve_heatmap(h);
  REQUIRE(pic.image.width == 2);
  REQUIRE(pic.image.height == 2);
  CHECK(pixel(pic.image, 1, 1) == missing_color());                                // row 0, col 1 (NaN)
  CHECK(pixel(pic.image, 0, 0) == colormap_color(Colormap::viridis, 2.0 / 3.0));  // row 1, col 0
  CHECK(pic.min.y == 0.0f);
  CHECK(pic.max.y == 20.0f);
  h.nan_meaning = NanMeaning::masked;  // a causal mask's future key: neutral grey, not the missing magenta
  const HeatmapPicture masked = resolve_heatmap(h);
  CHECK(pixel(masked.image, 1, 1) == rgba(kMaskedRGB[0], kMaskedRGB[1], kMaskedRGB[2]));
  CHECK(pixel(masked.image, 0, 0) == colormap_color(Colormap::viridis, 2.0 / 3.0));
}

TEST_CASE("a window cutting cells takes the whole cells and places them on the same map") {
  const Matrix m = counting(4, 10);
  HeatmapRect h;
  h.min = {100, 0};
  h.max = {200, 40};
  h.values = &m;
  h.cells = {2.5, 7.5, 0.0, 4.0, 0, 0};  // 5 cells across 100 px: 20 px per cell
  const HeatmapPicture pic = resolve_heatmap(h);
  REQUIRE(pic.image.width == 6);  // cells 2..7
  CHECK(pic.min.x == Approx(90.0));
  CHECK(pic.max.x == Approx(210.0));
  CHECK(pixel(pic.image, 0, 0) == colormap_color(Colormap::viridis, colormap_position(2.0, 0.0, 1.0)));
}

TEST_CASE("past the size cap the cells are box-filtered to the cap") {
  const Matrix m = counting(1, 8);  // 0..7
  HeatmapRect h;
  h.max = {80, 10};
  h.values = &m;
  h.cells = {0.0, 8.0, 0.0, 1.0, 0, 0};
  h.vmin = 0.0;
  h.vmax = 7.0;
  const HeatmapPicture pic = resolve_heatmap(h, 4);
  REQUIRE(pic.image.width == 4);
  REQUIRE(pic.image.height == 1);
  for (int i = 0; i < 4; ++i)  // pixel i averages cells 2i and 2i + 1
    CHECK(pixel(pic.image, i, 0) == colormap_color(Colormap::viridis, (2 * i + 0.5) / 7.0));
}

TEST_CASE("a heatmap with nothing to show resolves to an empty picture") {
  HeatmapRect h;
  CHECK(resolve_heatmap(h).image.width == 0);
  const Matrix m = counting(2, 2);
  h.values = &m;
  h.cells = {0.0, 0.0, 0.0, 2.0, 0, 0};
  CHECK(resolve_heatmap(h).image.width == 0);
  h.cells = {0.0, NAN, 0.0, 2.0, 0, 0};
  CHECK(resolve_heatmap(h).image.width == 0);
  h.cells = {5.0, 9.0, 0.0, 2.0, 0, 0};  // entirely right of the matrix
  CHECK(resolve_heatmap(h).image.width == 0);
}

TEST_CASE("trim_top_band moves every item and clip up to the margin and shortens the figure by as much") {
  DisplayList list;
  list.width = 400;
  list.height = 500;
  list.add(PushClip{{0, 0}, {400, 500}});
  list.line({10, 130}, {50, 200}, rgba(255, 0, 0));
  list.add(FilledRect{{20, 120}, {60, 180}, rgba(0, 255, 0)});
  list.text({30, 150}, 20.0f, rgba(255, 255, 255), "below", HAlign::left, VAlign::bottom);  // its top: 130
  list.add(Circle{{90, 125}, 5.0f, rgba(0, 0, 255)});  // its top: 120
  list.add(PopClip{});
  trim_top_band(list, 8.0f);  // the topmost item reaches y = 120
  CHECK(list.height == 388.0f);
  CHECK(std::get<PushClip>(list.items[0]).min.y == -112.0f);
  CHECK(std::get<Polyline>(list.items[1]).points[0].y == 18.0f);
  CHECK(std::get<FilledRect>(list.items[2]).min.y == 8.0f);
  CHECK(std::get<FilledRect>(list.items[2]).max.y == 68.0f);
  CHECK(std::get<Text>(list.items[3]).position.y == 38.0f);
  CHECK(std::get<Circle>(list.items[4]).center.y == 13.0f);
  CHECK(list.width == 400.0f);

  trim_top_band(list, 8.0f);  // already at the margin: nothing moves
  CHECK(list.height == 388.0f);
  DisplayList empty;
  empty.height = 100;
  trim_top_band(empty, 8.0f);
  CHECK(empty.height == 100.0f);
}
