// The shared GIF palette: exact when the frames use 256 colours or fewer, and close enough on
// colormap gradients (three full 256-entry colormaps at once) that colour bars do not band.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cmath>
#include <set>

#include "app/media/palette.hpp"
#include "app/plot/colormap.hpp"
#include "app/plot/colour_metrics.hpp"

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

// CIE76 colour difference (app/plot/colour_metrics); about 2.3 is a just noticeable difference.
double delta_e(const Rgb& a, const Rgb& b) { return plot::delta_e({a[0], a[1], a[2]}, {b[0], b[1], b[2]}); }

int channel_error(const Rgb& a, const Rgb& b) {
  return std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])});
}

}  // namespace

TEST_CASE("a palette of few colours is exact, and each colour maps to itself") {
  const std::vector<Rgb> colors = colormap_entries(plot::Colormap::viridis);
  const std::size_t distinct = std::set<Rgb>(colors.begin(), colors.end()).size();  // 253: the table repeats a few
  ColorCounts counts;
  const auto px = pixels_of(colors);
  counts.add(px.data(), colors.size());
  PaletteLookup lookup(build_palette(counts));
  REQUIRE(lookup.palette().size() == distinct);
  for (const Rgb& c : colors) CHECK(lookup.palette()[lookup.index(c[0], c[1], c[2])] == c);
}

namespace {

// What a figure's frames hold: the given colormaps' entries (colour bars, heatmaps), a 256-step
// anti-aliasing ramp from a dark background to white text, and that background filling most of
// the frame. Returns the worst channel error and CIE76 delta E over the colormaps' entries.
struct QuantisationError {
  int channel = 0;
  double bars_delta_e = 0;
  Rgb background;
};
QuantisationError quantise(std::initializer_list<plot::Colormap> maps) {
  std::vector<Rgb> bars;
  for (plot::Colormap m : maps) {
    const auto e = colormap_entries(m);
    bars.insert(bars.end(), e.begin(), e.end());
  }
  std::vector<Rgb> all = bars;
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
  QuantisationError q;
  for (const Rgb& c : all) q.channel = std::max(q.channel, channel_error(c, lookup.palette()[lookup.index(c[0], c[1], c[2])]));
  for (const Rgb& c : bars) q.bars_delta_e = std::max(q.bars_delta_e, delta_e(c, lookup.palette()[lookup.index(c[0], c[1], c[2])]));
  q.background = lookup.palette()[lookup.index(30, 30, 30)];
  std::printf("palette: %zu colours in 256 entries: worst channel error %d/255, worst CIE76 delta E on the colour bars %.2f\n",
              all.size() + 1, q.channel, q.bars_delta_e);
  return q;
}

}  // namespace

TEST_CASE("a figure's colour bar and text share 256 entries below a just noticeable difference") {
  const QuantisationError q = quantise({plot::Colormap::viridis});
  CHECK(q.channel <= 2);
  CHECK(q.bars_delta_e <= 2.3);  // about one JND: no visible bands
  CHECK(q.background == Rgb{30, 30, 30});  // the dominant colour stays exact
}

TEST_CASE("three colormaps and a text ramp (1024 colours) stay within 5/255 per channel") {
  const QuantisationError q = quantise({plot::Colormap::viridis, plot::Colormap::magma, plot::Colormap::diverging});
  CHECK(q.channel <= 5);  // measured 5 (and delta E 3.6): four colours per entry where the maps run
  CHECK(q.bars_delta_e <= 4.0);
  CHECK(q.background == Rgb{30, 30, 30});
}

TEST_CASE("no colours give one black entry; max_colors is honoured") {
  ColorCounts counts;
  CHECK(build_palette(counts) == std::vector<Rgb>{Rgb{0, 0, 0}});
  const auto px = pixels_of(colormap_entries(plot::Colormap::grey));
  counts.add(px.data(), 256);
  CHECK(build_palette(counts, 16).size() == 16);
  CHECK(build_palette(counts, 1).size() == 1);
}

namespace {

// What a light-theme lesson GIF holds: a background and a widget frame filling much of every frame, a thin
// outline a shade darker than the frame, a diverging colour bar (its 256 entries, many pixels each), and
// 200,000 colours of cross-faded frames (blends of two random colours) that outnumber everything else.
struct CrossFadedFrames {
  Rgb background{240, 240, 240}, frame{224, 224, 230}, outline{200, 200, 205};
  std::vector<Rgb> bar = colormap_entries(plot::Colormap::diverging);
  ColorCounts counts;
  CrossFadedFrames() {
    const auto fill = [&](Rgb c, std::size_t n) {
      const std::vector<Rgb> px(n, c);
      const auto bytes = pixels_of(px);
      counts.add(bytes.data(), n);
    };
    fill(background, 60000);
    fill(frame, 20000);
    fill(outline, 2000);
    for (const Rgb& c : bar) fill(c, 400);
    std::vector<Rgb> fades;
    std::uint32_t seed = 12345;
    const auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    for (int i = 0; i < 200000; ++i) {
      const std::uint32_t v = next();
      fades.push_back({std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)});
    }
    const auto bytes = pixels_of(fades);
    counts.add(bytes.data(), fades.size());
  }
};

}  // namespace

TEST_CASE("cross-faded frames keep the flat fills exact and a colormap ramp they show smooth") {
  CrossFadedFrames f;
  const auto ramps = plot::continuous_colormap_ramps();
  PaletteLookup with(build_palette(f.counts, 256, ramps));
  PaletteLookup without(build_palette(f.counts, 256));
  const auto mapped = [](PaletteLookup& l, const Rgb& c) { return l.palette()[l.index(c[0], c[1], c[2])]; };
  const auto distinct_on_bar = [&](PaletteLookup& l) {
    std::set<Rgb> s;
    for (const Rgb& c : f.bar) s.insert(mapped(l, c));
    return s.size();
  };
  double worst = 0;
  for (const Rgb& c : f.bar) worst = std::max(worst, delta_e(c, mapped(with, c)));
  std::printf("cross-faded frames: the diverging bar keeps %zu distinct colours with its ramp, %zu without; "
              "worst CIE76 delta E on it %.2f\n", distinct_on_bar(with), distinct_on_bar(without), worst);
  CHECK(with.palette().size() <= 256);
  CHECK(distinct_on_bar(with) >= 64);  // the ramp's 64 entries, and cut colours between them
  CHECK(distinct_on_bar(with) > distinct_on_bar(without));
  CHECK(worst <= 4.0);
  for (const Rgb& c : {f.background, f.frame, f.outline}) {  // the widgets keep their fills and outlines
    CHECK(mapped(with, c) == c);
    CHECK(mapped(without, c) == c);
  }
  // A ramp the frames do not show takes no entries: magma's entries map to the median cut's colours.
  const auto magma = colormap_entries(plot::Colormap::magma);
  std::size_t exact = 0;
  for (const Rgb& c : magma) exact += mapped(with, c) == c;
  CHECK(exact < 16);
}
