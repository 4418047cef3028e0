// The float GELU kernel of the training engine, built for AVX-512, AVX2 and baseline x86-64 (one body).
//
// gelu_forward<float> (layers.hpp) calls it on core's best_simd_path(). Like core/simd/simd_kernels.hpp,
// every path computes each element with the same operations in the same order (no fused multiply-add:
// core builds with -ffp-contract=off), so all paths give the same bits; tests compare them.
#pragma once
#include <cstddef>

#include "core/simd/simd_kernels.hpp"

namespace peviz::train {

// out[i] = x Phi(x) and dgelu[i] = Phi(x) + x phi(x) for x = inp[i] + bias[i], i < n, on `path`; Phi from a
// vectorisable erfc and one exp (gelu.cpp), within 5e-7 of double's std::erf on [-10, 10].
void gelu_forward_float(SimdPath path, float* out, float* dgelu, const float* inp, const float* bias, int n);

// dinp[i] = dgelu[i] dout[i] for i < n on `path` (gelu_backward<float>'s kernel).
void gelu_backward_float(SimdPath path, float* dinp, const float* dgelu, const float* dout, std::size_t n);

}  // namespace peviz::train
