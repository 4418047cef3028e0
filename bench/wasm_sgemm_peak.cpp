// The browser build's SGEMM ceiling: Eigen's product (C = A B, 2048^3, float) as the web build compiles it, run by
// node, beside the same source compiled natively; bench/sgemm_peak.cpp gives OpenBLAS's peak on the same machine.
// Prints the median of 7 runs, and the largest relative error of a small product of random matrices against a
// double-precision loop (the SSE2-on-wasm kernels compute what they should). Not part of the build; the web build's
// flags for core/train/gemm.cpp (cmake/web.cmake):
//   mkdir -p /tmp/sse-on-wasm && echo > /tmp/sse-on-wasm/mmintrin.h
//   NODE_PATH=/usr/share/nodejs em++ -O3 -std=c++20 -msimd128 -msse2 -fopenmp-simd -ffp-contract=off \
//       -isystem /tmp/sse-on-wasm -isystem /usr/include/eigen3 -DEIGEN_DONT_PARALLELIZE -sALLOW_MEMORY_GROWTH=1 \
//       bench/wasm_sgemm_peak.cpp -o /tmp/wasm_sgemm_peak.js && node --no-experimental-fetch /tmp/wasm_sgemm_peak.js
//   g++ -O3 -std=c++20 -march=native -ffp-contract=off -isystem /usr/include/eigen3 -DEIGEN_DONT_PARALLELIZE \
//       bench/wasm_sgemm_peak.cpp -o /tmp/native_eigen_sgemm_peak && /tmp/native_eigen_sgemm_peak
#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// max |C - C_double| / max |C_double| over a 67 x 45 x 83 product of values in [-1, 1].
double small_product_error() {
  const Matrix a = Matrix::Random(67, 83), b = Matrix::Random(83, 45);
  const Matrix c = a * b;
  double worst = 0.0, scale = 0.0;
  for (int i = 0; i < c.rows(); ++i) {
    for (int j = 0; j < c.cols(); ++j) {
      double exact = 0.0;
      for (int k = 0; k < a.cols(); ++k) exact += double(a(i, k)) * double(b(k, j));
      worst = std::max(worst, std::abs(double(c(i, j)) - exact));
      scale = std::max(scale, std::abs(exact));
    }
  }
  return worst / scale;
}
}  // namespace

int main() {
  constexpr int n = 2048;
  const Matrix a = Matrix::Constant(n, n, 0.5f), b = Matrix::Constant(n, n, 0.25f);
  Matrix c(n, n);
  std::vector<double> seconds;
  for (int rep = 0; rep < 8; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    c.noalias() = a * b;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep > 0) seconds.push_back(s);  // the first run warms the caches
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("Eigen sgemm %dx%dx%d (%s), one thread: median %.4f s, %.1f GFLOP/s; small product's error %.2e\n", n, n, n,
#ifdef __EMSCRIPTEN__
              "wasm SIMD, SSE2 kernels",
#else
              "native",
#endif
              median, 2.0 * n * n * n / median / 1e9, small_product_error());
}
