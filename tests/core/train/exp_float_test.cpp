// Tests for core/train/exp_float.hpp: the vectorisable float exp against double's std::exp, its clamps and NaN.
#include "core/train/exp_float.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

using peviz::SimdPath;
using peviz::train::exp_float;
using peviz::train::exp_shifted_float;

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

TEST_CASE("exp_shifted_float gives a loop of exp_float's bits on every SIMD path, over bodies, tails and edges",
          "[train][simd]") {
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> row;
  for (int i = 0; i < 1003; ++i) row.push_back(-110.0f + 0.2f * float(i));  // odd: every path runs its scalar tail
  for (float x : {nan, -nan, inf, -inf, -0.0f, 0.0f, 1e-40f, -1e-40f, 88.0f, 89.0f, std::nextafter(-86.25f, 0.0f),
                  -86.25f, std::nextafter(-86.25f, -inf), -86.0f, 3.0e38f, -3.0e38f})
    row.push_back(x);
  const float shift = -0.75f;  // row[j] - shift crosses the clamps at -87 and 88
  std::vector<float> want = row;
  for (float& x : want) x = exp_float(x - shift);
  for (SimdPath path : {SimdPath::baseline, SimdPath::avx2, SimdPath::avx512}) {
    if (!peviz::simd_path_supported(path)) {  // said in the output, so a pass here is not mistaken for a check
      WARN("SKIPPED: this CPU cannot run the " << peviz::to_string(path) << " path: its exps are not compared");
      continue;
    }
    std::vector<float> got = row;
    exp_shifted_float(path, got.data(), int(got.size()), shift);
    CHECK(std::memcmp(got.data(), want.data(), sizeof(float) * want.size()) == 0);
  }
}
