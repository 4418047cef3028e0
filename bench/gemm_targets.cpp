// LIBXSMM against OpenBLAS on the training engine's products as gemm() calls them (core/train/layers.cpp and
// attention.cpp at the default: about 770 packed tokens, d_model 64, 4 heads of 16, MLP 256), one thread, medians in
// microseconds and GFLOP/s. The forward's x W^T is x times the copied W^T (NN), beta 1 where a bias or a residual is
// accumulated onto, and the weight gradients are dy^T x with beta 1. Unlike bench/gemm_shapes.cpp it needs neither
// oneDNN nor Eigen, so it runs on any machine with the build's dependencies; set LIBXSMM_TARGET and
// OPENBLAS_CORETYPE to compare the AVX2 (hsw, Haswell) and AVX-512 kernels on one host:
//   g++ -O2 -std=c++20 $(pkg-config --cflags openblas) bench/gemm_targets.cpp $(pkg-config --libs openblas) \
//       -lxsmm -lxsmmnoblas -lpthread -ldl -o /tmp/gemm_targets
//   LIBXSMM_TARGET=hsw OPENBLAS_CORETYPE=Haswell /tmp/gemm_targets; OPENBLAS_CORETYPE=SkylakeX /tmp/gemm_targets
#include <cblas.h>
#include <libxsmm.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>
struct Shape {
  const char* what;
  int m, n, k;
  bool ta, tb;
  int lda, ldb;
  float beta;
};
constexpr int N = 770, C = 64, L = 24, HD = 16;
// as the engine calls gemm(): forward x W_t (NN, W transposed first), beta 1 where a bias is present
constexpr Shape kShapes[] = {
    {"qkv fwd   x Wt", N, 3 * C, C, false, false, 0, 0, 1}, {"proj fwd  x Wt", N, C, C, false, false, 0, 0, 1},
    {"fc fwd    x Wt", N, 4 * C, C, false, false, 0, 0, 0}, {"fcproj fwd x Wt", N, C, 4 * C, false, false, 0, 0, 1},
    {"qkv dx  dy W", N, C, 3 * C, false, false, 0, 0, 0},   {"proj dx dy W", N, C, C, false, false, 0, 0, 0},
    {"fc dx   dy W", N, C, 4 * C, false, false, 0, 0, 0},   {"fcproj dx dy W", N, 4 * C, C, false, false, 0, 0, 0},
    {"qkv dW  dy^T x", 3 * C, C, N, true, false, 0, 0, 1},  {"proj dW dy^T x", C, C, N, true, false, 0, 0, 1},
    {"fc dW   dy^T x", 4 * C, C, N, true, false, 0, 0, 1},  {"fcproj dW dy^T x", C, 4 * C, N, true, false, 0, 0, 1},
    {"attn P V", L, HD, L, false, false, L, 3 * C, 0},      {"attn dV=P^T dO", L, HD, L, true, false, L, C, 0},
    {"attn dQ=dS K", L, HD, L, false, false, L, 3 * C, 0},
};
template <class Fn>
double median_us(Fn&& fn, int reps) {
  std::vector<double> t;
  fn();
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2];
}
int main() {
  openblas_set_num_threads(1);
  libxsmm_init();
  std::printf("libxsmm target %s\n", libxsmm_get_target_arch());
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  double tb = 0, tx = 0;
  for (const Shape& s : kShapes) {
    int ar = s.ta ? s.k : s.m, ac = s.ta ? s.m : s.k, br = s.tb ? s.n : s.k, bc = s.tb ? s.k : s.n;
    int lda = s.lda ? s.lda : ac, ldb = s.ldb ? s.ldb : bc;
    std::vector<float> a(size_t(ar) * lda), b(size_t(br) * ldb), c(size_t(s.m) * s.n);
    for (auto& v : a) v = u(rng);
    for (auto& v : b) v = u(rng);
    int reps = s.m * s.n * s.k > 100000 ? 401 : 20001;
    double blas = median_us(
        [&] {
          cblas_sgemm(CblasRowMajor, s.ta ? CblasTrans : CblasNoTrans, s.tb ? CblasTrans : CblasNoTrans, s.m, s.n, s.k,
                      1.0f, a.data(), lda, b.data(), ldb, s.beta, c.data(), s.n);
        },
        reps);
    float alpha = 1, beta = s.beta;
    int flags = s.ta ? LIBXSMM_GEMM_FLAG_TRANS_B : 0;
    libxsmm_blasint l1 = ldb, l2 = lda, lc = s.n;
    auto k = libxsmm_smmdispatch(s.n, s.m, s.k, &l1, &l2, &lc, &alpha, &beta, &flags, nullptr);
    double x = k ? median_us([&] { k(b.data(), a.data(), c.data()); }, reps) : -1;
    double fl = 2.0 * s.m * s.n * s.k;
    std::printf("%-18s %4dx%4dx%4d b%g  openblas %8.2f us %6.1f GF   xsmm %8.2f us %6.1f GF\n", s.what, s.m, s.n, s.k,
                s.beta, blas, fl / blas / 1e3, x, x > 0 ? fl / x / 1e3 : 0);
    tb += blas;
    tx += x > 0 ? x : blas;
  }
  std::printf("sum openblas %.1f us, engine choice %.1f us\n", tb, tx);
}
