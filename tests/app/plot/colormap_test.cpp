// Tests for app/plot/colormap (and its generated tables, colormap_tables.cpp): the published end colours of each
// map, grey as the identity ramp, categorical bands, ImU32 packing, clamping, NaN colours and names, positions.
#include "app/plot/colormap.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>

using namespace peviz::plot;

namespace {

// 0xAABBGGRR, opaque: ImGui's ImU32 layout.
constexpr std::uint32_t rgb(unsigned r, unsigned g, unsigned b) { return 0xFF000000u | (b << 16) | (g << 8) | r; }

}  // namespace

TEST_CASE("each map's ends are the published colours (matplotlib viridis and magma, ColorBrewer RdBu)") {
  CHECK(colormap_color(Colormap::viridis, 0.0) == rgb(68, 1, 84));
  CHECK(colormap_color(Colormap::viridis, 1.0) == rgb(253, 231, 37));
  CHECK(colormap_color(Colormap::magma, 0.0) == rgb(0, 0, 4));
  CHECK(colormap_color(Colormap::magma, 1.0) == rgb(252, 253, 191));
  CHECK(colormap_color(Colormap::diverging, 0.0) == rgb(5, 48, 97));      // dark blue for the low end
  CHECK(colormap_color(Colormap::diverging, 1.0) == rgb(103, 0, 31));     // dark red for the high end
  CHECK(colormap_color(Colormap::diverging, 0.5) == rgb(247, 247, 247));  // near-white at 0 of a symmetric range
  CHECK(colormap_color(Colormap::categorical, 0.0) == rgb(31, 119, 180));  // tab20's first blue
}

TEST_CASE("grey is the identity ramp; the lookup rounds t (255 steps) and clamps outside [0, 1]") {
  for (int i = 0; i < kColormapSize; ++i) {
    CAPTURE(i);
    CHECK(colormap_color(Colormap::grey, i / 255.0) == rgb(unsigned(i), unsigned(i), unsigned(i)));
  }
  CHECK(colormap_color(Colormap::grey, 0.5) == rgb(128, 128, 128));  // 127.5 rounds up
  CHECK(colormap_color(Colormap::grey, -3.0) == rgb(0, 0, 0));
  CHECK(colormap_color(Colormap::grey, 7.0) == rgb(255, 255, 255));
}

TEST_CASE("the categorical map is 32 bands of 8 equal entries, each band its own colour") {
  std::set<std::uint32_t> bands;
  for (int band = 0; band < 32; ++band) {
    const std::uint32_t c = colormap_color(Colormap::categorical, (band * 8) / 255.0);
    for (int k = 1; k < 8; ++k) CHECK(colormap_color(Colormap::categorical, (band * 8 + k) / 255.0) == c);
    bands.insert(c);
  }
  CHECK(bands.size() == 32);
}

TEST_CASE("NaN: the missing colour (magenta) or the masked grey, with their names") {
  CHECK(colormap_color(Colormap::viridis, std::nan("")) == missing_color());
  CHECK(missing_color() == rgb(214, 39, 160));
  CHECK(nan_color(NanMeaning::missing) == missing_color());
  CHECK(nan_color(NanMeaning::masked) == rgb(150, 150, 150));
  CHECK(nan_rgb(NanMeaning::masked) == kMaskedRGB);
  CHECK(std::string(nan_hover(NanMeaning::masked)) == "masked (future key)");
  CHECK(std::string(nan_hover(NanMeaning::missing)) == "missing");
  CHECK(std::string(nan_swatch(NanMeaning::masked)) == "masked");
  CHECK(std::string(nan_swatch(NanMeaning::missing)) == "n/a");
}

TEST_CASE("colormap_position: linear in [vmin, vmax], clamped, 0.5 for an empty range, NaN kept") {
  CHECK(colormap_position(5.0, 0.0, 10.0) == 0.5);
  CHECK(colormap_position(-1.0, -2.0, 2.0) == 0.25);
  CHECK(colormap_position(-5.0, 0.0, 10.0) == 0.0);
  CHECK(colormap_position(50.0, 0.0, 10.0) == 1.0);
  CHECK(colormap_position(3.0, 3.0, 3.0) == 0.5);
  CHECK(std::isnan(colormap_position(std::nan(""), 0.0, 1.0)));
}

TEST_CASE("every map has a name") {
  CHECK(to_string(Colormap::viridis) == "viridis");
  CHECK(to_string(Colormap::diverging) == "diverging (blue-white-red)");
  for (const Colormap c : kAllColormaps) CHECK_FALSE(to_string(c).empty());
}
