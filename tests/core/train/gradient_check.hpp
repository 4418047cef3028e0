// Test helper: central finite differences in double against an analytic gradient.
#pragma once
#include <cmath>
#include <cstddef>
#include <functional>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "core/train/packed_batch.hpp"

// Checks d loss / d x[i] for every i (or every `stride`-th) against `analytic[i]` by central
// differences with step h = 1e-5 (truncation error O(h^2) ~ 1e-10, rounding ~ 1e-11 / h ~ 1e-6 of the
// loss scale at worst): |fd - analytic| <= 1e-6 * max(1, |fd|).
inline void check_gradient(std::vector<double>& x, const std::vector<double>& analytic,
                           const std::function<double()>& loss, std::size_t stride = 1) {
  REQUIRE(x.size() == analytic.size());
  constexpr double h = 1e-5;
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); i += stride) {
    const double keep = x[i];
    x[i] = keep + h;
    const double up = loss();
    x[i] = keep - h;
    const double down = loss();
    x[i] = keep;
    const double fd = (up - down) / (2 * h);
    worst = std::max(worst, std::abs(fd - analytic[i]) / std::max(1.0, std::abs(fd)));
  }
  CHECK(worst <= 1e-6);
}

inline std::vector<double> random_values(std::size_t n, unsigned seed, double scale = 1.0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

// sum(out * weights): a scalar loss whose gradient with respect to out is `weights`.
inline double weighted_sum(const std::vector<double>& out, const std::vector<double>& weights) {
  double s = 0;
  for (std::size_t i = 0; i < out.size(); ++i) s += out[i] * weights[i];
  return s;
}

// Two packed sequences: {1, 4, 2} scored from token 0 and {3, 0, 2, 5, 1} scored from token 2 (4 targets).
inline peviz::train::PackedBatch two_sequences() {
  peviz::train::PackedBatch b;
  b.append({1, 4, 2}, 0);
  b.append({3, 0, 2, 5, 1}, 2);
  return b;
}
