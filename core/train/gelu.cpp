// Exact GELU of a product plus its bias, forward and backward (float: one vectorised kernel; double: std::erf).
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

// erfc(z) = t H(t) e^(-z^2) with t = 1 / (1 + z/2), z >= 0: H(t) = erfcx(z) / t is smooth on t in [0, 1]
// (H(0) = 1 / (2 sqrt pi)), so one polynomial covers every z. The variable t is the one of Numerical Recipes'
// erfcc (Press et al., 2nd ed., §6.2); the degree-10 coefficients are a relative least-squares fit of H by
// bench/erfcx_fit.py (mpmath's erfc as the reference): 1.2e-8 in exact arithmetic, 1.7e-7 evaluated in float.
// Phi(-|x|) = 0.5 erfc(|x| / sqrt 2) keeps its relative precision in the left tail (never 1 - something), and
// the factor e^(-x^2 / 2) is the density's too, so one exp serves both.
[[gnu::always_inline]] inline float erfcx_over_t(float t) {
  float h = 4.319543391e-02f;
  h = h * t - 2.347335964e-01f;
  h = h * t + 4.936949313e-01f;
  h = h * t - 4.549739957e-01f;
  h = h * t + 1.321770400e-01f;
  h = h * t - 5.921135843e-02f;
  h = h * t + 9.346243739e-02f;
  h = h * t + 1.753159761e-01f;
  h = h * t + 2.468845695e-01f;
  h = h * t + 2.820937634e-01f;
  return h * t + 2.820948064e-01f;
}

// x = inp[i] + bias[i]: out[i] = x Phi(x), dgelu[i] = d/dx x Phi(x) = Phi(x) + x phi(x), phi the normal density.
[[gnu::always_inline]] inline void gelu_body(float* __restrict out, float* __restrict dgelu,
                                                   const float* __restrict inp, const float* __restrict bias, int n) {
  constexpr float inv_sqrt_2pi = 0.39894228040143267794f;
  for (int i = 0; i < n; ++i) {
    const float x = inp[i] + bias[i];
    const float z = std::fabs(x) * 0.70710678118654752440f;
    const float t = 1.0f / (1.0f + 0.5f * z);
    const float density = exp_float(-0.5f * x * x);  // e^(-z^2) = sqrt(2 pi) phi(x)
    const float tail = 0.5f * t * erfcx_over_t(t) * density;  // Phi(-|x|)
    const float cdf = blend(all_ones_if(x < 0.0f), tail, 1.0f - tail);  // both sides for every x: vectorises on AVX2
    out[i] = x * cdf;
    dgelu[i] = cdf + x * (inv_sqrt_2pi * density);
  }
}

PEVIZ_SIMD_BUILDS(gelu, (float* out, float* dgelu, const float* inp, const float* bias, int n),
                  (out, dgelu, inp, bias, n))

// dinp[i] = dgelu[i] dout[i]: the GELU backward, one IEEE product, so every build gives the same bits.
[[gnu::always_inline]] inline void gelu_backward_body(float* __restrict dinp, const float* __restrict dgelu,
                                                      const float* __restrict dout, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dinp[i] = dgelu[i] * dout[i];
}
PEVIZ_SIMD_BUILDS(gelu_backward, (float* dinp, const float* dgelu, const float* dout, std::size_t n),
                  (dinp, dgelu, dout, n))

}  // namespace

void gelu_backward_float(SimdPath path, float* dinp, const float* dgelu, const float* dout, std::size_t n) {
  on_path(path, gelu_backward_avx512, gelu_backward_avx2, gelu_backward_baseline)(dinp, dgelu, dout, n);
}

void gelu_forward_float(SimdPath path, float* out, float* dgelu, const float* inp, const float* bias, int n) {
  on_path(path, gelu_avx512, gelu_avx2, gelu_baseline)(out, dgelu, inp, bias, n);
}

template <class T>
void gelu_forward(T* out, T* dgelu, const T* inp, const T* bias, int N, int C) {
  const std::size_t pc = std::size_t(C);
  if constexpr (std::is_same_v<T, float>) {  // training; every element the same bits on any path, so any split
    const SimdPath path = best_simd_path();
    split_rows(std::size_t(N), 1, 16.0 * N * C, [&](std::size_t first, std::size_t end) {
      for (std::size_t r = first; r < end; ++r)
        gelu_forward_float(path, out + r * pc, dgelu + r * pc, inp + r * pc, bias, C);
    });
  } else {  // gradient checks: the C library's erf and exp as the reference
    const T inv_sqrt2 = T(0.70710678118654752440), inv_sqrt_2pi = T(0.39894228040143267794);
    for (std::size_t i = 0; i < std::size_t(N) * pc; ++i) {
      const T x = inp[i] + bias[i % pc];
      const T cdf = T(0.5) * (T(1) + std::erf(x * inv_sqrt2));
      out[i] = x * cdf;
      dgelu[i] = cdf + x * (inv_sqrt_2pi * std::exp(T(-0.5) * x * x));
    }
  }
}

template <class T>
void gelu_backward(T* dinp, const T* dgelu, const T* dout, int n) {
  if constexpr (std::is_same_v<T, float>) {  // training: the widest build the CPU has (the same bits on every one)
    const SimdPath path = best_simd_path();
    split_rows(std::size_t(n), 64, double(n), [&](std::size_t first, std::size_t end) {
      gelu_backward_float(path, dinp + first, dgelu + first, dout + first, end - first);
    });
  } else {
    split_rows(std::size_t(n), 64, double(n), [&](std::size_t first, std::size_t end) {
      for (std::size_t i = first; i < end; ++i) dinp[i] = dgelu[i] * dout[i];
    });
  }
}

template void gelu_forward<float>(float*, float*, const float*, const float*, int, int);
template void gelu_forward<double>(double*, double*, const double*, const double*, int, int);
template void gelu_backward<float>(float*, const float*, const float*, int);
template void gelu_backward<double>(double*, const double*, const double*, int);

}  // namespace peviz::train
