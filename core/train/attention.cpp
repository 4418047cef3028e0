// Block-causal multi-head attention with ALiBi, T5 and FIRE biases, and RoPE on q and k (forward and backward).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/rope/rope.hpp"
#include "core/simd/simd_kernels.hpp"
#include "core/train/exp_float.hpp"
#include "core/train/gemm.hpp"
#include "core/train/layers.hpp"
#include "core/train/spare_cores.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace peviz::train {

template <class T>
RopeTable<T> make_rope_table(int head_dim, double base, int max_positions) {
  RopeParams p;
  p.head_dim = head_dim;
  p.base = base;
  p.pairing = RopePairing::halves;
  const std::vector<double> inv_freq = rope_inv_freq(p);
  RopeTable<T> table;
  table.pairs = head_dim / 2;
  table.cos.resize(std::size_t(max_positions) * inv_freq.size());
  table.sin.resize(table.cos.size());
  for (int pos = 0; pos < max_positions; ++pos)
    for (std::size_t j = 0; j < inv_freq.size(); ++j) {
      const double angle = double(pos) * inv_freq[j];
      table.cos[std::size_t(pos) * inv_freq.size() + j] = T(std::cos(angle));
      table.sin[std::size_t(pos) * inv_freq.size() + j] = T(std::sin(angle));
    }
  return table;
}

namespace {

// Rotates pair (x_j, x_{j+half}) of one head vector by +angle (sign = 1) or -angle (sign = -1):
// (x, y) -> (x cos - y sin, y cos + x sin), core/rope/rope.hpp's convention. The halves never overlap.
template <class T>
[[gnu::always_inline]] inline void rotate_head(T* __restrict lo, T* __restrict hi, const T* __restrict cos,
                                               const T* __restrict sin, int pairs, T sign) {
  for (int j = 0; j < pairs; ++j) {
    const T a = lo[j], b = hi[j], s = sign * sin[j];
    lo[j] = a * cos[j] - b * s;
    hi[j] = b * cos[j] + a * s;
  }
}

template <class T>
[[gnu::always_inline]] inline void rotate_qk_body(T* qkv, const PackedBatch& b, const RopeTable<T>& table, int C,
                                                  int heads, T sign) {
  const int hd = C / heads;
  for (int t = 0; t < b.n_tokens(); ++t) {
    const std::size_t row = std::size_t(b.positions[std::size_t(t)]) * std::size_t(table.pairs);
    T* q = qkv + std::size_t(t) * std::size_t(3 * C);
    for (int h = 0; h < heads; ++h)
      for (T* x : {q + h * hd, q + C + h * hd})
        rotate_head(x, x + table.pairs, &table.cos[row], &table.sin[row], table.pairs, sign);
  }
}

// The float rotation's builds for each path (the same operations in the same order: the same bits).
PEVIZ_SIMD_BUILDS(rotate_qk, (float* qkv, const PackedBatch& b, const RopeTable<float>& table, int C, int heads,
                              float sign),
                  (qkv, b, table, C, heads, sign))

template <class T>
void rotate_qk(T* qkv, const PackedBatch& b, const RopeTable<T>& table, int C, int heads, T sign) {
  if constexpr (std::is_same_v<T, float>)
    on_path(best_simd_path(), rotate_qk_avx512, rotate_qk_avx2, rotate_qk_baseline)(qkv, b, table, C, heads, sign);
  else
    rotate_qk_body(qkv, b, table, C, heads, sign);
}

// row[j] = e^(row[j] - shift), j < n, by exp_float (blends, no branch: vectorised on every path).
[[gnu::always_inline]] inline void exp_shifted_body(float* __restrict row, int n, float shift) {
  for (int j = 0; j < n; ++j) row[j] = exp_float(row[j] - shift);
}
PEVIZ_SIMD_BUILDS(exp_shifted, (float* row, int n, float shift), (row, n, shift))

}  // namespace

void exp_shifted_float(SimdPath path, float* row, int n, float shift) {
  on_path(path, exp_shifted_avx512, exp_shifted_avx2, exp_shifted_baseline)(row, n, shift);
}

