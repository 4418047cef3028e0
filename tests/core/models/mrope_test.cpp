// Multimodal RoPE (core/models/mrope): get_rope_index's position ids for text + image + text, written out here for a
// small case, and the per-axis offset score against its closed form.
#include "core/models/mrope.hpp"

#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "core/rope/rope.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;

TEST_CASE("get_rope_index for 2 text tokens, a 2 x 3 image and 2 text tokens") {
  const MropePositions p = mrope_position_ids({.text_before = 2, .grid_h = 2, .grid_w = 3, .text_after = 2});
  // Text 0, 1; the image starts at 2: t = 2, h = 2 + row, w = 2 + column; the text after starts at 2 + 3 = 5.
  CHECK(p.t == std::vector<int>{0, 1, 2, 2, 2, 2, 2, 2, 5, 6});
  CHECK(p.h == std::vector<int>{0, 1, 2, 2, 2, 3, 3, 3, 5, 6});
  CHECK(p.w == std::vector<int>{0, 1, 2, 3, 4, 2, 3, 4, 5, 6});
  CHECK(p.image == std::vector<bool>{false, false, true, true, true, true, true, true, false, false});
  // A tall image: the text after starts past the last row.
  const MropePositions tall = mrope_position_ids({.text_before = 0, .grid_h = 5, .grid_w = 1, .text_after = 1});
  CHECK(tall.t.back() == 5);
  CHECK(param_error_of([] { mrope_position_ids({.text_before = 1, .grid_h = 0, .grid_w = 1, .text_after = 1}); }) ==
        "grid-h: must be an integer in [1, 256], got 0");
}

TEST_CASE("per-axis score: the mean cosine over the pairs of that axis, 1 at offset 0") {
  const RopeParams rope{.head_dim = 16, .base = 10000.0};
  const std::vector<double> f = rope_inv_freq(rope);  // 8 pairs
  const std::vector<RopeAxis> axes{RopeAxis::t, RopeAxis::h, RopeAxis::w, RopeAxis::t,
                                   RopeAxis::h, RopeAxis::w, RopeAxis::t, RopeAxis::t};
  const std::vector<double> h = mrope_axis_score(f, axes, RopeAxis::h, 10);
  REQUIRE(h.size() == 11);
  CHECK(h[0] == 1.0);
  for (int d = 0; d <= 10; ++d) CHECK(h[std::size_t(d)] == Approx((std::cos(d * f[1]) + std::cos(d * f[4])) / 2).epsilon(1e-14));
  CHECK(mrope_axis_score(f, std::vector<RopeAxis>(8, RopeAxis::t), RopeAxis::w, 10).empty());
  CHECK(param_error_of([&] { mrope_axis_score(f, axes, RopeAxis::t, 0); }) ==
        "max-offset: must be an integer in [1, 1048576], got 0");
}

TEST_CASE("patch scores: per axis for M-RoPE, by the flattened offset for 1D RoPE") {
  const RopeParams rope{.head_dim = 8, .base = 100.0};
  const std::vector<double> f = rope_inv_freq(rope);  // 4 pairs: t, h, w, h
  const std::vector<RopeAxis> axes{RopeAxis::t, RopeAxis::h, RopeAxis::w, RopeAxis::h};
  const MropeSequence seq{.text_before = 3, .grid_h = 3, .grid_w = 5, .text_after = 0};
  const Matrix m = mrope_patch_scores(f, axes, seq, 1, 2, false);
  REQUIRE(m.rows == 3);
  REQUIRE(m.cols == 5);
  CHECK(m.at(1, 2) == Approx(1.0));
  // The patch above (dh = -1): pairs 1 and 3 turn by -1, pairs 0 and 2 not at all.
  CHECK(m.at(0, 2) == Approx((1 + std::cos(f[1]) + 1 + std::cos(f[3])) / 4).epsilon(1e-6));
  // Two to the right and one down: w pair by 2, h pairs by 1.
  CHECK(m.at(2, 4) == Approx((1 + std::cos(f[1]) + std::cos(2 * f[2]) + std::cos(f[3])) / 4).epsilon(1e-6));
  // Flattened: the patch above is grid_w = 5 tokens back, every pair turns by 5.
  const Matrix flat = mrope_patch_scores(f, axes, seq, 1, 2, true);
  double above = 0;
  for (double x : f) above += std::cos(5 * x);
  CHECK(flat.at(0, 2) == Approx(above / 4).epsilon(1e-6));
  CHECK(flat.at(1, 3) == Approx(flat.at(1, 1)).epsilon(1e-6));  // cos is even: one token either side
  CHECK(param_error_of([&] { mrope_patch_scores(f, axes, seq, 3, 0, false); }) == "patch: must lie inside the 3 x 5 grid");
}

TEST_CASE("the pair split in words: contiguous sections or the interleaved pattern") {
  using enum RopeAxis;
  CHECK(describe_pair_axis(std::vector<RopeAxis>{t, t, h, h, h, w}) == "contiguous: pairs 0-1 t, 2-4 h, 5-5 w");
  CHECK(describe_pair_axis(std::vector<RopeAxis>{t, h, w, t, h, w, t, t}) ==
        "interleaved: pairs 0, 1, 2, ... turn with t h w t h w ...; t 4, h 2, w 2 pairs");
  CHECK(describe_pair_axis(std::vector<RopeAxis>{}).empty());
}
