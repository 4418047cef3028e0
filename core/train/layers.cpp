// Pointwise and linear layers of the training engine: embedding, LayerNorm, matmul, GELU, residual,
// softmax cross-entropy (forward and backward each; attention and RoPE are in attention.cpp).
#include "core/train/layers.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/train/gemm.hpp"

namespace peviz::train {

template <class T>
void embedding_forward(T* out, const PackedBatch& b, const T* wte, const T* wpe, int C) {
  for (int t = 0; t < b.n_tokens(); ++t) {
    const T* tok = wte + std::size_t(b.tokens[std::size_t(t)]) * std::size_t(C);
    const T* pos = wpe ? wpe + std::size_t(b.positions[std::size_t(t)]) * std::size_t(C) : nullptr;
    T* o = out + std::size_t(t) * std::size_t(C);
    for (int c = 0; c < C; ++c) o[c] = pos ? tok[c] + pos[c] : tok[c];
  }
}

template <class T>
void embedding_backward(T* dwte, T* dwpe, const T* dout, const PackedBatch& b, int C) {
  for (int t = 0; t < b.n_tokens(); ++t) {
    const T* d = dout + std::size_t(t) * std::size_t(C);
    T* tok = dwte + std::size_t(b.tokens[std::size_t(t)]) * std::size_t(C);
    for (int c = 0; c < C; ++c) tok[c] += d[c];
    if (!dwpe) continue;
    T* pos = dwpe + std::size_t(b.positions[std::size_t(t)]) * std::size_t(C);
    for (int c = 0; c < C; ++c) pos[c] += d[c];
  }
}

template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* w, const T* bias, int N, int C) {
  constexpr T eps = T(1e-5);
  for (int t = 0; t < N; ++t) {
    const T* x = inp + std::size_t(t) * std::size_t(C);
    T m = 0;
    for (int c = 0; c < C; ++c) m += x[c];
    m /= T(C);
    T v = 0;
    for (int c = 0; c < C; ++c) v += (x[c] - m) * (x[c] - m);
    v /= T(C);
    const T s = T(1) / std::sqrt(v + eps);
    T* o = out + std::size_t(t) * std::size_t(C);
    for (int c = 0; c < C; ++c) o[c] = (x[c] - m) * s * w[c] + bias[c];
    mean[t] = m;
    rstd[t] = s;
  }
}

template <class T>
void layernorm_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, const T* mean,
                        const T* rstd, int N, int C) {
  // llm.c layernorm_backward: dx = rstd * (dnorm - mean(dnorm) - norm * mean(dnorm * norm)).
  for (int t = 0; t < N; ++t) {
    const T* d = dout + std::size_t(t) * std::size_t(C);
    const T* x = inp + std::size_t(t) * std::size_t(C);
    T* dx = dinp + std::size_t(t) * std::size_t(C);
    const T m = mean[t], s = rstd[t];
    T dnorm_mean = 0, dnorm_norm_mean = 0;
    for (int c = 0; c < C; ++c) {
      const T norm = (x[c] - m) * s;
      const T dnorm = w[c] * d[c];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    dnorm_mean /= T(C);
    dnorm_norm_mean /= T(C);
    for (int c = 0; c < C; ++c) {
      const T norm = (x[c] - m) * s;
      dbias[c] += d[c];
      dw[c] += norm * d[c];
      dx[c] += s * (w[c] * d[c] - dnorm_mean - norm * dnorm_norm_mean);
    }
  }
}

template <class T>
void matmul_forward(T* out, const T* inp, const T* w, const T* bias, int N, int C, int OC) {
  for (int t = 0; t < N; ++t) std::copy(bias, bias + OC, out + std::size_t(t) * std::size_t(OC));
  gemm(Op::none, Op::transpose, N, OC, C, T(1), inp, C, w, C, T(1), out, OC);
}

template <class T>
void matmul_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, int N, int C, int OC) {
  gemm(Op::none, Op::none, N, C, OC, T(1), dout, OC, w, C, T(1), dinp, C);     // dinp += dout W
  gemm(Op::transpose, Op::none, OC, C, N, T(1), dout, OC, inp, C, T(1), dw, C);  // dW += dout^T inp
  for (int t = 0; t < N; ++t) {
    const T* d = dout + std::size_t(t) * std::size_t(OC);
    for (int o = 0; o < OC; ++o) dbias[o] += d[o];
  }
}

