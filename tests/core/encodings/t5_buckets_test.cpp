// Tests for core/encodings/t5_buckets: HF's bucket boundaries, float32 truncation, the compute_bias matrix.
#include <catch2/catch.hpp>

#include "core/base/errors.hpp"
#include "tests/core/param_error.hpp"
#include "core/encodings/t5_buckets.hpp"

using namespace peviz;

static std::string error_of(const T5BucketParams& p) {
  return param_error_of([&] { validate(p); });
}

TEST_CASE("bidirectional 32/128: exact below 8, log bins with boundaries at 8 * 2^(k/2)") {
  // 16 buckets per sign, max_exact 8: bucket 8 + trunc(8 ln(n/8) / ln 16), capped at 15.
  const auto b = [](long long r) { return t5_relative_position_bucket(r, true, 32, 128); };
  for (int n = 0; n < 8; ++n) {
    CHECK(b(-n) == n);
    if (n > 0) CHECK(b(n) == 16 + n);
  }
  // |r| = 8, 16, 32, 64, 128 sit exactly on boundaries (float32 log gives exact 0, 2, 4, 6, 8).
  CHECK(b(-8) == 8);
  CHECK(b(-16) == 10);
  CHECK(b(-32) == 12);
  CHECK(b(-64) == 14);
  CHECK(b(-128) == 15);
  CHECK(b(8) == 24);
  CHECK(b(16) == 26);
  CHECK(b(32) == 28);
  CHECK(b(64) == 30);
  CHECK(b(128) == 31);
  // Just below and above the irrational boundaries 11.3, 22.6, 45.3, 90.5.
  CHECK(b(-11) == 8);
  CHECK(b(-12) == 9);
  CHECK(b(-15) == 9);
  CHECK(b(-22) == 10);
  CHECK(b(-23) == 11);
  CHECK(b(-45) == 12);
  CHECK(b(-46) == 13);
  CHECK(b(-63) == 13);
  CHECK(b(-90) == 14);
  CHECK(b(-91) == 15);
  CHECK(b(-100000) == 15);
  CHECK(b(100000) == 31);
}

TEST_CASE("causal buckets: the future is bucket 0, the past uses all 32") {
  const auto b = [](long long r) { return t5_relative_position_bucket(r, false, 32, 128); };
  CHECK(b(5) == 0);
  CHECK(b(0) == 0);
  CHECK(b(-15) == 15);
  CHECK(b(-16) == 16);   // max_exact 16
  CHECK(b(-32) == 21);   // 16 + trunc(16 ln 2 / ln 8) = 16 + 5
  CHECK(b(-64) == 26);   // 16 + trunc(32/3)
  CHECK(b(-128) == 31);  // 16 + 16 capped at 31
}

TEST_CASE("float32 arithmetic decides the bucket where double would not") {
  // causal, 36 buckets, max_distance 32, r = -24: float32 gives 9.00000095 -> 18 + 9; double gives
  // 8.9999999999999982 -> 18 + 8. HF (torch float32) and mesh-tensorflow give 27.
  CHECK(t5_relative_position_bucket(-24, false, 36, 32) == 27);
  // causal, 54 buckets, max_distance 64, r = -36: float32 9.00000095 -> 27 + 9.
  CHECK(t5_relative_position_bucket(-36, false, 54, 64) == 36);
}

TEST_CASE("bucket matrix: queries and keys both from 0, r = j - i") {
  T5BucketParams p;
  p.query_len = 3;
  p.key_len = 5;
  const NdArray a = t5_bucket_matrix(p);
  REQUIRE(a.shape == std::vector<std::size_t>{3, 5});
  REQUIRE(a.dtype == DType::i32);
  // Row i = 2: r = -2, -1, 0, 1, 2.
  CHECK(a.i32[2 * 5 + 0] == 2);
  CHECK(a.i32[2 * 5 + 1] == 1);
  CHECK(a.i32[2 * 5 + 2] == 0);
  CHECK(a.i32[2 * 5 + 3] == 17);
  CHECK(a.i32[2 * 5 + 4] == 18);
  CHECK(a.i32[0 * 5 + 4] == 20);
}

TEST_CASE("invalid bucket parameters name their flag") {
  T5BucketParams p;
  CHECK(error_of(p).empty());
  p.num_buckets = 1;
  p.bidirectional = false;
  CHECK(error_of(p) == "num-buckets: must be an integer in [2, 65536], got 1");
  p.num_buckets = 3;
  p.bidirectional = true;
  CHECK(error_of(p) == "num-buckets: must be an integer in [4, 65536] for bidirectional buckets, got 3");
  p = {};
  p.max_distance = 8;
  CHECK(error_of(p) == "max-distance: must be an integer greater than the exact range (8) and at most 2^30, got 8");
  p = {};
  p.key_len = 0;
  CHECK(error_of(p).rfind("key-len:", 0) == 0);
  p = {};
  p.query_len = 70000;
  CHECK(error_of(p).rfind("seq-len:", 0) == 0);
}

TEST_CASE("the dependent bounds are the ones validate applies") {
  CHECK(t5_min_buckets(true) == 4);
  CHECK(t5_min_buckets(false) == 2);
  CHECK(t5_exact_range(32, true) == 8);  // HF: num_buckets //= 2, then max_exact = num_buckets // 2
  CHECK(t5_exact_range(32, false) == 16);
  for (const bool bidirectional : {true, false})
    for (int buckets = t5_min_buckets(bidirectional); buckets <= 64; ++buckets) {
      T5BucketParams p;
      p.num_buckets = buckets;
      p.bidirectional = bidirectional;
      p.max_distance = t5_exact_range(buckets, bidirectional) + 1;
      CHECK_NOTHROW(validate(p));
      p.max_distance -= 1;
      CHECK_THROWS_AS(validate(p), ParamError);
    }
  T5BucketParams p;
  p.num_buckets = t5_min_buckets(true) - 1;
  CHECK_THROWS_AS(validate(p), ParamError);
}

TEST_CASE("square T5 params: L x L, causal is not bidirectional") {
  const T5BucketParams p = square_t5_params(50, 16, 64, true);
  CHECK(p.query_len == 50);
  CHECK(p.key_len == 50);
  CHECK(p.num_buckets == 16);
  CHECK(p.max_distance == 64);
  CHECK_FALSE(p.bidirectional);
  CHECK(square_t5_params(50, 16, 64, false).bidirectional);
}
