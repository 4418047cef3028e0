// Pointwise and linear layers of the training engine: embedding, LayerNorm, matmul, residual, softmax
// cross-entropy (forward and backward each; attention and RoPE are in attention.cpp, GELU in gelu.cpp).
#include "core/train/layers.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/train/gemm.hpp"
#include "core/train/spare_cores.hpp"

namespace peviz::train {

template <class T>
void embedding_forward(T* out, const PackedBatch& b, const T* wte, const T* wpe, int C) {
  [[maybe_unused]] const SimdPath path = best_simd_path();
  for (int t = 0; t < b.n_tokens(); ++t) {
    const T* tok = wte + std::size_t(b.tokens[std::size_t(t)]) * std::size_t(C);
    const T* pos = wpe ? wpe + std::size_t(b.positions[std::size_t(t)]) * std::size_t(C) : nullptr;
    T* o = out + std::size_t(t) * std::size_t(C);
    if (!pos) std::copy(tok, tok + C, o);
    else if constexpr (std::is_same_v<T, float>) add_float(path, o, tok, pos, std::size_t(C));
    else for (int c = 0; c < C; ++c) o[c] = tok[c] + pos[c];
  }
}

template <class T>
void embedding_backward(T* dwte, T* dwpe, const T* dout, const PackedBatch& b, int C) {
  [[maybe_unused]] const SimdPath path = best_simd_path();
  auto add_row = [&](T* acc, const T* d) {
    if constexpr (std::is_same_v<T, float>) accumulate_rows_float(path, acc, d, 0, 1, std::size_t(C));
    else for (int c = 0; c < C; ++c) acc[c] += d[c];
  };
  for (int t = 0; t < b.n_tokens(); ++t) {
    const T* d = dout + std::size_t(t) * std::size_t(C);
    add_row(dwte + std::size_t(b.tokens[std::size_t(t)]) * std::size_t(C), d);
    if (dwpe) add_row(dwpe + std::size_t(b.positions[std::size_t(t)]) * std::size_t(C), d);
  }
}

// A row's sum over c < C of term(c) by kLanes running sums (lane l adds c = l, l + kLanes, ...) closed by a fixed
// pairwise tree: the order of the additions is fixed by the source, so a row gets the same bits whatever rows a
// core is given, and the lanes are independent, so the loop vectorises without reassociating anything.
constexpr int kLanes = 16;

template <class T, class Term>
[[gnu::always_inline]] inline T lane_sum(int C, Term term) {
  T acc[kLanes] = {};
  int c = 0;
  for (; c + kLanes <= C; c += kLanes)
    for (int l = 0; l < kLanes; ++l) acc[l] += term(c + l);
  for (int l = 0; c + l < C; ++l) acc[l] += term(c + l);
  for (int width = kLanes / 2; width > 0; width /= 2)
    for (int l = 0; l < width; ++l) acc[l] += acc[l + width];
  return acc[0];
}

// The row functions below are inlined into each path's build of the float kernels (and into the double passes).
template <class T>
[[gnu::always_inline]] inline void layernorm_stats(const T* __restrict x, int C, T& mean, T& rstd) {
  constexpr T eps = T(1e-5);
  const T m = lane_sum<T>(C, [&](int c) { return x[c]; }) / T(C);
  const T var = lane_sum<T>(C, [&](int c) {
    const T centred = x[c] - m;
    return centred * centred;
  }) / T(C);
  mean = m;
  rstd = T(1) / std::sqrt(var + eps);
}

template <class T>
[[gnu::always_inline]] inline void layernorm_row(T* __restrict out, const T* __restrict x, const T* __restrict w,
                                                 const T* __restrict bias, T m, T s, int C) {
  for (int c = 0; c < C; ++c) out[c] = (x[c] - m) * s * w[c] + bias[c];
}

template <class T>
[[gnu::always_inline]] inline void layernorm_forward_rows(T* __restrict out, T* __restrict mean, T* __restrict rstd,
                                                          const T* __restrict inp, const T* __restrict w,
                                                          const T* __restrict bias, int N, int C) {
  const std::size_t pc = std::size_t(C);
  for (std::size_t t = 0; t < std::size_t(N); ++t) {
    layernorm_stats(inp + t * pc, C, mean[t], rstd[t]);
    layernorm_row(out + t * pc, inp + t * pc, w, bias, mean[t], rstd[t], C);
  }
}

template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* w, const T* bias, int N, int C) {
  const std::size_t pc = std::size_t(C);
  [[maybe_unused]] const SimdPath path = best_simd_path();
  split_rows(std::size_t(N), 1, 4.0 * N * C, [&](std::size_t first, std::size_t end) {
    if constexpr (std::is_same_v<T, float>)
      layernorm_forward_float(path, out + first * pc, mean + first, rstd + first, inp + first * pc, w, bias,
                              int(end - first), C);
    else
      layernorm_forward_rows(out + first * pc, mean + first, rstd + first, inp + first * pc, w, bias,
                             int(end - first), C);
  });
}

