// Tests for core/encodings/criteria: each encoding passes or fails each criterion for the documented reason.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/encodings/criteria.hpp"

using namespace peviz;

static EncodingParams make(Encoding e, int d, int L) {
  EncodingParams p;
  p.encoding = e;
  p.d_model = d;
  p.seq_len = L;
  p.max_len = 256;
  return p;
}

TEST_CASE("sinusoidal passes every criterion") {
  const CriteriaReport r = measure_criteria(make(Encoding::sinusoidal, 64, 100));
  CHECK(r.unique);
  CHECK(r.consistent);
  CHECK(r.spread_over_t < 1e-5);
  CHECK(r.bounded);
  CHECK(r.max_abs == Approx(1.0).margin(1e-6));
  CHECK(r.deterministic);
  CHECK(r.extrapolates);
}

TEST_CASE("neighbouring sinusoidal positions are the closest pair, at the closed-form distance") {
  // |PE(t+1) - PE(t)|^2 = sum_k 2 - 2 cos(w_k) for every t.
  const CriteriaReport r = measure_criteria(make(Encoding::sinusoidal, 16, 50));
  double expected = 0;
  for (int k = 0; k < 8; ++k) expected += 2.0 - 2.0 * std::cos(std::pow(10000.0, -2.0 * k / 16));
  CHECK(r.min_distance == Approx(std::sqrt(expected)).epsilon(1e-5));
  CHECK(r.closest_q - r.closest_p == 1);
}

TEST_CASE("naive encodings fail for the reasons the seed texts give") {
  const CriteriaReport norm = measure_criteria(make(Encoding::normalized, 1, 64));
  CHECK_FALSE(norm.consistent);  // a step is 1/63 at L = 64 and 1/127 at L = 128
  CHECK(norm.change_with_length == Approx((1.0 / 63 - 1.0 / 127) * 63));
  CHECK(norm.bounded);
  CHECK_FALSE(norm.extrapolates);
  const CriteriaReport integer = measure_criteria(make(Encoding::integer, 1, 64));
  CHECK(integer.consistent);
  CHECK_FALSE(integer.bounded);
  CHECK(integer.growth == Approx(255.0 / 63.0));
}

TEST_CASE("binary with too few bits repeats; learned is bounded, inconsistent, and does not extrapolate") {
  const CriteriaReport bin = measure_criteria(make(Encoding::binary, 4, 32));
  CHECK_FALSE(bin.unique);
  CHECK(bin.min_distance == 0.0);
  CHECK(bin.closest_q - bin.closest_p == 16);
  const CriteriaReport learned = measure_criteria(make(Encoding::learned, 32, 64));
  CHECK(learned.unique);
  CHECK_FALSE(learned.consistent);
  CHECK(learned.bounded);
  CHECK(learned.deterministic);
  CHECK_FALSE(learned.extrapolates);
  // L = 200 of a 256-row table: 2L has no rows, so the change with length is undefined (NaN).
  CHECK(std::isnan(measure_criteria(make(Encoding::learned, 8, 200)).change_with_length));
}
