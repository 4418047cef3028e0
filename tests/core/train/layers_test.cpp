// Each layer's backward against central finite differences in double; pointwise forwards against closed forms.
#include "core/train/layers.hpp"

#include <cmath>

#include <catch2/catch.hpp>

#include "core/rope/rope.hpp"
#include "gradient_check.hpp"
#include "tiny_run.hpp"

using namespace peviz::train;

TEST_CASE("matmul backward matches finite differences", "[train][layers]") {
  const int N = 5, C = 4, OC = 3;
  std::vector<double> inp = random_values(N * C, 1), w = random_values(OC * C, 2), bias = random_values(OC, 3);
  const std::vector<double> R = random_values(N * OC, 4);
  std::vector<double> out(N * OC), w_t(OC * C);
  auto loss = [&] {
    matmul_forward(out.data(), inp.data(), w.data(), bias.data(), N, C, OC, w_t.data());
    return weighted_sum(out, R);
  };
  std::vector<double> dinp(N * C, 7.0), dw(OC * C, 0.0), dbias(OC, 0.0);  // dinp is written, not added to
  matmul_backward(dinp.data(), dw.data(), dbias.data(), R.data(), inp.data(), w.data(), N, C, OC);
  check_gradient(inp, dinp, loss);
  check_gradient(w, dw, loss);
  check_gradient(bias, dbias, loss);
  loss();
  CHECK(out[0] == Approx(inp[0] * w[0] + inp[1] * w[1] + inp[2] * w[2] + inp[3] * w[3] + bias[0]));
}

TEST_CASE("layernorm normalises and its backward matches finite differences", "[train][layers]") {
  const int N = 4, C = 21;  // one block of the 16 running sums and a tail
  std::vector<double> inp = random_values(N * C, 5, 2.0), w = random_values(C, 6), bias = random_values(C, 7);
  const std::vector<double> R = random_values(N * C, 8);
  std::vector<double> out(N * C), mean(N), rstd(N);
  auto loss = [&] {
    layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), bias.data(), N, C);
    return weighted_sum(out, R);
  };
  loss();
  std::vector<double> dinp(N * C, 7.0), dw(C, 0.0), dbias(C, 0.0);  // dinp is written, not added to
  layernorm_backward(dinp.data(), dw.data(), dbias.data(), R.data(), inp.data(), w.data(), mean.data(), rstd.data(), N, C);
  check_gradient(inp, dinp, loss);
  check_gradient(w, dw, loss);
  check_gradient(bias, dbias, loss);
  // With a residual gradient, dinp is that gradient plus the LayerNorm's own, element by element.
  const std::vector<double> dresidual = random_values(N * C, 9);
  loss();  // mean and rstd of the unperturbed input
  std::vector<double> dinp_residual(N * C, 7.0), dw2(C, 0.0), dbias2(C, 0.0);
  layernorm_backward(dinp_residual.data(), dw2.data(), dbias2.data(), R.data(), inp.data(), w.data(), mean.data(),
                     rstd.data(), N, C, dresidual.data());
  for (std::size_t i = 0; i < dinp.size(); ++i) CHECK(dinp_residual[i] == dresidual[i] + dinp[i]);
  CHECK(dw2 == dw);
  // With w = 1, b = 0 a row has mean 0 and biased variance 1 / (1 + eps / var).
  std::vector<double> ones(C, 1.0), zeros(C, 0.0);
  layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), ones.data(), zeros.data(), N, C);
  double m = 0, v = 0;
  for (int c = 0; c < C; ++c) m += out[c] / C;
  for (int c = 0; c < C; ++c) v += out[c] * out[c] / C;
  CHECK(m == Approx(0).margin(1e-12));
  CHECK(v == Approx(1).epsilon(1e-4));
}

