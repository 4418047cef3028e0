// OpenBLAS calls behind gemm(); forces OpenBLAS to one thread once per process.
#include "core/train/gemm.hpp"

#include <cblas.h>  // OpenBLAS (pkg-config openblas): also declares openblas_set_num_threads

#include <mutex>


namespace peviz::train {

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

}  // namespace peviz::train
