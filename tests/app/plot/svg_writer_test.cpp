// SVG figures: well-formed XML (read by Python's parser), real <text> elements, metadata that reads
// back byte for byte, and a rendering (rsvg-convert) with the colours where the list put them.
#include <catch2/catch.hpp>

#include <filesystem>

#include "app/plot/svg_writer.hpp"
#include "app/plot/vector_metadata.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
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

TEST_CASE("an SVG figure rendered by rsvg-convert has its colours in place") {
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
  // Heatmap cells of 40 x 40 px, sharp (no smoothing between cells): sample each cell's middle
  // and a pixel 2 px inside its corner.
  for (int r0 = 0; r0 < 2; ++r0)
    for (int c = 0; c < 3; ++c) {
      const Rgba want = colormap_color(Colormap::viridis, (r0 * 3 + c) / 5.0);
      CHECK(rgb_close(image_pixel(img, 40 + 40 * c + 20, 40 + 40 * r0 + 10), want, 1));
      CHECK(rgb_close(image_pixel(img, 40 + 40 * c + 2, 40 + 40 * r0 + 2), want, 1));
    }
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
