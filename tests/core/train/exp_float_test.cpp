// Tests for core/train/exp_float.hpp: the vectorisable float exp against double's std::exp, its clamps and NaN.
#include "core/train/exp_float.hpp"

#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

using peviz::train::exp_float;

TEST_CASE("exp_float is within 2 float ulps of e^x on [-87, 88]", "[train]") {
  double worst = 0.0;
  for (double x = -87.0; x <= 88.0; x += 0.0137) {
    const float xf = float(x);
    const double want = std::exp(double(xf));
    worst = std::max(worst, std::fabs(double(exp_float(xf)) - want) / want);
  }
  CHECK(worst < 2.4e-7);  // 2 ulps of float's 2^-23 relative spacing
  CHECK(exp_float(0.0f) == 1.0f);
}

TEST_CASE("exp_float: 0 below -87, NaN stays NaN", "[train]") {
  CHECK(exp_float(-87.5f) == 0.0f);
  CHECK(exp_float(-1e30f) == 0.0f);
  CHECK(std::isnan(exp_float(std::numeric_limits<float>::quiet_NaN())));
}
