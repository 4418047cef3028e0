// AdamW update and the warm-up + cosine learning-rate schedule.
#include "core/train/adamw.hpp"

#include <algorithm>
#include <cmath>

#include "core/train/spare_cores.hpp"

namespace peviz::train {

void adamw_update(std::span<float> params, std::span<const float> grads, AdamWState& s, const AdamWConfig& c,
                  double lr) {
  if (s.m.size() != params.size()) {
    s.m.assign(params.size(), 0.0f);
    s.v.assign(params.size(), 0.0f);
  }
  ++s.t;
  const float b1 = float(c.beta1), b2 = float(c.beta2);
  const float correction1 = float(1.0 - std::pow(c.beta1, s.t)), correction2 = float(1.0 - std::pow(c.beta2, s.t));
  const float step = float(lr) / correction1, decay = float(1.0 - lr * c.weight_decay);
  const float eps = float(c.eps), inv_sqrt_c2 = 1.0f / std::sqrt(correction2);
  float* m = s.m.data();
  float* v = s.v.data();
  // Element by element (IEEE square root and division, no fused multiply-add), so any split gives the same bits.
  split_rows(params.size(), 64, 8.0 * double(params.size()), [&](std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) {
      const float g = grads[i];
      m[i] = b1 * m[i] + (1.0f - b1) * g;
      v[i] = b2 * v[i] + (1.0f - b2) * g * g;
      params[i] = params[i] * decay - step * m[i] / (std::sqrt(v[i]) * inv_sqrt_c2 + eps);
    }
  });
}

double learning_rate(int step, int total, double peak, int warmup) {
  if (step < warmup) return peak * double(step + 1) / double(warmup);
  const int span = std::max(1, total - 1 - warmup);
  const double progress = std::min(1.0, double(step - warmup) / double(span));
  return peak * 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress));
}

}  // namespace peviz::train
