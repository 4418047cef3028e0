// The exact GELU: the double path against finite differences, the float kernel against double's erf,
// and every SIMD path of the float kernel against the others, bit for bit.
#include "core/train/gelu.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "core/train/layers.hpp"
#include "gradient_check.hpp"

using namespace peviz::train;
using peviz::SimdPath;

TEST_CASE("exact GELU of x + bias: closed form and backward", "[train][gelu]") {
  const int N = 4, C = 5;
  std::vector<double> inp = random_values(N * C, 9, 3.0), bias = random_values(C, 11), out(N * C), dgelu(N * C);
  const std::vector<double> R = random_values(N * C, 10);
  auto loss = [&] {
    gelu_forward(out.data(), dgelu.data(), inp.data(), bias.data(), N, C);
    return weighted_sum(out, R);
  };
  loss();
  std::vector<double> dinp(N * C, 7.0), dbias(C, 0.0);  // dinp is written, not added to
  gelu_backward(dinp.data(), dgelu.data(), R.data(), N * C);
  // The bias's gradient: the column sums of dinp, which the product's backward adds up.
  for (int i = 0; i < N * C; ++i) dbias[std::size_t(i % C)] += dinp[std::size_t(i)];
  check_gradient(inp, dinp, loss);
  check_gradient(bias, dbias, loss);
  const double x = 0.75, y = -0.5, b = 0.25, zero = 0;
  gelu_forward(&inp[0], &dgelu[0], &x, &b, 1, 1);
  CHECK(inp[0] == Approx(0.8413447460685429));  // Phi(1)
  gelu_forward(&inp[0], &dgelu[0], &y, &b, 1, 1);
  CHECK(inp[0] == Approx(-0.25 * 0.4012936743170763));  // -0.25 Phi(-0.25)
  gelu_forward(&inp[0], &dgelu[0], &zero, &zero, 1, 1);
  CHECK(inp[0] == 0.0);
  CHECK(dgelu[0] == 0.5);  // Phi(0)
}

TEST_CASE("float GELU (vectorised erfc and exp) against double's std::erf", "[train][gelu]") {
  // Measured on x = -10 .. 10 in steps of 1e-4 (2026-11-23): max |error| 3.8e-7 (GELU) and 2.1e-7
  // (derivative); relative error of the GELU 3.8e-7 for x >= -1 and 2.2e-6 for x >= -5 (the left tail
  // keeps its relative precision because Phi(-|x|) is computed as erfc, never as 1 - something). These are the
  // approximation's own errors, not a host's: every SIMD path gives the baseline's bits (the "every SIMD path
  // gives the same bits" cases below), so the limits hold on every host as they hold here.
  const int n = 200001;
  std::vector<float> x(n), no_bias(n), out(n), dgelu(n);
  for (int i = 0; i < n; ++i) x[std::size_t(i)] = float(-10.0 + 1e-4 * i);
  gelu_forward(out.data(), dgelu.data(), x.data(), no_bias.data(), 1, n);
  double worst_out = 0, worst_dgelu = 0, worst_rel_1 = 0, worst_rel_5 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double xi = x[i], cdf = 0.5 * std::erfc(-xi / std::sqrt(2.0));
    const double ref = xi * cdf, dref = cdf + xi * std::exp(-0.5 * xi * xi) / std::sqrt(2 * 3.14159265358979323846);
    worst_out = std::max(worst_out, std::abs(out[i] - ref));
    worst_dgelu = std::max(worst_dgelu, std::abs(dgelu[i] - dref));
    const double rel = ref == 0 ? std::abs(out[i]) : std::abs(out[i] - ref) / std::abs(ref);
    if (xi >= -1) worst_rel_1 = std::max(worst_rel_1, rel);
    if (xi >= -5) worst_rel_5 = std::max(worst_rel_5, rel);
  }
  CHECK(worst_out < 5e-7);
  CHECK(worst_dgelu < 3e-7);
  CHECK(worst_rel_1 < 5e-7);
  CHECK(worst_rel_5 < 3e-6);
  const float zero = 0, minus_twenty = -20, hundred = 100;  // exact values at 0 and in both far tails
  gelu_forward(out.data(), dgelu.data(), &zero, &zero, 1, 1);
  CHECK(out[0] == 0.0f);
  CHECK(dgelu[0] == 0.5f);
  gelu_forward(out.data(), dgelu.data(), &minus_twenty, &zero, 1, 1);
  CHECK(out[0] == 0.0f);
  CHECK(dgelu[0] == 0.0f);
  gelu_forward_float(SimdPath::baseline, out.data(), dgelu.data(), &hundred, &zero, 1);
  CHECK(out[0] == 100.0f);
  CHECK(dgelu[0] == 1.0f);
}

