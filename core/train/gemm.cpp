// The matrix products behind gemm(): OpenBLAS on one thread (the desktop and the command line), or Eigen where
// OpenBLAS cannot go (the browser build, PEVIZ_GEMM_EIGEN: header-only, compiled to wasm SIMD by em++).
#include "core/train/gemm.hpp"

#ifdef PEVIZ_GEMM_EIGEN
#include <Eigen/Core>
#else
#include <cblas.h>  // OpenBLAS (pkg-config openblas): also declares openblas_set_num_threads

#include <mutex>
#endif

namespace peviz::train {

#ifdef PEVIZ_GEMM_EIGEN

namespace {
template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstView = Eigen::Map<const RowMajor<T>, 0, Eigen::OuterStride<>>;
template <class T>
using View = Eigen::Map<RowMajor<T>, 0, Eigen::OuterStride<>>;

// op(X) of a rows x cols matrix as stored (before the transpose), read in place with its leading dimension.
template <class T>
void eigen_gemm(Op op_a, Op op_b, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c,
                int ldc) {
  View<T> cm(c, m, n, Eigen::OuterStride<>(ldc));
  // BLAS semantics: with beta = 0, C is not read (it may hold anything, NaN included).
  if (beta == T(0)) cm.setZero();
  else if (beta != T(1)) cm *= beta;
  if (m == 0 || n == 0 || k == 0 || alpha == T(0)) return;
  const ConstView<T> am(a, op_a == Op::none ? m : k, op_a == Op::none ? k : m, Eigen::OuterStride<>(lda));
  const ConstView<T> bm(b, op_b == Op::none ? k : n, op_b == Op::none ? n : k, Eigen::OuterStride<>(ldb));
  if (op_a == Op::none && op_b == Op::none) cm.noalias() += alpha * (am * bm);
  else if (op_a == Op::none) cm.noalias() += alpha * (am * bm.transpose());
  else if (op_b == Op::none) cm.noalias() += alpha * (am.transpose() * bm);
  else cm.noalias() += alpha * (am.transpose() * bm.transpose());
}
}  // namespace

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc) {
  eigen_gemm(op_a, op_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc) {
  eigen_gemm(op_a, op_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#else

namespace {
void use_one_blas_thread() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}
CBLAS_TRANSPOSE blas_op(Op op) { return op == Op::none ? CblasNoTrans : CblasTrans; }
}  // namespace

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc) {
  use_one_blas_thread();
  cblas_sgemm(CblasRowMajor, blas_op(op_a), blas_op(op_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc) {
  use_one_blas_thread();
  cblas_dgemm(CblasRowMajor, blas_op(op_a), blas_op(op_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#endif

}  // namespace peviz::train
