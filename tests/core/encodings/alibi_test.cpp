// Tests for core/encodings/alibi: the paper's slopes, non-power-of-two head counts, the causal and symmetric bias.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/encodings/alibi.hpp"
#include "core/base/errors.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

TEST_CASE("8 heads: slopes 1/2, 1/4, ..., 1/256 (Press et al. 2022, section 3)") {
  const std::vector<double> s = alibi_slopes(8);
  REQUIRE(s.size() == 8);
  for (int h = 0; h < 8; ++h) CHECK(s[std::size_t(h)] == Approx(std::ldexp(1.0, -(h + 1))));
}

TEST_CASE("16 heads: 2^-0.5, 2^-1, ..., 2^-8") {
  const std::vector<double> s = alibi_slopes(16);
  for (int h = 0; h < 16; ++h) CHECK(s[std::size_t(h)] == Approx(std::exp2(-0.5 * (h + 1))));
}

TEST_CASE("12 heads: the 8-head slopes plus every other slope of 16 heads") {
  const std::vector<double> s = alibi_slopes(12);
  REQUIRE(s.size() == 12);
  const std::vector<double> eight = alibi_slopes(8), sixteen = alibi_slopes(16);
  for (std::size_t h = 0; h < 8; ++h) CHECK(s[h] == eight[h]);
  CHECK(s[8] == Approx(std::exp2(-0.5)));
  CHECK(s[9] == Approx(std::exp2(-1.5)));
  CHECK(s[10] == Approx(std::exp2(-2.5)));
  CHECK(s[11] == Approx(std::exp2(-3.5)));
  for (std::size_t h = 0; h < 4; ++h) CHECK(s[8 + h] == sixteen[2 * h]);
}

TEST_CASE("odd and small head counts") {
  CHECK(alibi_slopes(1) == std::vector<double>{std::exp2(-8.0)});
  const std::vector<double> s3 = alibi_slopes(3);  // 2-head slopes (1/16, 1/256) + 4-head slope 0
  REQUIRE(s3.size() == 3);
  CHECK(s3[0] == Approx(1.0 / 16));
  CHECK(s3[1] == Approx(1.0 / 256));
  CHECK(s3[2] == Approx(0.25));
  CHECK_THROWS_AS(alibi_slopes(0), ParamError);
}

TEST_CASE("causal bias is -m (i - j) below the diagonal and NaN above") {
  const NdArray a = alibi_bias(2, 4, false);
  REQUIRE(a.shape == std::vector<std::size_t>{2, 4, 4});
  const auto at = [&](std::size_t h, std::size_t i, std::size_t j) { return a.f32[(h * 4 + i) * 4 + j]; };
  // 2 heads: slopes 2^-4 and 2^-8.
  CHECK(at(0, 3, 0) == Approx(-3.0 / 16));
  CHECK(at(0, 2, 2) == 0.0f);
  CHECK(at(1, 3, 1) == Approx(-2.0 / 256));
  CHECK(std::isnan(at(0, 0, 1)));
  CHECK(std::isnan(at(1, 2, 3)));
  const NdArray b = alibi_bias(2, 4, true);
  CHECK(b.f32[(0 * 4 + 0) * 4 + 3] == Approx(-3.0 / 16));  // symmetric -m |i - j|
  CHECK(b.f32[(0 * 4 + 3) * 4 + 0] == Approx(-3.0 / 16));
}

TEST_CASE("ALiBi refuses bad heads, bad lengths and results over the budget") {
  CHECK(param_error_of([] { alibi_bias(0, 4, false); }) == "heads: must be an integer in [1, 4096], got 0");
  CHECK_THROWS_AS(alibi_bias(4, 0, false), ParamError);
  // 64 * 8192^2 * 4 bytes = 16 GiB
  CHECK(param_error_of([] { alibi_bias(64, 8192, false, 1ull << 30); }).rfind("max-memory: ", 0) == 0);
}