namespace {

// Products q.k to probabilities in place for one [L, L] block: scale them, add the bias (fire: this block's FIRE
// bias), mask j > i, softmax each row (the max and the sum in column order, so every build gives the same bits).
// The float exps run over the whole block at once, so that they fill whole vectors: each row's scores are shifted by
// the row's max first (the same subtraction the exp of the shifted score did), the values above the diagonal (the
// bare products, finite) go through the exp too, and are zeroed after.
// The length scale of row i (n = i + 1 keys; model.hpp LengthScale): SSMax's s_h ln n, log-n's max(1, ln n / ln L),
// else 1. ln n in double, rounded once to T.
template <class T>
T length_scale_of(const AttentionBias<T>& bias, int h, int i) {
  const double ln_n = std::log(double(i) + 1.0);
  if (bias.ssmax_s) return bias.ssmax_s[h] * T(ln_n);
  if (bias.logn_length > 0) return T(std::max(1.0, ln_n / std::log(bias.logn_length)));
  return T(1);
}
template <class T>
bool has_length_scale(const AttentionBias<T>& bias) { return bias.ssmax_s || bias.logn_length > 0; }

// Row i of one [L, L] block of products q.k, j <= i, to the biased scores u: times the scale, plus the bias (fire:
// this block's FIRE bias).
template <class T>
[[gnu::always_inline]] inline void bias_row(T* __restrict row, int i, int L, int h, T scale, const AttentionBias<T>& bias,
                                            const T* __restrict fire) {
  const double* __restrict slopes = bias.alibi_slopes;
  const T* __restrict t5 = bias.t5_table ? bias.t5_table + h * bias.t5_buckets : nullptr;
  const int* __restrict bucket = bias.t5_bucket;
  for (int j = 0; j <= i; ++j) {
    row[j] *= scale;
    if (slopes) row[j] -= T(slopes[h] * double(i - j));  // Press et al. 2022
    if (t5) row[j] += t5[bucket[i - j]];
    if (fire) row[j] += fire[std::size_t(i) * std::size_t(L) + std::size_t(j)];
  }
}

template <class T>
[[gnu::always_inline]] inline void bias_mask_softmax_body(T* __restrict P, int L, int h, T scale,
                                                          const AttentionBias<T>& bias, const T* __restrict fire) {
  const bool length_scaled = has_length_scale(bias);
  for (int i = 0; i < L; ++i) {
    T* __restrict row = P + std::size_t(i) * std::size_t(L);
    bias_row(row, i, L, h, scale, bias, fire);
    if (length_scaled) {
      const T c = length_scale_of(bias, h, i);
      for (int j = 0; j <= i; ++j) row[j] *= c;
    }
    const T zmax = *std::max_element(row, row + i + 1);
    if constexpr (std::is_same_v<T, float>) {
      for (int j = 0; j <= i; ++j) row[j] -= zmax;
    } else {  // the gradient checks: the C library's exp
      for (int j = 0; j <= i; ++j) row[j] = std::exp(row[j] - zmax);
    }
  }
  if constexpr (std::is_same_v<T, float>) exp_shifted_body(P, L * L, 0.0f);  // x - 0 = x: no bit changes
  for (int i = 0; i < L; ++i) {
    T* __restrict row = P + std::size_t(i) * std::size_t(L);
    T sum = 0;
    for (int j = 0; j <= i; ++j) sum += row[j];
    for (int j = 0; j <= i; ++j) row[j] /= sum;
    std::fill(row + i + 1, row + L, T(0));
  }
}

// The softmax's backward for one [L, L] block in place: dS = P (dP - sum_k P dP), row by row (the sum in column
// order), 0 above the diagonal.
template <class T>
[[gnu::always_inline]] inline void softmax_backward_body(T* __restrict dS, const T* __restrict P, int L) {
  for (int i = 0; i < L; ++i) {
    const T* __restrict p = P + std::size_t(i) * std::size_t(L);
    T* __restrict d = dS + std::size_t(i) * std::size_t(L);
    T dot = 0;
    for (int j = 0; j <= i; ++j) dot += p[j] * d[j];
    for (int j = 0; j <= i; ++j) d[j] = p[j] * (d[j] - dot);
    std::fill(d + i + 1, d + L, T(0));
  }
}

// Both as AVX-512, AVX2 and baseline functions (the same operations in the same order: the same bits).
PEVIZ_SIMD_BUILDS(bias_mask_softmax,
                  (float* P, int L, int h, float scale, const AttentionBias<float>& bias, const float* fire),
                  (P, L, h, scale, bias, fire))
PEVIZ_SIMD_BUILDS(softmax_backward, (float* dS, const float* P, int L), (dS, P, L))

template <class T>
void bias_mask_softmax(T* P, int L, int h, T scale, const AttentionBias<T>& bias, const T* fire) {
  if constexpr (std::is_same_v<T, float>)
    on_path(best_simd_path(), bias_mask_softmax_avx512, bias_mask_softmax_avx2, bias_mask_softmax_baseline)(
        P, L, h, scale, bias, fire);
  else
    bias_mask_softmax_body(P, L, h, scale, bias, fire);
}

template <class T>
void softmax_backward(T* dS, const T* P, int L) {
  if constexpr (std::is_same_v<T, float>)
    on_path(best_simd_path(), softmax_backward_avx512, softmax_backward_avx2, softmax_backward_baseline)(dS, P, L);
  else
    softmax_backward_body(dS, P, L);
}

// Calls fn(L, first token, offset of the [L, L] probability block, head, first head of the range) for every
// sequence and head, the heads split between cores: each head writes only its own columns and its own T5 row,
// in sequence order, so a split changes no bit.
template <class Fn>
void for_each_sequence_head(const PackedBatch& b, int heads, int head_dim, Fn fn) {
  const std::vector<int> off = attention_offsets(b, heads);
  const double work = 2.0 * double(off.back()) * head_dim;
  split_rows(std::size_t(heads), 1, work, [&](std::size_t first_head, std::size_t end_head) {
    for (int s = 0; s < b.n_seqs(); ++s) {
      const int L = b.seq_len[std::size_t(s)];
      for (int h = int(first_head); h < int(end_head); ++h)
        fn(L, std::size_t(b.seq_start[std::size_t(s)]), std::size_t(off[std::size_t(s)]) + std::size_t(h * L * L), h,
           int(first_head));
    }
  });
}

// D = the probabilities P of one [L, L] block times dropout's factors (element att_offset + i L + j), 0 above the
// diagonal.
template <class T>
void dropped_probabilities(T* D, const T* P, int L, std::size_t att_offset, const DropoutMask& dropout) {
  for (int i = 0; i < L; ++i) {
    const std::size_t row = std::size_t(i) * std::size_t(L);
    dropout_scale(D + row, P + row, std::size_t(i) + 1, att_offset + row, dropout);
    std::fill(D + row + std::size_t(i) + 1, D + row + std::size_t(L), T(0));
  }
}

#if defined(__x86_64__) || defined(__i386__)
// out[c ldo + j] = x[j ld + c] for j, c < 8: eight rows in, eight columns out (a copy: no arithmetic, so no bit to
// differ from the scalar loop's).
[[PEVIZ_AVX2]] void transpose_8x8(const float* x, std::size_t ld, float* out, std::size_t ldo) {
  __m256 r[8], t[8];
  for (std::size_t i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(x + i * ld);
  for (std::size_t i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);  // rows i, i + 1 interleaved: columns 0, 1 (4, 5)
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);  // columns 2, 3 (6, 7)
  }
  for (std::size_t i = 0; i < 8; i += 4) {
    r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);  // rows i..i+3 of columns 0 (4)
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee);  // of columns 1 (5)
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);  // of columns 2 (6)
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);  // of columns 3 (7)
  }
  for (std::size_t c = 0; c < 4; ++c) {
    _mm256_storeu_ps(out + c * ldo, _mm256_permute2f128_ps(r[c], r[c + 4], 0x20));
    _mm256_storeu_ps(out + (c + 4) * ldo, _mm256_permute2f128_ps(r[c], r[c + 4], 0x31));
  }
}
#endif

