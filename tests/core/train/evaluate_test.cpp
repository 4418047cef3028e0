// One-pass exact match against a literal greedy decode; attention maps; "not defined" for a learned table.
#include "core/train/evaluate.hpp"

#include <atomic>

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
    int exact = 0;
    for (const auto& seq : seqs) {
      const std::vector<int> answer(seq.begin() + first_answer_target(Task::copy, acc.n) + 1, seq.end());
      exact += greedy_answer(m, seq) == answer ? 1 : 0;
    }
    REQUIRE(acc.exact_match.has_value());
    INFO("n = " << acc.n << ", exact " << exact << " of 40");
    CHECK(*acc.exact_match == double(exact) / 40.0);
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
