// Dropout's masks applied: the factors of a block of elements hashed in a loop GCC vectorises, built for AVX-512,
// AVX2 and baseline x86-64 (integer operations, so every path gives the same masks), then multiplied in.
#include "core/train/dropout.hpp"

#include <algorithm>
#include <type_traits>

#include "core/simd/simd_kernels.hpp"

namespace peviz::train {

namespace {

constexpr std::size_t kFactorBlock = 256;

// f[i] = factor(first + i), i < n. The hash's top 24 bits and the threshold (at most 2^24) compare as int32: an
// unsigned compare, or a bool turned into a float, kept GCC from vectorising the loop on AVX2.
template <class T>
[[gnu::always_inline]] inline void factors_body(T* __restrict f, std::size_t n, std::uint64_t first, std::uint64_t key,
                                                std::int32_t threshold, T scale) {
  for (std::size_t i = 0; i < n; ++i) {
    const auto h = std::int32_t(mix64(key + (first + i + 1) * kGolden) >> 40);
    f[i] = h < threshold ? T(0) : scale;
  }
}

PEVIZ_SIMD_BUILDS(factors, (float* f, std::size_t n, std::uint64_t first, std::uint64_t key, std::int32_t threshold,
                             float scale),
                  (f, n, first, key, threshold, scale))

// Calls apply(factors, start, count) for the blocks of at most kFactorBlock elements that cover [0, n) in order,
// factors[j] being element start + j's factor.
template <class T, class Apply>
void by_blocks(std::size_t n, std::uint64_t first, const DropoutMask& m, Apply apply) {
  T f[kFactorBlock];
  const SimdPath path = best_simd_path();
  for (std::size_t start = 0; start < n; start += kFactorBlock) {
    const std::size_t count = std::min(kFactorBlock, n - start);
    if constexpr (std::is_same_v<T, float>)
      dropout_factors(path, f, count, first + start, m);
    else
      factors_body(f, count, first + start, m.key, std::int32_t(m.threshold), T(m.scale));
    apply(f, start, count);
  }
}

}  // namespace

void dropout_factors(SimdPath path, float* f, std::size_t n, std::uint64_t first, const DropoutMask& m) {
  on_path(path, factors_avx512, factors_avx2, factors_baseline)(f, n, first, m.key, std::int32_t(m.threshold),
                                                                float(m.scale));
}

template <class T>
void dropout_scale(T* out, const T* in, std::size_t n, std::uint64_t first, const DropoutMask& m) {
  by_blocks<T>(n, first, m, [&](const T* f, std::size_t start, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) out[start + i] = in[start + i] * f[i];
  });
}

template <class T>
void dropout_residual(T* branch, const T* x, std::size_t n, const DropoutMask& m) {
  by_blocks<T>(n, 0, m, [&](const T* f, std::size_t start, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) branch[start + i] = x[start + i] + branch[start + i] * f[i];
  });
}

template void dropout_scale<float>(float*, const float*, std::size_t, std::uint64_t, const DropoutMask&);
template void dropout_scale<double>(double*, const double*, std::size_t, std::uint64_t, const DropoutMask&);
template void dropout_residual<float>(float*, const float*, std::size_t, const DropoutMask&);
template void dropout_residual<double>(double*, const double*, std::size_t, const DropoutMask&);

}  // namespace peviz::train