namespace {

// e^x in float by Cephes expf (S. L. Moshier, cephes/single/expf.c): x = k ln 2 + r with |r| <= ln(2)/2
// (ln 2 split in two constants so k ln 2 is exact), e^r by its degree-7 polynomial, 2^k written into the
// exponent bits. Straight-line arithmetic, so a loop over it vectorises. Valid for x <= 88; returns 0
// below -87 (under float's smallest normal the GELU needs no more).
inline float exp_float(float x) {
  const float xc = x < -87.0f ? -87.0f : x > 88.0f ? 88.0f : x;
  const float k = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  // nearest integer (1.5 * 2^23 trick)
  const float r = (xc - k * 0.693359375f) - k * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const float two_k = std::bit_cast<float>((std::int32_t(k) + 127) << 23);
  return x < -87.0f ? 0.0f : p * two_k;
}

// Phi(x) = 0.5 erfc(-x / sqrt 2) with erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z/2), z >= 0: the
// Chebyshev fit of Press et al., Numerical Recipes in C (2nd ed.) §6.2 "erfcc", fractional error below
// 1.2e-7 for every z >= 0, so Phi keeps its relative precision in the left tail. tests/core/train/
// layers_test.cpp measures the whole GELU against double's std::erf.
inline float normal_cdf_float(float x) {
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

}  // namespace

template <class T>
void gelu_forward(T* out, T* dgelu, const T* inp, int n) {
  // d/dx x Phi(x) = Phi(x) + x phi(x), phi the standard normal density.
  const T inv_sqrt_2pi = T(0.39894228040143267794);
  if constexpr (std::is_same_v<T, float>) {  // training: the vectorised float path above
#pragma omp simd
    for (int i = 0; i < n; ++i) {
      const float x = inp[i], cdf = normal_cdf_float(x);
      out[i] = x * cdf;
      dgelu[i] = cdf + x * (inv_sqrt_2pi * exp_float(-0.5f * x * x));
    }
  } else {  // gradient checks: the C library's erf and exp as the reference
    const T inv_sqrt2 = T(0.70710678118654752440);
    for (int i = 0; i < n; ++i) {
      const T x = inp[i];
      const T cdf = T(0.5) * (T(1) + std::erf(x * inv_sqrt2));
      out[i] = x * cdf;
      dgelu[i] = cdf + x * (inv_sqrt_2pi * std::exp(T(-0.5) * x * x));  // x * (c * e): fixed association, fixed bits
    }
  }
}

template <class T>
void gelu_backward(T* dinp, const T* dgelu, const T* dout, int n) {
  for (int i = 0; i < n; ++i) dinp[i] += dgelu[i] * dout[i];
}

template <class T>
void residual_forward(T* out, const T* a, const T* b, int n) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

template <class T>
void residual_backward(T* da, T* db, const T* dout, int n) {
  for (int i = 0; i < n; ++i) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}

template <class T>
double crossentropy_forward(T* probs, const T* logits, const PackedBatch& b, int V) {
  double loss = 0;
  for (int t = 0; t < b.n_tokens(); ++t) {
    const T* z = logits + std::size_t(t) * std::size_t(V);
    T* p = probs + std::size_t(t) * std::size_t(V);
    const T zmax = *std::max_element(z, z + V);
    T sum = 0;
    for (int v = 0; v < V; ++v) sum += (p[v] = std::exp(z[v] - zmax));
    for (int v = 0; v < V; ++v) p[v] /= sum;
    const int target = b.targets[std::size_t(t)];
    if (target >= 0) loss -= double(z[target] - zmax) - std::log(double(sum));
  }
  return b.n_targets > 0 ? loss / b.n_targets : 0.0;
}

template <class T>
void crossentropy_backward(T* dlogits, const T* probs, const PackedBatch& b, int V) {
  const T scale = b.n_targets > 0 ? T(1) / T(b.n_targets) : T(0);
  for (int t = 0; t < b.n_tokens(); ++t) {
    T* d = dlogits + std::size_t(t) * std::size_t(V);
    const int target = b.targets[std::size_t(t)];
    if (target < 0) {
      std::fill(d, d + V, T(0));
      continue;
    }
    const T* p = probs + std::size_t(t) * std::size_t(V);
    for (int v = 0; v < V; ++v) d[v] = (p[v] - (v == target ? T(1) : T(0))) * scale;
  }
}

#define PEVIZ_INSTANTIATE_LAYERS(T)                                                                         \
  template void embedding_forward<T>(T*, const PackedBatch&, const T*, const T*, int);                      \
  template void embedding_backward<T>(T*, T*, const T*, const PackedBatch&, int);                           \
  template void layernorm_forward<T>(T*, T*, T*, const T*, const T*, const T*, int, int);                   \
  template void layernorm_backward<T>(T*, T*, T*, const T*, const T*, const T*, const T*, const T*, int, int); \
  template void matmul_forward<T>(T*, const T*, const T*, const T*, int, int, int);                         \
  template void matmul_backward<T>(T*, T*, T*, const T*, const T*, const T*, int, int, int);                \
  template void gelu_forward<T>(T*, T*, const T*, int);                                                     \
  template void gelu_backward<T>(T*, const T*, const T*, int);                                              \
  template void residual_forward<T>(T*, const T*, const T*, int);                                           \
  template void residual_backward<T>(T*, T*, const T*, int);                                                \
  template double crossentropy_forward<T>(T*, const T*, const PackedBatch&, int);                           \
  template void crossentropy_backward<T>(T*, const T*, const PackedBatch&, int);
PEVIZ_INSTANTIATE_LAYERS(float)
PEVIZ_INSTANTIATE_LAYERS(double)

}  // namespace peviz::train
