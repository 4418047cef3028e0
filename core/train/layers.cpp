// Pointwise and linear layers of the training engine: embedding, LayerNorm, matmul, residual, softmax
// cross-entropy (forward and backward each; attention and RoPE are in attention.cpp, GELU in gelu.cpp).
#include "core/train/layers.hpp"

#include <algorithm>
#include <cmath>

#include "core/train/gemm.hpp"
#include "core/train/spare_cores.hpp"

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

// LayerNorm works on kRowBlock rows at a time: every row's sums still run over c = 0, 1, ... in order, so
// each row gets the bits of a one-row loop, while the block's independent chains hide the adder's latency
// (a float sum in order cannot be vectorised along c without changing its rounding).
constexpr int kRowBlock = 8;

template <class T, int R>
void layernorm_stats(const T* x, int C, T* mean, T* rstd) {
  constexpr T eps = T(1e-5);
  T m[R] = {}, v[R] = {};
  for (int c = 0; c < C; ++c)
    for (int r = 0; r < R; ++r) m[r] += x[std::size_t(r) * std::size_t(C) + std::size_t(c)];
  for (int r = 0; r < R; ++r) m[r] /= T(C);
  for (int c = 0; c < C; ++c)
    for (int r = 0; r < R; ++r) {
      const T centred = x[std::size_t(r) * std::size_t(C) + std::size_t(c)] - m[r];
      v[r] += centred * centred;
    }
  for (int r = 0; r < R; ++r) {
    mean[r] = m[r];
    rstd[r] = T(1) / std::sqrt(v[r] / T(C) + eps);
  }
}

template <class T>
void layernorm_row(T* __restrict out, const T* __restrict x, const T* __restrict w, const T* __restrict bias, T m, T s,
                   int C) {
  for (int c = 0; c < C; ++c) out[c] = (x[c] - m) * s * w[c] + bias[c];
}

template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* w, const T* bias, int N, int C) {
  const std::size_t pc = std::size_t(C);
  split_rows(std::size_t(N), kRowBlock, 4.0 * N * C, [&](std::size_t first, std::size_t end) {
    std::size_t t = first;
    for (; t + kRowBlock <= end; t += kRowBlock) layernorm_stats<T, kRowBlock>(inp + t * pc, C, mean + t, rstd + t);
    for (; t < end; ++t) layernorm_stats<T, 1>(inp + t * pc, C, mean + t, rstd + t);
    for (t = first; t < end; ++t) layernorm_row(out + t * pc, inp + t * pc, w, bias, mean[t], rstd[t], C);
  });
}

// Per row: mean over c of dnorm = w dout and of dnorm * norm (R rows at a time, each in channel order).
template <class T, int R>
void layernorm_dnorm_means(const T* dout, const T* inp, const T* w, const T* mean, const T* rstd, int C,
                           T* dnorm_mean, T* dnorm_norm_mean) {
  T a[R] = {}, b[R] = {};
  for (int c = 0; c < C; ++c)
    for (int r = 0; r < R; ++r) {
      const std::size_t i = std::size_t(r) * std::size_t(C) + std::size_t(c);
      const T norm = (inp[i] - mean[r]) * rstd[r];
      const T dnorm = w[c] * dout[i];
      a[r] += dnorm;
      b[r] += dnorm * norm;
    }
  for (int r = 0; r < R; ++r) {
    dnorm_mean[r] = a[r] / T(C);
    dnorm_norm_mean[r] = b[r] / T(C);
  }
}

// One row's share of the gradients (the buffers never overlap, which lets the loop vectorise along c).
template <class T>
void layernorm_backward_row(T* __restrict dx, T* __restrict dw, T* __restrict dbias, const T* __restrict d,
                            const T* __restrict x, const T* __restrict w, T m, T s, T dnorm_mean, T dnorm_norm_mean,
                            int C) {
  for (int c = 0; c < C; ++c) {
    const T norm = (x[c] - m) * s;
    dbias[c] += d[c];
    dw[c] += norm * d[c];
    dx[c] += s * (w[c] * d[c] - dnorm_mean - norm * dnorm_norm_mean);
  }
}

