// The most a lab training step could reach through OpenBLAS: every matrix product of one step at the default
// model, timed alone, as GFLOP/s over all of them, beside a 2048^3 SGEMM (the peak); one thread.
//
// Not part of the build (docs/lab-runs/speed.md quotes its output):
//   g++ -O2 -std=c++20 $(pkg-config --cflags openblas) bench/gemm_ceiling.cpp $(pkg-config --libs openblas) \
//       -o /tmp/gemm_ceiling && OPENBLAS_NUM_THREADS=1 /tmp/gemm_ceiling [layers heads d_model batch train_max]
// The products are those of core/train/layers.cpp (matmul forward, input and weight gradients) and attention.cpp
// (per sequence and head: scores, P.V, and their four gradient products), with the engine's leading dimensions.
// Everything that is not a product (softmax, LayerNorm, GELU, AdamW, packing) counts as free here, so the
// printed GFLOP/s bound the whole step's from above.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

namespace {

struct Product {
  CBLAS_TRANSPOSE ta, tb;
  int m, n, k, lda, ldb, ldc;
  int count;  // how many times a step runs it
};

double flops(const Product& p) { return 2.0 * p.m * p.n * p.k * p.count; }

// Seconds for one call, the median of several timed batches of calls.
double seconds_per_call(const Product& p) {
  const std::size_t a_size = std::size_t(p.ta == CblasNoTrans ? p.m : p.k) * p.lda;
  const std::size_t b_size = std::size_t(p.tb == CblasNoTrans ? p.k : p.n) * p.ldb;
  std::vector<float> a(a_size), b(b_size), c(std::size_t(p.m) * p.ldc);
  std::mt19937 rng(1);
  std::normal_distribution<float> g(0, 1);
  for (float& x : a) x = g(rng);
  for (float& x : b) x = g(rng);
  const int reps = std::max(1, int(2e8 / (2.0 * p.m * p.n * p.k)));
  std::vector<double> times;
  for (int trial = 0; trial < 7; ++trial) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      cblas_sgemm(CblasRowMajor, p.ta, p.tb, p.m, p.n, p.k, 1.0f, a.data(), p.lda, b.data(), p.ldb, 1.0f, c.data(), p.ldc);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// One step's products: per layer four matmuls (qkv, attention projection, fc, fc projection) forward, input
// gradient and weight gradient, the head's three, and per sequence and head the six attention products.
std::vector<Product> step_products(int layers, int heads, int d, int batch, int train_max) {
  std::vector<int> lengths;  // n = 1 + i mod train_max, the mean of the uniform draw
  int tokens = 0;
  for (int i = 0; i < batch; ++i) lengths.push_back(2 * (1 + i % train_max) + 3), tokens += lengths.back();
  std::vector<Product> out;
  auto matmul = [&](int in, int o, int count) {
    out.push_back({CblasNoTrans, CblasTrans, tokens, o, in, in, in, o, count});    // out = inp W^T
    out.push_back({CblasNoTrans, CblasNoTrans, tokens, in, o, o, in, in, count});  // dinp = dout W
    out.push_back({CblasTrans, CblasNoTrans, o, in, tokens, o, in, in, count});    // dW += dout^T inp
  };
  matmul(d, 3 * d, layers);
  matmul(d, d, layers);
  matmul(d, 4 * d, layers);
  matmul(4 * d, d, layers);
  matmul(d, 13, 1);  // the head over the vocabulary
  const int hd = d / heads, C = d;
  for (int L : lengths) {
    const int c = layers * heads;
    out.push_back({CblasNoTrans, CblasTrans, L, L, hd, 3 * C, 3 * C, L, c});  // S = Q K^T
    out.push_back({CblasNoTrans, CblasNoTrans, L, hd, L, L, 3 * C, C, c});    // O = P V
    out.push_back({CblasNoTrans, CblasTrans, L, L, hd, C, 3 * C, L, c});      // dP = dO V^T
    out.push_back({CblasTrans, CblasNoTrans, L, hd, L, L, C, 3 * C, c});      // dV = P^T dO
    out.push_back({CblasNoTrans, CblasNoTrans, L, hd, L, L, 3 * C, 3 * C, c});  // dQ = s dS K
    out.push_back({CblasTrans, CblasNoTrans, L, hd, L, L, 3 * C, 3 * C, c});    // dK = s dS^T Q
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  const int layers = arg(1, 4), heads = arg(2, 4), d = arg(3, 64), batch = arg(4, 32), train_max = arg(5, 20);
  const Product peak{CblasNoTrans, CblasNoTrans, 2048, 2048, 2048, 2048, 2048, 2048, 1};
  const double peak_gflops = flops(peak) / seconds_per_call(peak) / 1e9;
  double total_flops = 0, total_seconds = 0, matmul_flops = 0, matmul_seconds = 0;
  const std::vector<Product> products = step_products(layers, heads, d, batch, train_max);
  for (std::size_t i = 0; i < products.size(); ++i) {
    const Product& p = products[i];
    const double s = seconds_per_call(p) * p.count;
    total_flops += flops(p);
    total_seconds += s;
    if (i < 15) matmul_flops += flops(p), matmul_seconds += s;
  }
  std::printf("model: %d layers, %d heads, d_model %d, batch %d, n up to %d; one thread\n", layers, heads, d, batch,
              train_max);
  std::printf("SGEMM 2048^3 (peak): %.1f GFLOP/s\n", peak_gflops);
  std::printf("the step's matmuls alone: %.3f GFLOP in %.2f ms, %.1f GFLOP/s (%.0f%% of peak)\n", matmul_flops / 1e9,
              matmul_seconds * 1e3, matmul_flops / matmul_seconds / 1e9, 100 * matmul_flops / matmul_seconds / 1e9 / peak_gflops);
  std::printf("every product of the step: %.3f GFLOP in %.2f ms, %.1f GFLOP/s (%.0f%% of peak): the ceiling of a step "
              "with everything else free\n", total_flops / 1e9, total_seconds * 1e3, total_flops / total_seconds / 1e9,
              100 * total_flops / total_seconds / 1e9 / peak_gflops);
  return 0;
}