// One row's share of the gradients, given the row's means over c of dnorm = w dout and of dnorm * norm (the
// buffers never overlap, which lets the loop vectorise along c).
template <class T>
[[gnu::always_inline]] inline void layernorm_backward_row(T* __restrict dx, T* __restrict dw, T* __restrict dbias,
                                                          const T* __restrict d, const T* __restrict x,
                                                          const T* __restrict w, T m, T s,
                                                          const T* __restrict dresidual, int C) {
  const T dnorm_mean = lane_sum<T>(C, [&](int c) { return w[c] * d[c]; }) / T(C);
  const T dnorm_norm_mean = lane_sum<T>(C, [&](int c) { return w[c] * d[c] * ((x[c] - m) * s); }) / T(C);
  for (int c = 0; c < C; ++c) {
    const T norm = (x[c] - m) * s;
    dbias[c] += d[c];
    dw[c] += norm * d[c];
    const T dnorm_input = s * (w[c] * d[c] - dnorm_mean - norm * dnorm_norm_mean);
    dx[c] = dresidual ? dresidual[c] + dnorm_input : dnorm_input;
  }
}

template <class T>
[[gnu::always_inline]] inline void layernorm_backward_rows(T* dinp, T* dw, T* dbias, const T* dout, const T* inp,
                                                           const T* w, const T* mean, const T* rstd, int N, int C,
                                                           const T* dresidual) {
  // llm.c layernorm_backward: dx = rstd * (dnorm - mean(dnorm) - norm * mean(dnorm * norm)).
  const std::size_t pc = std::size_t(C);
  for (std::size_t t = 0; t < std::size_t(N); ++t)
    layernorm_backward_row(dinp + t * pc, dw, dbias, dout + t * pc, inp + t * pc, w, mean[t], rstd[t],
                           dresidual ? dresidual + t * pc : nullptr, C);
}

template <class T>
void layernorm_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, const T* mean,
                        const T* rstd, int N, int C, const T* dresidual) {
  if constexpr (std::is_same_v<T, float>)
    layernorm_backward_float(best_simd_path(), dinp, dw, dbias, dout, inp, w, mean, rstd, N, C, dresidual);
  else
    layernorm_backward_rows(dinp, dw, dbias, dout, inp, w, mean, rstd, N, C, dresidual);
}

