// Tests for core/train/attention: block-causal multi-head attention on a packed batch, its forward against a
// direct computation in double (scores, bias, softmax, weighted values) and its backward against finite differences.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "core/train/layers.hpp"
#include "gradient_check.hpp"

using namespace peviz::train;

namespace {

// Attention written out for one token i of a sequence starting at `start`, head h: softmax over j <= i of
// q_i . k_j / sqrt(hd) - slope (i - j), then the probabilities' sum of v_j. Channel c of the output.
double direct_output(const std::vector<double>& qkv, int start, int i, int h, int c, int C, int heads, double slope) {
  const int hd = C / heads;
  const auto at = [&](int token, int part, int ch) { return qkv[std::size_t((start + token) * 3 * C + part * C + h * hd + ch)]; };
  std::vector<double> score(std::size_t(i) + 1);
  double top = -1e300;
  for (int j = 0; j <= i; ++j) {
    double dot = 0.0;
    for (int k = 0; k < hd; ++k) dot += at(i, 0, k) * at(j, 1, k);
    score[std::size_t(j)] = dot / std::sqrt(double(hd)) - slope * (i - j);
    top = std::max(top, score[std::size_t(j)]);
  }
  double total = 0.0, out = 0.0;
  for (int j = 0; j <= i; ++j) total += std::exp(score[std::size_t(j)] - top);
  for (int j = 0; j <= i; ++j) out += std::exp(score[std::size_t(j)] - top) / total * at(j, 2, c);
  return out;
}

}  // namespace

TEST_CASE("attention forward equals attention written out, with and without ALiBi", "[train][attention]") {
  const PackedBatch b = two_sequences();
  const int C = 8, heads = 2;
  const std::vector<double> qkv = random_values(std::size_t(b.n_tokens() * 3 * C), 30);
  const std::vector<double> slopes = {0.5, 0.25};
  std::vector<double> out(std::size_t(b.n_tokens() * C)), att(std::size_t(attention_offsets(b, heads).back()));
  for (const bool alibi : {false, true}) {
    AttentionBias<double> bias;
    if (alibi) bias.alibi_slopes = slopes.data();
    attention_forward(out.data(), att.data(), qkv.data(), b, bias, C, heads);
    for (int s = 0; s < b.n_seqs(); ++s)
      for (int i = 0; i < b.seq_len[std::size_t(s)]; ++i)
        for (int c = 0; c < C; ++c) {
          const int h = c / (C / heads);
          CAPTURE(alibi, s, i, c);
          const double want = direct_output(qkv, b.seq_start[std::size_t(s)], i, h, c % (C / heads), C, heads,
                                            alibi ? slopes[std::size_t(h)] : 0.0);
          CHECK(out[std::size_t((b.seq_start[std::size_t(s)] + i) * C + c)] == Approx(want).epsilon(1e-12));
        }
  }
}

TEST_CASE("attention_offsets: one [heads, L, L] block per sequence, end to end", "[train][attention]") {
  const PackedBatch b = two_sequences();  // lengths 3 and 5
  CHECK(attention_offsets(b, 2) == std::vector<int>{0, 2 * 9, 2 * 9 + 2 * 25});
}

TEST_CASE("attention backward matches finite differences (no bias, ALiBi, T5, FIRE's bias)", "[train][attention]") {
  const PackedBatch b = two_sequences();
  const int C = 8, heads = 2;
  std::vector<double> qkv = random_values(b.n_tokens() * 3 * C, 20), out(b.n_tokens() * C);
  const std::vector<double> R = random_values(out.size(), 21);
  const std::vector<double> slopes = {0.5, 0.25};
  std::vector<double> t5 = random_values(heads * 4, 22);
  const std::vector<int> bucket = {0, 1, 2, 3, 3};
  std::vector<double> att(attention_offsets(b, heads).back()), scratch(50);
  std::vector<double> fire = random_values(att.size(), 23);  // any bias per query and key
  for (int kind = 0; kind < 4; ++kind) {
    AttentionBias<double> bias;
    if (kind == 1) bias.alibi_slopes = slopes.data();
    if (kind == 2) bias = {nullptr, t5.data(), bucket.data(), 4};
    if (kind == 3) bias.fire = fire.data();
    auto loss = [&] {
      attention_forward(out.data(), att.data(), qkv.data(), b, bias, C, heads);
      return weighted_sum(out, R);
    };
    loss();
    std::vector<double> dqkv(qkv.size(), 7.0), dt5(t5.size(), 0.0), dfire(fire.size(), 0.0);  // dqkv is written
    AttentionBiasGrads<double> dbias;
    if (kind == 2) dbias.t5_table = dt5.data();
    if (kind == 3) dbias.fire = dfire.data();
    attention_backward(dqkv.data(), dbias, R.data(), qkv.data(), att.data(), b, bias, C, heads, scratch.data());
    check_gradient(qkv, dqkv, loss);
    if (kind == 2) check_gradient(t5, dt5, loss);
    if (kind == 3) check_gradient(fire, dfire, loss);
  }
  // Block-causal: the first token of sequence 2 attends only to itself, so its output is its own v.
  attention_forward(out.data(), att.data(), qkv.data(), b, AttentionBias<double>{}, C, heads);
  for (int c = 0; c < C; ++c) CHECK(out[3 * C + c] == Approx(qkv[3 * 3 * C + 2 * C + c]));
  // Each probability row sums to one over j <= i and is zero above the diagonal.
  CHECK(att[9 * 2 + 5 * 0 + 0] == Approx(1.0));  // seq 2, head 0, row 0
  CHECK(att[9 * 2 + 1] == 0.0);
}

