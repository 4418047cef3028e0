// e^x in float by straight-line arithmetic that vectorises: the GELU kernel's and the softmax's exp (training engine).
#pragma once
#include <cstdint>

#include "core/base/bit_cast.hpp"

namespace peviz::train {

// e^x in float by Cephes expf (S. L. Moshier, cephes/single/expf.c): x = k ln 2 + r with |r| <= ln(2)/2
// (ln 2 split in two constants so k ln 2 is exact), e^r by its degree-7 polynomial, 2^k written into the
// exponent bits. Straight-line arithmetic, so a loop over it vectorises. Valid for x <= 88; returns 0
// below -87 (under float's smallest normal: the GELU's tail and a softmax's terms need no more); NaN stays NaN.
[[gnu::always_inline]] inline float exp_float(float x) {
  const float xc = x < -87.0f ? -87.0f : x > 88.0f ? 88.0f : x;
  const float k = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  // nearest integer (1.5 * 2^23 trick)
  const float r = (xc - k * 0.693359375f) - k * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const float two_k = peviz::bit_cast<float>((std::int32_t(k) + 127) << 23);
  return x < -87.0f ? 0.0f : p * two_k;
}

}  // namespace peviz::train
