// Accuracy of the training engine's float GELU against double's std::erf, by band of x; prints a table.
//
// Not part of the build (docs/lab-runs/speed.md quotes its output); links against the built core library:
//   g++ -O3 -std=c++20 -I. bench/gelu_accuracy.cpp build/libpeviz_core.a $(pkg-config --libs openblas) \
//       -o /tmp/gelu_accuracy && /tmp/gelu_accuracy
// Column "erff formula": the float formula the engine used before, x * 0.5 * (1 + erff(x / sqrt 2)),
// which cancels in the left tail. The derivative's relative error is not meaningful near its zero (x ~ -0.75).
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/train/layers.hpp"

int main() {
  const int n = 200001;  // x = -10 .. 10 in steps of 1e-4
  std::vector<float> x(n), no_bias(n), out(n), dgelu(n);
  for (int i = 0; i < n; ++i) x[std::size_t(i)] = float(-10.0 + 1e-4 * i);
  peviz::train::gelu_forward(out.data(), dgelu.data(), x.data(), no_bias.data(), 1, n);
  const double bands[] = {-10, -5, -3, -1, 0, 1, 3, 10.0001};
  std::printf("band of x        max rel. error: GELU   erff formula   max abs. error: GELU   derivative\n");
  for (int b = 0; b + 1 < 8; ++b) {
    double rel = 0, rel_erff = 0, abs_gelu = 0, abs_deriv = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double xi = x[i];
      if (xi < bands[b] || xi >= bands[b + 1]) continue;
      const double cdf = 0.5 * std::erfc(-xi / std::sqrt(2.0)), ref = xi * cdf;
      const double dref = cdf + xi * std::exp(-0.5 * xi * xi) / std::sqrt(2 * 3.14159265358979323846);
      const float erff_formula = x[i] * (0.5f * (1.0f + std::erf(x[i] * 0.70710678118654752440f)));
      if (ref != 0) rel = std::max(rel, std::abs(out[i] - ref) / std::abs(ref));
      if (ref != 0) rel_erff = std::max(rel_erff, std::abs(erff_formula - ref) / std::abs(ref));
      abs_gelu = std::max(abs_gelu, std::abs(out[i] - ref));
      abs_deriv = std::max(abs_deriv, std::abs(dgelu[i] - dref));
    }
    std::printf("[%5.1f, %5.1f)   %22.2e %14.2e %22.2e %12.2e\n", bands[b], bands[b + 1], rel, rel_erff, abs_gelu, abs_deriv);
  }
}