TEST_CASE("float attention (vectorised softmax exp) equals double's within float rounding", "[train][attention]") {
  PackedBatch b;
  std::vector<int> long_sequence(41);
  for (int i = 0; i < 41; ++i) long_sequence[std::size_t(i)] = i % 7;
  b.append(long_sequence, 0);  // rows up to 41 keys: whole AVX-512 blocks and a remainder
  const int C = 16, heads = 2;
  const std::vector<double> qkv = random_values(std::size_t(b.n_tokens() * 3 * C), 31);
  const std::vector<float> qkv_f(qkv.begin(), qkv.end());
  std::vector<double> out(std::size_t(b.n_tokens() * C)), att(std::size_t(attention_offsets(b, heads).back()));
  std::vector<float> out_f(out.size()), att_f(att.size());
  attention_forward(out.data(), att.data(), qkv.data(), b, AttentionBias<double>{}, C, heads);
  attention_forward(out_f.data(), att_f.data(), qkv_f.data(), b, AttentionBias<float>{}, C, heads);
  double worst_p = 0.0, worst_out = 0.0;
  for (std::size_t i = 0; i < att.size(); ++i) worst_p = std::max(worst_p, std::fabs(double(att_f[i]) - att[i]));
  for (std::size_t i = 0; i < out.size(); ++i) worst_out = std::max(worst_out, std::fabs(double(out_f[i]) - out[i]));
  // The float bound, whatever order a SIMD path sums in (Higham's gamma_n = n u / (1 - n u), u = 2^-24): a score
  // is a dot product of hd terms of inputs rounded to float, times 1/sqrt(hd): within (gamma_hd + 3u) sum |q_c k_c| /
  // sqrt(hd); a probability e^(s_j - max) / sum moves by at most 2 x the scores' error, exp_float's 2 ulps (2^-22,
  // exp_float_test.cpp) and the sum's gamma_41 and the division's u; an output sums 41 of them times |v| <= 1.
  const int hd = C / heads;
  const auto gamma = [](double n) { return n * 0x1p-24 / (1 - n * 0x1p-24); };
  double score_magnitude = 0.0;
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < 41; ++i)
      for (int j = 0; j <= i; ++j) {
        double m = 0.0;
        for (int c = 0; c < hd; ++c)
          m += std::fabs(qkv[std::size_t(i * 3 * C + h * hd + c)] * qkv[std::size_t(j * 3 * C + C + h * hd + c)]);
        score_magnitude = std::max(score_magnitude, m / std::sqrt(double(hd)));
      }
  const double p_bound = 2 * (gamma(hd) + 3 * 0x1p-24) * score_magnitude + 0x1p-22 + gamma(41) + 0x1p-24;
  CHECK(worst_p <= p_bound);
  CHECK(worst_out <= 41 * p_bound + gamma(42));
  for (int i = 0; i < 41; ++i) {  // each row of head 1 sums to one over j <= i: i + 1 quotients of one float sum
    double sum = 0.0;
    for (int j = 0; j <= i; ++j) sum += att_f[std::size_t(41 * 41 + i * 41 + j)];
    CHECK(std::fabs(sum - 1.0) <= gamma(i + 2));
  }
}

