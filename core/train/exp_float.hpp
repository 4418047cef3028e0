// e^x in float by straight-line arithmetic that vectorises: the GELU kernel's and the softmax's exp (training engine).
#pragma once
#include <cstdint>

#include "core/base/bit_cast.hpp"
#include "core/simd/simd_kernels.hpp"

namespace peviz::train {

// a where mask is all ones, b where it is zero: a select by bitwise operations. A ?: on floats vectorises on AVX2 and
// SSE2 only when GCC may compute both sides for every element: with -ftrapping-math (the default) it keeps the
// branch wherever one side's arithmetic is needed on one side only (GCC 12 moves a clamp's constant into the code
// after it, and a result used in one arm into that arm), and vectorises such a loop only with AVX-512's masks.
// Here both sides are computed for every element, and the select is and / andnot / or (vcmpps, vandps, vorps).
[[gnu::always_inline]] inline float blend(std::uint32_t mask, float a, float b) {
  return peviz::bit_cast<float>((peviz::bit_cast<std::uint32_t>(a) & mask) |
                                (peviz::bit_cast<std::uint32_t>(b) & ~mask));
}
// All ones where c holds, else zero: blend's mask.
[[gnu::always_inline]] inline std::uint32_t all_ones_if(bool c) { return std::uint32_t(0) - std::uint32_t(c); }

// e^x in float by Cephes expf (S. L. Moshier, cephes/single/expf.c): x = k ln 2 + r with |r| <= ln(2)/2
// (ln 2 split in two constants so k ln 2 is exact), e^r by its degree-7 polynomial, 2^k written into the
// exponent bits. Straight-line arithmetic and blends, so a loop over it vectorises on every path (AVX-512, AVX2,
// SSE2, wasm SIMD). Valid for x <= 88; returns 0 below -87 (under float's smallest normal: the GELU's tail and a
// softmax's terms need no more); NaN stays NaN.
[[gnu::always_inline]] inline float exp_float(float x) {
  const std::uint32_t below = all_ones_if(x < -87.0f);
  const float low_clamped = blend(below, -87.0f, x);
  const float xc = blend(all_ones_if(low_clamped > 88.0f), 88.0f, low_clamped);
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
  return blend(below, 0.0f, p * two_k);
}

// row[j] = exp_float(row[j] - shift) for j < n on `path` (the softmax's exps, attention.cpp): the same bits on every
// path, as a loop of exp_float gives.
void exp_shifted_float(SimdPath path, float* row, int n, float shift);

}  // namespace peviz::train
