// Tests for core/encodings/distance_series: every method's series at the same distances, checked against its source.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/encodings/alibi.hpp"
#include "core/encodings/distance_series.hpp"
#include "core/base/errors.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

TEST_CASE("distance series: one row per method, r from -(L-1) to L-1") {
  DistanceSeriesParams p;
  p.seq_len = 200;
  p.d_model = 64;
  p.rope.head_dim = 64;
  p.heads = 4;
  p.max_relative = 5;
  const DistanceSeries s = distance_series(p);
  REQUIRE(s.distance.size() == 399);
  CHECK(s.distance.front() == -199);
  CHECK(s.distance[199] == 0);
  const std::vector<std::string> names = {"sinusoidal", "rope", "alibi_h0", "alibi_h1", "alibi_h2", "alibi_h3",
                                          "t5_bucket", "shaw"};
  REQUIRE(s.names == names);
  REQUIRE(s.values.rows == 8);
  for (const std::string& n : names)  // ids and clipped distances, not scores: charted on their own axis
    CHECK(is_id_series(n) == (n == "t5_bucket" || n == "shaw"));
  const std::size_t zero = 199;
  // Sinusoid with d = 64: PE(0).PE(0) = number of (sin, cos) pairs = 32; PE(0).PE(r) = sum_k cos(w_k r).
  CHECK(s.values.at(0, zero) == Approx(32.0));
  double want = 0;
  for (int k = 0; k < 32; ++k) want += std::cos(10.0 * std::pow(10000.0, -2.0 * k / 64));
  CHECK(s.values.at(0, zero + 10) == Approx(want).margin(1e-4));
  CHECK(s.values.at(0, zero - 10) == s.values.at(0, zero + 10));
  CHECK(s.values.at(1, zero) == Approx(64.0));  // RoPE: 2 * 32 pairs
  const std::vector<double> slopes = alibi_slopes(4);
  REQUIRE(slopes.size() > 3);
  CHECK(s.values.at(2, zero - 7) == Approx(-7 * slopes[0]));
  CHECK(s.values.at(5, zero + 7) == Approx(-7 * slopes[3]));
  CHECK(s.values.at(6, zero - 16) == 10.0f);       // T5 bidirectional, r = -16
  CHECK(s.values.at(6, zero + 16) == 26.0f);
  CHECK(s.values.at(7, zero - 100) == -5.0f);     // Shaw clip
  CHECK(s.values.at(7, zero + 3) == 3.0f);

  p.causal = true;
  const DistanceSeries c = distance_series(p);
  CHECK(std::isnan(c.values.at(2, zero + 1)));
  CHECK(c.values.at(2, zero - 3) == Approx(-3 * slopes[0]));
  CHECK(c.values.at(6, zero + 5) == 0.0f);   // causal T5: the future is bucket 0
  CHECK(c.values.at(6, zero - 64) == 26.0f);
}

TEST_CASE("distance series validates every part") {
  DistanceSeriesParams p;
  p.heads = 0;
  CHECK_THROWS_AS(distance_series(p), ParamError);
  p = {};
  p.rope.head_dim = 7;
  CHECK(param_error_of([&] { distance_series(p); }) == "head-dim: must be even, got 7");
  p = {};
  p.num_buckets = 2;
  CHECK_THROWS_AS(distance_series(p), ParamError);
}

TEST_CASE("normalised series lie in [-1, 1] with their known end points") {
  DistanceSeriesParams p;
  p.seq_len = 64;
  p.heads = 2;
  p.causal = true;
  const DistanceSeries s = distance_series(p);
  const Matrix n = normalised_series(s);
  const std::size_t zero = 63;  // column of r = 0
  CHECK(n.at(0, zero) == Approx(1.0f));       // sinusoidal peaks at r = 0
  CHECK(n.at(1, zero) == Approx(1.0f));       // rope too
  CHECK(n.at(2, 0) == Approx(-1.0f));         // ALiBi head 0 (the steepest) at r = -63
  CHECK(n.at(3, 0) == Approx(-1.0 / 16.0));   // head 1: slope 1/256 against 1/16, on the same scale
  CHECK(std::isnan(n.at(2, zero + 1)));       // causal: masked future stays NaN
  CHECK(n.at(5, 0) == Approx(-1.0f));         // Shaw: clip(-63, 16) / 16
  CHECK(n.at(5, zero + 8) == Approx(0.5f));   // 8 / 16
  for (float v : n.data)
    if (!std::isnan(v)) CHECK(std::abs(v) <= 1.0f + 1e-6f);
  // T5 causal: bucket ids in [0, 31], future keys in bucket 0 -> 0 after normalising.
  CHECK(n.at(4, zero + 5) == 0.0f);
}