TEST_CASE("matmul forward with a residual adds it to every row; without a bias it is the product alone",
          "[train][layers]") {
  const int N = 3, C = 4, OC = 2;
  const std::vector<double> inp = random_values(N * C, 11), w = random_values(OC * C, 12), bias = random_values(OC, 13);
  const std::vector<double> residual = random_values(N * OC, 14);
  std::vector<double> out(N * OC), w_t(OC * C);
  matmul_forward(out.data(), inp.data(), w.data(), bias.data(), N, C, OC, w_t.data(), residual.data());
  // Each output is a sum of C products and two more terms: within gamma_{C+3} of its terms' magnitudes (Higham 3.1;
  // one u more for this loop's own rounding), whatever order OpenBLAS's kernel of the host sums in.
  const double gamma = (C + 3) * 0x1p-53 / (1 - (C + 3) * 0x1p-53);
  for (int t = 0; t < N; ++t)
    for (int o = 0; o < OC; ++o) {
      double want = residual[std::size_t(t * OC + o)] + bias[std::size_t(o)];
      double magnitude = std::fabs(residual[std::size_t(t * OC + o)]) + std::fabs(bias[std::size_t(o)]);
      for (int c = 0; c < C; ++c) {
        want += inp[std::size_t(t * C + c)] * w[std::size_t(o * C + c)];
        magnitude += std::fabs(inp[std::size_t(t * C + c)] * w[std::size_t(o * C + c)]);
      }
      CHECK(std::fabs(out[std::size_t(t * OC + o)] - want) <= 2 * gamma * magnitude);
    }
  matmul_forward<double>(out.data(), inp.data(), w.data(), nullptr, N, C, OC, w_t.data());  // the product alone
  for (int t = 0; t < N; ++t)
    for (int o = 0; o < OC; ++o) {
      double want = 0, magnitude = 0;
      for (int c = 0; c < C; ++c) {
        want += inp[std::size_t(t * C + c)] * w[std::size_t(o * C + c)];
        magnitude += std::fabs(inp[std::size_t(t * C + c)] * w[std::size_t(o * C + c)]);
      }
      CHECK(std::fabs(out[std::size_t(t * OC + o)] - want) <= 2 * gamma * magnitude);
    }
}

TEST_CASE("embedding backward", "[train][layers]") {
  const PackedBatch batch = two_sequences();
  const int C = 3, V = 6, P = 5;
  std::vector<double> wte = random_values(V * C, 14), wpe = random_values(P * C, 15), emb(batch.n_tokens() * C);
  const std::vector<double> Re = random_values(emb.size(), 16);
  auto eloss = [&] {
    embedding_forward(emb.data(), batch, wte.data(), wpe.data(), C);
    return weighted_sum(emb, Re);
  };
  std::vector<double> dwte(wte.size(), 0.0), dwpe(wpe.size(), 0.0);
  embedding_backward(dwte.data(), dwpe.data(), Re.data(), batch, C);
  check_gradient(wte, dwte, eloss);
  check_gradient(wpe, dwpe, eloss);
  eloss();
  CHECK(emb[3 * C + 1] == wte[3 * C + 1] + wpe[0 * C + 1]);  // token 3 starts sequence 2 at position 0
}

TEST_CASE("cross-entropy only on targets; backward matches finite differences", "[train][layers]") {
  const PackedBatch b = two_sequences();  // targets: seq 1 tokens 0,1; seq 2 tokens 2,3 -> 4 targets
  REQUIRE(b.n_targets == 4);
  CHECK(b.targets == std::vector<int>{4, 2, -1, -1, -1, 5, 1, -1});
  const int V = 6;
  std::vector<double> logits = random_values(b.n_tokens() * V, 17, 2.0), probs(logits.size());
  auto loss = [&] { return crossentropy_forward(probs.data(), logits.data(), b, V); };
  loss();
  std::vector<double> dlogits(logits.size());
  crossentropy_backward(dlogits.data(), probs.data(), b, V);
  check_gradient(logits, dlogits, loss);
  std::vector<double> flat(b.n_tokens() * V, 0.0);
  CHECK(crossentropy_forward(probs.data(), flat.data(), b, V) == Approx(std::log(6.0)));
}

TEST_CASE("RoPE rotation equals core's apply_rope and its backward is the transpose", "[train][layers]") {
  const PackedBatch b = two_sequences();
  const int C = 8, heads = 2, hd = 4;
  const RopeTable<double> table = make_rope_table<double>(hd, 100.0, 5);
  std::vector<double> qkv = random_values(b.n_tokens() * 3 * C, 18), rotated = qkv;
  rope_forward(rotated.data(), b, table, C, heads);
  // Token 4 sits at position 1 of sequence 2; its head-1 key must equal core's RoPE at position 1.
  peviz::RopeParams p;
  p.head_dim = hd;
  p.base = 100.0;
  const std::vector<double> inv = peviz::rope_inv_freq(p);
  std::vector<float> key(hd), expect(hd);
  for (int c = 0; c < hd; ++c) key[c] = float(qkv[4 * 3 * C + C + hd + c]);
  peviz::apply_rope(p, inv, key, 1.0, expect);
  for (int c = 0; c < hd; ++c) CHECK(rotated[4 * 3 * C + C + hd + c] == Approx(expect[c]).epsilon(1e-6));
  // v is untouched
  CHECK(rotated[4 * 3 * C + 2 * C] == qkv[4 * 3 * C + 2 * C]);
  const std::vector<double> R = random_values(qkv.size(), 19);
  auto loss = [&] {
    std::vector<double> r = qkv;
    rope_forward(r.data(), b, table, C, heads);
    return weighted_sum(r, R);
  };
  std::vector<double> dqkv = R;
  rope_backward(dqkv.data(), b, table, C, heads);
  check_gradient(qkv, dqkv, loss);
}

