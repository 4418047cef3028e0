// FIRE's bias (Li et al. 2023): the interpolated distance, the MLP over it, and their backward.
#include "core/train/fire.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/train/layers.hpp"

namespace peviz::train {

namespace {

// The interpolated distance and its derivatives with respect to c and L (zero where a floor holds the value).
template <class T>
struct Interpolated {
  T u, du_dc, du_dthreshold;
};

// The key's id never exceeds the query's for the ids FIRE trains on (contiguous); a larger one counts as distance 0.
template <class T>
Interpolated<T> interpolate(T c_param, T threshold_param, int p_query, int p_key) {
  const bool c_free = c_param >= T(kFireMinC), threshold_free = threshold_param >= T(kFireMinThreshold);
  const T c = c_free ? c_param : T(kFireMinC), threshold = threshold_free ? threshold_param : T(kFireMinThreshold);
  const T distance = T(std::max(p_query - p_key, 0));
  const bool threshold_used = threshold > T(p_query);
  const T scale = threshold_used ? threshold : T(p_query);  // max(L, p_query)
  const T num = std::log(c * distance + T(1)), den = std::log(c * scale + T(1));
  Interpolated<T> r{num / den, T(0), T(0)};
  // d/dc [log(c x + 1)] = x / (c x + 1); quotient rule over num / den.
  if (c_free) r.du_dc = (distance / (c * distance + T(1)) * den - num * scale / (c * scale + T(1))) / (den * den);
  if (threshold_free && threshold_used) r.du_dthreshold = -num * c / (c * scale + T(1)) / (den * den);
  return r;
}

// hidden_k = relu(w1[k] u + b1[k]) for every unit k.
template <class T>
void hidden_layer(T* hidden, T u, const FireWeights<T>& w) {
  for (int k = 0; k < kFireHidden; ++k) hidden[k] = std::max(T(0), w.w1[k] * u + w.b1[k]);
}

// Calls fn(sequence start, L, offset of the sequence's [heads, L, L] block) for every sequence.
template <class Fn>
void for_each_sequence(const PackedBatch& b, int heads, Fn fn) {
  const std::vector<int> off = attention_offsets(b, heads);
  for (int s = 0; s < b.n_seqs(); ++s)
    fn(std::size_t(b.seq_start[std::size_t(s)]), b.seq_len[std::size_t(s)], std::size_t(off[std::size_t(s)]));
}

}  // namespace

template <class T>
T fire_interpolated_distance(T c, T threshold, int p_query, int p_key) {
  return interpolate(c, threshold, p_query, p_key).u;
}

template <class T>
void fire_forward(T* bias, const PackedBatch& b, const FireWeights<T>& w) {
  T hidden[kFireHidden];
  for_each_sequence(b, w.heads, [&](std::size_t start, int L, std::size_t offset) {
    const std::size_t LL = std::size_t(L) * std::size_t(L);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j <= i; ++j) {
        const T u = interpolate(*w.c, *w.threshold, b.positions[start + std::size_t(i)], b.positions[start + std::size_t(j)]).u;
        hidden_layer(hidden, u, w);
        for (int h = 0; h < w.heads; ++h) {
          T f = 0;
          for (int k = 0; k < kFireHidden; ++k) f += w.w2[h * kFireHidden + k] * hidden[k];
          bias[offset + std::size_t(h) * LL + std::size_t(i * L + j)] = f;
        }
      }
  });
}

// The sums run in double whatever T is: each gathers every (query, key) pair of the batch, thousands of terms.
template <class T>
void fire_backward(const FireGrads<T>& g, const T* dbias, const PackedBatch& b, const FireWeights<T>& w) {
  const int H = w.heads;
  std::vector<double> dw1(kFireHidden, 0.0), db1(kFireHidden, 0.0), dw2(std::size_t(H * kFireHidden), 0.0);
  double dc = 0, dthreshold = 0;
  T hidden[kFireHidden];
  double dhidden[kFireHidden];
  for_each_sequence(b, H, [&](std::size_t start, int L, std::size_t offset) {
    const std::size_t LL = std::size_t(L) * std::size_t(L);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j <= i; ++j) {
        const Interpolated<T> r =
            interpolate(*w.c, *w.threshold, b.positions[start + std::size_t(i)], b.positions[start + std::size_t(j)]);
        hidden_layer(hidden, r.u, w);
        std::fill_n(dhidden, kFireHidden, 0.0);
        for (int h = 0; h < H; ++h) {
          const double df = double(dbias[offset + std::size_t(h) * LL + std::size_t(i * L + j)]);
          for (int k = 0; k < kFireHidden; ++k) {
            dw2[std::size_t(h * kFireHidden + k)] += df * double(hidden[k]);
            dhidden[k] += df * double(w.w2[h * kFireHidden + k]);
          }
        }
        double du = 0;
        for (int k = 0; k < kFireHidden; ++k) {
          if (hidden[k] <= T(0)) continue;  // ReLU: no gradient where the unit is off (torch's relu at 0 too)
          dw1[std::size_t(k)] += dhidden[k] * double(r.u);
          db1[std::size_t(k)] += dhidden[k];
          du += dhidden[k] * double(w.w1[k]);
        }
        dc += du * double(r.du_dc);
        dthreshold += du * double(r.du_dthreshold);
      }
  });
  for (int k = 0; k < kFireHidden; ++k) {
    g.w1[k] += T(dw1[std::size_t(k)]);
    g.b1[k] += T(db1[std::size_t(k)]);
  }
  for (int h = 0; h < H; ++h) {
    for (int k = 0; k < kFireHidden; ++k) g.w2[h * kFireHidden + k] += T(dw2[std::size_t(h * kFireHidden + k)]);
  }
  *g.c += T(dc);
  *g.threshold += T(dthreshold);
}

#define PEVIZ_INSTANTIATE_FIRE(T)                                                             \
  template T fire_interpolated_distance<T>(T, T, int, int);                                   \
  template void fire_forward<T>(T*, const PackedBatch&, const FireWeights<T>&);               \
  template void fire_backward<T>(const FireGrads<T>&, const T*, const PackedBatch&, const FireWeights<T>&);
PEVIZ_INSTANTIATE_FIRE(float)
PEVIZ_INSTANTIATE_FIRE(double)

}  // namespace peviz::train
