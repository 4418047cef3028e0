// Dropout's masks in training: a counter-based hash of (seed, step, layer, site, element), so the same bits whatever
// the thread count or split, and the PyTorch twin computes the same masks with int64 tensor operations.
//
// The hash is SplitMix64's (Steele, Lea & Flood 2014; Vigna's splitmix64.c): mix64 is its output function and the
// k-th output of a stream seeded at `key` is mix64(key + k * 0x9E3779B97F4A7C15), k = 1, 2, ... Keys, in uint64
// arithmetic (wrapping):
//   step key  = mix64(mix64(seed ^ kDropoutStream) + step)          step: 0-based optimizer step
//   site key  = mix64(step key + layer * kDropoutSites + site)
//   element i is dropped iff (mix64(site key + (i + 1) * 0x9E3779B97F4A7C15) >> 40) < round(p * 2^24)
// The elements: attention, the index of probability (query i, key j) of a head in the layer's packed attention
// buffer (attention_offsets(b) of its sequence + head * L^2 + i * L + j); the two residual branches, token t's
// channel c at t * d_model + c over the packed batch. A kept value is multiplied by 1 / (1 - p) (inverted dropout),
// a dropped one by 0; the backward multiplies its gradient by the same factor.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/simd/simd_kernels.hpp"

namespace peviz::train {

enum class DropoutSite { attention = 0, attention_branch = 1, mlp_branch = 2 };
inline constexpr int kDropoutSites = 3;
inline constexpr std::uint64_t kDropoutStream = 0x8BB84B93962EACC9ull;  // dropout's masks: a stream of their own
inline constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One site's mask in one step (threshold 0: nothing is dropped, the site is off).
struct DropoutMask {
  std::uint64_t key = 0;
  std::uint32_t threshold = 0;  // round(p * 2^24)
  double scale = 1;             // 1 / (1 - p)
  bool on() const { return threshold > 0; }
  // The factor element i is multiplied by: 1 / (1 - p) kept, 0 dropped.
  template <class T>
  T factor(std::uint64_t i) const {
    return (mix64(key + (i + 1) * kGolden) >> 40) < threshold ? T(0) : T(scale);
  }
};

// A training step's dropout: probability p (0: off) and the step's key.
struct Dropout {
  double p = 0;
  std::uint64_t step_key = 0;
  bool on() const { return p > 0; }
  DropoutMask mask(int layer, DropoutSite site) const {
    if (!on()) return {};
    return {.key = mix64(step_key + std::uint64_t(layer) * kDropoutSites + std::uint64_t(site)),
            .threshold = std::uint32_t(std::llround(p * 16777216.0)),
            .scale = 1.0 / (1.0 - p)};
  }
};

// The dropout of 0-based training step `step` of a run seeded `seed`, probability p.
inline Dropout training_dropout(double p, std::uint64_t seed, int step) {
  return {.p = p, .step_key = mix64(mix64(seed ^ kDropoutStream) + std::uint64_t(step))};
}

// f[i] = m.factor<float>(first + i), i < n, by `path`'s build: integer hashing, so the same bits on every path.
void dropout_factors(SimdPath path, float* f, std::size_t n, std::uint64_t first, const DropoutMask& m);
// out[i] = in[i] * factor(first + i), i < n (in place when out == in); float hashes on best_simd_path().
template <class T>
void dropout_scale(T* out, const T* in, std::size_t n, std::uint64_t first, const DropoutMask& m);
// A residual branch's dropout, in place: branch[i] = x[i] + branch[i] * factor(i), i < n.
template <class T>
void dropout_residual(T* branch, const T* x, std::size_t n, const DropoutMask& m);

}  // namespace peviz::train