// X^T of one head's [L, hd] rows of X (leading dimension ld) as [hd, L] rows, in this thread's buffer (grown to the
// longest block once): the products with K^T and V^T then read both operands as stored, which LIBXSMM generates
// (gemm.cpp), where a transposed B went to OpenBLAS, whose small products cost 1.7x LIBXSMM's on AVX2. Float blocks
// of 8 x 8 go through AVX registers on the AVX2 and AVX-512 paths.
template <class T>
const T* transposed_head(const T* x, std::size_t ld, int L, int hd) {
  thread_local std::vector<T> buffer;
  const std::size_t l = std::size_t(L), h = std::size_t(hd);
  if (buffer.size() < l * h) buffer.resize(l * h);
  std::size_t blocked_j = 0, blocked_c = 0;
#if defined(__x86_64__) || defined(__i386__)
  if constexpr (std::is_same_v<T, float>) {
    if (best_simd_path() != SimdPath::baseline) {
      blocked_j = l / 8 * 8, blocked_c = h / 8 * 8;
      for (std::size_t j = 0; j < blocked_j; j += 8)
        for (std::size_t c = 0; c < blocked_c; c += 8) transpose_8x8(x + j * ld + c, ld, &buffer[c * l + j], l);
    }
  }
#endif
  for (std::size_t j = 0; j < l; ++j)  // what the blocks left: the last columns of every row, the last rows
    for (std::size_t c = j < blocked_j ? blocked_c : 0; c < h; ++c) buffer[c * l + j] = x[j * ld + c];
  return buffer.data();
}