TEST_CASE("the float RoPE rotation gives the same bits on every SIMD path, over bodies and tails",
          "[train][attention][simd]") {
  const PackedBatch b = two_sequences();
  for (const int hd : {16, 22}) {  // 8 pairs (one AVX2 vector), 11 (a vector and a tail)
    const int heads = 3, C = heads * hd;
    const RopeTable<float> table = make_rope_table<float>(hd, 10000.0, 5);
    const std::vector<double> start = random_values(std::size_t(b.n_tokens() * 3 * C), 41, 2.0);
    auto rotated = [&](peviz::SimdPath widest, bool backward) {
      peviz::cap_simd_path(widest);
      std::vector<float> qkv(start.begin(), start.end());
      if (backward) rope_backward(qkv.data(), b, table, C, heads);
      else rope_forward(qkv.data(), b, table, C, heads);
      peviz::cap_simd_path(peviz::SimdPath::avx512);
      return qkv;
    };
    for (const bool backward : {false, true}) {
      const std::vector<float> plain = rotated(peviz::SimdPath::baseline, backward);
      for (peviz::SimdPath path : {peviz::SimdPath::avx2, peviz::SimdPath::avx512}) {
        if (!peviz::simd_path_supported(path)) {  // said in the output, so a pass here is not mistaken for a check
          WARN("SKIPPED: this CPU cannot run the " << peviz::to_string(path) << " path: its RoPE is not compared");
          continue;
        }
        INFO(peviz::to_string(path) << ", head_dim " << hd << (backward ? ", backward" : ", forward"));
        const std::vector<float> wide = rotated(path, backward);
        CHECK(std::memcmp(wide.data(), plain.data(), wide.size() * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("float attention, forward and backward, with and without ALiBi, gives the same bits on every SIMD path",
          "[train][attention][simd]") {
  PackedBatch b;  // 19 and 9 tokens: blocks of 8 keys and remainders in the transposed K and V
  for (const int n : {19, 9}) {
    std::vector<int> tokens(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) tokens[std::size_t(i)] = (3 * i) % 5;
    b.append(tokens, 1);
  }
  for (const int hd : {16, 20}) {  // whole blocks of 8 channels, and a remainder of 4
    const int heads = 2, C = heads * hd, L = 19;
    const std::vector<double> qkv_d = random_values(std::size_t(b.n_tokens() * 3 * C), 43, 2.0);
    const std::vector<double> dout_d = random_values(std::size_t(b.n_tokens() * C), 44);
    const std::vector<float> qkv(qkv_d.begin(), qkv_d.end()), dout(dout_d.begin(), dout_d.end());
    const double slopes[] = {0.5, 0.25};
    auto run = [&](peviz::SimdPath widest) {  // without a bias, then with ALiBi's
      peviz::cap_simd_path(widest);
      std::vector<float> out, att, dqkv;
      for (const double* alibi : {static_cast<const double*>(nullptr), slopes}) {
        AttentionBias<float> bias;
        bias.alibi_slopes = alibi;
        std::vector<float> o(dout.size()), a(std::size_t(attention_offsets(b, heads).back()));
        std::vector<float> d(qkv.size()), scratch(std::size_t(4 * L * L));
        attention_forward(o.data(), a.data(), qkv.data(), b, bias, C, heads);
        attention_backward(d.data(), AttentionBiasGrads<float>{}, dout.data(), qkv.data(), a.data(), b, bias, C, heads,
                           scratch.data());
        out.insert(out.end(), o.begin(), o.end());
        att.insert(att.end(), a.begin(), a.end());
        dqkv.insert(dqkv.end(), d.begin(), d.end());
      }
      peviz::cap_simd_path(peviz::SimdPath::avx512);
      out.insert(out.end(), att.begin(), att.end());
      out.insert(out.end(), dqkv.begin(), dqkv.end());
      return out;
    };
    const std::vector<float> plain = run(peviz::SimdPath::baseline);
    for (peviz::SimdPath path : {peviz::SimdPath::avx2, peviz::SimdPath::avx512}) {
      if (!peviz::simd_path_supported(path)) {  // said in the output, so a pass here is not mistaken for a check
        WARN("SKIPPED: this CPU cannot run the " << peviz::to_string(path) << " path: its attention is not compared");
        continue;
      }
      INFO(peviz::to_string(path) << ", head_dim " << hd);
      const std::vector<float> wide = run(path);
      CHECK(std::memcmp(wide.data(), plain.data(), wide.size() * sizeof(float)) == 0);
    }
  }
}
