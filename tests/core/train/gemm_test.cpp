// Tests for core/train/gemm: C = alpha op(A) op(B) + beta C against the triple loop in long double, for every
// transpose combination, leading dimensions wider than the rows, float and double.
#include "core/train/gemm.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#ifndef PEVIZ_GEMM_EIGEN
#include <libxsmm.h>
#endif

using namespace peviz::train;

namespace {

// Element (i, j) of op(X) for a row-major X with leading dimension ld.
template <class T>
T op_at(Op op, const std::vector<T>& x, int ld, int i, int j) {
  return op == Op::none ? x[std::size_t(i * ld + j)] : x[std::size_t(j * ld + i)];
}

// Higham's bound for C = alpha A B + beta C, each element a dot product of k terms plus two more roundings (alpha,
// beta C): |computed - exact| <= gamma_{k+2} (|alpha| sum_p |a_p b_p| + |beta c|), gamma_n = n u / (1 - n u), u the
// unit roundoff of T (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., 3.1 and 3.5). It holds for
// every summation order and with or without FMA, so for every kernel LIBXSMM or OpenBLAS picks on any host. One
// more u for the long double reference's rounding to double, where the difference is taken.
template <class T>
double product_bound(int k, double alpha, double beta, long double sum_abs, double c0) {
  const double n = k + 3, u = std::numeric_limits<T>::epsilon() / 2;
  return n * u / (1 - n * u) * (std::fabs(alpha) * double(sum_abs) + std::fabs(beta * c0));
}

template <class T>
void check_products(T alpha, T beta) {
  const int m = 5, n = 7, k = 6, pad = 3;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto random = [&](std::size_t count) {
    std::vector<T> v(count);
    for (T& x : v) x = T(u(rng));
    return v;
  };
  for (const Op op_a : {Op::none, Op::transpose})
    for (const Op op_b : {Op::none, Op::transpose}) {
      CAPTURE(int(op_a), int(op_b), alpha, beta);
      const int lda = (op_a == Op::none ? k : m) + pad, ldb = (op_b == Op::none ? n : k) + pad, ldc = n + pad;
      const std::vector<T> a = random(std::size_t((op_a == Op::none ? m : k) * lda));
      const std::vector<T> b = random(std::size_t((op_b == Op::none ? k : n) * ldb));
      std::vector<T> c = random(std::size_t(m * ldc));
      const std::vector<T> c0 = c;
      gemm(op_a, op_b, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < ldc; ++j) {
          const std::size_t at = std::size_t(i * ldc + j);
          if (j >= n) {
            CHECK(c[at] == c0[at]);  // the padding past n columns is never written
            continue;
          }
          long double want = 0, sum_abs = 0;
          for (int p = 0; p < k; ++p) {
            const long double term = (long double)op_at(op_a, a, lda, i, p) * op_at(op_b, b, ldb, p, j);
            want += term;
            sum_abs += std::fabs(term);
          }
          want = alpha * want + (long double)beta * c0[at];
          const double tolerance = product_bound<T>(k, double(alpha), double(beta), sum_abs, double(c0[at]));
          CHECK(std::abs(double(c[at]) - double(want)) <= tolerance);
        }
    }
}

}  // namespace

// alpha 1 with beta 0 or 1 are the products gemm.cpp sends to LIBXSMM (float, B not transposed); the others OpenBLAS's.
TEST_CASE("gemm in double equals the triple loop within double's rounding bound, every transpose", "[train][gemm]") {
  check_products<double>(0.75, -0.5);
  check_products<double>(1, 0);
  check_products<double>(1, 1);
}

TEST_CASE("gemm in float equals the triple loop within float's rounding bound", "[train][gemm]") {
  check_products<float>(0.75f, -0.5f);
  check_products<float>(1, 0);
  check_products<float>(1, 1);
}

TEST_CASE("beta 0 ignores what C held (even NaN)", "[train][gemm]") {
  const std::vector<double> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};  // 2 x 2 each
  std::vector<double> c(4, std::nan(""));
  gemm(Op::none, Op::none, 2, 2, 2, 1.0, a.data(), 2, b.data(), 2, 0.0, c.data(), 2);
  CHECK(c == std::vector<double>{19, 22, 43, 50});
}

#ifndef PEVIZ_GEMM_EIGEN
// gemm.cpp computes LIBXSMM's products in blocks of rows (m over 256), and of k (over 256) where beta is 1, where
// LIBXSMM generates AVX2 code (the forced-AVX2 run of core_tests, LIBXSMM_TARGET=hsw): each block's kernel must give
// the whole kernel's bits.
TEST_CASE("LIBXSMM's products in blocks give the bits of its kernel for the whole product", "[train][gemm][simd]") {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const auto random = [&](std::size_t count) {
    std::vector<float> v(count);
    for (float& x : v) x = u(rng);
    return v;
  };
  struct Case {
    Op op_a;
    int m, n, k;
    float beta;
  };
  // m = 300: a block of 256 rows, one of 32 and one of 12; k = 300 the same with beta 1 (a weight gradient's shape).
  for (const Case& p : {Case{Op::none, 300, 64, 64, 0.0f}, Case{Op::none, 300, 48, 70, 1.0f},
                        Case{Op::transpose, 64, 64, 300, 1.0f}, Case{Op::transpose, 300, 32, 40, 0.0f}}) {
    CAPTURE(int(p.op_a), p.m, p.n, p.k, p.beta);
    const int lda = p.op_a == Op::none ? p.k : p.m, ldb = p.n, ldc = p.n;
    const std::vector<float> a = random(std::size_t(p.op_a == Op::none ? p.m : p.k) * std::size_t(lda));
    const std::vector<float> b = random(std::size_t(p.k) * std::size_t(ldb));
    std::vector<float> blocks = random(std::size_t(p.m) * std::size_t(ldc)), whole = blocks;
    gemm(p.op_a, Op::none, p.m, p.n, p.k, 1.0f, a.data(), lda, b.data(), ldb, p.beta, blocks.data(), ldc);
    // The whole product by one LIBXSMM kernel, as gemm.cpp calls it (column-major: B's storage first, m and n swapped).
    const float alpha = 1.0f;
    const int flags = p.op_a == Op::transpose ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
    const libxsmm_blasint first_ld = ldb, second_ld = lda, out_ld = ldc;
    const libxsmm_smmfunction kernel =
        libxsmm_smmdispatch(p.n, p.m, p.k, &first_ld, &second_ld, &out_ld, &alpha, &p.beta, &flags, nullptr);
    REQUIRE(kernel != nullptr);
    kernel(b.data(), a.data(), whole.data());
    CHECK(std::memcmp(blocks.data(), whole.data(), whole.size() * sizeof(float)) == 0);
  }
}
#endif
