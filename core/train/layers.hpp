// The layers of the training engine: one forward and one backward function each (llm.c style).
//
// Shapes follow karpathy/llm.c train_gpt2.c: N tokens (all sequences of a packed batch), C channels,
// weights of a linear layer are [OC, C] (out = inp W^T + b, as torch.nn.Linear). Backward functions
// ACCUMULATE (+=) into parameter gradients and into LayerNorm's input gradient (where a residual branch
// adds up, as in llm.c), and WRITE (=) the input gradients that have one source in the model (matmul,
// GELU, residual, attention's dqkv), so that the caller zeroes only the parameter gradients and the
// buffers LayerNorm accumulates into first. T is float (training) or double (gradient checks).
#pragma once
#include <cstddef>
#include <vector>

#include "core/simd/simd_kernels.hpp"
#include "core/train/dropout.hpp"
#include "core/train/packed_batch.hpp"

namespace peviz::train {

// out[t] = wte[tokens[t]] + (wpe ? wpe[positions[t]] : 0), C channels.
template <class T>
void embedding_forward(T* out, const PackedBatch& b, const T* wte, const T* wpe, int C);
// dwte[tokens[t]] += dout[t]; dwpe[positions[t]] += dout[t] when dwpe is not null.
template <class T>
void embedding_backward(T* dwte, T* dwpe, const T* dout, const PackedBatch& b, int C);

// LayerNorm over C channels (torch.nn.LayerNorm, eps 1e-5, biased variance); keeps mean and 1/std.
template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* w, const T* bias, int N, int C);
// dinp = dresidual + the LayerNorm's input gradient (written; without dresidual when it is null): the LayerNorm
// opens a residual branch, so its input's gradient is also the residual stream's, added in this sweep.
// dw, dbias: added to.
template <class T>
void layernorm_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, const T* mean,
                        const T* rstd, int N, int C, const T* dresidual = nullptr);

// out[N, OC] = residual[N, OC] + bias[OC] + inp[N, C] W[OC, C]^T, without the residual when it is null and
// without residual and bias when the bias is null (the residual needs a bias): a block's
// residual add happens inside its output product (the product accumulates onto residual + bias), so no pass of its
// own reads the branch's output back. w_t has room for C * OC values: W^T is copied there first, so that the product
// reads both operands as stored (gemm.cpp: the products LIBXSMM generates).
template <class T>
void matmul_forward(T* out, const T* inp, const T* w, const T* bias, int N, int C, int OC, T* w_t,
                    const T* residual = nullptr);
// dinp = dout W (written); dW += dout^T inp, dbias += column sums of dout.
template <class T>
void matmul_backward(T* dinp, T* dw, T* dbias, const T* dout, const T* inp, const T* w, int N, int C, int OC);

// The float kernels behind the passes above, built for AVX-512, AVX2 and baseline x86-64 from one body each (the
// float instantiations call them on core's best_simd_path()). Like gelu.hpp's, every path computes each element
// with the same operations in the same order (fixed-order sums, no fused multiply-add), so all paths give the same
// bits; tests compare them.
// layernorm_forward<float> and layernorm_backward<float> over N rows.
void layernorm_forward_float(SimdPath path, float* out, float* mean, float* rstd, const float* inp, const float* w,
                             const float* bias, int N, int C);
void layernorm_backward_float(SimdPath path, float* dinp, float* dw, float* dbias, const float* dout, const float* inp,
                              const float* w, const float* mean, const float* rstd, int N, int C,
                              const float* dresidual);
// out[i] = a[i] + b[i], i < n (the embedding's token + position, a residual row + the bias).
void add_float(SimdPath path, float* out, const float* a, const float* b, std::size_t n);
// acc[i] += rows[r stride + i] for r = 0, 1, ..., count - 1 in that order, i < n (a bias's gradient: column sums).
void accumulate_rows_float(SimdPath path, float* acc, const float* rows, std::size_t stride, std::size_t count,
                           std::size_t n);

// Exact GELU: x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)) (Hendrycks & Gimpel 2016; torch GELU approximate='none').
// Applied to x = inp + bias ([N, C] rows, bias [C]): the MLP's first product leaves its bias to this pass, so
// the bias is added in the sweep that reads the product anyway. The forward also stores the derivative
// Phi(x) + x phi(x) in `dgelu`, so the backward needs no erf.
// float (training): a vectorised erfc and exp (gelu.cpp), within 5e-7 of double's std::erf on [-10, 10];
// double (gradient checks): std::erf and std::exp.
template <class T>
void gelu_forward(T* out, T* dgelu, const T* inp, const T* bias, int N, int C);
// dinp = dgelu * dout (written).
template <class T>
void gelu_backward(T* dinp, const T* dgelu, const T* dout, int n);