namespace {

// Each float kernel's body, built once per path below.
[[gnu::always_inline]] inline void add_body(float* __restrict out, const float* __restrict a,
                                            const float* __restrict b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
[[gnu::always_inline]] inline void accumulate_rows_body(float* __restrict acc, const float* __restrict rows,
                                                        std::size_t stride, std::size_t count, std::size_t n) {
  for (std::size_t r = 0; r < count; ++r) {
    const float* __restrict row = rows + r * stride;
    for (std::size_t i = 0; i < n; ++i) acc[i] += row[i];
  }
}

// The same bodies as AVX-512, AVX2 and baseline functions (PEVIZ_SIMD_BUILDS, simd_kernels.hpp).
[[gnu::always_inline]] inline void layernorm_forward_body(float* out, float* mean, float* rstd, const float* inp,
                                                          const float* w, const float* bias, int N, int C) {
  layernorm_forward_rows(out, mean, rstd, inp, w, bias, N, C);
}
[[gnu::always_inline]] inline void layernorm_backward_body(float* dinp, float* dw, float* dbias, const float* dout,
                                                           const float* inp, const float* w, const float* mean,
                                                           const float* rstd, int N, int C, const float* dresidual) {
  layernorm_backward_rows(dinp, dw, dbias, dout, inp, w, mean, rstd, N, C, dresidual);
}

PEVIZ_SIMD_BUILDS(layernorm_forward,
                  (float* out, float* mean, float* rstd, const float* inp, const float* w, const float* bias, int N,
                   int C),
                  (out, mean, rstd, inp, w, bias, N, C))
PEVIZ_SIMD_BUILDS(layernorm_backward,
                  (float* dinp, float* dw, float* dbias, const float* dout, const float* inp, const float* w,
                   const float* mean, const float* rstd, int N, int C, const float* dresidual),
                  (dinp, dw, dbias, dout, inp, w, mean, rstd, N, C, dresidual))
PEVIZ_SIMD_BUILDS(add, (float* out, const float* a, const float* b, std::size_t n), (out, a, b, n))
PEVIZ_SIMD_BUILDS(accumulate_rows,
                  (float* acc, const float* rows, std::size_t stride, std::size_t count, std::size_t n),
                  (acc, rows, stride, count, n))

}  // namespace

void layernorm_forward_float(SimdPath path, float* out, float* mean, float* rstd, const float* inp, const float* w,
                             const float* bias, int N, int C) {
  on_path(path, layernorm_forward_avx512, layernorm_forward_avx2, layernorm_forward_baseline)(out, mean, rstd, inp, w,
                                                                                            bias, N, C);
}

void layernorm_backward_float(SimdPath path, float* dinp, float* dw, float* dbias, const float* dout, const float* inp,
                              const float* w, const float* mean, const float* rstd, int N, int C,
                              const float* dresidual) {
  on_path(path, layernorm_backward_avx512, layernorm_backward_avx2, layernorm_backward_baseline)(
      dinp, dw, dbias, dout, inp, w, mean, rstd, N, C, dresidual);
}

void add_float(SimdPath path, float* out, const float* a, const float* b, std::size_t n) {
  on_path(path, add_avx512, add_avx2, add_baseline)(out, a, b, n);
}

void accumulate_rows_float(SimdPath path, float* acc, const float* rows, std::size_t stride, std::size_t count,
                           std::size_t n) {
  on_path(path, accumulate_rows_avx512, accumulate_rows_avx2, accumulate_rows_baseline)(acc, rows, stride, count, n);
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
  [[maybe_unused]] const SimdPath path = best_simd_path();
  // Rows of the product split between cores where gemm computes each row the same way whatever rows it is given.
  auto rows = [&](std::size_t first, std::size_t end) {
    T* o = out + first * std::size_t(OC);
    for (std::size_t t = first; bias && t < end; ++t) {  // the rows the product accumulates onto
      T* row = out + t * std::size_t(OC);
      if (!residual)
        std::copy(bias, bias + OC, row);
      else if constexpr (std::is_same_v<T, float>)
        add_float(path, row, residual + t * std::size_t(OC), bias, std::size_t(OC));
      else
        std::transform(bias, bias + OC, residual + t * std::size_t(OC), row, [](T b, T r) { return r + b; });
    }
    gemm(Op::none, Op::none, int(end - first), OC, C, T(1), inp + first * std::size_t(C), C, w_t, OC, T(bias ? 1 : 0),
         o, OC);
  };
  const std::size_t align = gemm_split_align(Op::none, Op::none, N, OC, C, T(1), C, OC, T(bias ? 1 : 0), OC);
  split_rows(std::size_t(N), align, double(N) * C * OC, rows, kMinGemmSplitWork);
}

template <class T>
void matmul_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, int N, int C, int OC) {
  const double work = double(N) * C * OC;
  [[maybe_unused]] const SimdPath path = best_simd_path();
  auto dinp_rows = [&](std::size_t first, std::size_t end) {  // dinp = dout W
    gemm(Op::none, Op::none, int(end - first), C, OC, T(1), dout + first * std::size_t(OC), OC, w, C, T(0),
         dinp + first * std::size_t(C), C);
  };
  auto dw_rows = [&](std::size_t first, std::size_t end) {  // dW += dout^T inp, dbias += column sums of dout
    gemm(Op::transpose, Op::none, int(end - first), C, N, T(1), dout + first, OC, inp, C, T(1),
         dw + first * std::size_t(C), C);
    if constexpr (std::is_same_v<T, float>) {
      accumulate_rows_float(path, dbias + first, dout + first, std::size_t(OC), std::size_t(N), end - first);
    } else {
      for (int t = 0; t < N; ++t) {
        const T* d = dout + std::size_t(t) * std::size_t(OC);
        for (std::size_t o = first; o < end; ++o) dbias[o] += d[o];
      }
    }
  };
  split_rows(std::size_t(N), gemm_split_align(Op::none, Op::none, N, C, OC, T(1), OC, C, T(0), C), work, dinp_rows,
             kMinGemmSplitWork);
  split_rows(std::size_t(OC), gemm_split_align(Op::transpose, Op::none, OC, C, N, T(1), OC, C, T(1), C), work, dw_rows,
             kMinGemmSplitWork);
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
  template void layernorm_backward<T>(T*, T*, T*, const T*, const T*, const T*, const T*, const T*, int, int, \
                                      const T*);                                                            \
  template void matmul_forward<T>(T*, const T*, const T*, const T*, int, int, int, T*, const T*);           \
  template void matmul_backward<T>(T*, T*, T*, const T*, const T*, const T*, int, int, int);                \
  template double crossentropy_forward<T>(T*, const T*, const PackedBatch&, int);                           \
  template void crossentropy_backward<T>(T*, const T*, const PackedBatch&, int);
PEVIZ_INSTANTIATE_LAYERS(float)
PEVIZ_INSTANTIATE_LAYERS(double)

}  // namespace peviz::train