// rows[i ld + c] *= scale for i < L, c < hd: the scale of a product after it (LIBXSMM generates alpha 1 only).
template <class T>
void scale_head(T* rows, std::size_t ld, int L, int hd, T scale) {
  for (std::size_t i = 0; i < std::size_t(L); ++i)
    for (std::size_t c = 0; c < std::size_t(hd); ++c) rows[i * ld + c] *= scale;
}

// dz (the gradient of the scaled scores z = c_i u) to du = c_i dz in place; with SSMax, ds_h += sum_i ln(i + 1)
// sum_j dz_ij u_ij first, u recomputed into U (q k^T, then bias_row: the forward's bits).
template <class T>
void length_scale_backward(T* dS, const AttentionBiasGrads<T>& dbias, const T* q, int C, int hd, int L, int h,
                           T scale, const AttentionBias<T>& bias, std::size_t att_offset, T* U) {
  if (dbias.ssmax_s) {
    gemm(Op::none, Op::none, L, L, hd, T(1), q, 3 * C, transposed_head(q + C, std::size_t(3 * C), L, hd), L, T(0), U, L);
    const T* fire = bias.fire ? bias.fire + att_offset : nullptr;
    T ds = 0;
    for (int i = 1; i < L; ++i) {  // row 0: ln 1 = 0
      T* u = U + std::size_t(i) * std::size_t(L);
      bias_row(u, i, L, h, scale, bias, fire);
      const T* d = dS + std::size_t(i) * std::size_t(L);
      T row = 0;
      for (int j = 0; j <= i; ++j) row += d[j] * u[j];
      ds += T(std::log(double(i) + 1.0)) * row;
    }
    dbias.ssmax_s[h] += ds;
  }
  for (int i = 0; i < L; ++i) {
    const T c = length_scale_of(bias, h, i);
    T* d = dS + std::size_t(i) * std::size_t(L);
    for (int j = 0; j <= i; ++j) d[j] *= c;
  }
}

// The longest sequence's [L, L] block: the size of one core's scratch block.
std::size_t block_size(const PackedBatch& b) {
  const int longest = b.n_seqs() > 0 ? *std::max_element(b.seq_len.begin(), b.seq_len.end()) : 0;
  return std::size_t(longest) * std::size_t(longest);
}

}  // namespace

template <class T>
void rope_forward(T* qkv, const PackedBatch& b, const RopeTable<T>& table, int C, int heads) {
  rotate_qk(qkv, b, table, C, heads, T(1));
}

template <class T>
void rope_backward(T* dqkv, const PackedBatch& b, const RopeTable<T>& table, int C, int heads) {
  rotate_qk(dqkv, b, table, C, heads, T(-1));  // a rotation's transpose is its inverse
}

std::vector<int> attention_offsets(const PackedBatch& b, int heads) {
  std::vector<int> off(std::size_t(b.n_seqs()) + 1, 0);
  for (int s = 0; s < b.n_seqs(); ++s)
    off[std::size_t(s) + 1] = off[std::size_t(s)] + heads * b.seq_len[std::size_t(s)] * b.seq_len[std::size_t(s)];
  return off;
}

template <class T>
void attention_forward(T* out, T* att, const T* qkv, const PackedBatch& b, const AttentionBias<T>& bias, int C,
                       int heads, const DropoutMask& dropout, T* scratch) {
  const int hd = C / heads;
  const T scale = T(1) / std::sqrt(T(hd));
  const std::size_t block = block_size(b);
  for_each_sequence_head(b, heads, hd, [&](int L, std::size_t start, std::size_t att_offset, int h, int first_head) {
    const T* q = qkv + start * std::size_t(3 * C) + std::size_t(h * hd);
    T* P = att + att_offset;
    const T* k_t = transposed_head(q + C, std::size_t(3 * C), L, hd);  // K^T
    gemm(Op::none, Op::none, L, L, hd, T(1), q, 3 * C, k_t, L, T(0), P, L);
    bias_mask_softmax(P, L, h, scale, bias, bias.fire ? bias.fire + att_offset : nullptr);
    const T* weights = P;
    if (dropout.on()) {  // one block per core
      T* D = scratch + (first_head == 0 ? 0 : block);
      dropped_probabilities(D, P, L, att_offset, dropout);
      weights = D;
    }
    gemm(Op::none, Op::none, L, hd, L, T(1), weights, L, q + 2 * C, 3 * C, T(0), out + start * std::size_t(C) + h * hd,
         C);
  });
}

