// Tests for core/simd/simd_kernels: every path the CPU has gives the baseline's bits, and the values are right.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/encodings/absolute_encodings.hpp"
#include "core/simd/simd_kernels.hpp"

using namespace peviz;

namespace {
std::vector<SimdPath> supported_paths() {
  std::vector<SimdPath> paths;
  for (SimdPath p : {SimdPath::baseline, SimdPath::avx2, SimdPath::avx512}) {
    if (simd_path_supported(p))
      paths.push_back(p);
    else  // said in the output: the comparisons below then cover fewer paths
      WARN("SKIPPED: this CPU has no " << (p == SimdPath::avx2 ? "AVX2" : "AVX-512") << ": that kernel path is not compared");
  }
  return paths;
}

// The path the dispatcher picks uncapped: the widest this CPU has, narrowed by PEVIZ_SIMD where that is set (the
// suite's forced-AVX2 run, or a user's), so the dispatcher tests hold under every documented setting.
SimdPath widest_allowed() { return std::min(supported_paths().back(), simd_environment_cap()); }

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}
}  // namespace

TEST_CASE("the paths this machine has are the ones the dispatcher may pick") {
  CHECK(simd_path_supported(SimdPath::baseline));
  CHECK(simd_path_supported(best_simd_path()));
  INFO("best path: " << to_string(best_simd_path()));
  INFO("PEVIZ_SIMD's cap: " << to_string(simd_environment_cap()));
  CHECK(widest_allowed() == best_simd_path());
}

TEST_CASE("cap_simd_path narrows the dispatcher's pick and gives it back; names parse both ways") {
  const SimdPath widest = widest_allowed();
  cap_simd_path(SimdPath::baseline);
  CHECK(best_simd_path() == SimdPath::baseline);
  cap_simd_path(SimdPath::avx2);
  CHECK(best_simd_path() == (widest == SimdPath::baseline ? SimdPath::baseline : SimdPath::avx2));
  cap_simd_path(SimdPath::avx512);
  CHECK(best_simd_path() == widest);
  for (SimdPath p : {SimdPath::baseline, SimdPath::avx2, SimdPath::avx512}) CHECK(parse_simd_path(to_string(p)) == p);
  CHECK_FALSE(parse_simd_path("sse9").has_value());
  CHECK_FALSE(parse_simd_path("").has_value());
}

TEST_CASE("dot_rows: AVX-512, AVX2 and baseline agree to the bit, and with a double reference") {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (std::size_t n : {1u, 5u, 16u, 17u, 63u, 128u, 1001u}) {
    const std::size_t count = 11, stride = n + 3;  // 11 rows: two groups of four and three single rows
    std::vector<float> a(n), rows(count * stride);
    for (float& v : a) v = normal(rng);
    for (float& v : rows) v = normal(rng);
    std::vector<float> base(count);
    dot_rows(SimdPath::baseline, a.data(), rows.data(), stride, count, n, base.data());
    for (SimdPath path : supported_paths()) {
      INFO("n = " << n << ", path " << to_string(path));
      std::vector<float> out(count);
      dot_rows(path, a.data(), rows.data(), stride, count, n, out.data());
      CHECK(same_bits(out, base));
    }
    for (std::size_t i = 0; i < count; ++i) {
      double ref = 0, mag = 0;
      for (std::size_t k = 0; k < n; ++k) {
        ref += double(a[k]) * double(rows[i * stride + k]);
        mag += std::abs(double(a[k]) * double(rows[i * stride + k]));
      }
      // Higham's bound for a float dot product of n terms in any order: gamma_n sum |a_k b_k|.
      CHECK(std::abs(double(base[i]) - ref) <= double(n) * 0x1p-24 / (1 - double(n) * 0x1p-24) * mag + 1e-30);
      // dot(a, b) and dot(b, a) have the same bits: the similarity mirrors its upper triangle.
      float swapped = 0;
      dot_rows(best_simd_path(), rows.data() + i * stride, a.data(), n, 1, n, &swapped);
      CHECK(std::memcmp(&swapped, &base[i], sizeof(float)) == 0);
    }
  }
}