// cos and sin of position * inv_freq_j for positions 0..max_positions-1 and pairs j < head_dim/2.
template <class T>
struct RopeTable {
  int pairs = 0;       // head_dim / 2
  std::vector<T> cos;  // [position][pair]
  std::vector<T> sin;
};
// inv_freq from core's rope_inv_freq (halves pairing, base), angles in double, rounded once to T.
template <class T>
RopeTable<T> make_rope_table(int head_dim, double base, int max_positions);

// Rotates q and k of every head in place in a [N, 3C] qkv buffer (q = channels 0..C-1, k = C..2C-1),
// halves pairing (channel j with j + head_dim/2, HF LLaMA rotate_half), token t at positions[t].
template <class T>
void rope_forward(T* qkv, const PackedBatch& b, const RopeTable<T>& table, int C, int heads);
// The transpose of that rotation applied to the gradient of the rotated q and k, in place.
template <class T>
void rope_backward(T* dqkv, const PackedBatch& b, const RopeTable<T>& table, int C, int heads);

// Additive attention bias before softmax: none, ALiBi -m_h (i - j), a T5 scalar per head and bucket, or FIRE's
// bias of every query and key (fire.hpp).
template <class T>
struct AttentionBias {
  const double* alibi_slopes = nullptr;  // [heads], core's alibi_slopes
  const T* t5_table = nullptr;           // [heads, buckets] learned scalars
  const int* t5_bucket = nullptr;        // [distance i - j] -> bucket, core's causal buckets
  int t5_buckets = 0;
  const T* fire = nullptr;               // laid out as the probabilities (attention_offsets), j <= i
  // The length scale of row i (n = i + 1 keys) on the whole logit row, after the biases (model.hpp LengthScale):
  // SSMax's s_h ln n with this layer's s, or log-n's max(1, ln n / ln logn_length); neither when both are unset.
  const T* ssmax_s = nullptr;            // [heads]
  double logn_length = 0;
};
// Where attention_backward accumulates the gradient of a trained bias (null: the encoding has none).
template <class T>
struct AttentionBiasGrads {
  T* t5_table = nullptr;  // [heads, buckets]
  T* fire = nullptr;      // the layout of AttentionBias::fire
  T* ssmax_s = nullptr;   // [heads], this layer's
};

// Offsets of each sequence's [heads, L, L] probability block in an attention buffer.
std::vector<int> attention_offsets(const PackedBatch& b, int heads);

// Block-causal multi-head attention on a packed batch. qkv is [N, 3C] (q, k, v, heads side by side,
// head_dim = C / heads); att receives the softmax probabilities (zero above the diagonal) of every
// sequence and head at attention_offsets; out is [N, C]. Scores are q.k / sqrt(head_dim) + bias. With dropout on,
// V is multiplied by the probabilities times the mask's factors (dropout.hpp: element att_offset + i L + j), att
// keeps them unmasked, and scratch holds 2 L*L values for the longest sequence (one block per core). A length scale
// multiplies row i of the biased scores by its factor before the softmax.
template <class T>
void attention_forward(T* out, T* att, const T* qkv, const PackedBatch& b, const AttentionBias<T>& bias, int C,
                       int heads, const DropoutMask& dropout = {}, T* scratch = nullptr);
// Writes dqkv (each row belongs to one sequence, each column to one head: one source per value) and
// accumulates into the trained bias's gradient (dbias); scratch holds at least 2 L*L values for the longest sequence
// (one block per core when the heads are split), 4 L*L with dropout (the forward's mask, recomputed), 6 L*L with SSMax
// (the biased scores before the scale, recomputed: ds_h = sum_i ln(i + 1) sum_j dz_ij u_ij).
template <class T>
void attention_backward(T* dqkv, const AttentionBiasGrads<T>& dbias, const T* dout, const T* qkv, const T* att,
                        const PackedBatch& b, const AttentionBias<T>& bias, int C, int heads, T* scratch,
                        const DropoutMask& dropout = {});

// Softmax of [N, V] logits into probs; returns the mean cross-entropy over the tokens with a target
// (0 when there are none), accumulated in double.
template <class T>
double crossentropy_forward(T* probs, const T* logits, const PackedBatch& b, int V);
// dlogits = (probs - onehot(target)) / n_targets on targeted rows, 0 elsewhere (overwrites).
template <class T>
void crossentropy_backward(T* dlogits, const T* probs, const PackedBatch& b, int V);

}  // namespace peviz::train
