// Xvfb test: the real peviz window renders a few frames, saves a PNG, and the pixels show a
// heatmap (not uniform), a colourbar (its ends differ) and text (glyph pixels in the sidebar).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>
#include <stb_image.h>

#include "tests/app/ui/run_gui.hpp"

namespace {

struct Png {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[(std::size_t(y) * w + x) * 3]; }
};

Png load_png(const std::string& path) {
  Png p;
  int n = 0;
  unsigned char* data = stbi_load(path.c_str(), &p.w, &p.h, &n, 3);
  REQUIRE(data != nullptr);
  p.rgb.assign(data, data + std::size_t(p.w) * p.h * 3);
  stbi_image_free(data);
  return p;
}

struct Box {
  int x0, y0, x1, y1;
};
Box box(const nlohmann::json& j, const char* name) {
  const auto& a = j.at(name);
  return {int(std::ceil(a[0].get<double>())), int(std::ceil(a[1].get<double>())), int(a[2].get<double>()),
          int(a[3].get<double>())};
}

std::size_t distinct_colours(const Png& p, Box b) {
  std::set<unsigned> colours;
  for (int y = b.y0; y < b.y1; ++y)
    for (int x = b.x0; x < b.x1; ++x) {
      const unsigned char* c = p.at(x, y);
      colours.insert(unsigned(c[0]) << 16 | unsigned(c[1]) << 8 | c[2]);
    }
  return colours.size();
}

int colour_distance(const unsigned char* a, const unsigned char* b) {
  return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

struct Shot {
  Png png;
  nlohmann::json regions;
};

Shot take(const std::string& extra, const char* name) {
  const std::string png = temp_path(std::string(name) + ".png");
  const std::string json = temp_path(std::string(name) + ".json");
  std::remove(png.c_str());
  const RunResult r = run_gui("--frames 5 --reset --size 1600x900 --screenshot " + png + " --regions " + json + " " + extra);
  INFO(r.err);
  REQUIRE(r.code == 0);
  Shot s{load_png(png), nlohmann::json::parse(std::ifstream(json))};
  std::remove(png.c_str());
  std::remove(json.c_str());
  return s;
}

void check_shot(const Shot& s, bool dark) {
  CHECK(s.png.w == 1600);
  CHECK(s.png.h == 900);
  CHECK(s.regions.at("width") == 1600);
  for (const char* heatmap : {"encoding_heatmap", "similarity_heatmap"}) {
    INFO(heatmap);
    const Box b = box(s.regions, heatmap);
    REQUIRE(b.x1 - b.x0 > 100);
    REQUIRE(b.y1 - b.y0 > 100);
    CHECK(distinct_colours(s.png, b) > 50);  // not uniform: a real colormapped image
  }
  for (const char* bar : {"encoding_colorbar", "similarity_colorbar"}) {
    INFO(bar);
    const Box b = box(s.regions, bar);
    const int x = (b.x0 + b.x1) / 2;
    CHECK(colour_distance(s.png.at(x, b.y0 + 2), s.png.at(x, b.y1 - 3)) > 150);  // the two ends differ
  }
  const Box c = box(s.regions, "controls");
  const unsigned char* bg = s.png.at(c.x1 - 3, c.y1 - 3);  // sidebar background, bottom corner
  int glyph = 0;
  for (int y = c.y0; y < c.y1; ++y)
    for (int x = c.x0; x < c.x1; ++x) {
      const unsigned char* p = s.png.at(x, y);
      const int luminance = (p[0] + p[1] + p[2]) / 3;
      if (colour_distance(p, bg) > 200 && (dark ? luminance > 180 : luminance < 80)) ++glyph;
    }
  CHECK(glyph > 2000);  // text: many bright (dark theme) or dark (light theme) glyph pixels
}

}  // namespace

TEST_CASE("the real window renders the views (dark theme)") {
  const Shot s = take("", "dark");
  check_shot(s, true);
  const unsigned char* corner = s.png.at(2, 2);
  CHECK((corner[0] + corner[1] + corner[2]) / 3 < 80);
}

TEST_CASE("the light theme (for slides) renders dark text on a light background") {
  const Shot s = take("--theme light --encoding learned --seq-len 300", "light");
  check_shot(s, false);
  const unsigned char* corner = s.png.at(2, 2);
  CHECK((corner[0] + corner[1] + corner[2]) / 3 > 180);
}
