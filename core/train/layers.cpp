// Pointwise and linear layers of the training engine: embedding, LayerNorm, matmul, residual, softmax
// cross-entropy (forward and backward each; attention and RoPE are in attention.cpp, GELU in gelu.cpp).
#include "core/train/layers.hpp"

#include <algorithm>
#include <cmath>

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
  template void residual_forward<T>(T*, const T*, const T*, int);                                           \
  template void residual_backward<T>(T*, T*, const T*, int);                                                \
  template double crossentropy_forward<T>(T*, const T*, const PackedBatch&, int);                           \
  template void crossentropy_backward<T>(T*, const T*, const PackedBatch&, int);
PEVIZ_INSTANTIATE_LAYERS(float)
PEVIZ_INSTANTIATE_LAYERS(double)

}  // namespace peviz::train
