// AdamW update and the warm-up + cosine learning-rate schedule.
#include "core/train/adamw.hpp"

#include <algorithm>
#include <cmath>

#include "core/simd/simd_kernels.hpp"
#include "core/train/spare_cores.hpp"

namespace peviz::train {

namespace {

// One update's constants, the same for every element, in the weights' type.
template <class T>
struct AdamWStep {
  T b1, b2, step, decay, eps, inv_sqrt_c2;
};

template <class T>
AdamWStep<T> adamw_step(const AdamWConfig& c, int t, double lr) {
  const double correction1 = 1.0 - std::pow(c.beta1, t), correction2 = 1.0 - std::pow(c.beta2, t);
  return {.b1 = T(c.beta1),
          .b2 = T(c.beta2),
          .step = T(lr) / T(correction1),
          .decay = T(1.0 - lr * c.weight_decay),
          .eps = T(c.eps),
          .inv_sqrt_c2 = T(1) / std::sqrt(T(correction2))};
}

// Element by element (IEEE square root and division, no fused multiply-add: core builds with -ffp-contract=off), so
// any split and every build gives the same bits; only the width of the registers differs. The loop vectorises only
// because this file is compiled with -fno-math-errno (CMakeLists.txt): else std::sqrt keeps a branch to libm's
// sqrtf for a negative argument (to set errno), and the loop stays scalar on every path.
// The double engine's update (the parity tests' reference) runs the same body in double.
template <class T>
[[gnu::always_inline]] inline void adamw_body(T* __restrict p, T* __restrict m, T* __restrict v,
                                              const T* __restrict g, std::size_t n, const AdamWStep<T>& k) {
  for (std::size_t i = 0; i < n; ++i) {
    m[i] = k.b1 * m[i] + (T(1) - k.b1) * g[i];
    v[i] = k.b2 * v[i] + (T(1) - k.b2) * g[i] * g[i];
    p[i] = p[i] * k.decay - k.step * m[i] / (std::sqrt(v[i]) * k.inv_sqrt_c2 + k.eps);
  }
}
PEVIZ_SIMD_BUILDS(adamw, (float* p, float* m, float* v, const float* g, std::size_t n, const AdamWStep<float>& k),
                  (p, m, v, g, n, k))

template <class T>
void start_moments(AdamWMoments<T>& s, std::size_t n) {
  if (s.m.size() == n) return;
  s.m.assign(n, T(0));
  s.v.assign(n, T(0));
}

// ema = d * ema + c * w with d = T(decay), c = T(1 - decay) (see adamw.hpp).
template <class T>
void ema_body(std::span<T> ema, std::span<const T> weights, double decay) {
  const T d = T(decay), c = T(1.0 - decay);
  for (std::size_t i = 0; i < ema.size(); ++i) ema[i] = d * ema[i] + c * weights[i];
}

}  // namespace

void adamw_update(std::span<float> params, std::span<const float> grads, AdamWState& s, const AdamWConfig& c,
                  double lr) {
  start_moments(s, params.size());
  const AdamWStep<float> k = adamw_step<float>(c, ++s.t, lr);
  auto* update = on_path(best_simd_path(), adamw_avx512, adamw_avx2, adamw_baseline);
  split_rows(params.size(), 64, 8.0 * double(params.size()), [&](std::size_t first, std::size_t end) {
    update(params.data() + first, s.m.data() + first, s.v.data() + first, grads.data() + first, end - first, k);
  });
}

void adamw_update(std::span<double> params, std::span<const double> grads, AdamWMoments<double>& s,
                  const AdamWConfig& c, double lr) {
  start_moments(s, params.size());
  adamw_body(params.data(), s.m.data(), s.v.data(), grads.data(), params.size(), adamw_step<double>(c, ++s.t, lr));
}

void ema_update(std::span<float> ema, std::span<const float> weights, double decay) { ema_body(ema, weights, decay); }
void ema_update(std::span<double> ema, std::span<const double> weights, double decay) { ema_body(ema, weights, decay); }

double learning_rate(int step, int total, double peak, int warmup) {
  if (step < warmup) return peak * double(step + 1) / double(warmup);
  const int span = std::max(1, total - 1 - warmup);
  const double progress = std::min(1.0, double(step - warmup) / double(span));
  return peak * 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress));
}

}  // namespace peviz::train
