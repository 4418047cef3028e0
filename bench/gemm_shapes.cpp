// OpenBLAS against Eigen on the training engine's real matrix shapes, one thread; prints medians in microseconds.
//
// Not part of the build (docs/lab.md quotes its output):
//   g++ -O3 -DNDEBUG -std=c++20 -I/usr/include/eigen3 $(pkg-config --cflags openblas) bench/gemm_shapes.cpp \
//       $(pkg-config --libs openblas) -o /tmp/gemm_shapes && OPENBLAS_NUM_THREADS=1 /tmp/gemm_shapes
// Add -march=native for Eigen's AVX2/FMA kernels (the project builds without it, OpenBLAS picks its
// kernels at run time). Eigen runs single-threaded (no -fopenmp).
#include <cblas.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Shape {
  const char* what;
  int m, n, k;
  bool trans_a, trans_b;  // C[m,n] = op(A) op(B)
};

// Defaults: copy, batch 32, n uniform in 1..20 -> about 770 packed tokens; d 64, 2 heads (head dim 32).
constexpr Shape kShapes[] = {
    {"qkv forward    [770x64]x[192x64]^T", 770, 192, 64, false, true},
    {"fc forward     [770x64]x[256x64]^T", 770, 256, 64, false, true},
    {"fcproj forward [770x256]x[64x256]^T", 770, 64, 256, false, true},
    {"qkv dW         [770x192]^T x [770x64]", 192, 64, 770, true, false},
    {"qkv dinp       [770x192]x[192x64]", 770, 64, 192, false, false},
    {"attn scores    [24x32]x[24x32]^T", 24, 24, 32, false, true},
    {"attn P.V       [24x24]x[24x32]", 24, 32, 24, false, false},
};

template <class Fn>
double median_us(Fn&& fn, int reps) {
  std::vector<double> t;
  fn();
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[std::size_t(reps / 2)];
}

}  // namespace

int main() {
  openblas_set_num_threads(1);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  std::printf("%-40s %12s %12s\n", "shape", "OpenBLAS us", "Eigen us");
  for (const Shape& s : kShapes) {
    const int ar = s.trans_a ? s.k : s.m, ac = s.trans_a ? s.m : s.k;
    const int br = s.trans_b ? s.n : s.k, bc = s.trans_b ? s.k : s.n;
    RowMat A(ar, ac), B(br, bc), C(s.m, s.n);
    for (float* p : {A.data(), B.data()})
      for (int i = 0; i < (p == A.data() ? ar * ac : br * bc); ++i) p[i] = u(rng);
    const int reps = s.m * s.n * s.k > 100000 ? 201 : 5001;
    const double blas = median_us(
        [&] {
          cblas_sgemm(CblasRowMajor, s.trans_a ? CblasTrans : CblasNoTrans, s.trans_b ? CblasTrans : CblasNoTrans, s.m,
                      s.n, s.k, 1.0f, A.data(), ac, B.data(), bc, 0.0f, C.data(), s.n);
        },
        reps);
    const double eigen = median_us(
        [&] {
          if (s.trans_a && !s.trans_b) C.noalias() = A.transpose() * B;
          else if (s.trans_b) C.noalias() = A * B.transpose();
          else C.noalias() = A * B;
        },
        reps);
    std::printf("%-40s %12.2f %12.2f\n", s.what, blas, eigen);
  }
}
