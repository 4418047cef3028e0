// Test helper: a small figure as a display list (axes, a curve, tick labels, titles, a heatmap,
// a clip) that the SVG and PDF writer tests write and read back, and what they compare with.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>

#include "app/plot/display_list.hpp"
#include "core/base/matrix.hpp"

// 400 x 300 pixels, white background. A 2 x 3 heatmap fills [40, 40]..[160, 120] (40 px per cell),
// a red 10 x 10 square sits at [300, 200], and the labels are "position", "value", "0", "64",
// "128" and the non-ASCII "θ · 10⁴".
inline peviz::plot::DisplayList sample_display_list(const peviz::Matrix& cells) {
  using namespace peviz::plot;
  DisplayList d;
  d.width = 400;
  d.height = 300;
  d.background = rgba(255, 255, 255);
  d.add(StrokedRect{{30, 30}, {380, 260}, rgba(0, 0, 0), 1.0f, 0.0f});
  d.add(PushClip{{30, 30}, {380, 260}});
  HeatmapRect h;
  h.min = {40, 40};
  h.max = {160, 120};
  h.values = &cells;
  h.cells = {0.0, 3.0, 0.0, 2.0, 0, 0};
  h.colormap = Colormap::viridis;
  h.vmin = 0.0;
  h.vmax = 5.0;
  d.add(h);
  d.add(Polyline{{{30, 250}, {100, 150}, {200, 200}, {370, 40}}, rgba(31, 119, 180), 2.0f, false});
  d.add(Circle{{100, 150}, 3.5f, rgba(255, 127, 14), true, 1.0f});
  d.add(PopClip{});
  d.add(FilledRect{{300, 200}, {310, 210}, rgba(255, 0, 0), 0.0f});
  d.add(GradientRect{{390, 40}, {398, 240}, rgba(253, 231, 37), rgba(253, 231, 37), rgba(68, 1, 84), rgba(68, 1, 84)});
  for (int i = 0; i < 3; ++i) d.text({30.0f + 170.0f * float(i), 264}, 16, rgba(0, 0, 0), std::to_string(64 * i), HAlign::center);
  d.text({205, 282}, 16, rgba(0, 0, 0), "position", HAlign::center);
  d.text({2, 2}, 16, rgba(0, 0, 0), "value");
  d.text({370, 20}, 16, rgba(0, 0, 0), "\u03b8 \u00b7 10\u2074", HAlign::right, VAlign::middle);
  return d;
}

// A 2 x 3 matrix with values 0..5 row by row.
inline peviz::Matrix sample_cells() {
  peviz::Matrix m(2, 3);
  for (std::size_t i = 0; i < 6; ++i) m.data[i] = float(i);
  return m;
}

// Metadata with everything an escaper can get wrong: quotes, <&>, backslashes, parentheses,
// newlines and non-ASCII text.
inline std::map<std::string, std::string> sample_metadata() {
  return {{"peviz", "{\"version\":1,\"view\":\"encoding\",\"state\":{\"note\":\"a<b & c>d 'q' (paren) \\\\ \\n\"}}"},
          {"Title", "sinusoidal \u00b7 d_model 128 \u00b7 base 10000"},
          {"Software", "peviz"}};
}

// A file name in the temporary folder unique to this test process.
inline std::string figure_temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("peviz-figure-test-" + std::to_string(::getpid()) + "-" + name)).string();
}

// Pixel (x, y) of an RGBA image as 0xAABBGGRR.
inline peviz::plot::Rgba image_pixel(const peviz::RgbaImage& img, int x, int y) {
  const std::uint8_t* p = &img.pixels[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
  return peviz::plot::rgba(p[0], p[1], p[2], p[3]);
}

// Same RGB within `tolerance` per channel.
inline bool rgb_close(peviz::plot::Rgba a, peviz::plot::Rgba b, int tolerance) {
  using namespace peviz::plot;
  return std::abs(red(a) - red(b)) <= tolerance && std::abs(green(a) - green(b)) <= tolerance &&
         std::abs(blue(a) - blue(b)) <= tolerance;
}
