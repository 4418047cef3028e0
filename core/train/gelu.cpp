// Exact GELU forward and backward (float: vectorised kernel on three instruction sets; double: std::erf).
#include "core/train/gelu.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/train/exp_float.hpp"
#include "core/train/layers.hpp"
#include "core/train/spare_cores.hpp"

namespace peviz::train {

namespace {

// Phi(x) = 0.5 erfc(-x / sqrt 2) with erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z/2), z >= 0: the
// Chebyshev fit of Press et al., Numerical Recipes in C (2nd ed.) §6.2 "erfcc", fractional error below
// 1.2e-7 for every z >= 0, so Phi keeps its relative precision in the left tail (never 1 - something).
[[gnu::always_inline]] inline float normal_cdf_float(float x) {
  const float z = std::fabs(x) * 0.70710678118654752440f;
  const float t = 1.0f / (1.0f + 0.5f * z);
  float p = 0.17087277f;
  p = p * t - 0.82215223f;
  p = p * t + 1.48851587f;
  p = p * t - 1.13520398f;
  p = p * t + 0.27886807f;
  p = p * t - 0.18628806f;
  p = p * t + 0.09678418f;
  p = p * t + 0.37409196f;
  p = p * t + 1.00002368f;
  p = p * t - 1.26551223f;
  const float tail = 0.5f * t * exp_float(p - z * z);  // Phi(-|x|)
  return x < 0.0f ? tail : 1.0f - tail;
}

// d/dx x Phi(x) = Phi(x) + x phi(x), phi the standard normal density.
[[gnu::always_inline]] inline void gelu_float_body(float* __restrict out, float* __restrict dgelu,
                                                   const float* __restrict inp, int n) {
  constexpr float inv_sqrt_2pi = 0.39894228040143267794f;
  for (int i = 0; i < n; ++i) {
    const float x = inp[i], cdf = normal_cdf_float(x);
    out[i] = x * cdf;
    dgelu[i] = cdf + x * (inv_sqrt_2pi * exp_float(-0.5f * x * x));
  }
}

[[PEVIZ_AVX512]] void gelu_avx512(float* out, float* dgelu, const float* inp, int n) {
  gelu_float_body(out, dgelu, inp, n);
}
[[PEVIZ_AVX2]] void gelu_avx2(float* out, float* dgelu, const float* inp, int n) {
  gelu_float_body(out, dgelu, inp, n);
}
void gelu_baseline(float* out, float* dgelu, const float* inp, int n) { gelu_float_body(out, dgelu, inp, n); }

}  // namespace

void gelu_forward_float(SimdPath path, float* out, float* dgelu, const float* inp, int n) {
  switch (path) {
    case SimdPath::avx512: gelu_avx512(out, dgelu, inp, n); break;
    case SimdPath::avx2: gelu_avx2(out, dgelu, inp, n); break;
    default: gelu_baseline(out, dgelu, inp, n); break;
  }
}

template <class T>
void gelu_forward(T* out, T* dgelu, const T* inp, int n) {
  if constexpr (std::is_same_v<T, float>) {  // training; every element the same bits on any path, so any split
    const SimdPath path = best_simd_path();
    split_rows(std::size_t(n), 64, 16.0 * n, [&](std::size_t first, std::size_t end) {
      gelu_forward_float(path, out + first, dgelu + first, inp + first, int(end - first));
    });
  } else {  // gradient checks: the C library's erf and exp as the reference
    const T inv_sqrt2 = T(0.70710678118654752440), inv_sqrt_2pi = T(0.39894228040143267794);
    for (int i = 0; i < n; ++i) {
      const T x = inp[i];
      const T cdf = T(0.5) * (T(1) + std::erf(x * inv_sqrt2));
      out[i] = x * cdf;
      dgelu[i] = cdf + x * (inv_sqrt_2pi * std::exp(T(-0.5) * x * x));
    }
  }
}

template <class T>
void gelu_backward(T* dinp, const T* dgelu, const T* dout, int n) {
  split_rows(std::size_t(n), 64, double(n), [&](std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) dinp[i] = dgelu[i] * dout[i];
  });
}

template void gelu_forward<float>(float*, float*, const float*, int);
template void gelu_forward<double>(double*, double*, const double*, int);
template void gelu_backward<float>(float*, const float*, const float*, int);
template void gelu_backward<double>(double*, const double*, const double*, int);

}  // namespace peviz::train
