// Reduced-precision rounding (fp32, bf16, fp16) and the phase error of RoPE angles.
#include "core/rope/precision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "core/base/errors.hpp"
#include "core/base/limits.hpp"

namespace peviz {

namespace {
struct FormatSpec {
  int precision;      // significant bits, including the implicit one
  int min_exponent;   // exponent e of the smallest normal number 2^e
  double max_finite;  // largest finite value
};

FormatSpec spec(FloatFormat f) {
  switch (f) {
    case FloatFormat::fp32: return {24, -126, double(std::numeric_limits<float>::max())};
    case FloatFormat::bf16: return {8, -126, 0x1.FEp127};
    case FloatFormat::fp16: return {11, -14, 65504.0};
  }
  return {53, -1022, std::numeric_limits<double>::max()};
}
}  // namespace

double round_to_format(double x, FloatFormat f) {
  if (!std::isfinite(x) || x == 0.0) return x;
  const FormatSpec s = spec(f);
  int e = 0;
  std::frexp(x, &e);  // x = m * 2^e, 0.5 <= |m| < 1, so the leading bit has weight 2^(e-1)
  // Quantum (ulp) of the target format at x; below the normal range the subnormal quantum applies.
  const int quantum_exp = std::max(e - s.precision, s.min_exponent - s.precision + 1);
  const double q = std::ldexp(1.0, quantum_exp);
  const double r = std::nearbyint(x / q) * q;  // x / q and * q are exact (powers of two); ties to even
  if (std::abs(r) > s.max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

double first_indistinguishable_position(FloatFormat f) { return std::ldexp(1.0, spec(f).precision); }

double angle_in_format(double t, double theta, FloatFormat f) {
  // The product of two values of <= 24 significant bits is exact in double, so a single rounding
  // of it reproduces the format's correctly rounded multiplication.
  return round_to_format(round_to_format(t, f) * round_to_format(theta, f), f);
}

double phase_error(double t, double theta, FloatFormat f) {
  const double angle = angle_in_format(t, theta, f);
  if (!std::isfinite(angle)) return std::numeric_limits<double>::quiet_NaN();
  return std::abs(std::remainder(angle - t * theta, 2.0 * std::numbers::pi));
}

Matrix rope_phase_error(std::span<const double> inv_freq, std::span<const double> positions) {
  Matrix out(positions.size(), 4);
  const FloatFormat formats[] = {FloatFormat::fp32, FloatFormat::bf16, FloatFormat::fp16};
  for (std::size_t i = 0; i < positions.size(); ++i) {
    out.at(i, 0) = float(positions[i]);
    for (std::size_t c = 0; c < 3; ++c) {
      double worst = 0.0;
      for (double theta : inv_freq) {
        const double e = phase_error(positions[i], theta, formats[c]);
        if (std::isnan(e) || e > worst) worst = e;
        if (std::isnan(worst)) break;
      }
      out.at(i, c + 1) = float(worst);
    }
  }
  return out;
}

std::vector<double> log_spaced_positions(int max_position, int points) {
  check_int(limits::precision_max_position, max_position);
  check_int(limits::precision_points, points);
  std::vector<double> out;
  for (int k = 0; k < points; ++k) {
    const double frac = points == 1 ? 1.0 : double(k) / double(points - 1);
    const double t = std::round(std::pow(double(max_position), frac));
    if (out.empty() || t > out.back()) out.push_back(t);
  }
  return out;
}

std::string_view to_string(FloatFormat f) {
  switch (f) {
    case FloatFormat::fp32: return "fp32";
    case FloatFormat::bf16: return "bf16";
    case FloatFormat::fp16: return "fp16";
  }
  return "?";
}

}  // namespace peviz
