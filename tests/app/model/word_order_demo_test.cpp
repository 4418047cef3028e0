// Tests for app/word_order_demo: both orders are the same bag of token vectors, their sums differ, and
// every sum is exactly token + sinusoidal position vector.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/model/word_order_demo.hpp"
#include "core/encodings/absolute_encodings.hpp"

using namespace peviz;
using namespace peviz::app;

TEST_CASE("the cat and the mouse: same bag of tokens, different sums") {
  const WordOrderDemo d = make_word_order_demo();
  REQUIRE(d.tokens_a.rows == 5);
  REQUIRE(d.tokens_a.cols == std::size_t(kWordOrderDim));
  CHECK(same_bag_of_rows(d.tokens_a, d.tokens_b));
  CHECK_FALSE(same_bag_of_rows(d.sums_a, d.sums_b));
  // The repeated words sit at the same positions (0 and 3: "the", 2: "chased"): same sums there.
  for (std::size_t r : {0u, 2u, 3u})
    for (std::size_t c = 0; c < d.sums_a.cols; ++c) CHECK(d.sums_a.at(r, c) == d.sums_b.at(r, c));
  // cat and mouse swapped places (1 and 4): their sums differ.
  for (std::size_t r : {1u, 4u}) {
    double diff = 0.0;
    for (std::size_t c = 0; c < d.sums_a.cols; ++c) diff += std::abs(d.sums_a.at(r, c) - d.sums_b.at(r, c));
    CHECK(diff > 0.1);
  }
}

TEST_CASE("each sum is the token vector plus core's sinusoidal position vector") {
  const WordOrderDemo d = make_word_order_demo();
  EncodingParams p;
  p.d_model = kWordOrderDim;
  p.seq_len = 5;
  const Matrix pe = encode(p);
  CHECK(d.positions.data == pe.data);
  CHECK(d.positions.at(1, 0) == Approx(std::sin(1.0)));
  for (std::size_t r = 0; r < 5; ++r)
    for (std::size_t c = 0; c < std::size_t(kWordOrderDim); ++c) {
      CHECK(d.sums_a.at(r, c) == d.tokens_a.at(r, c) + pe.at(r, c));
      CHECK(d.sums_b.at(r, c) == d.tokens_b.at(r, c) + pe.at(r, c));
    }
}

TEST_CASE("toy embeddings are fixed per word, in [-1, 1], and differ between words") {
  const auto cat = toy_token_embedding("cat", 8), mouse = toy_token_embedding("mouse", 8);
  CHECK(cat == toy_token_embedding("cat", 8));
  CHECK(cat != mouse);
  for (float v : cat) CHECK((v >= -1.0f && v <= 1.0f));
  const WordOrderDemo d = make_word_order_demo();
  for (std::size_t c = 0; c < 8; ++c) CHECK(d.tokens_a.at(1, c) == cat[c]);
  CHECK_FALSE(same_bag_of_rows(d.tokens_a, make_word_order_demo({"a", "b", "c", "d", "e"}, {"a", "b", "c", "d", "f"}).tokens_b));
}
