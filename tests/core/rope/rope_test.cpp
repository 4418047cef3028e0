// Tests for core/rope/rope: HF's default frequencies, both pairings, partial rotary, the shift property, decay.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "core/base/errors.hpp"
#include "tests/core/param_error.hpp"
#include "core/rope/rope.hpp"
#include "tests/core/rope/hf_rope_expected.hpp"

using namespace peviz;

static std::string param_of(const RopeParams& p) {
  return param_error_of([&] { validate(p); });
}

TEST_CASE("default inv_freq matches HF test_default_rope_numerically") {
  RopeParams p;  // LlamaConfig: hidden 4096 / 32 heads = head_dim 128, rope_theta 10000
  const std::vector<double> inv = rope_inv_freq(p);
  REQUIRE(inv.size() == 64);
  for (std::size_t j = 0; j < 64; ++j) CHECK(inv[j] == Approx(kHfDefaultInvFreq[j]).epsilon(6e-5));
}

TEST_CASE("validation names head-dim, rotary-dim and base") {
  RopeParams p;
  CHECK(param_of(p).empty());
  p.head_dim = 7;
  CHECK(param_of(p) == "head-dim: must be even, got 7");
  p = {};
  p.rotary_dim = 256;
  CHECK(param_of(p) == "rotary-dim: must not exceed --head-dim (128), got 256");
  p.rotary_dim = 3;
  CHECK(param_of(p).rfind("rotary-dim: must be even and hold at least one pair", 0) == 0);
  p = {};
  p.base = 1.0;
  CHECK(param_of(p).rfind("base:", 0) == 0);
}

TEST_CASE("pairings: halves rotates j with j + R/2, interleaved 2j with 2j+1") {
  RopeParams p;
  p.head_dim = 8;
  const std::vector<double> inv = rope_inv_freq(p);  // 1, 0.1, 0.01, 0.001
  std::vector<float> x(8, 0.0f), out(8);
  x[1] = 1.0f;  // channel 1
  const double t = 3.0;
  apply_rope(p, inv, x, t, out);  // halves: pair 1 = channels (1, 5)
  REQUIRE(out.size() > 5);
  CHECK(out[1] == Approx(std::cos(t * 0.1)));
  CHECK(out[5] == Approx(std::sin(t * 0.1)));
  CHECK(out[0] == 0.0f);
  CHECK(out[2] == 0.0f);
  p.pairing = RopePairing::interleaved;  // channel 1 is the second half of pair 0 = channels (0, 1)
  apply_rope(p, inv, x, t, out);
  CHECK(out[0] == Approx(-std::sin(t * 1.0)));
  CHECK(out[1] == Approx(std::cos(t * 1.0)));
  CHECK(out[5] == 0.0f);
}

TEST_CASE("partial rotary: frequencies use R and channels >= R pass through") {
  RopeParams p;
  p.head_dim = 64;
  p.rotary_dim = 16;
  const std::vector<double> inv = rope_inv_freq(p);
  REQUIRE(inv.size() == 8);
  CHECK(inv[1] == Approx(std::pow(10000.0, -2.0 / 16.0)));
  std::vector<float> x(64), out(64);
  for (int c = 0; c < 64; ++c) x[std::size_t(c)] = float(c + 1);
  apply_rope(p, inv, x, 7.0, out, 2.0);
  for (int c = 16; c < 64; ++c) CHECK(out[std::size_t(c)] == x[std::size_t(c)]);
  // The rotating part has its norm scaled by the attention factor 2.
  double n_in = 0, n_out = 0;
  for (int c = 0; c < 16; ++c) {
    n_in += double(x[std::size_t(c)]) * x[std::size_t(c)];
    n_out += double(out[std::size_t(c)]) * out[std::size_t(c)];
  }
  CHECK(n_out == Approx(4.0 * n_in).epsilon(1e-6));
}

TEST_CASE("p-RoPE: the fastest floor(p R/2) pairs keep their frequencies, the slower ones stand still") {
  RopeParams r;
  r.head_dim = 64;
  r.base = 10000.0;
  const std::vector<double> full = rope_inv_freq(r);
  r.rotated_fraction = 0.25;  // Gemma's rope_proportion 0.25: 8 of 32 pairs turn
  const std::vector<double> p = rope_inv_freq(r);
  REQUIRE(p.size() == 32);
  for (std::size_t j = 0; j < p.size(); ++j) {
    CAPTURE(j);
    CHECK(p[j] == (j < 8 ? full[j] : 0.0));
  }
  CHECK(p[7] == std::pow(10000.0, -14.0 / 64));
  r.rotated_fraction = 0.3;  // 9.6 pairs: the ninth does not turn (floor)
  CHECK(rope_inv_freq(r)[8] == full[8]);
  CHECK(rope_inv_freq(r)[9] == 0.0);
  r.rotated_fraction = 0.0;  // no pair turns: NoPE
  for (double f : rope_inv_freq(r)) CHECK(f == 0.0);
  r.rotated_fraction = 1.5;
  CHECK_THROWS_AS(validate(r), ParamError);
  r.rotated_fraction = -0.1;
  CHECK_THROWS_AS(validate(r), ParamError);
}

