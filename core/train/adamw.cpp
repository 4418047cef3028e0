// AdamW update and the warm-up + cosine learning-rate schedule.
#include "core/train/adamw.hpp"

#include <algorithm>
#include <cmath>

#include "core/simd/simd_kernels.hpp"
#include "core/train/spare_cores.hpp"

namespace peviz::train {

namespace {

// One update's constants, the same for every element.
struct AdamWStep {
  float b1, b2, step, decay, eps, inv_sqrt_c2;
};

// Element by element (IEEE square root and division, no fused multiply-add: core builds with -ffp-contract=off), so
// any split and every build gives the same bits; only the width of the registers differs. The loop vectorises only
// because this file is compiled with -fno-math-errno (CMakeLists.txt): else std::sqrt keeps a branch to libm's
// sqrtf for a negative argument (to set errno), and the loop stays scalar on every path.
[[gnu::always_inline]] inline void adamw_body(float* __restrict p, float* __restrict m, float* __restrict v,
                                              const float* __restrict g, std::size_t n, const AdamWStep& k) {
  for (std::size_t i = 0; i < n; ++i) {
    m[i] = k.b1 * m[i] + (1.0f - k.b1) * g[i];
    v[i] = k.b2 * v[i] + (1.0f - k.b2) * g[i] * g[i];
    p[i] = p[i] * k.decay - k.step * m[i] / (std::sqrt(v[i]) * k.inv_sqrt_c2 + k.eps);
  }
}
PEVIZ_SIMD_BUILDS(adamw, (float* p, float* m, float* v, const float* g, std::size_t n, const AdamWStep& k),
                  (p, m, v, g, n, k))

}  // namespace

void adamw_update(std::span<float> params, std::span<const float> grads, AdamWState& s, const AdamWConfig& c,
                  double lr) {
  if (s.m.size() != params.size()) {
    s.m.assign(params.size(), 0.0f);
    s.v.assign(params.size(), 0.0f);
  }
  ++s.t;
  const double correction1 = 1.0 - std::pow(c.beta1, s.t), correction2 = 1.0 - std::pow(c.beta2, s.t);
  const AdamWStep k{.b1 = float(c.beta1),
                    .b2 = float(c.beta2),
                    .step = float(lr) / float(correction1),
                    .decay = float(1.0 - lr * c.weight_decay),
                    .eps = float(c.eps),
                    .inv_sqrt_c2 = 1.0f / std::sqrt(float(correction2))};
  auto* update = on_path(best_simd_path(), adamw_avx512, adamw_avx2, adamw_baseline);
  split_rows(params.size(), 64, 8.0 * double(params.size()), [&](std::size_t first, std::size_t end) {
    update(params.data() + first, s.m.data() + first, s.v.data() + first, grads.data() + first, end - first, k);
  });
}

void ema_update(std::span<float> ema, std::span<const float> weights, double decay) {
  const float d = float(decay), c = float(1.0 - decay);
  for (std::size_t i = 0; i < ema.size(); ++i) ema[i] = d * ema[i] + c * weights[i];
}

double learning_rate(int step, int total, double peak, int warmup) {
  if (step < warmup) return peak * double(step + 1) / double(warmup);
  const int span = std::max(1, total - 1 - warmup);
  const double progress = std::min(1.0, double(step - warmup) / double(span));
  return peak * 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress));
}

}  // namespace peviz::train
