// The shared GIF palette: exact when the frames use 256 colours or fewer, and close enough on
// colormap gradients (three full 256-entry colormaps at once) that colour bars do not band.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "app/media/palette.hpp"
#include "app/plot/colormap.hpp"

using namespace peviz;
using namespace peviz::media;

namespace {

std::vector<std::uint8_t> pixels_of(const std::vector<Rgb>& colors) {
  std::vector<std::uint8_t> p;
  for (const Rgb& c : colors) p.insert(p.end(), {c[0], c[1], c[2], 255});
  return p;
}

std::vector<Rgb> colormap_entries(plot::Colormap m) {
  std::vector<Rgb> out;
  for (int i = 0; i < plot::kColormapSize; ++i)
    out.push_back({plot::kColormapRGB[int(m)][i][0], plot::kColormapRGB[int(m)][i][1], plot::kColormapRGB[int(m)][i][2]});
  return out;
}

int channel_error(const Rgb& a, const Rgb& b) {
  return std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])});
}

}  // namespace

TEST_CASE("a palette of few colours is exact, and each colour maps to itself") {
  const std::vector<Rgb> colors = colormap_entries(plot::Colormap::viridis);  // 256 distinct
  ColorCounts counts;
  const auto px = pixels_of(colors);
  counts.add(px.data(), colors.size());
  PaletteLookup lookup(build_palette(counts));
  REQUIRE(lookup.palette().size() == 256);
  for (const Rgb& c : colors) CHECK(lookup.palette()[lookup.index(c[0], c[1], c[2])] == c);
}

TEST_CASE("three colormaps and a text ramp share 256 entries within 4/255 per channel") {
  // 256 x 3 colormap entries plus a 256-step anti-aliasing ramp from a dark background to white
  // text: 1024 colours for 256 entries. The dark background fills most of the frame.
  std::vector<Rgb> gradients;
  for (plot::Colormap m : {plot::Colormap::viridis, plot::Colormap::magma, plot::Colormap::diverging}) {
    const auto e = colormap_entries(m);
    gradients.insert(gradients.end(), e.begin(), e.end());
  }
  std::vector<Rgb> all = gradients;
  for (int i = 0; i < 256; ++i) {
    const auto v = std::uint8_t(30 + (255 - 30) * i / 255);
    all.push_back({v, v, std::uint8_t(std::min(255, v + 5))});
  }
  ColorCounts counts;
  const auto px = pixels_of(all);
  counts.add(px.data(), all.size());
  const std::vector<std::uint8_t> background(4 * 100000, 30);
  counts.add(background.data(), 100000);
  PaletteLookup lookup(build_palette(counts));
  CHECK(lookup.palette().size() == 256);
  int worst = 0;
  for (const Rgb& c : all) worst = std::max(worst, channel_error(c, lookup.palette()[lookup.index(c[0], c[1], c[2])]));
  INFO("worst channel error " << worst);
  CHECK(worst <= 4);
  // The colour bar keeps its order: along viridis, the mapped colours' luminance never drops by
  // more than the quantisation error (no visible bands running backwards).
  double last = -1;
  for (const Rgb& c : colormap_entries(plot::Colormap::viridis)) {
    const Rgb& q = lookup.palette()[lookup.index(c[0], c[1], c[2])];
    const double y = 0.2126 * q[0] + 0.7152 * q[1] + 0.0722 * q[2];
    CHECK(y >= last - 4.0);
    last = y;
  }
  const Rgb bg = lookup.palette()[lookup.index(30, 30, 30)];
  CHECK(channel_error(bg, Rgb{30, 30, 30}) <= 1);  // the most frequent colour comes out (nearly) exact
}

TEST_CASE("no colours give one black entry; max_colors is honoured") {
  ColorCounts counts;
  CHECK(build_palette(counts) == std::vector<Rgb>{Rgb{0, 0, 0}});
  const auto px = pixels_of(colormap_entries(plot::Colormap::grey));
  counts.add(px.data(), 256);
  CHECK(build_palette(counts, 16).size() == 16);
  CHECK(build_palette(counts, 1).size() == 1);
}
