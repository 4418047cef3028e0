// RoPE bounds: Liu et al.'s worked example (LLaMA 2: d 128, base 10000, 4096 tokens) and Men et al.'s B(m).
#include "core/rope_bounds.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "param_error.hpp"

using namespace peviz;

TEST_CASE("Liu et al. 2023 Eq. 13: the critical dimension of LLaMA 2", "[rope_bounds]") {
  // log_10000(4096 / 2 pi) = 0.70354..., times 64 = 45.03 -> ceil 46 -> d_extra = 92;
  // T_extra = 2 pi * 10000^(92/128) = 2 pi * 10^2.875 = 4711.8...
  const RopeBounds b = rope_bounds({128, 10000, 4096});
  CHECK(b.d_extra == 92);
  CHECK(b.t_extra == Approx(2 * M_PI * std::pow(10.0, 2.875)));
  CHECK(b.t_extra == Approx(4711.8).margin(0.1));
}

TEST_CASE("Men et al. 2024: B(m) and the smallest base that keeps it non-negative", "[rope_bounds]") {
  CHECK(rope_similarity_bound(128, 10000, 0) == 64.0);
  const RopeBounds b = rope_bounds({128, 10000, 4096});
  REQUIRE(b.first_negative_m.has_value());
  const long long m = *b.first_negative_m;
  CHECK(rope_similarity_bound(128, 10000, m) < 0);
  for (long long k = 0; k < m; ++k) REQUIRE(rope_similarity_bound(128, 10000, k) >= 0);
  // base 10000 fails before 4096 positions, so the bound for 4096 is above 10000.
  CHECK(m < 4096);
  CHECK(b.min_base > 10000);
  CHECK_FALSE(first_negative_rope_bound(128, b.min_base * 1.001, 4095).has_value());
  CHECK(first_negative_rope_bound(128, b.min_base * 0.99, 4095).has_value());
}

TEST_CASE("rope-bounds validation", "[rope_bounds]") {
  CHECK(param_error_of([] { rope_bounds({127, 10000, 4096}); }).rfind("head-dim: ", 0) == 0);
  CHECK(param_error_of([] { rope_bounds({128, 10000, 0}); }) == "context-len: must be an integer in [1, 1048576], got 0");
}