template <class T>
void attention_backward(T* dqkv, const AttentionBiasGrads<T>& dbias, const T* dout, const T* qkv, const T* att,
                        const PackedBatch& b, const AttentionBias<T>& bias, int C, int heads, T* scratch,
                        const DropoutMask& dropout) {
  const int hd = C / heads;
  const T scale = T(1) / std::sqrt(T(hd));
  const std::size_t block = block_size(b);
  for_each_sequence_head(b, heads, hd, [&](int L, std::size_t start, std::size_t att_offset, int h, int first_head) {
    const std::size_t col = std::size_t(h * hd);
    const T* q = qkv + start * std::size_t(3 * C) + col;
    T* dq = dqkv + start * std::size_t(3 * C) + col;
    const T* P = att + att_offset;
    const T* dO = dout + start * std::size_t(C) + col;
    const std::size_t core = first_head == 0 ? 0 : 1;
    T* dS = scratch + core * block;  // one [L, L] block per core
    gemm(Op::none, Op::none, L, L, hd, T(1), dO, C, transposed_head(q + 2 * C, std::size_t(3 * C), L, hd), L, T(0), dS,
         L);  // dP = dO V^T
    const T* weights = P;  // what multiplied V: P, or with dropout D = P times the mask's factors
    if (dropout.on()) {
      T* D = scratch + (2 + core) * block;
      dropped_probabilities(D, P, L, att_offset, dropout);
      for (int i = 0; i < L; ++i)  // dP of the softmax's output: dD times the same factors
        dropout_scale(dS + std::size_t(i) * std::size_t(L), dS + std::size_t(i) * std::size_t(L), std::size_t(i) + 1,
                      att_offset + std::size_t(i) * std::size_t(L), dropout);
      weights = D;
    }
    gemm(Op::transpose, Op::none, L, hd, L, T(1), weights, L, dO, C, T(0), dq + 2 * C, 3 * C);  // dV = P^T dO
    softmax_backward(dS, P, L);
    if (has_length_scale(bias))
      length_scale_backward(dS, dbias, q, C, hd, L, h, scale, bias, att_offset, scratch + (4 + core) * block);
    for (int i = 0; i < L; ++i) {  // the trained biases' gradients: dS's, row by row
      const T* d = dS + std::size_t(i) * std::size_t(L);
      if (dbias.t5_table)
        for (int j = 0; j <= i; ++j) dbias.t5_table[h * bias.t5_buckets + bias.t5_bucket[i - j]] += d[j];
      if (dbias.fire)
        for (int j = 0; j <= i; ++j) dbias.fire[att_offset + std::size_t(i) * std::size_t(L) + std::size_t(j)] += d[j];
    }
    gemm(Op::none, Op::none, L, hd, L, T(1), dS, L, q + C, 3 * C, T(0), dq, 3 * C);          // dQ = s dS K
    gemm(Op::transpose, Op::none, L, hd, L, T(1), dS, L, q, 3 * C, T(0), dq + C, 3 * C);     // dK = s dS^T Q
    scale_head(dq, std::size_t(3 * C), L, hd, scale);
    scale_head(dq + C, std::size_t(3 * C), L, hd, scale);
  });
}

#define PEVIZ_INSTANTIATE_ATTENTION(T)                                                                        \
  template RopeTable<T> make_rope_table<T>(int, double, int);                                                 \
  template void rope_forward<T>(T*, const PackedBatch&, const RopeTable<T>&, int, int);                       \
  template void rope_backward<T>(T*, const PackedBatch&, const RopeTable<T>&, int, int);                      \
  template void attention_forward<T>(T*, T*, const T*, const PackedBatch&, const AttentionBias<T>&, int, int, \
                                     const DropoutMask&, T*);                                                 \
  template void attention_backward<T>(T*, const AttentionBiasGrads<T>&, const T*, const T*, const T*,        \
                                      const PackedBatch&, const AttentionBias<T>&, int, int, T*,              \
                                      const DropoutMask&);
PEVIZ_INSTANTIATE_ATTENTION(float)
PEVIZ_INSTANTIATE_ATTENTION(double)

}  // namespace peviz::train
