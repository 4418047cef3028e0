// Dropout's masks: SplitMix64's published outputs, the fraction dropped, the keys of steps, layers and sites.
#include "core/train/dropout.hpp"

#include <vector>

#include <catch2/catch.hpp>

using namespace peviz;
using namespace peviz::train;

TEST_CASE("the element hash is SplitMix64's stream: its first outputs from seed 0 and 1234567", "[train][dropout]") {
  // Vigna's splitmix64.c: x += 0x9E3779B97F4A7C15, then the output function; from x = 0 the first output is
  // 0xE220A8397B1DCDAF, from x = 1234567 the first two are 6457827717110365317 and 3203168211198807973.
  CHECK(mix64(0 + kGolden) == 0xE220A8397B1DCDAFull);
  CHECK(mix64(1234567 + kGolden) == 6457827717110365317ull);
  CHECK(mix64(1234567 + 2 * kGolden) == 3203168211198807973ull);
}

TEST_CASE("a mask drops about p of its elements and scales the rest by 1 / (1 - p)", "[train][dropout]") {
  const Dropout d = training_dropout(0.25, 3, 17);
  const DropoutMask m = d.mask(1, DropoutSite::attention);
  CHECK(m.threshold == 4194304u);  // 0.25 * 2^24
  int dropped = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double f = m.factor<double>(std::uint64_t(i));
    CHECK((f == 0 || f == 1.0 / 0.75));
    dropped += f == 0;
  }
  CHECK(double(dropped) / n == Approx(0.25).margin(0.005));
  CHECK_FALSE(Dropout{}.on());
  CHECK_FALSE(Dropout{}.mask(0, DropoutSite::attention).on());
}

TEST_CASE("every step, layer and site has its own mask; the same ones give the same mask", "[train][dropout]") {
  auto bits = [](const DropoutMask& m) {
    std::vector<bool> out;
    for (std::uint64_t i = 0; i < 256; ++i) out.push_back(m.factor<float>(i) == 0);
    return out;
  };
  const DropoutMask base = training_dropout(0.5, 1, 0).mask(0, DropoutSite::attention);
  CHECK(bits(base) == bits(training_dropout(0.5, 1, 0).mask(0, DropoutSite::attention)));
  CHECK(bits(base) != bits(training_dropout(0.5, 2, 0).mask(0, DropoutSite::attention)));
  CHECK(bits(base) != bits(training_dropout(0.5, 1, 1).mask(0, DropoutSite::attention)));
  CHECK(bits(base) != bits(training_dropout(0.5, 1, 0).mask(1, DropoutSite::attention)));
  CHECK(bits(base) != bits(training_dropout(0.5, 1, 0).mask(0, DropoutSite::mlp_branch)));
}

TEST_CASE("a residual branch's dropout adds the masked, scaled branch to the stream", "[train][dropout]") {
  const DropoutMask m = training_dropout(0.5, 9, 4).mask(0, DropoutSite::mlp_branch);
  std::vector<float> branch = {1, 2, 3, 4, 5, 6, 7, 8}, x = {10, 20, 30, 40, 50, 60, 70, 80};
  std::vector<float> expected(8);
  for (std::size_t i = 0; i < 8; ++i) expected[i] = x[i] + branch[i] * m.factor<float>(i);
  dropout_residual(branch.data(), x.data(), 8, m);
  CHECK(branch == expected);
  std::vector<float> scaled(8);
  dropout_scale(scaled.data(), x.data(), 8, 0, m);
  for (std::size_t i = 0; i < 8; ++i) CHECK(scaled[i] == (m.factor<float>(i) == 0 ? 0.0f : 2.0f * x[i]));
}

TEST_CASE("every SIMD path's factors are the scalar hash's, over whole vectors and tails", "[train][dropout][simd]") {
  for (const double p : {0.1, 0.5, 0.9}) {
    const DropoutMask m = training_dropout(p, 5, 11).mask(2, DropoutSite::attention);
    for (const SimdPath path : {SimdPath::baseline, SimdPath::avx2, SimdPath::avx512}) {
      if (!simd_path_supported(path)) continue;
      for (const std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(64), std::size_t(259)}) {
        INFO("p " << p << ", " << to_string(path) << ", n " << n);
        const std::uint64_t first = 1000003;
        std::vector<float> f(n, -1.0f);
        dropout_factors(path, f.data(), n, first, m);
        bool same = true;
        for (std::size_t i = 0; i < n; ++i) same = same && f[i] == m.factor<float>(first + i);
        CHECK(same);
      }
    }
  }
  // Past one block of factors (256): the scaled values still follow the scalar hash, in place too.
  const DropoutMask m = training_dropout(0.3, 2, 0).mask(0, DropoutSite::attention_branch);
  std::vector<float> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i) + 0.5f;
  const std::vector<float> in = v;
  dropout_scale(v.data(), v.data(), v.size(), 77, m);
  bool same = true;
  for (std::size_t i = 0; i < v.size(); ++i) same = same && v[i] == in[i] * m.factor<float>(77 + i);
  CHECK(same);
}
