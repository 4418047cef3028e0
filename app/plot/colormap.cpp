// Colormap lookups on the CPU side (colourbars, binary table, legend swatches).
#include "app/plot/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace peviz::plot {

namespace {
std::uint32_t pack(const unsigned char rgb[3]) {
  return 0xFF000000u | (std::uint32_t(rgb[2]) << 16) | (std::uint32_t(rgb[1]) << 8) | rgb[0];
}
}  // namespace

std::vector<std::vector<std::array<std::uint8_t, 3>>> continuous_colormap_ramps() {
  std::vector<std::vector<std::array<std::uint8_t, 3>>> out;
  for (Colormap c : kAllColormaps) {
    if (c == Colormap::categorical) continue;
    auto& ramp = out.emplace_back();
    for (const auto& rgb : kColormapRGB[int(c)]) ramp.push_back({rgb[0], rgb[1], rgb[2]});
  }
  return out;
}

std::string_view to_string(Colormap c) {
  switch (c) {
    case Colormap::viridis: return "viridis";
    case Colormap::diverging: return "diverging (blue-white-red)";
    case Colormap::magma: return "magma";
    case Colormap::grey: return "grey";
    case Colormap::categorical: return "categorical";
  }
  return "?";
}

std::uint32_t colormap_color(Colormap c, double t) {
  if (std::isnan(t)) return missing_color();
  const int i = std::clamp(int(std::lround(t * (kColormapSize - 1))), 0, kColormapSize - 1);
  return pack(kColormapRGB[int(c)][i]);
}

std::uint32_t missing_color() { return pack(kMissingRGB); }

const unsigned char* nan_rgb(NanMeaning m) { return m == NanMeaning::masked ? kMaskedRGB : kMissingRGB; }
const char* nan_hover(NanMeaning m) { return m == NanMeaning::masked ? "masked (future key)" : "missing"; }
const char* nan_swatch(NanMeaning m) { return m == NanMeaning::masked ? "masked" : "n/a"; }
std::uint32_t nan_color(NanMeaning m) { return pack(nan_rgb(m)); }

double colormap_position(double value, double vmin, double vmax) {
  if (std::isnan(value)) return value;
  if (vmax == vmin) return 0.5;
  return std::clamp((value - vmin) / (vmax - vmin), 0.0, 1.0);
}

}  // namespace peviz::plot