template <class T>
void layernorm_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, const T* mean,
                        const T* rstd, int N, int C) {
  // llm.c layernorm_backward: dx = rstd * (dnorm - mean(dnorm) - norm * mean(dnorm * norm)).
  const std::size_t pc = std::size_t(C);
  for (int t0 = 0; t0 < N; t0 += kRowBlock) {
    const int rows = std::min(kRowBlock, N - t0);
    T dnorm_mean[kRowBlock], dnorm_norm_mean[kRowBlock];
    const std::size_t at = std::size_t(t0) * pc;
    if (rows == kRowBlock)
      layernorm_dnorm_means<T, kRowBlock>(dout + at, inp + at, w, mean + t0, rstd + t0, C, dnorm_mean, dnorm_norm_mean);
    else
      for (int r = 0; r < rows; ++r)
        layernorm_dnorm_means<T, 1>(dout + at + std::size_t(r) * pc, inp + at + std::size_t(r) * pc, w, mean + t0 + r,
                                    rstd + t0 + r, C, dnorm_mean + r, dnorm_norm_mean + r);
    for (int r = 0; r < rows; ++r) {
      const std::size_t row = at + std::size_t(r) * pc;
      layernorm_backward_row(dinp + row, dw, dbias, dout + row, inp + row, w, mean[t0 + r], rstd[t0 + r], dnorm_mean[r],
                             dnorm_norm_mean[r], C);
    }
  }
}

namespace {
// out[C, R] = in[R, C]^T by 16 x 16 tiles: each tile's rows and columns stay in a few cache lines.
template <class T>
void transpose(T* __restrict out, const T* __restrict in, std::size_t R, std::size_t C) {
  constexpr std::size_t kTile = 16;
  for (std::size_t r0 = 0; r0 < R; r0 += kTile)
    for (std::size_t c0 = 0; c0 < C; c0 += kTile) {
      const std::size_t r_end = std::min(R, r0 + kTile), c_end = std::min(C, c0 + kTile);
      for (std::size_t c = c0; c < c_end; ++c)
        for (std::size_t r = r0; r < r_end; ++r) out[c * R + r] = in[r * C + c];
    }
}
}  // namespace

template <class T>
void matmul_forward(T* out, const T* inp, const T* w, const T* bias, int N, int C, int OC, T* w_t, const T* residual) {
  transpose(w_t, w, std::size_t(OC), std::size_t(C));
  // Rows of the product split between cores: gemm computes each row the same way whatever rows it is given.
  auto rows = [&](std::size_t first, std::size_t end) {
    T* o = out + first * std::size_t(OC);
    for (std::size_t t = first; bias && t < end; ++t) {  // the rows the product accumulates onto
      T* row = out + t * std::size_t(OC);
      if (residual)
        std::transform(bias, bias + OC, residual + t * std::size_t(OC), row, [](T b, T r) { return r + b; });
      else
        std::copy(bias, bias + OC, row);
    }
    gemm(Op::none, Op::none, int(end - first), OC, C, T(1), inp + first * std::size_t(C), C, w_t, OC, T(bias ? 1 : 0),
         o, OC);
  };
  split_rows(std::size_t(N), kGemmRowAlign, double(N) * C * OC, rows, kMinGemmSplitWork);
}

template <class T>
void matmul_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, int N, int C, int OC) {
  const double work = double(N) * C * OC;
  auto dinp_rows = [&](std::size_t first, std::size_t end) {  // dinp = dout W
    gemm(Op::none, Op::none, int(end - first), C, OC, T(1), dout + first * std::size_t(OC), OC, w, C, T(0),
         dinp + first * std::size_t(C), C);
  };
  auto dw_rows = [&](std::size_t first, std::size_t end) {  // dW += dout^T inp, dbias += column sums of dout
    gemm(Op::transpose, Op::none, int(end - first), C, N, T(1), dout + first, OC, inp, C, T(1),
         dw + first * std::size_t(C), C);
    for (int t = 0; t < N; ++t) {
      const T* d = dout + std::size_t(t) * std::size_t(OC);
      for (std::size_t o = first; o < end; ++o) dbias[o] += d[o];
    }
  };
  split_rows(std::size_t(N), kGemmRowAlign, work, dinp_rows, kMinGemmSplitWork);
  split_rows(std::size_t(OC), kGemmRowAlign, work, dw_rows, kMinGemmSplitWork);
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
  template void matmul_forward<T>(T*, const T*, const T*, const T*, int, int, int, T*, const T*);           \
  template void matmul_backward<T>(T*, T*, T*, const T*, const T*, const T*, int, int, int);                \
  template double crossentropy_forward<T>(T*, const T*, const PackedBatch&, int);                           \
  template void crossentropy_backward<T>(T*, const T*, const PackedBatch&, int);
PEVIZ_INSTANTIATE_LAYERS(float)
PEVIZ_INSTANTIATE_LAYERS(double)

}  // namespace peviz::train
