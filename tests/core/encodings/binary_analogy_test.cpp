// Tests for core/encodings/binary_analogy: the exact ladder matches the bits; the model's ladder does not; limits.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "core/encodings/binary_analogy.hpp"
#include "core/encodings/absolute_encodings.hpp"
#include "core/base/errors.hpp"

using namespace peviz;

TEST_CASE("bits_for counts the bits of positions-1") {
  CHECK(bits_for(1) == 1);
  CHECK(bits_for(2) == 1);
  CHECK(bits_for(16) == 4);
  CHECK(bits_for(17) == 5);
  CHECK(bits_for(256) == 8);
}

TEST_CASE("at morph 0 the sign of sin at period 2^(k+1) is exactly bit k") {
  BinaryAnalogy b;
  compute_binary_analogy(64, sinusoid_frequencies(128, 10000.0, Layout::interleaved), 0.0, b);
  REQUIRE(b.bits == 6);
  CHECK(b.agreeing == 64 * 6);
  for (int k = 0; k < b.bits; ++k) {
    CHECK(2 * std::numbers::pi / b.frequency[k] == Approx(std::ldexp(1.0, k + 1)));
  }
  CHECK(b.bit[5 * 6 + 0] == 1);  // t = 5 = 101b
  CHECK(b.bit[5 * 6 + 1] == 0);
  CHECK(b.bit[5 * 6 + 2] == 1);
}

TEST_CASE("at morph 1 with base 10000 the analogy breaks, with base-2-like frequencies it holds") {
  BinaryAnalogy b;
  compute_binary_analogy(32, sinusoid_frequencies(128, 10000.0, Layout::interleaved), 1.0, b);
  CHECK(b.agreeing < 32 * b.bits);
  REQUIRE(b.frequency.size() > 1);
  CHECK(b.frequency[1] == Approx(std::pow(10000.0, -2.0 / 128)));
  // A model whose pair frequencies are exactly pi/2^k agrees everywhere at any morph.
  std::vector<double> ladder;
  for (int k = 0; k < 8; ++k) ladder.push_back(std::numbers::pi / std::ldexp(1.0, k));
  compute_binary_analogy(32, ladder, 0.7, b);
  CHECK(b.agreeing == 32 * b.bits);
}

TEST_CASE("missing model pairs fall back to the ladder; curves are sampled sinusoids") {
  BinaryAnalogy b;
  compute_binary_analogy(16, {1.0}, 1.0, b);  // d_model 1 or 2: one pair only
  REQUIRE(b.frequency.size() > 3);
  CHECK(b.frequency[0] == Approx(1.0));
  CHECK(b.frequency[3] == Approx(std::numbers::pi / 8));
  REQUIRE(b.model.size() > 3);
  CHECK(std::isnan(b.model[3]));
  REQUIRE(b.curves.size() == std::size_t(b.bits) * b.curve_samples());
  const int n = b.curve_samples();
  CHECK(b.curves[std::size_t(2) * n + 3 * b.samples_per_position] == Approx(std::sin(b.frequency[2] * 3.5)));
}

TEST_CASE("the binary analogy refuses positions and morph outside the limits table") {
  BinaryAnalogy b;
  const std::vector<double> w = sinusoid_frequencies(16, 10000.0, Layout::interleaved);
  CHECK_THROWS_WITH(compute_binary_analogy(1, w, 0.0, b), Catch::Contains("positions"));
  CHECK_THROWS_WITH(compute_binary_analogy(257, w, 0.0, b), Catch::Contains("[2, 256]"));
  CHECK_THROWS_AS(compute_binary_analogy(16, w, 1.5, b), ParamError);
  CHECK_THROWS_AS(compute_binary_analogy(16, w, std::nan(""), b), ParamError);
  CHECK_NOTHROW(compute_binary_analogy(256, w, 1.0, b));
  CHECK(b.bits == 8);
}
