// Colour measures for readable figures: WCAG 2 contrast between text and its background, CIE L*a*b* and the
// CIE76 difference between two series colours.
#pragma once
#include <array>
#include <cstdint>

namespace peviz::plot {

// An sRGB colour, 0..255 per channel.
struct Srgb8 {
  int r = 0, g = 0, b = 0;
};

// The colour of an ImGui ImU32 (0xAABBGGRR), alpha dropped.
Srgb8 srgb_of(std::uint32_t abgr);
// `fg` at opacity `alpha` in [0, 1] over an opaque `bg`, as the renderer blends it (in sRGB values).
Srgb8 blend_over(Srgb8 fg, double alpha, Srgb8 bg);

// WCAG 2.x relative luminance (sRGB transfer curve of IEC 61966-2-1) and contrast ratio (L1 + 0.05) /
// (L2 + 0.05), from 1 to 21; WCAG's AA minimum for body text is 4.5.
double relative_luminance(Srgb8 c);
double contrast_ratio(Srgb8 a, Srgb8 b);
inline constexpr double kMinTextContrast = 4.5;

// CIE L*a*b* (D65 white) and the CIE76 difference; about 2.3 is just noticeable (Sharma, Digital Color Imaging
// Handbook, 2003).
std::array<double, 3> cielab(Srgb8 c);
double delta_e(Srgb8 a, Srgb8 b);

}  // namespace peviz::plot
