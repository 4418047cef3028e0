// Liu et al. 2023's critical dimension and Men et al. 2024's B(m) bound on the RoPE base.
#include "core/rope_bounds.hpp"

#include <cmath>
#include <complex>
#include <vector>

#include "core/limits.hpp"
#include "core/rope.hpp"

namespace peviz {

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr long long kSearchLimit = 1LL << 24;

std::vector<double> thetas(int head_dim, double base) {
  RopeParams p;
  p.head_dim = head_dim;
  p.base = base;
  return rope_inv_freq(p);
}

// Walks m = 0, 1, ... with every pair's phasor rotated one step at a time (exact sin/cos again every
// 4096 steps, so the drift stays ~1e-12); returns the first m <= limit with sum cos < 0.
std::optional<long long> first_negative(const std::vector<double>& theta, long long limit) {
  const std::size_t n = theta.size();
  std::vector<std::complex<double>> step(n), z(n);
  for (std::size_t i = 0; i < n; ++i) step[i] = std::polar(1.0, theta[i]);
  for (long long m = 0; m <= limit; ++m) {
    if (m % 4096 == 0)
      for (std::size_t i = 0; i < n; ++i) z[i] = std::polar(1.0, double(m) * theta[i]);
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sum += z[i].real();
      z[i] *= step[i];
    }
    if (sum < 0) return m;
  }
  return std::nullopt;
}

// Smallest base (relative precision 1e-4) whose B(m) stays >= 0 for every m < L, by bisection on
// log(base) between just above 1 and 1e12 (Men et al. 2024 solve the same condition numerically).
double min_base(int head_dim, int L) {
  auto holds = [&](double base) { return !first_negative(thetas(head_dim, base), L - 1).has_value(); };
  double lo = std::log(1.0000001), hi = std::log(1e12);
  if (holds(std::exp(lo))) return std::exp(lo);
  while (hi - lo > 1e-4) {
    const double mid = 0.5 * (lo + hi);
    (holds(std::exp(mid)) ? hi : lo) = mid;
  }
  return std::exp(hi);
}

}  // namespace

void validate(const RopeBoundsParams& p) {
  RopeParams r;
  r.head_dim = p.head_dim;
  r.base = p.base;
  validate(r);
  check_int(limits::bounds_context_len, p.context_len);
}

double rope_similarity_bound(int head_dim, double base, long long m) {
  double sum = 0;
  for (double t : thetas(head_dim, base)) sum += std::cos(double(m) * t);
  return sum;
}

std::optional<long long> first_negative_rope_bound(int head_dim, double base, long long limit) {
  return first_negative(thetas(head_dim, base), limit);
}

RopeBounds rope_bounds(const RopeBoundsParams& p) {
  validate(p);
  RopeBounds b;
  const double d = p.head_dim;
  // Liu et al. 2023 Eq. 13.
  const double raw = 2.0 * std::ceil(d / 2.0 * std::log(p.context_len / kTwoPi) / std::log(p.base));
  b.d_extra = int(std::min(d, std::max(0.0, raw)));
  b.t_extra = kTwoPi * std::pow(p.base, b.d_extra / d);
  b.first_negative_m = first_negative_rope_bound(p.head_dim, p.base, kSearchLimit);
  b.min_base = min_base(p.head_dim, p.context_len);
  return b;
}

}  // namespace peviz