namespace {
// Float copies of random_values, so that roundings differ between orders of operations.
std::vector<float> random_floats(std::size_t n, unsigned seed, double scale = 1.0) {
  const std::vector<double> d = random_values(n, seed, scale);
  return {d.begin(), d.end()};
}
}  // namespace

TEST_CASE("LayerNorm, the adds and the column sums give the same bits on every SIMD path, over bodies and tails",
          "[train][layers][simd]") {
  using peviz::SimdPath;
  const int N = 7;
  for (const int C : {64, 83}) {  // whole blocks of the 16 running sums, and 5 blocks and a tail of 3
    const std::size_t n = std::size_t(N) * std::size_t(C);
    const std::vector<float> inp = random_floats(n, 31, 3.0), w = random_floats(std::size_t(C), 32),
                             bias = random_floats(std::size_t(C), 33), dout = random_floats(n, 34),
                             dresidual = random_floats(n, 35);
    struct Result {
      std::vector<float> out, mean, rstd, dinp, dinp_residual, dw, dbias, sum, columns;
    };
    auto run = [&](SimdPath path) {
      Result r{std::vector<float>(n), std::vector<float>(N), std::vector<float>(N), std::vector<float>(n),
               std::vector<float>(n), random_floats(std::size_t(C), 36), random_floats(std::size_t(C), 37),
               std::vector<float>(n), random_floats(std::size_t(C), 38)};
      layernorm_forward_float(path, r.out.data(), r.mean.data(), r.rstd.data(), inp.data(), w.data(), bias.data(), N,
                              C);
      layernorm_backward_float(path, r.dinp.data(), r.dw.data(), r.dbias.data(), dout.data(), inp.data(), w.data(),
                               r.mean.data(), r.rstd.data(), N, C, nullptr);
      layernorm_backward_float(path, r.dinp_residual.data(), r.dw.data(), r.dbias.data(), dout.data(), inp.data(),
                               w.data(), r.mean.data(), r.rstd.data(), N, C, dresidual.data());
      add_float(path, r.sum.data(), inp.data(), dout.data(), n);
      accumulate_rows_float(path, r.columns.data(), dout.data(), std::size_t(C), std::size_t(N), std::size_t(C));
      return r;
    };
    const Result want = run(SimdPath::baseline);
    // The pass the model calls (on the best path) gives the same bits, and the adds and sums are the plain ones.
    std::vector<float> out(n), mean(N), rstd(N);
    layernorm_forward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), bias.data(), N, C);
    CHECK(same_bits(out, want.out));
    CHECK(same_bits(rstd, want.rstd));
    for (std::size_t i = 0; i < n; ++i) REQUIRE(want.sum[i] == inp[i] + dout[i]);
    std::vector<float> columns = random_floats(std::size_t(C), 38);
    for (int t = 0; t < N; ++t)
      for (int c = 0; c < C; ++c) columns[std::size_t(c)] += dout[std::size_t(t * C + c)];
    CHECK(same_bits(columns, want.columns));
    for (SimdPath path : {SimdPath::avx2, SimdPath::avx512}) {
      if (!peviz::simd_path_supported(path)) {  // said in the output, so a pass here is not mistaken for a check
        WARN("SKIPPED: this CPU cannot run the " << peviz::to_string(path) << " path: its LayerNorm is not compared");
        continue;
      }
      INFO(peviz::to_string(path) << ", C = " << C);
      const Result got = run(path);
      CHECK(same_bits(got.out, want.out));
      CHECK(same_bits(got.mean, want.mean));
      CHECK(same_bits(got.rstd, want.rstd));
      CHECK(same_bits(got.dinp, want.dinp));
      CHECK(same_bits(got.dinp_residual, want.dinp_residual));
      CHECK(same_bits(got.dw, want.dw));
      CHECK(same_bits(got.dbias, want.dbias));
      CHECK(same_bits(got.sum, want.sum));
      CHECK(same_bits(got.columns, want.columns));
    }
  }
}
