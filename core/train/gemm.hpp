// Row-major matrix products for the training engine, delegated to LIBXSMM and OpenBLAS (float and double).
//
// C = alpha * op(A) * op(B) + beta * C with op(X) = X or X^T, every matrix row-major with its own
// leading dimension (so heads can be read in place out of a [tokens, 3d] qkv buffer). Float products LIBXSMM
// generates (B not transposed, alpha 1, beta 0 or 1) run its kernels; the rest run OpenBLAS, loaded at first use with
// its kernels named from the CPU's instruction set (gemm.cpp), on one thread: OpenBLAS's own threads change the
// rounding.
// Parallelism is one run per thread, and an idle worker's core computes half of a large product by rows
// (spare_cores.hpp), which keeps a run's results bit-identical whatever the thread count
// (docs/lab-runs/speed.md: the Eigen/OpenBLAS measurement behind this choice).
#pragma once
#include <cstddef>

namespace peviz::train {

enum class Op { none, transpose };

// A product of m x n x k multiply-adds is split by rows between cores only from this size on (layers.cpp):
// each half then stays above 2^21, far from the sizes below which OpenBLAS switches to its small-matrix and
// direct kernels (about 10^6 on AVX-512), whose roundings differ. Halves of a larger product give the bits of
// the whole product (tests/core/train/spare_cores_test.cpp).
inline constexpr double kMinGemmSplitWork = 1 << 22;
// Rows of a split product are cut at a multiple of this (whole micro-tiles of OpenBLAS's AVX-512 kernels).
inline constexpr std::size_t kGemmRowAlign = 16;

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc);
void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc);

}  // namespace peviz::train
