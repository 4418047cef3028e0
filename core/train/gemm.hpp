// Row-major matrix products for the training engine, delegated to OpenBLAS (float and double).
//
// C = alpha * op(A) * op(B) + beta * C with op(X) = X or X^T, every matrix row-major with its own
// leading dimension (so heads can be read in place out of a [tokens, 3d] qkv buffer). OpenBLAS runs
// on one thread (openblas_set_num_threads(1) on first use): a training run is single-threaded, which
// keeps its results bit-identical whatever else runs; parallelism is one run per thread
// (docs/lab.md: the Eigen/OpenBLAS measurement behind this choice).
#pragma once

namespace peviz::train {

enum class Op { none, transpose };

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc);
void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc);

}  // namespace peviz::train
