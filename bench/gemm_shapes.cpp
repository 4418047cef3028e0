// OpenBLAS, Eigen, LIBXSMM and oneDNN on the training engine's matrix shapes at the default, one thread; medians in
// microseconds and GFLOP/s beside the single-thread SGEMM peak measured in the same run (OpenBLAS at 1024^3).
//
// Not part of the build (docs/benchmarks.md quotes its output); needs libxsmm-dev and libdnnl-dev from Debian:
//   g++ -O3 -DNDEBUG -std=c++20 -march=native -I/usr/include/eigen3 $(pkg-config --cflags openblas) \
//       bench/gemm_shapes.cpp $(pkg-config --libs openblas) -lxsmm -ldnnl -o /tmp/gemm_shapes
//   OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 /tmp/gemm_shapes
// The shapes are those of core/train's gemm() calls at the default (copy, batch 32, n uniform in 1..20: about 770
// packed tokens of 24; d_model 64, 4 heads of 16, MLP 256). Row-major, as the engine stores its matrices; the
// attention products read q, k and v strided inside the qkv rows (leading dimension 3 x 64). LIBXSMM's kernels are
// column-major: C = op(A) op(B) is computed as C^T = op(B)^T op(A)^T by swapping the operands (no copy); a shape its
// JIT does not generate prints n/a.
#include <cblas.h>
#include <libxsmm.h>
#include <oneapi/dnnl/dnnl.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

struct Shape {
  const char* what;
  int m, n, k;
  bool trans_a, trans_b;  // C[m,n] = op(A) op(B), row-major
  int lda, ldb;           // 0: packed
};

constexpr int N = 770, C = 64, L = 24, HD = 16;
constexpr Shape kShapes[] = {
    {"qkv fwd       x W^T", N, 3 * C, C, false, true, 0, 0},
    {"attn proj fwd x W^T", N, C, C, false, true, 0, 0},
    {"fc fwd        x W^T", N, 4 * C, C, false, true, 0, 0},
    {"fc proj fwd   x W^T", N, C, 4 * C, false, true, 0, 0},
    {"qkv dx        dy W", N, C, 3 * C, false, false, 0, 0},
    {"fc proj dx    dy W", N, 4 * C, C, false, false, 0, 0},
    {"fc dx         dy W", N, C, 4 * C, false, false, 0, 0},
    {"qkv dW        dy^T x", 3 * C, C, N, true, false, 0, 0},
    {"fc dW         dy^T x", 4 * C, C, N, true, false, 0, 0},
    {"fc proj dW    dy^T x", C, 4 * C, N, true, false, 0, 0},
    {"attn Q K^T    (per head)", L, L, HD, false, true, 3 * C, 3 * C},
    {"attn P V      (per head)", L, HD, L, false, false, L, 3 * C},
    {"attn dV=P^T dO(per head)", L, HD, L, true, false, L, C},
    {"attn dQ=dS K  (per head)", L, HD, L, false, false, L, 3 * C},
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

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstView = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;

struct Operands {
  int ar, ac, br, bc, lda, ldb;
  std::vector<float> a, b, c;
};

Operands operands(const Shape& s, std::mt19937& rng) {
  Operands o;
  o.ar = s.trans_a ? s.k : s.m, o.ac = s.trans_a ? s.m : s.k;
  o.br = s.trans_b ? s.n : s.k, o.bc = s.trans_b ? s.k : s.n;
  o.lda = s.lda ? s.lda : o.ac, o.ldb = s.ldb ? s.ldb : o.bc;
  std::uniform_real_distribution<float> u(-1, 1);
  o.a.resize(std::size_t(o.ar) * o.lda), o.b.resize(std::size_t(o.br) * o.ldb), o.c.resize(std::size_t(s.m) * s.n);
  for (float& v : o.a) v = u(rng);
  for (float& v : o.b) v = u(rng);
  return o;
}

double peak_gflops() {
  const int n = 1024;
  std::vector<float> a(std::size_t(n) * n, 0.5f), b(a), c(a);
  const double us = median_us(
      [&] { cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a.data(), n, b.data(), n, 0, c.data(), n); },
      21);
  return 2.0 * n * n * n / us / 1e3;
}

}  // namespace

