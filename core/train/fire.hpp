// FIRE, the lab's learned attention bias over interpolated distances: forward and backward.
//
// Li et al. 2023, "Functional Interpolation for Relative Positions Improves Long Context Transformers" (ICLR 2024):
// head h adds b_h(i, j) = f_h(psi(p_i - p_j) / psi(max(L, p_i))) to the score of query i and key j <= i, with
// psi(x) = log(c x + 1), f a one-hidden-layer MLP 1 -> 32 -> ReLU -> heads, and c and the threshold L learned;
// p_i, p_j the position ids of the query and the key. Dividing by psi of the query's own position (once past L)
// maps every distance a query meets into [0, 1]: "progressive interpolation", so a longer input asks f only for
// values it was trained on. As the lab's T5 table, one FIRE serves every layer.
// Guards this engine adds so psi stays defined while c and L train: c enters as max(c, kFireMinC) and L as
// max(L, kFireMinThreshold), each with zero gradient below its floor (torch.clamp's gradient).
#pragma once
#include "core/train/packed_batch.hpp"

namespace peviz::train {

inline constexpr int kFireHidden = 32;
inline constexpr double kFireMinC = 1e-3, kFireMinThreshold = 1.0;

// The parameters: hidden_k = relu(w1[k] u + b1[k]), f_h = w2[h] . hidden. The output layer has no bias: a
// constant per head added to every score of a row leaves its softmax unchanged, so its gradient would be zero.
template <class T>
struct FireWeights {
  const T* w1 = nullptr;         // [kFireHidden]
  const T* b1 = nullptr;         // [kFireHidden]
  const T* w2 = nullptr;         // [heads, kFireHidden]
  const T* c = nullptr;          // [1]
  const T* threshold = nullptr;  // [1]: L
  int heads = 0;
};
// Their gradients, accumulated (+=).
template <class T>
struct FireGrads {
  T* w1 = nullptr;
  T* b1 = nullptr;
  T* w2 = nullptr;
  T* c = nullptr;
  T* threshold = nullptr;
};

// u = psi(p_query - p_key) / psi(max(L, p_query)) for p_key <= p_query.
template <class T>
T fire_interpolated_distance(T c, T threshold, int p_query, int p_key);

// Writes the bias of every sequence and head of a packed batch into `bias`, laid out as the attention
// probabilities (attention_offsets: [heads, L, L] per sequence); only entries j <= i are written.
template <class T>
void fire_forward(T* bias, const PackedBatch& b, const FireWeights<T>& w);
// dbias (the bias layout, j <= i read): the loss's gradient with respect to the bias, summed over the layers.
template <class T>
void fire_backward(const FireGrads<T>& g, const T* dbias, const PackedBatch& b, const FireWeights<T>& w);

}  // namespace peviz::train
