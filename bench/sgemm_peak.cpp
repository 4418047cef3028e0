// The machine's single-thread SGEMM peak through OpenBLAS (C = A B, 2048^3, float): the yardstick for the lab's
// training GFLOP/s (docs/benchmarks.md). Prints the median of 7 runs.
//
// Not part of the build:
//   g++ -O3 -std=c++20 $(pkg-config --cflags openblas) bench/sgemm_peak.cpp $(pkg-config --libs openblas) \
//       -o /tmp/sgemm_peak && OPENBLAS_NUM_THREADS=1 /tmp/sgemm_peak
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  constexpr int n = 2048;
  std::vector<float> a(std::size_t(n) * n, 0.5f), b(std::size_t(n) * n, 0.25f), c(std::size_t(n) * n);
  std::vector<double> seconds;
  for (int rep = 0; rep < 8; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep > 0) seconds.push_back(s);  // the first run warms the caches and the thread setup
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("sgemm %dx%dx%d, one thread: median %.4f s, %.1f GFLOP/s\n", n, n, n, median,
              2.0 * n * n * n / median / 1e9);
}