TEST_CASE("float GELU: every SIMD path gives the same bits, and the bias is added first", "[train][gelu]") {
  const int n = 100003;  // odd, so every path also runs its scalar tail
  std::vector<float> x(n), bias(n), x_plus_bias(n), no_bias(n);
  for (int i = 0; i < n; ++i) {
    bias[std::size_t(i)] = 0.125f * float(i % 5) - 0.25f;  // exact in float, so x + bias rounds once
    x[std::size_t(i)] = float(-15.0 + 3e-4 * i);
    x_plus_bias[std::size_t(i)] = x[std::size_t(i)] + bias[std::size_t(i)];
  }
  x[0] = -100.0f;  // under the exp's cut-off
  x[1] = 100.0f;
  x_plus_bias[0] = x[0] + bias[0];
  x_plus_bias[1] = x[1] + bias[1];
  std::vector<float> out0(n), d0(n), out1(n), d1(n);
  gelu_forward_float(SimdPath::baseline, out0.data(), d0.data(), x.data(), bias.data(), n);
  gelu_forward_float(SimdPath::baseline, out1.data(), d1.data(), x_plus_bias.data(), no_bias.data(), n);
  CHECK(std::memcmp(out1.data(), out0.data(), sizeof(float) * std::size_t(n)) == 0);
  CHECK(std::memcmp(d1.data(), d0.data(), sizeof(float) * std::size_t(n)) == 0);
  if (!peviz::simd_path_supported(SimdPath::avx2) && !peviz::simd_path_supported(SimdPath::avx512)) {
    WARN("SKIPPED: this CPU has neither AVX2 nor AVX-512: no SIMD GELU path to compare with the baseline");
    return;
  }
  for (SimdPath path : {SimdPath::avx2, SimdPath::avx512}) {
    if (!peviz::simd_path_supported(path)) {  // said in the output, so a pass here is not mistaken for a check
      WARN("SKIPPED: this CPU has no " << (path == SimdPath::avx2 ? "AVX2" : "AVX-512") << ": that GELU path is not compared");
      continue;
    }
    std::vector<float> out(n), d(n);
    gelu_forward_float(path, out.data(), d.data(), x.data(), bias.data(), n);
    CHECK(std::memcmp(out.data(), out0.data(), sizeof(float) * std::size_t(n)) == 0);
    CHECK(std::memcmp(d.data(), d0.data(), sizeof(float) * std::size_t(n)) == 0);
  }
}

TEST_CASE("the float GELU backward gives the same bits on every SIMD path, over bodies and tails",
          "[train][gelu][simd]") {
  const std::size_t n = 1037;  // odd, so every path also runs its scalar tail
  std::vector<float> dgelu(n), dout(n), want(n);
  for (std::size_t i = 0; i < n; ++i) {
    dgelu[i] = float(std::sin(0.37 * double(i))) * 1.3f;
    dout[i] = float(std::cos(0.11 * double(i))) * 1e-3f;
  }
  gelu_backward_float(SimdPath::baseline, want.data(), dgelu.data(), dout.data(), n);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(want[i] == dgelu[i] * dout[i]);
  for (SimdPath path : {SimdPath::avx2, SimdPath::avx512}) {
    if (!peviz::simd_path_supported(path)) {  // said in the output, so a pass here is not mistaken for a check
      WARN("SKIPPED: this CPU cannot run the " << peviz::to_string(path) << " path: its GELU backward is not compared");
      continue;
    }
    std::vector<float> got(n);
    gelu_backward_float(path, got.data(), dgelu.data(), dout.data(), n);
    CHECK(std::memcmp(got.data(), want.data(), sizeof(float) * n) == 0);
  }
}
