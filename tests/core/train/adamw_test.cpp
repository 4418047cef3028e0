// AdamW's first updates and the warm-up + cosine schedule in closed form.
#include "core/train/adamw.hpp"

#include <cmath>
#include <cstring>
#include <random>

#include <catch2/catch.hpp>

#include "core/simd/simd_kernels.hpp"

using namespace peviz::train;

TEST_CASE("AdamW first step: decay then a step of lr against the gradient's sign", "[train][adamw]") {
  std::vector<float> p = {1.0f, -2.0f, 0.5f};
  const std::vector<float> g = {0.1f, -0.3f, 0.0f};
  AdamWState s;
  adamw_update(p, g, s, AdamWConfig{}, 1e-2);
  // t = 1: m_hat = g, v_hat = g^2, so the step is lr * g / (|g| + eps).
  REQUIRE(p.size() > 2);
  CHECK(p[0] == Approx(1.0 * (1 - 1e-4) - 1e-2 * 0.1 / (0.1 + 1e-8)).epsilon(1e-6));
  CHECK(p[1] == Approx(-2.0 * (1 - 1e-4) + 1e-2 * 0.3 / (0.3 + 1e-8)).epsilon(1e-6));
  CHECK(p[2] == Approx(0.5 * (1 - 1e-4)).epsilon(1e-7));
  // t = 2 with the same gradient: m_hat = g and v_hat = g^2 again.
  adamw_update(p, g, s, AdamWConfig{}, 1e-2);
  CHECK(s.t == 2);
  CHECK(p[0] == Approx((1.0 * (1 - 1e-4) - 1e-2) * (1 - 1e-4) - 1e-2).epsilon(1e-5));
}

TEST_CASE("AdamW and the moving average in double: the same closed forms to double's precision", "[train][adamw]") {
  std::vector<double> p = {1.0, -2.0, 0.5};
  const std::vector<double> g = {0.1, -0.3, 0.0};
  AdamWMoments<double> s;
  adamw_update(p, g, s, AdamWConfig{}, 1e-2);
  CHECK(p[0] == Approx(1.0 * (1 - 1e-4) - 1e-2 * 0.1 / (0.1 + 1e-8)).epsilon(1e-15));
  CHECK(p[1] == Approx(-2.0 * (1 - 1e-4) + 1e-2 * 0.3 / (0.3 + 1e-8)).epsilon(1e-15));
  CHECK(p[2] == 0.5 * (1 - 1e-4));
  adamw_update(p, g, s, AdamWConfig{}, 1e-2);
  const double bias2 = std::sqrt(1 - 0.999 * 0.999);  // t = 2: m_hat = g, v_hat = g^2 as at t = 1
  CHECK(p[0] == Approx((1.0 * (1 - 1e-4) - 1e-2 * 0.1 / (0.1 + 1e-8)) * (1 - 1e-4) -
                       1e-2 * 0.1 / (std::sqrt(0.1 * 0.1 * (1 - 0.999 * 0.999)) / bias2 + 1e-8)).epsilon(1e-14));
  std::vector<double> ema = {2.0};
  for (int k = 0; k < 50; ++k) ema_update(ema, std::vector<double>{-1.0}, 0.95);
  CHECK(ema[0] == Approx(-1.0 + std::pow(0.95, 50) * 3.0).epsilon(1e-13));
}

TEST_CASE("AdamW gives the same bits on the AVX-512, AVX2 and baseline builds, over vector bodies and tails",
          "[train][adamw][simd]") {
  std::mt19937 rng(5);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> start(1037), g(1037);
  for (std::size_t i = 0; i < start.size(); ++i) {
    start[i] = normal(rng);
    g[i] = i % 7 == 0 ? 0.0f : 1e-3f * normal(rng);
  }
  auto three_steps = [&](peviz::SimdPath widest) {
    peviz::cap_simd_path(widest);
    std::vector<float> p = start;
    AdamWState s;
    for (int t = 0; t < 3; ++t) adamw_update(p, g, s, AdamWConfig{}, 2e-3);
    peviz::cap_simd_path(peviz::SimdPath::avx512);
    return p;
  };
  const std::vector<float> plain = three_steps(peviz::SimdPath::baseline);
  CHECK(plain != start);
  for (peviz::SimdPath path : {peviz::SimdPath::avx2, peviz::SimdPath::avx512}) {
    if (!peviz::simd_path_supported(path)) {  // said in the output, so a pass here is not mistaken for a check
      WARN("SKIPPED: this CPU cannot run the " << peviz::to_string(path) << " path: its AdamW is not compared");
      continue;
    }
    const std::vector<float> wide = three_steps(path);
    CHECK(std::memcmp(wide.data(), plain.data(), wide.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("the weights' moving average: each step's float operations, and the closed form after k steps", "[train][adamw]") {
  std::vector<float> ema = {1.0f, -3.0f}, w = {0.25f, 5.0f};
  ema_update(ema, w, 0.9);
  CHECK(ema[0] == 0.9f * 1.0f + float(1.0 - 0.9) * 0.25f);
  CHECK(ema[1] == 0.9f * -3.0f + float(1.0 - 0.9) * 5.0f);
  // Constant weights w from e0: after k steps e = w + d^k (e0 - w).
  std::vector<float> ef = {2.0f};
  const std::vector<float> tf = {-1.0f};
  for (int k = 0; k < 50; ++k) ema_update(ef, tf, 0.95);
  CHECK(ef[0] == Approx(-1.0 + std::pow(0.95, 50) * 3.0).epsilon(1e-5));
  // Decay 0 is the weights themselves.
  ema_update(ema, w, 0.0);
  CHECK(ema == w);
}

TEST_CASE("learning rate: linear warm-up, cosine to zero at the last step", "[train][adamw]") {
  CHECK(learning_rate(0, 3000, 1e-3, 100) == Approx(1e-5));
  CHECK(learning_rate(99, 3000, 1e-3, 100) == Approx(1e-3));
  CHECK(learning_rate(100, 3000, 1e-3, 100) == Approx(1e-3));
  CHECK(learning_rate(100 + 2899 / 2, 3000, 1e-3, 100) == Approx(0.5e-3).epsilon(1e-3));
  CHECK(learning_rate(2999, 3000, 1e-3, 100) == Approx(0).margin(1e-15));
  CHECK(learning_rate(0, 1, 1e-3, 0) == Approx(1e-3));
}
