// Tests for core/train/gemm: C = alpha op(A) op(B) + beta C against the triple loop in long double, for every
// transpose combination, leading dimensions wider than the rows, float and double.
#include "core/train/gemm.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

using namespace peviz::train;

namespace {

// Element (i, j) of op(X) for a row-major X with leading dimension ld.
template <class T>
T op_at(Op op, const std::vector<T>& x, int ld, int i, int j) {
  return op == Op::none ? x[std::size_t(i * ld + j)] : x[std::size_t(j * ld + i)];
}

template <class T>
void check_products(double tolerance, T alpha, T beta) {
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
          long double want = 0;
          for (int p = 0; p < k; ++p) want += (long double)op_at(op_a, a, lda, i, p) * op_at(op_b, b, ldb, p, j);
          want = alpha * want + (long double)beta * c0[at];
          CHECK(std::abs(double(c[at]) - double(want)) <= tolerance);
        }
    }
}

}  // namespace

// alpha 1 with beta 0 or 1 are the products gemm.cpp sends to LIBXSMM (float, B not transposed); the others OpenBLAS's.
TEST_CASE("gemm in double equals the triple loop for every transpose combination", "[train][gemm]") {
  check_products<double>(1e-14, 0.75, -0.5);
  check_products<double>(1e-14, 1, 0);
  check_products<double>(1e-14, 1, 1);
}

TEST_CASE("gemm in float equals the triple loop to float rounding", "[train][gemm]") {
  check_products<float>(2e-6, 0.75f, -0.5f);
  check_products<float>(2e-6, 1, 0);
  check_products<float>(2e-6, 1, 1);
}

TEST_CASE("beta 0 ignores what C held (even NaN)", "[train][gemm]") {
  const std::vector<double> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};  // 2 x 2 each
  std::vector<double> c(4, std::nan(""));
  gemm(Op::none, Op::none, 2, 2, 2, 1.0, a.data(), 2, b.data(), 2, 0.0, c.data(), 2);
  CHECK(c == std::vector<double>{19, 22, 43, 50});
}