int main() {
  openblas_set_num_threads(1);
  libxsmm_init();
  std::mt19937 rng(1);
  const double peak = peak_gflops();
  std::printf("single-thread SGEMM peak (OpenBLAS 1024^3): %.1f GFLOP/s\n", peak);
  std::printf("%-26s %14s %8s %8s %8s %8s   %s\n", "shape (m x n x k)", "", "OpenBLAS", "Eigen", "LIBXSMM", "oneDNN",
              "us; GFLOP/s of the fastest");
  for (const Shape& s : kShapes) {
    Operands o = operands(s, rng);
    const int reps = s.m * s.n * s.k > 100000 ? 401 : 20001;
    const double blas = median_us(
        [&] {
          cblas_sgemm(CblasRowMajor, s.trans_a ? CblasTrans : CblasNoTrans, s.trans_b ? CblasTrans : CblasNoTrans, s.m,
                      s.n, s.k, 1.0f, o.a.data(), o.lda, o.b.data(), o.ldb, 0.0f, o.c.data(), s.n);
        },
        reps);
    const ConstView am(o.a.data(), o.ar, o.ac, Eigen::OuterStride<>(o.lda));
    const ConstView bm(o.b.data(), o.br, o.bc, Eigen::OuterStride<>(o.ldb));
    Eigen::Map<RowMat> cm(o.c.data(), s.m, s.n);
    const double eigen = median_us(
        [&] {
          if (s.trans_a) cm.noalias() = am.transpose() * bm;
          else if (s.trans_b) cm.noalias() = am * bm.transpose();
          else cm.noalias() = am * bm;
        },
        reps);
    // Column-major C^T[n x m] = op(B)^T op(A)^T: B's storage is the first operand, A's the second.
    const float alpha = 1, beta = 0;
    const int flags = (s.trans_b ? LIBXSMM_GEMM_FLAG_TRANS_A : 0) | (s.trans_a ? LIBXSMM_GEMM_FLAG_TRANS_B : 0);
    const libxsmm_blasint lda = o.ldb, ldb = o.lda, ldc = s.n;
    const libxsmm_smmfunction kernel =
        libxsmm_smmdispatch(s.n, s.m, s.k, &lda, &ldb, &ldc, &alpha, &beta, &flags, nullptr);
    const double xsmm = kernel ? median_us([&] { kernel(o.b.data(), o.a.data(), o.c.data()); }, reps) : -1;
    const double dnnl = median_us(
        [&] {
          dnnl_sgemm(s.trans_a ? 'T' : 'N', s.trans_b ? 'T' : 'N', s.m, s.n, s.k, 1.0f, o.a.data(), o.lda, o.b.data(),
                     o.ldb, 0.0f, o.c.data(), s.n);
        },
        reps);
    double best = std::min({blas, eigen, dnnl});
    if (xsmm > 0) best = std::min(best, xsmm);
    char label[64];
    std::snprintf(label, sizeof label, "%d x %d x %d", s.m, s.n, s.k);
    char xs[16];
    if (xsmm > 0) std::snprintf(xs, sizeof xs, "%8.2f", xsmm);
    else std::snprintf(xs, sizeof xs, "%8s", "n/a");
    std::printf("%-26s %14s %8.2f %8.2f %s %8.2f   %.1f (%.0f%% of peak)\n", s.what, label, blas, eigen, xs, dnnl,
                2.0 * s.m * s.n * s.k / best / 1e3, 100.0 * 2.0 * s.m * s.n * s.k / best / 1e3 / peak);
  }
  libxsmm_finalize();
}
