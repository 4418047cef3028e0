// Tests for core/encodings/shaw: clipping and tensor2tensor's alignment of queries to the last keys.
#include <catch2/catch.hpp>

#include "core/base/errors.hpp"
#include "tests/core/param_error.hpp"
#include "core/encodings/shaw.hpp"

using namespace peviz;

TEST_CASE("square Shaw matrix is clip(j - i, -k, k)") {
  ShawParams p;
  p.query_len = p.key_len = 6;
  p.max_relative = 2;
  const NdArray a = shaw_relative_positions(p);
  REQUIRE(a.shape == std::vector<std::size_t>{6, 6});
  REQUIRE(a.dtype == DType::i32);
  CHECK(a.i32[0 * 6 + 0] == 0);
  CHECK(a.i32[0 * 6 + 1] == 1);
  CHECK(a.i32[0 * 6 + 5] == 2);   // 5 clipped to 2
  CHECK(a.i32[5 * 6 + 0] == -2);  // -5 clipped to -2
  CHECK(a.i32[3 * 6 + 2] == -1);
}

TEST_CASE("fewer queries than keys: queries are the last keys") {
  ShawParams p;
  p.query_len = 2;
  p.key_len = 5;
  p.max_relative = 10;
  const NdArray a = shaw_relative_positions(p);
  // Query 0 sits at key position 3, query 1 at 4 (tensor2tensor range_vec_k[-length_q:]).
  const std::vector<std::int32_t> want = {-3, -2, -1, 0, 1, -4, -3, -2, -1, 0};
  CHECK(a.i32 == want);
}

TEST_CASE("invalid Shaw parameters name their flag") {
  ShawParams p;
  p.query_len = 6;
  p.key_len = 4;
  CHECK(param_error_of([&] { validate(p); }) ==
        "key-len: must be >= --seq-len (6): queries align to the last keys, got 4");
  p = {};
  p.max_relative = -1;
  CHECK_THROWS_AS(validate(p), ParamError);
  CHECK(shaw_clip(-100, 3) == -3);
  CHECK(shaw_clip(2, 3) == 2);
}

TEST_CASE("square Shaw params: L x L with clip k") {
  const ShawParams p = square_shaw_params(40, 7);
  CHECK(p.query_len == 40);
  CHECK(p.key_len == 40);
  CHECK(p.max_relative == 7);
}
