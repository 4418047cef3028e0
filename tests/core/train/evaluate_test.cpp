// One-pass exact match against a literal greedy decode; attention maps; "not defined" for a learned table.
#include "core/train/evaluate.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include <catch2/catch.hpp>

#include "core/train/run.hpp"

using namespace peviz::train;

namespace {

TrainSettings small_settings(PositionEncoding pe) {
  TrainSettings s;
  s.pe = pe;
  s.layers = 1;
  s.heads = 2;
  s.d_model = 32;
  s.batch = 16;
  s.steps = 1500;
  s.warmup = 10;
  s.train_max = 5;
  s.test_max = 10;
  s.test_samples = 40;
  s.seed = 3;
  return s;
}

// Whether a float engine's verdict on `seq` could go either way: teacher-forced in double, no answer position is
// wrong by more than `reach` and one lies within `reach` of a tie (target logit minus the largest other). reach:
// twice the first-order float32 error of a logit, gamma_N of the chain from the input to the logits (per layer
// 10 d + 2 T + 1, then 3 d and the vocabulary: tests/twin/parity_test.py's chain_length) times the head's
// magnitude, (sqrt(d) max |lnf w| + ||lnf b||) ||W_v|| + |b_v| (its logit_reach). Two float passes that pack the
// sequence differently (the one-pass evaluation, the literal decode) may differ on such a sequence, on any host.
bool near_tie(const Model<float>& trained, const std::vector<int>& seq, int first) {
  const peviz::train::ModelConfig& c = trained.config;
  const int L = int(seq.size()), V = c.vocab, d = c.d_model;
  Model<double> m = make_model<double>(c, L, std::size_t(c.heads) * std::size_t(L * L), 0);
  m.params.assign(trained.params.begin(), trained.params.end());
  PackedBatch b;
  b.append(seq, L);  // no targets: the logits are read
  model_forward(m, b);
  const double n = c.layers * (10.0 * d + 2.0 * L + 1) + 3.0 * d + V, gamma = n * 0x1p-24 / (1 - n * 0x1p-24);
  double lnf_w = 0, lnf_b = 0, head = 0;
  for (int k = 0; k < d; ++k) {
    lnf_w = std::max(lnf_w, std::fabs(m.param(Param::lnfw)[k]));
    lnf_b += m.param(Param::lnfb)[k] * m.param(Param::lnfb)[k];
  }
  for (int v = 0; v < V; ++v) {
    double row = 0;
    for (int k = 0; k < d; ++k) row += m.param(Param::headw)[v * d + k] * m.param(Param::headw)[v * d + k];
    head = std::max(head, (std::sqrt(double(d)) * lnf_w + std::sqrt(lnf_b)) * std::sqrt(row) + std::fabs(m.param(Param::headb)[v]));
  }
  const double reach = 2 * gamma * head;
  bool near = false;
  for (int p = first; p + 1 < L; ++p) {
    const double* row = m.act(Act::logits) + std::size_t(p) * std::size_t(V);
    double other = -INFINITY;
    for (int v = 0; v < V; ++v)
      if (v != seq[std::size_t(p + 1)]) other = std::max(other, row[v]);
    const double margin = row[seq[std::size_t(p + 1)]] - other;
    if (margin < -reach) return false;  // wrong beyond rounding: every float pass says so
    near = near || std::fabs(margin) <= reach;
  }
  return near;
}

}  // namespace

TEST_CASE("one teacher-forced pass gives the greedy decode's exact match", "[train][evaluate]") {
  TrainRun run(small_settings(PositionEncoding::rope));
  run.train(std::atomic<bool>{false});
  const TrainSnapshot snap = run.snapshot();
  // A private model with the trained weights, sized for one sequence, for the literal decode.
  Model<float> m = make_model<float>(model_config(run.settings()), 64, 4096, 0);
  m.params = run.parameters();
  bool some_partial = false;
  for (const LengthAccuracy& acc : snap.accuracy) {
    const auto seqs = test_sequences(Task::copy, acc.n, 40, 3);
    int exact = 0, near = 0;
    for (const auto& seq : seqs) {
      const std::vector<int> answer(seq.begin() + first_answer_target(Task::copy, acc.n) + 1, seq.end());
      exact += greedy_answer(m, seq) == answer ? 1 : 0;
      near += near_tie(m, seq, first_answer_target(Task::copy, acc.n)) ? 1 : 0;
    }
    REQUIRE(acc.exact_match.has_value());
    INFO("n = " << acc.n << ", exact " << exact << " of 40, " << near << " within float rounding of a tie");
    CHECK(std::fabs(*acc.exact_match * 40.0 - exact) <= near);  // equal but where rounding may decide
    some_partial = some_partial || (exact > 0 && exact < 40);
  }
  for (const LengthAccuracy& acc : snap.accuracy) UNSCOPED_INFO("n = " << acc.n << ": " << *acc.exact_match);
  CHECK(some_partial);  // the comparison saw both right and wrong answers
}

TEST_CASE("attention maps: rows sum to one, causal, beyond training length", "[train][evaluate]") {
  TrainRun run(small_settings(PositionEncoding::alibi));
  const auto maps = run.attention_maps(8, 2);  // n = 8 > train_max = 5
  REQUIRE(maps.has_value());
  REQUIRE(maps->size() == 1);
  REQUIRE((*maps)[0].size() == 2);
  const peviz::Matrix& a = (*maps)[0][1];
  REQUIRE(a.rows == 19);
  for (std::size_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < a.cols; ++j) sum += a.at(i, j);
    CHECK(sum == Approx(1.0));
    if (i + 1 < a.cols) CHECK(a.at(i, i + 1) == 0.0f);
  }
}

TEST_CASE("a learned table is not defined beyond its rows", "[train][evaluate]") {
  TrainSettings s = small_settings(PositionEncoding::learned);
  s.steps = 5;
  TrainRun run(s);
  run.train(std::atomic<bool>{false});
  const TrainSnapshot snap = run.snapshot();
  REQUIRE(snap.accuracy.size() == 2);  // n = 5, 10
  CHECK(snap.accuracy[0].exact_match.has_value());
  CHECK_FALSE(snap.accuracy[1].exact_match.has_value());
  CHECK_FALSE(run.attention_maps(6, 0).has_value());
  CHECK(run.attention_maps(5, 0).has_value());
  const peviz::Matrix table = run.learned_table();
  CHECK(table.rows == 13u);  // 2 * train_max + 3
  CHECK(table.cols == 32u);
}
