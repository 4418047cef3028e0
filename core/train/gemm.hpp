// Row-major matrix products for the training engine, delegated to LIBXSMM and OpenBLAS (float and double).
//
// C = alpha * op(A) * op(B) + beta * C with op(X) = X or X^T, every matrix row-major with its own
// leading dimension (so heads can be read in place out of a [tokens, 3d] qkv buffer). Float products LIBXSMM
// generates (B not transposed, alpha 1, beta 0 or 1) run its kernels; the rest run OpenBLAS, loaded at first use with
// its kernels named from the CPU's instruction set (gemm.cpp), on one thread: OpenBLAS's own threads change the
// rounding.
// Parallelism is one run per thread, and an idle worker's core computes half of a large product by rows
// (spare_cores.hpp) where gemm_split_align allows it, which keeps a run's results bit-identical whatever the thread count
// (docs/lab-runs/speed.md: the Eigen/OpenBLAS measurement behind this choice).
#pragma once
#include <cstddef>

namespace peviz::train {

enum class Op { none, transpose };

// A product of m x n x k multiply-adds is split by rows between cores only from this size on (layers.cpp):
// smaller ones are not worth handing a half to another core, and LIBXSMM's halves stay above 2^21.
inline constexpr double kMinGemmSplitWork = 1 << 22;

// Rows at whose multiples a product may be cut between cores with every output bit unchanged, or 0 when this
// machine must compute it whole (split_rows then runs it on one core). A cut keeps the bits only where the library
// computes each output row the same way whatever rows it is given:
// - LIBXSMM's generated kernels sum each element over k in order at any cut (measured on its AVX-512, AVX2 and AVX
//   targets), so products it serves whole and in both halves are cut at multiples of kXsmmRowAlign.
// - OpenBLAS's kernels do not at every cut: its Haswell kernels (every AVX2 host) take the rows in blocks of 12 and
//   sum some elements of a block over k in two running totals, others in one, by their place in the block; cuts at
//   multiples of 12 keep the bits, cuts at other multiples of 16 do not (docs/benchmarks.md, "Splitting a product
//   between cores: which cuts keep the bits"). Its products, and the browser's Eigen ones, are cut at multiples of kBlasRowAlign (whole
//   blocks of 12 and of 16), and only where both halves stay on its regular kernels (gemm.cpp).
// Either way the cut is trusted only after a check, once per kind of product (float or double, transposes, alpha 1
// or not, beta 0, 1 or other, library): a probe product cut at the alignment, whose upper half ends in a part tile,
// must give the bits of the whole. A kind that fails it is never split (a library or kernel this code does not know).
inline constexpr std::size_t kXsmmRowAlign = 16;
inline constexpr std::size_t kBlasRowAlign = 48;
// OpenBLAS sends smaller float products to other kernels on AVX-512 hosts, which round differently: its small-matrix
// kernel up to 10^6 multiply-adds, and its direct kernel (row-major, no transposes, alpha 1, beta 0) below 28 x 512 x
// 512 (0.3.21: interface/gemm.c, sgemm_small_kernel_permit_skylakex.c). An OpenBLAS product is split only where both
// halves are at least this large.
inline constexpr double kBlasRegularWork = 28.0 * 512 * 512;
std::size_t gemm_split_align(Op op_a, Op op_b, int m, int n, int k, float alpha, int lda, int ldb, float beta, int ldc);
std::size_t gemm_split_align(Op op_a, Op op_b, int m, int n, int k, double alpha, int lda, int ldb, double beta,
                             int ldc);

void gemm(Op op_a, Op op_b, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
          float beta, float* c, int ldc);
void gemm(Op op_a, Op op_b, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
          double beta, double* c, int ldc);

}  // namespace peviz::train
