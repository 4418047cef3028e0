// Xvfb tests of `peviz render` and the window's F12 figure: every view renders with content, scale
// multiplies the pixels with crisp text, the parameters ride in the PNG, no display exits 2.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "app/model/figure.hpp"
#include "core/atomic_file.hpp"
#include "core/png_file.hpp"
#include "tests/app/ui/run_gui.hpp"

using namespace peviz;
namespace fs = std::filesystem;

namespace {

RgbaImage load(const std::string& path) { return decode_png(read_file_bytes(path, "test")); }

std::size_t distinct_colours(const RgbaImage& img) {
  std::set<std::uint32_t> c;
  for (std::size_t i = 0; i < img.pixels.size(); i += 4)
    c.insert(std::uint32_t(img.pixels[i]) << 16 | std::uint32_t(img.pixels[i + 1]) << 8 | img.pixels[i + 2]);
  return c.size();
}

// Fraction of pixels in the top-left text row band that are neither background nor full glyph colour:
// rasterised-for-scale text keeps a thin anti-aliased edge; an upscaled bitmap would double it.
double edge_fraction(const RgbaImage& img, int x1, int y1) {
  const std::uint8_t* bg = img.pixels.data();
  std::size_t ink = 0, edge = 0;
  for (int y = 0; y < y1; ++y)
    for (int x = 0; x < x1; ++x) {
      const std::uint8_t* p = img.pixels.data() + (std::size_t(y) * img.width + x) * 4;
      const int d = std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]);
      if (d > 30) ++ink;
      if (d > 30 && d < 500) ++edge;
    }
  return ink ? double(edge) / double(ink) : 1.0;
}

}  // namespace

TEST_CASE("peviz render draws every view with content and its parameters inside") {
  const std::string dir = temp_path("render-all");
  fs::remove_all(dir);
  const RunResult r = run_gui("render --all --out " + dir + " --width 640 --height 400 --theme light --d-model 64");
  REQUIRE(r.code == 0);
  const auto views = app::single_figure_views();
  for (const app::FigureView& v : views) {
    const std::string path = dir + "/peviz-" + app::figure_view_name(v) + "-d64-b10000-L128.png";
    INFO(path);
    REQUIRE(fs::exists(path));
    const RgbaImage img = load(path);
    CHECK(img.width == 640);
    CHECK(img.height == 400);
    CHECK(distinct_colours(img) > 40);  // plots, text and colours, not a blank frame
    const auto meta = app::parse_figure_metadata(read_png_text(read_file_bytes(path, "test")));
    CHECK(meta.view == v);
    CHECK(meta.state.at("params").at("d_model") == 64);
  }
  fs::remove_all(dir);
}

TEST_CASE("scale 2 doubles the pixels and keeps text crisp; transparent keeps alpha 0") {
  const std::string one = temp_path("enc1.png"), two = temp_path("enc2.png");
  REQUIRE(run_gui("render --view encoding --width 500 --height 300 --out " + one).code == 0);
  REQUIRE(run_gui("render --view encoding --width 500 --height 300 --scale 2 --transparent --out " + two).code == 0);
  const RgbaImage a = load(one), b = load(two);
  CHECK(b.width == 2 * a.width);
  CHECK(b.height == 2 * a.height);
  CHECK(a.pixels[3] == 255);
  CHECK(b.pixels[3] == 0);  // the corner is background: transparent
  // Opaque copy of b for the edge measure (background = first pixel, now alpha 0 black).
  const double e1 = edge_fraction(a, 300, 22), e2 = edge_fraction(b, 600, 44);
  INFO("edge fraction 1x " << e1 << ", 2x " << e2);
  CHECK(e2 < e1);  // text drawn at 2x has relatively fewer edge pixels than at 1x: not upscaled
  std::remove(one.c_str());
  std::remove(two.c_str());
}

TEST_CASE("the window's F12 figure is the same picture as peviz render") {
  const std::string dir = temp_path("f12");
  fs::remove_all(dir);
  const std::string out = temp_path("render-enc.png");
  REQUIRE(run_gui("--reset --frames 4 --size 900x600 --figure-dir " + dir + " --save-figure encoding").code == 0);
  REQUIRE(run_gui("render --view encoding --width 900 --height 600 --caption --out " + out).code == 0);
  std::string saved;
  for (const auto& e : fs::directory_iterator(dir)) saved = e.path().string();
  REQUIRE(fs::path(saved).filename().string().rfind("peviz-encoding-d128-b10000-L128-", 0) == 0);
  const RgbaImage gui = load(saved), cli = load(out);
  REQUIRE(gui.width == cli.width);
  REQUIRE(gui.height == cli.height);
  std::size_t differing = 0;
  for (std::size_t i = 0; i < gui.pixels.size(); ++i) differing += gui.pixels[i] != cli.pixels[i];
  CHECK(differing == 0);
  fs::remove_all(dir);
  std::remove(out.c_str());
}

TEST_CASE("peviz render refuses bad requests with exit 2 and one line") {
  const std::string out = temp_path("never.png");
  RunResult r = run_shell("env -u DISPLAY " + std::string(PEVIZ_BINARY) + " render --view waves --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err.find("cannot open a display") != std::string::npos);
  r = run_gui("render --view waves --scale 4 --width 2000 --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err.find("--scale:") != std::string::npos);
  r = run_gui("render --view nowhere --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err.find("--view: must be one of window, waves") != std::string::npos);
  r = run_gui("render --view waves --out /proc/no-such/x.png");
  CHECK(r.code == 2);
  CHECK_FALSE(fs::exists(out));
}
