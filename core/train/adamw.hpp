// AdamW and the learning-rate schedule of the lab, with PyTorch's semantics.
#pragma once
#include <span>
#include <vector>

namespace peviz::train {

struct AdamWConfig {
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.01;  // decoupled, on every parameter (Loshchilov & Hutter 2019)
};

template <class T>
struct AdamWMoments {
  std::vector<T> m, v;  // first and second moments, one per parameter
  int t = 0;            // updates done
};
using AdamWState = AdamWMoments<float>;  // the training engine's

// One update, torch.optim.AdamW (foreach=False) order: p -= lr * wd * p; m, v moving averages;
// p -= lr * m_hat / (sqrt(v_hat) + eps) with bias corrections 1 - beta^t.
void adamw_update(std::span<float> params, std::span<const float> grads, AdamWState& state, const AdamWConfig& c,
                  double lr);
// The same update in double (the double engine's, which the PyTorch twin's float64 build is checked against): the
// same body and constants, computed in double.
void adamw_update(std::span<double> params, std::span<const double> grads, AdamWMoments<double>& state,
                  const AdamWConfig& c, double lr);

// The exponential moving average of the weights, after an update: ema[i] = d * ema[i] + c * w[i] in float, with
// d = float(decay) and c = float(1 - decay) (1 - decay in double, then rounded), no fused multiply-add (the PyTorch
// twin: ema.mul_(decay).add_(w * (1 - decay)), the same operations).
// The double overload does the same in double.
void ema_update(std::span<float> ema, std::span<const float> weights, double decay);
void ema_update(std::span<double> ema, std::span<const double> weights, double decay);

// Learning rate for 0-based `step` of `total` steps: linear warm-up peak * (step + 1) / warmup over
// the first `warmup` steps, then cosine decay peak * 0.5 * (1 + cos(pi * progress)) with
// progress = (step - warmup) / (total - 1 - warmup), reaching 0 at the last step.
double learning_rate(int step, int total, double peak, int warmup);

}  // namespace peviz::train