TEST_CASE("the score of positions m and n depends only on n - m") {
  std::mt19937 rng(7);
  std::normal_distribution<float> g;
  for (RopePairing pairing : {RopePairing::halves, RopePairing::interleaved}) {
    RopeParams p;
    p.head_dim = 32;
    p.rotary_dim = 24;
    p.pairing = pairing;
    const std::vector<double> inv = rope_inv_freq(p);
    std::vector<float> q(32), k(32);
    for (auto& v : q) v = g(rng);
    for (auto& v : k) v = g(rng);
    for (double m : {0.0, 5.0, 40.0}) {
      for (double r : {-9.0, 0.0, 3.0, 17.0}) {
        const double base = rope_score(p, inv, q, k, m, m + r);
        for (double shift : {1.0, 13.0, 500.0})
          CHECK(rope_score(p, inv, q, k, m + shift, m + r + shift) == Approx(base).margin(1e-4));
      }
    }
    // ... and it really changes with r.
    CHECK(std::abs(rope_score(p, inv, q, k, 0, 1) - rope_score(p, inv, q, k, 0, 2)) > 1e-3);
  }
}

TEST_CASE("block application places row t at first_position + t") {
  RopeParams p;
  p.head_dim = 4;
  const std::vector<double> inv = rope_inv_freq(p);
  Matrix block(3, 4, 0.0f), out;
  for (std::size_t t = 0; t < 3; ++t) block.at(t, 0) = 1.0f;
  apply_rope(p, inv, block, 10.0, out);
  for (std::size_t t = 0; t < 3; ++t) {
    CHECK(out.at(t, 0) == Approx(std::cos(10.0 + double(t))));
    CHECK(out.at(t, 2) == Approx(std::sin(10.0 + double(t))));
  }
}

TEST_CASE("RoFormer long-term decay: closed forms and agreement with rotated all-ones vectors") {
  RopeParams p;  // d = 128
  const std::vector<double> inv = rope_inv_freq(p);
  const Matrix d = rope_decay(inv, 128, 256);
  REQUIRE(d.rows == 257);
  CHECK(d.at(0, 1) == Approx(128.0));          // 2 * 64 * cos 0
  CHECK(d.at(0, 2) == Approx(65.0 / 2.0));     // (2/d) sum_{i=1..64} i = (d/2 + 1) / 2
  const std::vector<float> ones(128, 1.0f);
  for (int r : {1, 10, 100, 256}) {
    CHECK(d.at(std::size_t(r), 0) == float(r));
    CHECK(d.at(std::size_t(r), 1) == Approx(rope_score(p, inv, ones, ones, 0, r)).margin(1e-3));
    double s = 0;
    for (double f : inv) s += 2.0 * std::cos(r * f);
    CHECK(d.at(std::size_t(r), 1) == Approx(s).margin(1e-4));
  }
  // The bound decays: every r > 0 is below r = 0, and far distances are well below it.
  double tail = 0;
  for (int r = 200; r <= 256; ++r) {
    CHECK(d.at(std::size_t(r), 2) < d.at(0, 2));
    tail += d.at(std::size_t(r), 2) / 57.0;
  }
  CHECK(tail < 0.5 * d.at(0, 2));
  // Pass-through channels add one each to the all-ones score.
  const Matrix partial = rope_decay(std::vector<double>(inv.begin(), inv.begin() + 8), 128, 3);
  CHECK(partial.at(0, 1) == Approx(128.0));
}

TEST_CASE("wavelengths and full turns inside a context") {
  RopeParams p;
  p.head_dim = 8;
  const std::vector<double> inv = rope_inv_freq(p);  // 1, 0.1, 0.01, 0.001
  std::vector<double> scaled = inv;
  for (double& f : scaled) f /= 4.0;
  const Matrix w = rope_wavelengths(inv, scaled, {}, 100.0, 400.0);
  REQUIRE(w.rows == 4);
  CHECK(w.at(0, 1) == Approx(2 * std::numbers::pi));
  CHECK(w.at(3, 1) == Approx(2000 * std::numbers::pi));
  CHECK(w.at(3, 2) == Approx(8000 * std::numbers::pi));
  CHECK(w.at(1, 3) == Approx(100.0 / (20 * std::numbers::pi)));  // ~1.59 turns: completes one
  CHECK(w.at(2, 3) < 1.0f);                                     // 100 / 628: never completes one
  CHECK(w.at(1, 4) == Approx(w.at(1, 3)));                       // 4x context, 4x wavelength
  CHECK(std::isnan(w.at(0, 5)));
}

TEST_CASE("clock angles: position times frequency wrapped to [0, 2 pi)") {
  const std::vector<double> f = {1.0, 0.01, 1e-4};
  const auto a = rope_clock_angles(f, 7.0);
  REQUIRE(a.size() == 3);
  CHECK(a[0] == Approx(7.0 - 2 * std::numbers::pi));  // one full turn taken off
  CHECK(a[1] == Approx(0.07));
  CHECK(a[2] == Approx(7e-4));
  const auto neg = rope_clock_angles(f, -1.0);
  CHECK(neg[0] == Approx(2 * std::numbers::pi - 1.0));
  for (double t : {0.0, 1e3, 1e6})
    for (double v : rope_clock_angles(f, t)) CHECK((v >= 0.0 && v < 2 * std::numbers::pi));
}