TEST_CASE("sinusoid_rows: every path gives the same bits, from any first row, close to sin and cos") {
  for (Layout layout : {Layout::interleaved, Layout::halves})
    for (int d : {1, 7, 64, 80, 111, 130}) {  // groups of 32 and of 8 frequencies, single ones, odd d
      const SinusoidPlan plan = make_sinusoid_plan(d, 10000.0, layout);
      const std::size_t L = 1300;  // three restart blocks, the last one partial
      std::vector<float> whole(L * std::size_t(d));
      sinusoid_rows(SimdPath::baseline, plan, 0, L, whole.data());
      for (SimdPath path : supported_paths()) {
        INFO("d = " << d << ", layout " << to_string(layout) << ", path " << to_string(path));
        std::vector<float> out(whole.size());
        sinusoid_rows(path, plan, 0, L, out.data());
        CHECK(same_bits(out, whole));
        // A block that starts mid-way (700 = 512 + 188) has the same rows as the whole table.
        std::vector<float> part(100 * std::size_t(d));
        sinusoid_rows(path, plan, 700, 100, part.data());
        CHECK(std::memcmp(part.data(), whole.data() + 700 * std::size_t(d), part.size() * sizeof(float)) == 0);
      }
      if (layout == Layout::interleaved && d >= 2) {
        // PE(t, 0) = sin(t), PE(t, 1) = cos(t) (w_0 = 1), Vaswani et al. 2017 §3.5.
        for (std::size_t t : {0u, 1u, 511u, 512u, 1299u}) {
          CHECK(whole[t * std::size_t(d)] == Approx(std::sin(double(t))).margin(1e-6));
          CHECK(whole[t * std::size_t(d) + 1] == Approx(std::cos(double(t))).margin(1e-6));
        }
      }
    }
}

namespace {
// The recurrence the kernel computes, written plainly one row and one frequency at a time: exact
// sin/cos at each multiple of kSinusoidRestart, then (s, c) rotated by (cos w, sin w) in double.
std::vector<float> plain_rotation_table(const SinusoidPlan& plan, std::size_t L) {
  const std::size_t n = plan.w.size(), d = std::size_t(plan.d_model);
  std::vector<float> out(L * d, 0.0f);
  std::vector<double> s(n), c(n);
  for (std::size_t t = 0; t < L; ++t) {
    if (t % kSinusoidRestart == 0)
      for (std::size_t i = 0; i < n; ++i) {
        s[i] = std::sin(double(t) * plan.w[i]);
        c[i] = std::cos(double(t) * plan.w[i]);
      }
    for (std::size_t i = 0; i < n; ++i) {
      const bool paired = i < plan.pairs;
      if (plan.interleaved) {
        out[t * d + 2 * i] = float(s[i]);
        if (paired) out[t * d + 2 * i + 1] = float(c[i]);
      } else {
        out[t * d + i] = float(s[i]);
        out[t * d + n + i] = float(c[i]);
      }
      const double ns = s[i] * plan.cos_w[i] + c[i] * plan.sin_w[i];
      const double nc = c[i] * plan.cos_w[i] - s[i] * plan.sin_w[i];
      s[i] = ns;
      c[i] = nc;
    }
  }
  return out;
}
}  // namespace

TEST_CASE("sinusoid_rows: the vector kernel has the bits of the plain per-row rotation") {
  for (Layout layout : {Layout::interleaved, Layout::halves})
    for (int d : {2, 9, 16, 48, 80, 111, 1024}) {
      const SinusoidPlan plan = make_sinusoid_plan(d, 10000.0, layout);
      const std::size_t L = 1100;  // restarts at 512 and 1024; runs of 16 rows end mid-block at 1100
      const std::vector<float> plain = plain_rotation_table(plan, L);
      for (SimdPath path : supported_paths()) {
        INFO("d = " << d << ", layout " << to_string(layout) << ", path " << to_string(path));
        std::vector<float> out(plain.size());
        sinusoid_rows(path, plan, 0, L, out.data());
        CHECK(same_bits(out, plain));
      }
    }
}
