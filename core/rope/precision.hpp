// Phase error of RoPE angles t * theta computed in fp32, bf16 and fp16 against double.
//
// Model of a reduced-precision table: the position t and the frequency theta are each rounded to the
// format, multiplied, and the product is rounded to the format: angle = fl(fl(t) * fl(theta)). This is
// what `torch.outer(t.to(dtype), inv_freq.to(dtype))` computes (HF builds the angles in float32 with
// autocast off; some code bases build them in bf16 or fp16). The error is the wrapped phase difference
// |remainder(angle - t * theta, 2 pi)| in radians, 0..pi; an angle that overflows the format (fp16 above
// 65504) has no phase and gives NaN.
#pragma once
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/base/matrix.hpp"

namespace peviz {

enum class FloatFormat { fp32, bf16, fp16 };

// Round-to-nearest-even from double into the format (with subnormals; overflow gives +-inf), returned
// as the double holding the rounded value. fp32: 24 significant bits; bf16: 8 bits with fp32's exponent
// range; fp16: 11 bits, normal exponents -14..15, max 65504.
double round_to_format(double x, FloatFormat f);

// fl(fl(t) * fl(theta)) in format f.
double angle_in_format(double t, double theta, FloatFormat f);
// |remainder(angle_in_format - t * theta, 2 pi)|, NaN when the rounded angle is not finite.
double phase_error(double t, double theta, FloatFormat f);

// Rows = positions; columns: t, then the largest phase error over all pairs for fp32, bf16, fp16.
Matrix rope_phase_error(std::span<const double> inv_freq, std::span<const double> positions);

// `points` positions from 1 to max_position, spaced evenly in log scale, rounded to integers and
// deduplicated (so fewer may come back). Throws ParamError("max-position" | "points", ...).
std::vector<double> log_spaced_positions(int max_position, int points);

// The first position t at which t + 1 rounds to the same number as t in format f: 2^p for p significant
// bits (fp32 16777216, bf16 256, fp16 2048; 2^p + 1 is a tie and rounds to the even 2^p). From there
// on neighbouring positions are one number, so every pair gives them the same angle.
double first_indistinguishable_position(FloatFormat f);

std::string_view to_string(FloatFormat f);

}  // namespace peviz
