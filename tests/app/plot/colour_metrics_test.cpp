// Tests for app/plot/colour_metrics: WCAG contrast and CIE L*a*b* differences against published values.
#include "app/plot/colour_metrics.hpp"

#include <catch2/catch.hpp>

using namespace peviz::plot;

TEST_CASE("WCAG contrast: 21 for black on white, 1 for a colour on itself, symmetric") {
  const Srgb8 white{255, 255, 255}, black{0, 0, 0};
  CHECK(relative_luminance(white) == Approx(1.0));
  CHECK(relative_luminance(black) == 0.0);
  CHECK(contrast_ratio(black, white) == Approx(21.0));
  CHECK(contrast_ratio(white, black) == Approx(21.0));
  CHECK(contrast_ratio({153, 153, 153}, {153, 153, 153}) == Approx(1.0));
  // #767676 is the lightest grey that passes AA (4.54:1) on white; ImGui's light TextDisabled (153) gives 2.85.
  CHECK(contrast_ratio({118, 118, 118}, white) == Approx(4.54).margin(0.01));
  CHECK(contrast_ratio({153, 153, 153}, white) == Approx(2.85).margin(0.01));
}

TEST_CASE("CIE L*a*b*: white is L 100, neutral greys have no chroma, and CIE76 differences") {
  const auto w = cielab({255, 255, 255});
  CHECK(w[0] == Approx(100.0).margin(0.01));
  CHECK(w[1] == Approx(0.0).margin(0.02));  // the sRGB matrix's four-digit coefficients leave about 0.01
  CHECK(w[2] == Approx(0.0).margin(0.02));
  const auto red = cielab({255, 0, 0});  // sRGB red: L* 53.24, a* 80.09, b* 67.20 (Lindbloom's calculator)
  CHECK(red[0] == Approx(53.24).margin(0.05));
  CHECK(red[1] == Approx(80.09).margin(0.1));
  CHECK(red[2] == Approx(67.20).margin(0.1));
  CHECK(delta_e({0, 0, 0}, {255, 255, 255}) == Approx(100.0).margin(0.01));
  CHECK(delta_e({31, 119, 180}, {31, 119, 180}) == 0.0);
}

TEST_CASE("srgb_of reads ImGui's 0xAABBGGRR, and blend_over mixes by alpha") {
  const Srgb8 c = srgb_of(0x80302010u);
  CHECK((c.r == 0x10 && c.g == 0x20 && c.b == 0x30));
  const Srgb8 half = blend_over({255, 255, 255}, 0.5, {0, 0, 0});
  CHECK((half.r == 128 && half.g == 128 && half.b == 128));
  const Srgb8 opaque = blend_over({10, 20, 30}, 1.0, {200, 200, 200});
  CHECK((opaque.r == 10 && opaque.g == 20 && opaque.b == 30));
}
