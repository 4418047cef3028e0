// SVG figures: well-formed XML (read by Python's parser), real <text> elements, metadata that reads
// back byte for byte, and a rendering (rsvg-convert) with the colours where the list put them.
#include <catch2/catch.hpp>

#include <filesystem>

#include "app/plot/svg_writer.hpp"
#include "app/plot/vector_metadata.hpp"
#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "tests/app/plot/sample_display_list.hpp"
#include "tests/cli/run_peviz.hpp"

using namespace peviz;
using namespace peviz::plot;

TEST_CASE("xml_escape escapes markup and keeps text") {
  CHECK(xml_escape("a<b & c>\"d'") == "a&lt;b &amp; c&gt;&quot;d&apos;");
  CHECK(xml_escape("x\ny\tz") == "x&#10;y&#9;z");
  CHECK(xml_escape("\u03b8\x01\xff") == "\u03b8\xEF\xBF\xBD");
}

TEST_CASE("an SVG figure parses as XML and holds the labels as <text> elements") {
  const Matrix cells = sample_cells();
  const std::string path = figure_temp_file("figure.svg");
  write_svg_file(path, sample_display_list(cells), sample_metadata());
  // Python's ElementTree: a conforming XML parser; prints every <text>'s content, one per line.
  const RunResult r = run_shell("python3 -c \"import sys, xml.etree.ElementTree as E; "
                                "[print(t.text) for t in E.parse(sys.argv[1]).getroot().iter('{http://www.w3.org/2000/svg}text')]\" " + path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out == "0\n64\n128\nposition\nvalue\n\u03b8 \u00b7 10\u2074\n");
  std::filesystem::remove(path);
}

TEST_CASE("an SVG figure's metadata reads back exactly") {
  const Matrix cells = sample_cells();
  const auto meta = sample_metadata();
  const std::string svg = encode_svg(sample_display_list(cells), meta);
  CHECK(read_svg_text(svg) == meta);
  CHECK(read_figure_text(svg) == meta);
  CHECK(svg.find("<title>sinusoidal \u00b7 d_model 128 \u00b7 base 10000</title>") != std::string::npos);
}

namespace {

std::string base64_decode(std::string_view text) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const std::size_t v = kAlphabet.find(c);
    if (v == std::string::npos) break;  // '=' padding ends it
    bits = bits << 6 | std::uint32_t(v);
    if ((count += 6) >= 8) out += char(bits >> (count -= 8) & 0xFF);
  }
  return out;
}

}  // namespace

TEST_CASE("an SVG heatmap is an embedded PNG with one pixel per cell, scaled up without smoothing") {
  const Matrix cells = sample_cells();
  const std::string svg = encode_svg(sample_display_list(cells), {});
  const std::size_t image = svg.find("<image");
  REQUIRE(image != std::string::npos);
  const std::string tag = svg.substr(image, svg.find("/>", image) - image);
  CHECK(tag.find("x=\"40\" y=\"40\" width=\"120\" height=\"80\"") != std::string::npos);
  CHECK(tag.find("image-rendering=\"optimizeSpeed\"") != std::string::npos);
  CHECK(tag.find("image-rendering:pixelated") != std::string::npos);
  const std::string prefix = "data:image/png;base64,";
  const std::size_t data = tag.find(prefix);
  REQUIRE(data != std::string::npos);
  const RgbaImage png = decode_png(base64_decode(std::string_view(tag).substr(data + prefix.size())));
  REQUIRE(png.width == 3);
  REQUIRE(png.height == 2);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) CHECK(image_pixel(png, c, r) == colormap_color(Colormap::viridis, (r * 3 + c) / 5.0));
}

// librsvg 2.54 (Debian 12) ignores image-rendering and smooths every image, so this checks the
// geometry and flat colours only; browsers and Inkscape draw the cells sharp.
TEST_CASE("an SVG figure rendered by rsvg-convert has its size and colours in place") {
  const Matrix cells = sample_cells();
  const std::string svg_path = figure_temp_file("render.svg"), png_path = figure_temp_file("render.png");
  write_svg_file(svg_path, sample_display_list(cells), sample_metadata());
  const RunResult r = run_shell("rsvg-convert -o " + png_path + " " + svg_path);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const RgbaImage img = decode_png(read_file_bytes(png_path, "test"));
  REQUIRE(img.width == 400);
  REQUIRE(img.height == 300);
  CHECK(rgb_close(image_pixel(img, 5, 290), rgba(255, 255, 255), 0));   // background
  CHECK(rgb_close(image_pixel(img, 305, 205), rgba(255, 0, 0), 0));     // the red square
  CHECK(rgb_close(image_pixel(img, 30, 100), rgba(0, 0, 0), 60));       // the frame's left edge (anti-aliased)
  std::filesystem::remove(svg_path);
  std::filesystem::remove(png_path);
}

TEST_CASE("encode_svg refuses an empty or oversized figure, and an unwritable path leaves nothing") {
  DisplayList d;
  CHECK_THROWS_AS(encode_svg(d, {}), ParamError);
  d.width = 1e9f;
  d.height = 10;
  CHECK_THROWS_AS(encode_svg(d, {}), ParamError);
  d.width = 10;
  CHECK_THROWS_AS(write_svg_file("/nonexistent-folder/x.svg", d, {}), ParamError);
}

TEST_CASE("an SVG with unbalanced clips still closes every group") {
  DisplayList d;
  d.width = d.height = 10;
  d.add(PopClip{});
  d.add(PushClip{{0, 0}, {5, 5}});
  const std::string svg = encode_svg(d, {});
  std::size_t opened = 0, closed = 0;
  for (std::size_t at = svg.find("<g "); at != std::string::npos; at = svg.find("<g ", at + 1)) ++opened;
  for (std::size_t at = svg.find("</g>"); at != std::string::npos; at = svg.find("</g>", at + 1)) ++closed;
  CHECK(opened == 1);
  CHECK(closed == 1);
}
