// WCAG contrast and CIE L*a*b* differences of sRGB colours.
#include "app/plot/colour_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace peviz::plot {

namespace {

// The sRGB transfer curve undone: a channel 0..255 as linear light 0..1.
double linear(int channel) {
  const double v = channel / 255.0;
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

}  // namespace

Srgb8 srgb_of(std::uint32_t abgr) { return {int(abgr & 0xff), int((abgr >> 8) & 0xff), int((abgr >> 16) & 0xff)}; }

Srgb8 blend_over(Srgb8 fg, double alpha, Srgb8 bg) {
  const auto mix = [&](int f, int b) { return int(std::lround(alpha * f + (1.0 - alpha) * b)); };
  return {mix(fg.r, bg.r), mix(fg.g, bg.g), mix(fg.b, bg.b)};
}

double relative_luminance(Srgb8 c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); }

double contrast_ratio(Srgb8 a, Srgb8 b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

std::array<double, 3> cielab(Srgb8 c) {
  const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

double delta_e(Srgb8 a, Srgb8 b) {
  const auto p = cielab(a), q = cielab(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

}  // namespace peviz::plot
