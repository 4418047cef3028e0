// Tests for core/rope/precision: round-to-nearest-even into fp32, bf16 and fp16, and the RoPE phase error.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

#include "core/base/errors.hpp"
#include "core/rope/precision.hpp"

using namespace peviz;

TEST_CASE("bf16 rounding: 8 significant bits, ties to even, fp32's range") {
  const auto bf = [](double x) { return round_to_format(x, FloatFormat::bf16); };
  CHECK(bf(1.0) == 1.0);
  CHECK(bf(1.0 + std::ldexp(1.0, -8)) == 1.0);                              // tie -> even (1.0)
  CHECK(bf(1.0 + 3 * std::ldexp(1.0, -8)) == 1.0 + std::ldexp(1.0, -6));  // tie -> even (1 + 2 ulp)
  CHECK(bf(1.0 + 0.6 * std::ldexp(1.0, -7)) == 1.0 + std::ldexp(1.0, -7));
  CHECK(bf(257.0) == 256.0);  // integers above 256 are not all representable
  CHECK(bf(259.0) == 260.0);
  CHECK(bf(-3.14159265) == -3.140625);
  CHECK(bf(1e38) == Approx(1e38).epsilon(4e-3));
  CHECK(std::isinf(bf(3.4e38)));
}

TEST_CASE("fp16 rounding: 11 significant bits, subnormals, overflow at 65520") {
  const auto h = [](double x) { return round_to_format(x, FloatFormat::fp16); };
  CHECK(h(2049.0) == 2048.0);  // tie -> even
  CHECK(h(2051.0) == 2052.0);
  CHECK(h(65504.0) == 65504.0);
  CHECK(h(65519.0) == 65504.0);
  CHECK(std::isinf(h(65520.0)));
  CHECK(h(std::ldexp(1.0, -24)) == std::ldexp(1.0, -24));          // smallest subnormal
  CHECK(h(std::ldexp(1.0, -25)) == 0.0);                           // tie -> even (0)
  CHECK(h(3 * std::ldexp(1.0, -25)) == std::ldexp(1.0, -23));      // tie -> even (2 quanta)
  CHECK(h(0.1) == 0.0999755859375);
}

TEST_CASE("fp32 rounding agrees with the hardware conversion") {
  for (double x : {0.1, 1.0 / 3.0, 1e-40, 123456789.0, -2.5e30, 1e-46})
    CHECK(round_to_format(x, FloatFormat::fp32) == double(float(x)));
}

TEST_CASE("phase error: exact cases are zero, reduced precision grows with position") {
  // theta = 1: t * 1 is exact in fp32 below 2^24, in bf16 only up to 256.
  CHECK(phase_error(1000.0, 1.0, FloatFormat::fp32) == 0.0);
  CHECK(phase_error(256.0, 1.0, FloatFormat::bf16) == 0.0);
  CHECK(phase_error(257.0, 1.0, FloatFormat::bf16) == Approx(1.0));  // 257 -> 256: one radian off
  CHECK(std::isnan(phase_error(70000.0, 1.0, FloatFormat::fp16)));  // angle overflows fp16
  // Wrapped: an error of 2 pi + 0.5 radians is a phase error of 0.5.
  const double theta = 0.1;
  // t = 4001: fl32(0.1) * 4001 = 400.1000059..., rounded to the fp32 400.100006103515625; the exact
  // angle is 400.1, so the error is 6.1035e-6.
  const double e32 = phase_error(4001.0, theta, FloatFormat::fp32);
  CHECK(e32 == Approx(400.100006103515625 - 400.1).epsilon(1e-6));
  const Matrix m = rope_phase_error(std::vector<double>{1.0, 0.1, 0.01}, std::vector<double>{1, 100, 1000, 60000});
  REQUIRE(m.rows == 4);
  REQUIRE(m.cols == 4);
  CHECK(m.at(3, 0) == 60000.0f);
  CHECK(m.at(3, 1) < m.at(3, 2));          // fp32 beats bf16 at t = 60000
  CHECK(m.at(3, 2) > 0.5f);                // bf16 has lost the phase of pair 0 entirely
  CHECK(m.at(0, 1) == Approx(0.100000001490116 - 0.1).epsilon(1e-3));  // fl32(0.1) at t = 1
  for (std::size_t r = 0; r < 4; ++r) CHECK(m.at(r, 2) <= float(std::numbers::pi));
}

TEST_CASE("log-spaced positions") {
  const std::vector<double> p = log_spaced_positions(1000, 4);
  CHECK(p == std::vector<double>{1, 10, 100, 1000});
  CHECK(log_spaced_positions(4, 100).size() == 4);  // deduplicated
  CHECK_THROWS_AS(log_spaced_positions(0, 4), ParamError);
  CHECK_THROWS_AS(log_spaced_positions(10, 0), ParamError);
}

TEST_CASE("first indistinguishable position: t and t + 1 round together from 2^p on") {
  for (FloatFormat f : {FloatFormat::fp32, FloatFormat::bf16, FloatFormat::fp16}) {
    const double t = first_indistinguishable_position(f);
    INFO(to_string(f));
    CHECK(round_to_format(t, f) == round_to_format(t + 1.0, f));
    CHECK(round_to_format(t - 1.0, f) != round_to_format(t, f));
    // Every pair's angle coincides there (fastest pair theta = 1 and a slow one).
    for (double theta : {1.0, 0.0123, 1e-4}) CHECK(angle_in_format(t, theta, f) == angle_in_format(t + 1.0, theta, f));
    CHECK(angle_in_format(t - 1.0, 1.0, f) != angle_in_format(t, 1.0, f));
  }
  CHECK(first_indistinguishable_position(FloatFormat::fp32) == 16777216.0);
  CHECK(first_indistinguishable_position(FloatFormat::bf16) == 256.0);
  CHECK(first_indistinguishable_position(FloatFormat::fp16) == 2048.0);
}
