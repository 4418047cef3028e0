// The matrix products behind gemm(): LIBXSMM's kernels and OpenBLAS on one thread (the desktop and the command line),
// or Eigen where neither can go (the browser build, PEVIZ_GEMM_EIGEN: header-only, compiled to wasm SIMD by em++).
#include "core/train/gemm.hpp"

#ifdef PEVIZ_GEMM_EIGEN
#include <Eigen/Core>
#else
#include <cblas.h>  // OpenBLAS's declarations; the library itself is loaded at first use (below)
#include <dlfcn.h>
#include <immintrin.h>
#include <libxsmm.h>  // Debian's libxsmm-dev 1.17, linked statically; it initialises itself at its first dispatch

#include <cstdlib>
#include <stdexcept>
#include <string>
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

// OpenBLAS picks its kernels once, as it loads, from the CPU's model number; a model newer than its table falls back
// to its Prescott (SSE3) kernels: Debian 12's 0.3.21 on an Emerald Rapids Xeon (family 6, model 207) runs the engine's
// products 6-8x slower and a training step 2.3-2.9x slower (docs/benchmarks.md). So the engine loads OpenBLAS itself,
// after naming its kernels from the instruction set the CPU reports (OPENBLAS_CORETYPE: SkylakeX with AVX-512,
// Haswell with AVX2 and FMA; a value already in the environment is kept), and runs it on one thread: OpenBLAS's own
// threads change the rounding.
struct OpenBlas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
};

const char* kernels_for_this_cpu() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
  return nullptr;  // OpenBLAS's own choice
}

template <class Fn>
Fn symbol(void* lib, const char* name) {
  void* f = dlsym(lib, name);
  if (!f) throw std::runtime_error(std::string("OpenBLAS has no ") + name + ": " + dlerror());
  return reinterpret_cast<Fn>(f);
}

OpenBlas load_openblas() {
  // overwrite 0: a value already in the environment is kept (docs/lab-runs/twin's Haswell reproduction).
  if (const char* kernels = kernels_for_this_cpu()) setenv("OPENBLAS_CORETYPE", kernels, 0);
  void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);  // Debian's libopenblas0
  if (!lib) throw std::runtime_error(std::string("cannot load OpenBLAS (libopenblas.so.0): ") + dlerror());
  symbol<void (*)(int)>(lib, "openblas_set_num_threads")(1);
  return {symbol<decltype(&cblas_sgemm)>(lib, "cblas_sgemm"), symbol<decltype(&cblas_dgemm)>(lib, "cblas_dgemm")};
}

const OpenBlas& openblas() {
  static const OpenBlas blas = load_openblas();  // thread-safe, once
  return blas;
}

CBLAS_TRANSPOSE blas_op(Op op) { return op == Op::none ? CblasNoTrans : CblasTrans; }

// LIBXSMM generates a kernel for the exact shape at its first use (JIT, for the CPU's instruction set) and does not
// pack its operands: on the engine's NN and TN shapes it takes 13-46% less time than OpenBLAS (docs/benchmarks.md).
// Its kernels are column-major, so the row-major C = op(A) op(B) is computed as the column-major
// C^T = op(B)^T op(A)^T: B's storage is LIBXSMM's first operand, A's its second, with m and n swapped. LIBXSMM 1.17
// generates only alpha = 1, beta = 0 or 1, and no transposed first operand (a transposed B here: the engine's
// x W^T and Q K^T); those products, and any shape it declines (nullptr), go to OpenBLAS. Each output element is one
// sum over k in order, whatever m and n, so a product split by rows between cores gives the bits of the whole
// (tests/core/train/spare_cores_test.cpp).
libxsmm_smmfunction xsmm_kernel(Op op_a, Op op_b, int m, int n, int k, float alpha, int lda, int ldb, float beta,
                                int ldc) {
  if (op_b != Op::none || alpha != 1.0f || (beta != 0.0f && beta != 1.0f) || m <= 0 || n <= 0 || k <= 0)
    return nullptr;
  const int flags = op_a == Op::transpose ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  const libxsmm_blasint first_ld = ldb, second_ld = lda, out_ld = ldc;
  return libxsmm_smmdispatch(n, m, k, &first_ld, &second_ld, &out_ld, &alpha, &beta, &flags, nullptr);
}

// LIBXSMM's generated kernels return with the upper halves of the vector registers in use (no vzeroupper). The
// SSE code that runs next (libm's expf, the engine's passes built for baseline x86-64) then pays a transition
// penalty on every instruction: the cross-entropy after the output layer's product took 30 times longer (perf).
[[gnu::target("avx")]] void clear_upper_halves() { _mm256_zeroupper(); }

// Whether LIBXSMM generates AVX code (and so needs the clearing above): its own choice of instruction set.
bool xsmm_uses_avx() {
  static const bool avx = libxsmm_get_target_archid() >= LIBXSMM_X86_AVX;
  return avx;
}

}  // namespace

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc) {
  if (const libxsmm_smmfunction kernel = xsmm_kernel(op_a, op_b, m, n, k, alpha, lda, ldb, beta, ldc)) {
    kernel(b, a, c);
    if (xsmm_uses_avx()) clear_upper_halves();
    return;
  }
  openblas().sgemm(CblasRowMajor, blas_op(op_a), blas_op(op_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc) {
  openblas().dgemm(CblasRowMajor, blas_op(op_a), blas_op(op_b), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#endif

}  // namespace peviz::train
